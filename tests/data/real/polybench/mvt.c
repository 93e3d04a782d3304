/* mvt.c -- matrix-vector product and transposed matrix-vector product (x1 := x1 + A y_1,
 * x2 := x2 + A^T y_2), in the style of a polyhedral benchmark suite (C99 array prototypes).
 *
 * Derivation (double, 8 B; n = N = 400 bound by main, n >= 1):
 *   nest 1, i, j < n: x1[i] = x1[i] + A[i][j] * y_1[j]   -> 2 per (i, j)
 *   nest 2, i, j < n: x2[i] = x2[i] + A[j][i] * y_2[j]   -> 2 per (i, j)
 *   W = 4*n**2 (fp64).
 *   Q: A read n^2 (nest 2 reads the same elements column-wise); x1 and x2 read n and written n each;
 *      y_1, y_2 read n each.  Q = 8*(n^2 + 4n + 2n) = 8*n**2 + 48*n.
 *   Q access: per (i, j) A and y (2 loads) in each nest: 4n^2; x1[i] and x2[i] are invariant in their
 *      j-loops but may alias A and y (double parameters): a load and a store per (i, j): 4n^2.
 *      Q_access = 64*n**2.
 *
 * staticroof:expect kernel_mvt
 *   W        = 4*n**2
 *   Q        = 8*n**2 + 48*n
 *   Q_access = 64*n**2
 *   fp64     = 4*n**2
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef N
# define N 400
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE POLYBENCH_1D(x1, N, n), DATA_TYPE POLYBENCH_1D(x2, N, n),
                       DATA_TYPE POLYBENCH_1D(y_1, N, n), DATA_TYPE POLYBENCH_1D(y_2, N, n),
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++) {
        x1[i] = (DATA_TYPE) (i % n) / n;
        x2[i] = (DATA_TYPE) ((i + 1) % n) / n;
        y_1[i] = (DATA_TYPE) ((i + 3) % n) / n;
        y_2[i] = (DATA_TYPE) ((i + 4) % n) / n;
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE) (i * j % n) / n;
    }
}

static void print_array(int n, DATA_TYPE POLYBENCH_1D(x1, N, n), DATA_TYPE POLYBENCH_1D(x2, N, n))
{
    int i;

    fprintf(stderr, "begin dump: %s", "x1");
    for (i = 0; i < n; i++) {
        if (i % 20 == 0)
            fprintf(stderr, "\n");
        fprintf(stderr, DATA_PRINTF_MODIFIER, x1[i]);
    }
    fprintf(stderr, "\nend   dump: %s\n", "x1");
    fprintf(stderr, "begin dump: %s", "x2");
    for (i = 0; i < n; i++) {
        if (i % 20 == 0)
            fprintf(stderr, "\n");
        fprintf(stderr, DATA_PRINTF_MODIFIER, x2[i]);
    }
    fprintf(stderr, "\nend   dump: %s\n", "x2");
}

static void kernel_mvt(int n, DATA_TYPE POLYBENCH_1D(x1, N, n), DATA_TYPE POLYBENCH_1D(x2, N, n),
                       DATA_TYPE POLYBENCH_1D(y_1, N, n), DATA_TYPE POLYBENCH_1D(y_2, N, n),
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

#pragma scop
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;

    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
    POLYBENCH_1D_ARRAY_DECL(x1, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(x2, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y_1, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y_2, DATA_TYPE, N, n);

    init_array(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2), POLYBENCH_ARRAY(y_1), POLYBENCH_ARRAY(y_2),
               POLYBENCH_ARRAY(A));

    kernel_mvt(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2), POLYBENCH_ARRAY(y_1), POLYBENCH_ARRAY(y_2),
               POLYBENCH_ARRAY(A));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(x1);
    POLYBENCH_FREE_ARRAY(x2);
    POLYBENCH_FREE_ARRAY(y_1);
    POLYBENCH_FREE_ARRAY(y_2);
    return 0;
}
