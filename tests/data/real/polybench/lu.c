/* lu.c -- LU decomposition in place (Doolittle, no pivoting), in the style of a polyhedral benchmark
 * suite (C99 array prototypes); the init function builds a positive semi-definite matrix through a
 * temporary n x n array, as the suite does.
 *
 * Derivation (double, 8 B; n = N = 120 bound by main; n >= 2):
 *   i < n: j < i:  k < j: A[i][j] -= A[i][k] * A[k][j]      -> 2 per (i, j, k)
 *                  A[i][j] /= A[j][j]                       -> 1 per (i, j)
 *          j = i .. n-1: k < i: A[i][j] -= A[i][k] * A[k][j] -> 2 per (i, j, k)
 *   Lower part: sum over i of sum_{j<i} (2j + 1) = sum_i i^2 = (n-1)n(2n-1)/6.
 *   Upper part: sum over i of (n-i)*2i = n(n-1)(n+1)/3.
 *   W = n*(n - 1)*(4*n + 1)/6 (fp64).
 *   Q: every update reads its element before writing it.  Written: the strictly lower part (by /=)
 *      and rows 1..n-1 of the upper part (row 0's k-loop has no trips): n^2 - n.  Read: every element
 *      (row 0 is read as A[k][j] with k = 0 for i = 1, A[0][0] as the pivot A[j][j] of i = 1).
 *      Q = 8*(n^2 + n^2 - n) = 16*n**2 - 8*n  (n >= 2; at n = 1 nothing is touched).
 *   Q access: lower part, per (i, j): the k-loop holds A[i][j] in a register when it has trips
 *      (j >= 1: one load + one store), loads A[i][k] and A[k][j] per k (2j); the division loads
 *      A[i][j], A[j][j] and stores A[i][j] (3).  Sum: (n-1)(n-2) + n(n-1)(n-2)/3 + 3n(n-1)/2.
 *      Upper part, per (i >= 1, j >= i): 2 + 2i: sum = n(n-1)(n+4)/3.
 *      Total (n-1)(4n^2 + 19n - 12)/6 accesses: Q_access = 4*(n - 1)*(4*n**2 + 19*n - 12)/3.
 *
 * staticroof:expect kernel_lu
 *   W        = n*(n - 1)*(4*n + 1)/6
 *   Q        = 16*n**2 - 8*n
 *   Q_access = 4*(n - 1)*(4*n**2 + 19*n - 12)/3
 *   fp64     = n*(n - 1)*(4*n + 1)/6
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef N
# define N 120
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j, r, s, t;

    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++)
            A[i][j] = (DATA_TYPE) (-j % n) / n + 1;
        for (j = i + 1; j < n; j++)
            A[i][j] = 0;
        A[i][i] = 1;
    }

    /* make the matrix positive semi-definite: A := B B^T through a heap temporary */
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);
    for (r = 0; r < n; ++r)
        for (s = 0; s < n; ++s)
            (POLYBENCH_ARRAY(B))[r][s] = 0;
    for (t = 0; t < n; ++t)
        for (r = 0; r < n; ++r)
            for (s = 0; s < n; ++s)
                (POLYBENCH_ARRAY(B))[r][s] += A[r][t] * A[s][t];
    for (r = 0; r < n; ++r)
        for (s = 0; s < n; ++s)
            A[r][s] = (POLYBENCH_ARRAY(B))[r][s];
    POLYBENCH_FREE_ARRAY(B);
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

static void kernel_lu(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j, k;

#pragma scop
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (j = i; j < n; j++) {
            for (k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
        }
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;

    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A));

    kernel_lu(n, POLYBENCH_ARRAY(A));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(A)));

    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
