/* durbin.c -- Levinson-Durbin recursion for the Yule-Walker equations (Toeplitz system), in the style
 * of a polyhedral benchmark suite (C99 array prototypes): triangular i < k loops, a reversed index
 * k-i-1, scalar recurrences for alpha and beta, and a local work vector z of the compile-time size N.
 *
 * Derivation (double, 8 B; n = N = 400 bound by main; n >= 2):
 *   before the loop: y[0] = -r[0]; beta = 1; alpha = -r[0]           (negations: no FLOPs)
 *   k = 1 .. n-1:
 *     beta = (1 - alpha*alpha) * beta                               -> 3 (the int 1 converts: fp64)
 *     i < k: sum += r[k-i-1] * y[i]                                 -> 2k
 *     alpha = -(r[k] + sum) / beta                                  -> 2
 *     i < k: z[i] = y[i] + alpha * y[k-i-1]                         -> 2k
 *     i < k: y[i] = z[i]; then y[k] = alpha                         (no FLOPs)
 *   W = sum over k of (4k + 5) = 2n(n-1) + 5(n-1) = (n - 1)*(2*n + 5) (fp64).
 *   Q: r: r[k-i-1] covers r[0..n-2], r[k] covers r[1..n-1]: n elements read.  y: y[0] is written first,
 *      and y[k] is written at the end of step k, before any step reads it: n written, none read first.
 *      z is a local array of constant size N: a register/stack array, no DRAM traffic.
 *      Q = 16*n.
 *   Q access: the prologue loads r[0] twice (two statements) and stores y[0]: 3.  Step k: 2k loads in
 *      the dot product, r[k] (1), 2k loads of y in the z update, k stores of y in the copy (z is not
 *      DRAM), the store of y[k]: 5k + 2.  Sum 3 + (n-1)(5n+4)/2.
 *      Q_access = 24 + 4*(n - 1)*(5*n + 4).
 *
 * staticroof:expect kernel_durbin
 *   W        = (n - 1)*(2*n + 5)
 *   Q        = 16*n
 *   Q_access = 24 + 4*(n - 1)*(5*n + 4)
 *   fp64     = (n - 1)*(2*n + 5)
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef N
# define N 400
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE POLYBENCH_1D(r, N, n))
{
    int i;

    for (i = 0; i < n; i++)
        r[i] = (n + 1 - i);
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

static void kernel_durbin(int n, DATA_TYPE POLYBENCH_1D(r, N, n), DATA_TYPE POLYBENCH_1D(y, N, n))
{
    DATA_TYPE z[N];
    DATA_TYPE alpha;
    DATA_TYPE beta;
    DATA_TYPE sum;
    int i, k;

#pragma scop
    y[0] = -r[0];
    beta = SCALAR_VAL(1.0);
    alpha = -r[0];

    for (k = 1; k < n; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = SCALAR_VAL(0.0);
        for (i = 0; i < k; i++) {
            sum += r[k - i - 1] * y[i];
        }
        alpha = -(r[k] + sum) / beta;

        for (i = 0; i < k; i++) {
            z[i] = y[i] + alpha * y[k - i - 1];
        }
        for (i = 0; i < k; i++) {
            y[i] = z[i];
        }
        y[k] = alpha;
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;

    POLYBENCH_1D_ARRAY_DECL(r, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

    init_array(n, POLYBENCH_ARRAY(r));

    kernel_durbin(n, POLYBENCH_ARRAY(r), POLYBENCH_ARRAY(y));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(y)));

    POLYBENCH_FREE_ARRAY(r);
    POLYBENCH_FREE_ARRAY(y);
    return 0;
}
