/* heat-3d.c -- tsteps double sweeps (A -> B, then B -> A) of the 7-point heat equation on n^3 grids, in
 * the style of a polyhedral benchmark suite (C99 array prototypes; polybench_c99.h has no 3-D macros,
 * so this file adds them, as the suite's header does).
 *
 * Derivation (double, 8 B; n = N = 40, tsteps = TSTEPS = 100 bound by main; n >= 3, tsteps >= 1):
 *   each sweep, i, j, k in 1 .. n-2 ((n-2)^3 points): three terms 0.125*(a - 2.0*c + b) (a multiply
 *   by 2.0, a subtract, an add, a multiply by 0.125: 4 each, 12), three adds joining them and the
 *   centre: 15 per point.  W = tsteps * 2 * 15 * (n-2)^3 = 30*tsteps*(n - 2)**3 (fp64).
 *   Q (first accesses), with F = 6(n-2)^2 the face points (one coordinate on the border, the other
 *   two inside), the 7-point footprint of the interior being the interior plus F:
 *     A: read (n-2)^3 + F by the first sweep, its interior written by the second: (n-2)^3;
 *     B: its interior written by the first sweep, read by the second only after; its F face points
 *        are read first (never written).
 *   Q = 8*(3(n-2)^3 + 2F) = 24*(n - 2)**3 + 96*(n - 2)**2.
 *   Q access: A[i][j][k] appears four times in the statement: one access; with the six neighbours, 7
 *      loads and 1 store per point: Q_access = 8 * 8 * 2*tsteps*(n-2)^3 = 128*tsteps*(n - 2)**3.
 *
 * staticroof:expect kernel_heat_3d
 *   W        = 30*tsteps*(n - 2)**3
 *   Q        = 24*(n - 2)**3 + 96*(n - 2)**2
 *   Q_access = 128*tsteps*(n - 2)**3
 *   fp64     = 30*tsteps*(n - 2)**3
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef POLYBENCH_3D
# define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[ddim1][ddim2][ddim3]
# define POLYBENCH_3D_ARRAY_DECL(var, type, dim1, dim2, dim3, ddim1, ddim2, ddim3) \
    type (*var)[dim1][dim2][dim3] = \
        (type (*)[dim1][dim2][dim3]) polybench_alloc_data((dim1) * (dim2) * (dim3), sizeof(type))
#endif

#ifndef TSTEPS
# define TSTEPS 100
#endif
#ifndef N
# define N 40
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n), DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
    int i, j, k;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++)
                A[i][j][k] = B[i][j][k] = (DATA_TYPE) (i + j + (n - k)) * 10 / (n);
}

static void print_array(int n, DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n))
{
    int i, j, k;

    fprintf(stderr, "begin dump: %s", "A");
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++) {
                if ((i * n * n + j * n + k) % 20 == 0)
                    fprintf(stderr, "\n");
                fprintf(stderr, DATA_PRINTF_MODIFIER, A[i][j][k]);
            }
    fprintf(stderr, "\nend   dump: %s\n", "A");
}

static void kernel_heat_3d(int tsteps, int n, DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                           DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
    int t, i, j, k;

#pragma scop
    for (t = 1; t <= tsteps; t++) {
        for (i = 1; i < n - 1; i++) {
            for (j = 1; j < n - 1; j++) {
                for (k = 1; k < n - 1; k++) {
                    B[i][j][k] = SCALAR_VAL(0.125) * (A[i + 1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i - 1][j][k])
                               + SCALAR_VAL(0.125) * (A[i][j + 1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j - 1][k])
                               + SCALAR_VAL(0.125) * (A[i][j][k + 1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k - 1])
                               + A[i][j][k];
                }
            }
        }
        for (i = 1; i < n - 1; i++) {
            for (j = 1; j < n - 1; j++) {
                for (k = 1; k < n - 1; k++) {
                    A[i][j][k] = SCALAR_VAL(0.125) * (B[i + 1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i - 1][j][k])
                               + SCALAR_VAL(0.125) * (B[i][j + 1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j - 1][k])
                               + SCALAR_VAL(0.125) * (B[i][j][k + 1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k - 1])
                               + B[i][j][k];
                }
            }
        }
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    int tsteps = TSTEPS;

    POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, N, N, N, n, n, n);
    POLYBENCH_3D_ARRAY_DECL(B, DATA_TYPE, N, N, N, n, n, n);

    init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    kernel_heat_3d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(A)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
