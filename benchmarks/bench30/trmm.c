/* trmm.c -- triangular matrix multiply B = alpha * A^T * B, A unit lower triangular (PolyBench order).
 *
 * Derivation (double; A m x m, B m x n):
 *   W: for each (i, j) the k loop runs m-1-i times at 2 FLOPs, then one multiply by alpha:
 *      sum_i 2n(m-1-i) + mn = n*m(m-1) + mn = m^2 n.
 *   Q: B read whole (B[i][j] of row m-1 is first read by the scaling) and written whole -> 16mn;
 *      A: the strictly lower triangle A[k][i], k > i, read -> 8 * m(m-1)/2 = 4m^2 - 4m.
 *
 * staticroof:expect kernel_trmm
 *   W    = m**2*n
 *   Q    = 16*m*n + 4*m**2 - 4*m
 */
void kernel_trmm(int m, int n, double alpha, double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = i + 1; k < m; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}
