/* gemver.c -- vector multiplication and matrix addition (A := A + u1 v1^T + u2 v2^T,
 * x := x + beta A^T y + z, w := w + alpha A x), in the style of a polyhedral benchmark suite with the
 * C99 array prototypes of polybench_c99.h, the dataset chosen by a size macro.
 *
 * Derivation (double, 8 B; n = N = 400 bound by main, n >= 1):
 *   nest 1, i, j < n: A[i][j] = A[i][j] + u1[i]*v1[j] + u2[i]*v2[j]   -> 2 multiplies + 2 adds: 4
 *   nest 2, i, j < n: x[i] = x[i] + beta*A[j][i]*y[j]                  -> 2 multiplies + 1 add: 3
 *   loop 3, i < n:    x[i] = x[i] + z[i]                               -> 1
 *   nest 4, i, j < n: w[i] = w[i] + alpha*A[i][j]*x[j]                 -> 3
 *   W = 4n^2 + 3n^2 + n + 3n^2 = 10*n**2 + n (fp64: alpha, beta and the data are double).
 *   Q (first accesses): A read n^2 and written n^2 (its later reads are of written elements);
 *     u1, v1, u2, v2, y, z read n each; x: its first access is the read of nest 2 (n), written n;
 *     w read n and written n.  Q = 8*(2n^2 + 6n + 2n + 2n) = 16*n**2 + 80*n.
 *   Q access (every load and store; a reference invariant in its innermost loop once per run of it,
 *   unless the loop writes a double parameter that may alias it, as every loop here does):
 *     nest 1: A load + store, v1[j], v2[j] per (i, j): 4n^2; u1[i], u2[i] per (i, j) (A written): 2n^2;
 *     nest 2: A[j][i], y[j] per (i, j): 2n^2; x[i] loaded and stored per (i, j): 2n^2;
 *     loop 3: x load, z load, x store: 3n;
 *     nest 4: A[i][j], x[j]: 2n^2; w[i] load + store per (i, j): 2n^2.
 *   Q_access = 8*(14n^2 + 3n) = 112*n**2 + 24*n.
 *
 * staticroof:expect kernel_gemver
 *   W        = 10*n**2 + n
 *   Q        = 16*n**2 + 80*n
 *   Q_access = 112*n**2 + 24*n
 *   fp64     = 10*n**2 + n
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
# define MEDIUM_DATASET
#endif
#ifdef MINI_DATASET
# define N 40
#endif
#ifdef SMALL_DATASET
# define N 120
#endif
#ifdef MEDIUM_DATASET
# define N 400
#endif
#ifdef LARGE_DATASET
# define N 2000
#endif

#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE *alpha, DATA_TYPE *beta, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(u1, N, n), DATA_TYPE POLYBENCH_1D(v1, N, n),
                       DATA_TYPE POLYBENCH_1D(u2, N, n), DATA_TYPE POLYBENCH_1D(v2, N, n),
                       DATA_TYPE POLYBENCH_1D(w, N, n), DATA_TYPE POLYBENCH_1D(x, N, n),
                       DATA_TYPE POLYBENCH_1D(y, N, n), DATA_TYPE POLYBENCH_1D(z, N, n))
{
    int i, j;
    DATA_TYPE fn = (DATA_TYPE) n;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++) {
        u1[i] = i;
        u2[i] = ((i + 1) / fn) / 2.0;
        v1[i] = ((i + 1) / fn) / 4.0;
        v2[i] = ((i + 1) / fn) / 6.0;
        y[i] = ((i + 1) / fn) / 8.0;
        z[i] = ((i + 1) / fn) / 9.0;
        x[i] = 0.0;
        w[i] = 0.0;
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE) (i * j % n) / n;
    }
}

static void print_array(int n, DATA_TYPE POLYBENCH_1D(w, N, n))
{
    int i;

    fprintf(stderr, "begin dump: %s", "w");
    for (i = 0; i < n; i++) {
        if (i % 20 == 0)
            fprintf(stderr, "\n");
        fprintf(stderr, DATA_PRINTF_MODIFIER, w[i]);
    }
    fprintf(stderr, "\nend   dump: %s\n", "w");
}

static void kernel_gemver(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                          DATA_TYPE POLYBENCH_1D(u1, N, n), DATA_TYPE POLYBENCH_1D(v1, N, n),
                          DATA_TYPE POLYBENCH_1D(u2, N, n), DATA_TYPE POLYBENCH_1D(v2, N, n),
                          DATA_TYPE POLYBENCH_1D(w, N, n), DATA_TYPE POLYBENCH_1D(x, N, n),
                          DATA_TYPE POLYBENCH_1D(y, N, n), DATA_TYPE POLYBENCH_1D(z, N, n))
{
    int i, j;

#pragma scop
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x[i] = x[i] + beta * A[j][i] * y[j];

    for (i = 0; i < n; i++)
        x[i] = x[i] + z[i];

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    DATA_TYPE alpha;
    DATA_TYPE beta;

    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
    POLYBENCH_1D_ARRAY_DECL(u1, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(v1, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(u2, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(v2, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(w, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(z, DATA_TYPE, N, n);

    init_array(n, &alpha, &beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(u1), POLYBENCH_ARRAY(v1),
               POLYBENCH_ARRAY(u2), POLYBENCH_ARRAY(v2), POLYBENCH_ARRAY(w), POLYBENCH_ARRAY(x),
               POLYBENCH_ARRAY(y), POLYBENCH_ARRAY(z));

    kernel_gemver(n, alpha, beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(u1), POLYBENCH_ARRAY(v1),
                  POLYBENCH_ARRAY(u2), POLYBENCH_ARRAY(v2), POLYBENCH_ARRAY(w), POLYBENCH_ARRAY(x),
                  POLYBENCH_ARRAY(y), POLYBENCH_ARRAY(z));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(w)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(u1);
    POLYBENCH_FREE_ARRAY(v1);
    POLYBENCH_FREE_ARRAY(u2);
    POLYBENCH_FREE_ARRAY(v2);
    POLYBENCH_FREE_ARRAY(w);
    POLYBENCH_FREE_ARRAY(x);
    POLYBENCH_FREE_ARRAY(y);
    POLYBENCH_FREE_ARRAY(z);
    return 0;
}
