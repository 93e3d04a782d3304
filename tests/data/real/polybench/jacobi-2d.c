/* jacobi-2d.c -- tsteps double sweeps of a 5-point Jacobi stencil on n x n grids, A -> B then
 * B -> A, in the style of a polyhedral benchmark suite (C99 array prototypes).
 *
 * Derivation (double, 8 B; n = N = 250, tsteps = TSTEPS = 100 bound by main; n >= 3, tsteps >= 1):
 *   each sweep: i, j in 1 .. n-2 ((n-2)^2 points): 4 adds + 1 multiply by 0.2 (a double
 *   constant on double data: fp64) -> 5.  W = tsteps * 2 * 5 * (n-2)^2 = 10*tsteps*(n-2)**2.
 *   Q (first accesses):
 *     A: the first sweep reads the 5-point footprint of the interior: every point but the four
 *        corners, n^2 - 4 reads; the second sweep writes the interior: (n-2)^2 writes.
 *     B: the first sweep writes the interior ((n-2)^2 writes, B's first access there); the second
 *        sweep reads B's footprint: the interior is already written, the border without corners
 *        (n^2 - 4 - (n-2)^2 = 4n - 8 points) is read first.
 *   Q = 8*(n^2 - 4 + 2*(n-2)^2 + 4*n - 8) = 8*(3*n^2 - 4*n - 4) = 24*n**2 - 32*n - 32.
 *
 * staticroof:expect kernel_jacobi_2d
 *   W    = 10*tsteps*(n - 2)**2
 *   Q    = 24*n**2 - 32*n - 32
 *   fp64 = 10*tsteps*(n - 2)**2
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef TSTEPS
# define TSTEPS 100
#endif
#ifndef N
# define N 250
#endif

static void init_array(int n, double POLYBENCH_2D(A, N, N, n, n), double POLYBENCH_2D(B, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            A[i][j] = ((double) i * (j + 2) + 2) / n;
            B[i][j] = ((double) i * (j + 3) + 3) / n;
        }
}

static void kernel_jacobi_2d(int tsteps, int n, double POLYBENCH_2D(A, N, N, n, n),
                             double POLYBENCH_2D(B, N, N, n, n))
{
    int t, i, j;

#pragma scop
    for (t = 0; t < tsteps; t++) {
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    int tsteps = TSTEPS;

    POLYBENCH_2D_ARRAY_DECL(A, double, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(B, double, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    kernel_jacobi_2d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_prevent_dce(printf("%0.2lf\n", (*A)[n / 2][n / 2]));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
