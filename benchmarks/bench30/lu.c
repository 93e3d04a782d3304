/* lu.c -- in-place LU decomposition without pivoting (PolyBench-like).
 *
 * Derivation (double; n >= 2):
 *   W: row i: for j < i, j products at 2 FLOPs and one divide -> i(i-1) + i = i^2; for j >= i,
 *      i products -> 2i(n-i).  Sum over i < n of 2in - i^2 = n(n-1)(4n+1)/6.
 *   Q: every element is read first (row 0 only as A[k][j], A[0][0] as the pivot); rows 1..n-1 are
 *      written, row 0 never (its k loops are empty).  Q = 8n^2 + 8n(n-1) = 16n^2 - 8n.
 *
 * staticroof:expect kernel_lu
 *   W    = n*(n - 1)*(4*n + 1)/6
 *   Q    = 16*n**2 - 8*n
 */
void kernel_lu(int n, double A[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (int j = i; j < n; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}
