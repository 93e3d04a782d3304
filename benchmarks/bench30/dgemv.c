/* dgemv.c -- y = alpha*A*x + beta*y, A row-major m x n through the IDX2 macro.
 *
 * Derivation (double):
 *   W: the dot product t += A*x is 2 per (i, j) -> 2mn; y[i] = alpha*t + beta*y[i] is 3 per row.
 *      W = 2*m*n + 3*m.
 *   Q: A read m*n, x read n, y read m and written m -> 8mn + 8n + 16m.
 *
 * staticroof:expect dgemv
 *   W    = 2*m*n + 3*m
 *   Q    = 8*m*n + 8*n + 16*m
 */
#include "bench30.h"

void dgemv(int m, int n, real_t alpha, const real_t *A, const real_t *x, real_t beta, real_t *y)
{
    for (int i = 0; i < m; i++) {
        real_t t = 0.0;
        for (int j = 0; j < n; j++)
            t += A[IDX2(i, j, n)] * x[j];
        y[i] = alpha * t + beta * y[i];
    }
}
