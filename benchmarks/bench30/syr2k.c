/* syr2k.c -- symmetric rank-2k update of the lower triangle, C = alpha*(A*B^T + B*A^T) + beta*C.
 *
 * Derivation (double; C n x n, A and B n x m; the pairs j <= i number n(n+1)/2):
 *   W: C[i][j] *= beta 1 per pair; A[j][k]*alpha*B[i][k] + B[j][k]*alpha*A[i][k] is 4 multiplies
 *      and 1 add, += 1 more -> 6 per (pair, k).  W = n(n+1)/2 + 6*m*n(n+1)/2.
 *   Q: the lower triangle of C read and written -> 8n^2 + 8n; A and B read whole -> 16nm.
 *
 * staticroof:expect kernel_syr2k
 *   W    = n*(n + 1)/2 + 3*m*n*(n + 1)
 *   Q    = 8*n**2 + 8*n + 16*m*n
 */
void kernel_syr2k(int n, int m, double alpha, double beta, double C[n][n], double A[n][m], double B[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
}
