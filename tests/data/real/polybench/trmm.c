/* trmm.c -- triangular matrix multiply B := alpha A^T B with A unit lower triangular (m x m) and B of
 * m rows and n columns, in the style of a polyhedral benchmark suite (C99 array prototypes).
 *
 * Derivation (double, 8 B; m = M = 200, n = N = 240 bound by main; m, n >= 1):
 *   i < m, j < n: k = i+1 .. m-1: B[i][j] += A[k][i] * B[k][j]      -> 2 per (i, j, k)
 *                 B[i][j] = alpha * B[i][j]                         -> 1 per (i, j)
 *   The k-loop runs m-1-i times: sum over i of (m-1-i) = m(m-1)/2 per j.
 *   W = 2*n*m(m-1)/2 + m*n = m**2*n (fp64).
 *   Q: B: every element's first access is a read (B[k][j], k > i, is read at i = 0 before row k is
 *      updated at i = k; row 0 is read by its own update): m*n read, m*n written.  A: only the strictly
 *      lower triangle A[k][i], k > i, is read: m(m-1)/2.  Q = 16*m*n + 4*m*(m - 1).
 *   Q access: in the k-loop B[i][j] is invariant, but B may alias A (double parameters) and the loop
 *      writes B: one load and one store per (i, j, k), n*m(m-1); A[k][i] and B[k][j] load per
 *      (i, j, k): n*m(m-1); the scaling statement loads and stores B[i][j]: 2mn.
 *      Q_access = 8*(2n*m(m-1) + 2mn) = 16*m**2*n.
 *
 * staticroof:expect kernel_trmm
 *   W        = m**2*n
 *   Q        = 16*m*n + 4*m*(m - 1)
 *   Q_access = 16*m**2*n
 *   fp64     = m**2*n
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

static void init_array(int m, int n, DATA_TYPE *alpha, DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j;

    *alpha = 1.5;
    for (i = 0; i < m; i++) {
        for (j = 0; j < i; j++)
            A[i][j] = (DATA_TYPE) ((i + j) % m) / m;
        A[i][i] = 1.0;
        for (j = 0; j < n; j++)
            B[i][j] = (DATA_TYPE) ((n + (i - j)) % n) / n;
    }
}

static void print_array(int m, int n, DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "B");
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            if ((i * m + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, B[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "B");
}

/* BLAS parameters: SIDE = 'L', UPLO = 'L', TRANSA = 'T', DIAG = 'U'. */
static void kernel_trmm(int m, int n, DATA_TYPE alpha, DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j, k;

#pragma scop
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            for (k = i + 1; k < m; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
#pragma endscop
}

int main(int argc, char **argv)
{
    int m = M;
    int n = N;
    DATA_TYPE alpha;

    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, m, m);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, m, n);

    init_array(m, n, &alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    kernel_trmm(m, n, alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_prevent_dce(print_array(m, n, POLYBENCH_ARRAY(B)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
