/* syrk.c -- symmetric rank-k update C := alpha A A^T + beta C on the lower triangle of C (n x n),
 * A of n rows and m columns, in the style of a polyhedral benchmark suite (C99 array prototypes;
 * the triangular j <= i loops of the BLAS-like kernels).
 *
 * Derivation (double, 8 B; n = N = 240, m = M = 200 bound by main; n, m >= 1).  Let
 * T = n(n+1)/2, the number of (i, j) with j <= i < n:
 *   i < n: j <= i: C[i][j] *= beta                                  -> 1 per (i, j): T
 *          k < m: j <= i: C[i][j] += alpha * A[i][k] * A[j][k]      -> 3 per (i, k, j): 3mT
 *   W = T*(3m + 1) = n*(n + 1)*(3*m + 1)/2 (fp64).
 *   Q: C's lower triangle read and written (T each); A: A[i][k] covers every row, every column
 *      (n*m elements; A[j][k] with j <= i adds nothing new).  Q = 16T + 8nm = 8*n*(n + 1) + 8*n*m.
 *   Q access: the scaling loop loads and stores C: 2T; in the j-loop of the update C[i][j] and A[j][k]
 *      vary with j (C load + store, A load: 3 per (i, k, j): 3mT) and A[i][k] is invariant, but the
 *      loop writes C, a double parameter that may alias A: loaded every trip too (mT).
 *      Q_access = 8*(2T + 4mT) = 8*n*(n + 1) + 16*m*n*(n + 1).
 *
 * staticroof:expect kernel_syrk
 *   W        = n*(n + 1)*(3*m + 1)/2
 *   Q        = 8*n*(n + 1) + 8*n*m
 *   Q_access = 8*n*(n + 1) + 16*m*n*(n + 1)
 *   fp64     = n*(n + 1)*(3*m + 1)/2
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef M
# define M 200
#endif
#ifndef N
# define N 240
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, int m, DATA_TYPE *alpha, DATA_TYPE *beta, DATA_TYPE POLYBENCH_2D(C, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(A, N, M, n, m))
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            A[i][j] = (DATA_TYPE) ((i * j + 1) % n) / n;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            C[i][j] = (DATA_TYPE) ((i * j + 2) % m) / m;
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(C, N, N, n, n))
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "C");
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            if ((i * n + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, C[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "C");
}

/* BLAS parameters: TRANS = 'N', UPLO = 'L'; A is n x m, C is n x n. */
static void kernel_syrk(int n, int m, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE POLYBENCH_2D(C, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(A, N, M, n, m))
{
    int i, j, k;

#pragma scop
    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < m; k++) {
            for (j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
        }
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    int m = M;
    DATA_TYPE alpha;
    DATA_TYPE beta;

    POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, M, n, m);

    init_array(n, m, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A));

    kernel_syrk(n, m, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(C)));

    POLYBENCH_FREE_ARRAY(C);
    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
