/* gesummv.c -- scalar, vector and matrix multiplication y := alpha A x + beta B x, in the style of a
 * polyhedral benchmark suite (C99 array prototypes; the accumulations written as `a*b + c`).
 *
 * Derivation (double, 8 B; n = N = 250 bound by main, n >= 1):
 *   i < n: tmp[i] = 0; y[i] = 0                                   (no FLOPs)
 *          j < n: tmp[i] = A[i][j] * x[j] + tmp[i]                -> 2 (a multiply-add)
 *                 y[i] = B[i][j] * x[j] + y[i]                    -> 2
 *          y[i] = alpha * tmp[i] + beta * y[i]                    -> 3
 *   W = 4*n**2 + 3*n (fp64).
 *   Q: A and B read n^2 each; x read n; tmp and y are written (the zero stores) before they are read:
 *      n each.  Q = 8*(2n^2 + 3n) = 16*n**2 + 24*n.
 *   Q access, per i: the two zero stores (2); in the j-loop tmp[i] and y[i] are invariant but may
 *      alias A, B and x (double parameters; the loop writes them): a load and a store each per j
 *      (4n), and A, x, B, x load per j (x[j] sits in two statements: two references): 4n; the last
 *      statement loads tmp and y and stores y (3).  Q_access = 8*n*(8n + 5) = 64*n**2 + 40*n.
 *
 * staticroof:expect kernel_gesummv
 *   W        = 4*n**2 + 3*n
 *   Q        = 16*n**2 + 24*n
 *   Q_access = 64*n**2 + 40*n
 *   fp64     = 4*n**2 + 3*n
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef N
# define N 250
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE *alpha, DATA_TYPE *beta, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(B, N, N, n, n), DATA_TYPE POLYBENCH_1D(x, N, n))
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++) {
        x[i] = (DATA_TYPE) (i % n) / n;
        for (j = 0; j < n; j++) {
            A[i][j] = (DATA_TYPE) ((i * j + 1) % n) / n;
            B[i][j] = (DATA_TYPE) ((i * j + 2) % n) / n;
        }
    }
}

static void print_array(int n, DATA_TYPE POLYBENCH_1D(y, N, n))
{
    int i;

    fprintf(stderr, "begin dump: %s", "y");
    for (i = 0; i < n; i++) {
        if (i % 20 == 0)
            fprintf(stderr, "\n");
        fprintf(stderr, DATA_PRINTF_MODIFIER, y[i]);
    }
    fprintf(stderr, "\nend   dump: %s\n", "y");
}

static void kernel_gesummv(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                           DATA_TYPE POLYBENCH_2D(B, N, N, n, n), DATA_TYPE POLYBENCH_1D(tmp, N, n),
                           DATA_TYPE POLYBENCH_1D(x, N, n), DATA_TYPE POLYBENCH_1D(y, N, n))
{
    int i, j;

#pragma scop
    for (i = 0; i < n; i++) {
        tmp[i] = SCALAR_VAL(0.0);
        y[i] = SCALAR_VAL(0.0);
        for (j = 0; j < n; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    DATA_TYPE alpha;
    DATA_TYPE beta;

    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);
    POLYBENCH_1D_ARRAY_DECL(tmp, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

    init_array(n, &alpha, &beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(x));

    kernel_gesummv(n, alpha, beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(tmp),
                   POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(y)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    POLYBENCH_FREE_ARRAY(tmp);
    POLYBENCH_FREE_ARRAY(x);
    POLYBENCH_FREE_ARRAY(y);
    return 0;
}
