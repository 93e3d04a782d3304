/* atax.c -- y = A^T (A x), matrix A of m rows and n columns, in the style of a polyhedral
 * benchmark suite, with the C99 array prototypes of polybench_c99.h (A[m][n]).
 *
 * Derivation (double, 8 B; m = M = 390, n = N = 410 bound by main):
 *   i < n: y[i] = 0                                          (no FLOPs)
 *   i < m: tmp[i] = 0.0;
 *          j < n: tmp[i] = tmp[i] + A[i][j] * x[j]       -> 2 per (i, j)
 *          j < n: y[j] = y[j] + A[i][j] * tmp[i]         -> 2 per (i, j)
 *   W = 4*m*n (fp64).
 *   Q: y: first access is the zero store (n written), later reads are of written elements -> 8n
 *      tmp: first access the store tmp[i] = 0.0 -> written m, 8m
 *      A read m*n, x read n.
 *   Q = 8*m*n + 8*m + 16*n.
 *
 * staticroof:expect kernel_atax
 *   W    = 4*m*n
 *   Q    = 8*m*n + 8*m + 16*n
 *   fp64 = 4*m*n
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef M
# define M 390
#endif
#ifndef N
# define N 410
#endif

static void init_array(int m, int n, double POLYBENCH_2D(A, M, N, m, n), double POLYBENCH_1D(x, N, n))
{
    int i, j;
    double fn = (double) n;

    for (i = 0; i < n; i++)
        x[i] = 1 + (i / fn);
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            A[i][j] = (double) ((i + j) % n) / (5 * m);
}

static void print_array(int n, double POLYBENCH_1D(y, N, n))
{
    int i;

    fprintf(stderr, "begin dump: %s", "y");
    for (i = 0; i < n; i++) {
        if (i % 20 == 0)
            fprintf(stderr, "\n");
        fprintf(stderr, "%0.2lf ", y[i]);
    }
    fprintf(stderr, "\nend   dump: %s\n", "y");
}

static void kernel_atax(int m, int n, double POLYBENCH_2D(A, M, N, m, n), double POLYBENCH_1D(x, N, n),
                        double POLYBENCH_1D(y, N, n), double POLYBENCH_1D(tmp, M, m))
{
    int i, j;

#pragma scop
    for (i = 0; i < n; i++)
        y[i] = 0;
    for (i = 0; i < m; i++) {
        tmp[i] = SCALAR_VAL(0.0);
        for (j = 0; j < n; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < n; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int m = M;
    int n = N;

    POLYBENCH_2D_ARRAY_DECL(A, double, M, N, m, n);
    POLYBENCH_1D_ARRAY_DECL(x, double, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, double, N, n);
    POLYBENCH_1D_ARRAY_DECL(tmp, double, M, m);

    init_array(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(x));

    kernel_atax(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y), POLYBENCH_ARRAY(tmp));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(y)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(x);
    POLYBENCH_FREE_ARRAY(y);
    POLYBENCH_FREE_ARRAY(tmp);
    return 0;
}
