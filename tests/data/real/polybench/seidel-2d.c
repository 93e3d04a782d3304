/* seidel-2d.c -- tsteps in-place Gauss-Seidel sweeps of a 9-point stencil on an n x n grid, in the
 * style of a polyhedral benchmark suite (C99 array prototypes, the inclusive `<= n - 2` bounds of
 * the suite's stencils).
 *
 * Derivation (double, 8 B; n = N = 400, tsteps = TSTEPS = 100 bound by main; n >= 3, tsteps >= 1):
 *   t < tsteps; i, j in 1 .. n-2: A[i][j] = (sum of the 9 neighbours, A[i][j] included) / 9.0
 *     -> 8 adds + 1 divide = 9 per point.  W = 9*tsteps*(n - 2)**2 (fp64).
 *   Q: in place, the 9-point footprint of the interior is the whole grid, corners included, and every
 *      element is read before it is written (A[i][j] is read by its own statement, and earlier as a
 *      neighbour): n^2 reads; the interior is written: (n-2)^2.  Q = 8*n**2 + 8*(n - 2)**2.
 *   Q access: all nine references vary with j (9 loads) and one store per point:
 *      Q_access = 80*tsteps*(n - 2)**2.
 *
 * staticroof:expect kernel_seidel_2d
 *   W        = 9*tsteps*(n - 2)**2
 *   Q        = 8*n**2 + 8*(n - 2)**2
 *   Q_access = 80*tsteps*(n - 2)**2
 *   fp64     = 9*tsteps*(n - 2)**2
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef TSTEPS
# define TSTEPS 100
#endif
#ifndef N
# define N 400
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = ((DATA_TYPE) i * (j + 2) + 2) / n;
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "A");
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            if ((i * n + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, A[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "A");
}

static void kernel_seidel_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int t, i, j;

#pragma scop
    for (t = 0; t <= tsteps - 1; t++)
        for (i = 1; i <= n - 2; i++)
            for (j = 1; j <= n - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / SCALAR_VAL(9.0);
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    int tsteps = TSTEPS;

    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A));

    kernel_seidel_2d(tsteps, n, POLYBENCH_ARRAY(A));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(A)));

    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
