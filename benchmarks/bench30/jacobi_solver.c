/* jacobi_solver.c -- Jacobi iteration for a dense system A x = b: each sweep solves row i for x[i]
 * with the other unknowns from the previous sweep, then copies the new iterate back.
 *
 * Derivation (double; iters >= 1):
 *   W per sweep: s -= A*x for the n-1 columns j != i -> 2n(n-1); one divide per row -> n.
 *      W = iters * (2n(n-1) + n) = iters * (2n^2 - n).
 *   Q: A read whole (the diagonal by the divide) -> 8n^2; b read -> 8n; x read first, then written
 *      by the copy -> 16n; xnew first written -> 8n.  Q = 8n^2 + 32n.
 *
 * staticroof:expect jacobi_solve
 *   W    = iters*(2*n**2 - n)
 *   Q    = 8*n**2 + 32*n
 */
#include "bench30.h"

void jacobi_solve(int n, int iters, const real_t *A, const real_t *b, real_t *x, real_t *xnew)
{
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < n; i++) {
            real_t s = b[i];
            for (int j = 0; j < n; j++)
                if (j != i)
                    s -= A[IDX2(i, j, n)] * x[j];
            xnew[i] = s / A[IDX2(i, i, n)];
        }
        for (int i = 0; i < n; i++)
            x[i] = xnew[i];
    }
}
