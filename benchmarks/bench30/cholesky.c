/* cholesky.c -- in-place Cholesky factorization of the lower triangle (PolyBench-like).
 *
 * Derivation (double):
 *   W: off-diagonal (i, j < i): j products at 2 FLOPs and one divide -> sum_i i^2 = (n-1)n(2n-1)/6;
 *      diagonal: i squares subtracted at 2 FLOPs -> n(n-1); one sqrt per row (special, weight 1) -> n.
 *   Q: the lower triangle with the diagonal read and written -> 16 * n(n+1)/2 = 8n^2 + 8n.
 *
 * staticroof:expect kernel_cholesky
 *   W    = (n - 1)*n*(2*n - 1)/6 + n*(n - 1) + n
 *   Q    = 8*n**2 + 8*n
 */
#include <math.h>

void kernel_cholesky(int n, double A[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (int k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrt(A[i][i]);
    }
}
