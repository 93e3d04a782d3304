/* syrk.c -- symmetric rank-k update of the lower triangle, C = alpha*A*A^T + beta*C (PolyBench order).
 *
 * Derivation (double; C n x n, A n x m; the pairs j <= i number n(n+1)/2):
 *   W: C[i][j] *= beta 1 per pair; C[i][j] += alpha*A[i][k]*A[j][k] 3 per (pair, k).
 *      W = n(n+1)/2 + 3*m*n(n+1)/2.
 *   Q: the lower triangle of C read and written -> 16 * n(n+1)/2 = 8n^2 + 8n; A read whole -> 8nm.
 *
 * staticroof:expect kernel_syrk
 *   W    = n*(n + 1)/2 + 3*m*n*(n + 1)/2
 *   Q    = 8*n**2 + 8*n + 8*m*n
 */
void kernel_syrk(int n, int m, double alpha, double beta, double C[n][n], double A[n][m])
{
    int i, j, k;

    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < m; k++) {
            for (j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
        }
    }
}
