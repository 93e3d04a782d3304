/* atax.c -- y = A^T (A x) with the temporary A x in tmp, A row-major through IDX2.
 *
 * Derivation (double; A m x n):
 *   W: tmp[i] += A*x and y[j] += A*tmp[i] are 2 each per (i, j) -> 4mn.
 *   Q: y and tmp first written (the zero stores) -> 8n + 8m; A read -> 8mn; x read -> 8n.
 *
 * staticroof:expect atax
 *   W    = 4*m*n
 *   Q    = 8*m*n + 8*m + 16*n
 */
#include "bench30.h"

void atax(int m, int n, const real_t *A, const real_t *x, real_t *y, real_t *tmp)
{
    for (int j = 0; j < n; j++)
        y[j] = 0.0;
    for (int i = 0; i < m; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < n; j++)
            tmp[i] += A[IDX2(i, j, n)] * x[j];
        for (int j = 0; j < n; j++)
            y[j] += A[IDX2(i, j, n)] * tmp[i];
    }
}
