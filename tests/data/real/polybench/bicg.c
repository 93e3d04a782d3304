/* bicg.c -- the BiCG sub-kernel: s = A^T r and q = A p in one sweep over A (n rows, m columns),
 * in the style of a polyhedral benchmark suite (C99 array prototypes).
 *
 * Derivation (double, 8 B; m = M = 410, n = N = 390 bound by main):
 *   i < m: s[i] = 0                                     (no FLOPs)
 *   i < n: q[i] = 0.0;
 *          j < m: s[j] = s[j] + r[i] * A[i][j]        -> 2
 *                 q[i] = q[i] + A[i][j] * p[j]        -> 2
 *   W = 4*n*m (fp64).
 *   Q: s written m (zeroed first), q written n (zeroed first), r read n, p read m, A read n*m.
 *   Q = 8*n*m + 16*m + 16*n.
 *
 * staticroof:expect kernel_bicg
 *   W    = 4*n*m
 *   Q    = 8*n*m + 16*m + 16*n
 *   fp64 = 4*n*m
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef M
# define M 410
#endif
#ifndef N
# define N 390
#endif

static void init_array(int m, int n, double POLYBENCH_2D(A, N, M, n, m), double POLYBENCH_1D(r, N, n),
                       double POLYBENCH_1D(p, M, m))
{
    int i, j;

    for (i = 0; i < m; i++)
        p[i] = (double) (i % m) / m;
    for (i = 0; i < n; i++) {
        r[i] = (double) (i % n) / n;
        for (j = 0; j < m; j++)
            A[i][j] = (double) (i * (j + 1) % n) / n;
    }
}

static void kernel_bicg(int m, int n, double POLYBENCH_2D(A, N, M, n, m), double POLYBENCH_1D(s, M, m),
                        double POLYBENCH_1D(q, N, n), double POLYBENCH_1D(p, M, m),
                        double POLYBENCH_1D(r, N, n))
{
    int i, j;

#pragma scop
    for (i = 0; i < m; i++)
        s[i] = 0;
    for (i = 0; i < n; i++) {
        q[i] = SCALAR_VAL(0.0);
        for (j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    int m = M;

    POLYBENCH_2D_ARRAY_DECL(A, double, N, M, n, m);
    POLYBENCH_1D_ARRAY_DECL(s, double, M, m);
    POLYBENCH_1D_ARRAY_DECL(q, double, N, n);
    POLYBENCH_1D_ARRAY_DECL(p, double, M, m);
    POLYBENCH_1D_ARRAY_DECL(r, double, N, n);

    init_array(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(r), POLYBENCH_ARRAY(p));

    kernel_bicg(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(s), POLYBENCH_ARRAY(q), POLYBENCH_ARRAY(p),
                POLYBENCH_ARRAY(r));

    polybench_prevent_dce(printf("%f %f\n", (*s)[0], (*q)[0]));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(s);
    POLYBENCH_FREE_ARRAY(q);
    POLYBENCH_FREE_ARRAY(p);
    POLYBENCH_FREE_ARRAY(r);
    return 0;
}
