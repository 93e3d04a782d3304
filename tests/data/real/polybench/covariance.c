/* covariance.c -- the covariance matrix of m variables over n observations (column means, centring,
 * then the upper triangle of data^T data mirrored into the lower one), in the style of a polyhedral
 * benchmark suite (C99 array prototypes; float_n is the sample count as a double).
 *
 * Derivation (double, 8 B; m = M = 240, n = N = 260 bound by main; m, n >= 1):
 *   j < m: mean[j] = 0; i < n: mean[j] += data[i][j]; mean[j] /= float_n   -> n + 1 per j
 *   i < n, j < m: data[i][j] -= mean[j]                                    -> 1 per (i, j)
 *   i < m, j = i..m-1 (T = m(m+1)/2 pairs): cov[i][j] = 0;
 *          k < n: cov[i][j] += data[k][i] * data[k][j]                     -> 2n
 *          cov[i][j] /= (float_n - 1.0)                                    -> 2 (float_n is a
 *          parameter: the subtraction is run-time work)
 *          cov[j][i] = cov[i][j]                                           (no FLOPs)
 *   W = m(n + 1) + nm + T(2n + 2) = 2*m*n + m + m*(m + 1)*(n + 1) (fp64).
 *   Q: data read and written (nm each); mean written first (m); cov: the upper triangle and its mirror
 *      cover all m^2 elements, each written before any read.  Q = 16*n*m + 8*m + 8*m**2.
 *   Q access (mean and cov are double parameters that may alias data: an accumulator in them is
 *      loaded and stored on every trip): means: the zero store (m), mean[j] loaded and stored per
 *      (j, i) (2nm), data loads (nm), the division's load and store (2m): 3nm + 3m.  Centring: data
 *      load and store, mean load: 3nm.  Per pair (i, j): the zero store, cov[i][j] loaded and stored
 *      per k (2n), 2n data loads, the division's load and store, the mirror's load and store: 4n + 5.
 *      Total 6nm + 3m + T(4n + 5).  Q_access = 48*n*m + 24*m + 4*m*(m + 1)*(4*n + 5).
 *
 * staticroof:expect kernel_covariance
 *   W        = 2*m*n + m + m*(m + 1)*(n + 1)
 *   Q        = 16*n*m + 8*m + 8*m**2
 *   Q_access = 48*n*m + 24*m + 4*m*(m + 1)*(4*n + 5)
 *   fp64     = 2*m*n + m + m*(m + 1)*(n + 1)
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef M
# define M 240
#endif
#ifndef N
# define N 260
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int m, int n, DATA_TYPE *float_n, DATA_TYPE POLYBENCH_2D(data, N, M, n, m))
{
    int i, j;

    *float_n = (DATA_TYPE) n;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            data[i][j] = ((DATA_TYPE) i * j) / M;
}

static void print_array(int m, DATA_TYPE POLYBENCH_2D(cov, M, M, m, m))
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "cov");
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++) {
            if ((i * m + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, cov[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "cov");
}

static void kernel_covariance(int m, int n, DATA_TYPE float_n, DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                              DATA_TYPE POLYBENCH_2D(cov, M, M, m, m), DATA_TYPE POLYBENCH_1D(mean, M, m))
{
    int i, j, k;

#pragma scop
    for (j = 0; j < m; j++) {
        mean[j] = SCALAR_VAL(0.0);
        for (i = 0; i < n; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }

    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i][j] -= mean[j];

    for (i = 0; i < m; i++)
        for (j = i; j < m; j++) {
            cov[i][j] = SCALAR_VAL(0.0);
            for (k = 0; k < n; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (float_n - SCALAR_VAL(1.0));
            cov[j][i] = cov[i][j];
        }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    int m = M;
    DATA_TYPE float_n;

    POLYBENCH_2D_ARRAY_DECL(data, DATA_TYPE, N, M, n, m);
    POLYBENCH_2D_ARRAY_DECL(cov, DATA_TYPE, M, M, m, m);
    POLYBENCH_1D_ARRAY_DECL(mean, DATA_TYPE, M, m);

    init_array(m, n, &float_n, POLYBENCH_ARRAY(data));

    kernel_covariance(m, n, float_n, POLYBENCH_ARRAY(data), POLYBENCH_ARRAY(cov), POLYBENCH_ARRAY(mean));

    polybench_prevent_dce(print_array(m, POLYBENCH_ARRAY(cov)));

    POLYBENCH_FREE_ARRAY(data);
    POLYBENCH_FREE_ARRAY(cov);
    POLYBENCH_FREE_ARRAY(mean);
    return 0;
}
