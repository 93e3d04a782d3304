/* floyd-warshall.c -- all-pairs shortest paths on an n x n matrix of int path lengths, relaxed
 * through every intermediate vertex k, in the style of a polyhedral benchmark suite (C99 array
 * prototypes, a timer around the kernel in main).  Issue #15 measured this file at 25 s; the time
 * was init_array's guarded store (below), not the shortest-path kernel.
 *
 * Derivation (int, 4 B; n unbound: main's n = N reaches the kernels through a local):
 *   kernel_floyd_warshall, k, i, j in [0, n): the condition and both branches of `?:` are int
 *     (no FLOP), and both branches only re-read elements the condition has read in the same
 *     iteration (identical references within a statement are one access), so the choice costs
 *     the same either way: W = 0, exact (no SR104).  The store is unconditional: C assigns the
 *     selected value every iteration, even when it is path[i][j] itself.
 *   Q compulsory: every element's first access is the read at k = 0 (read before the store of the
 *     same statement): n^2 read; every element is written: n^2 written.  Q = 8*n**2.
 *   Q access: path[i][j] and path[k][j] vary with j: 2*n^3 loads; path[i][k] is invariant in j
 *     (a register holds it): n^2 loads; n^3 stores.  Q_access = 4*(3*n^3 + n^2) = 12*n**3 + 4*n**2.
 *   init_array: the first store writes every element (W = 0, Q = 4*n**2); the second runs where
 *     13, 7 or 11 divides i + j (an affine guard), counted exactly (tests/test_pathological.py checks
 *     the access count against a brute-force count on both sides of 7, 11, 13, 77, 91, 143, 1001).
 *
 * staticroof:expect kernel_floyd_warshall
 *   W        = 0
 *   Q        = 8*n**2
 *   Q_access = 12*n**3 + 4*n**2
 *
 * staticroof:expect init_array
 *   W = 0
 *   Q = 4*n**2
 */

#include <stdio.h>
#include <time.h>
#include "polybench_c99.h"

#ifndef N
# define N 500
#endif
#define DATA_TYPE int
#define DATA_PRINTF_MODIFIER "%d "

static void init_array(int n, DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            path[i][j] = i * j % 7 + 1;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                path[i][j] = 999;
        }
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "path");
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            if ((i * n + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, path[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "path");
}

static void kernel_floyd_warshall(int n, DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
    int i, j, k;

#pragma scop
    for (k = 0; k < n; k++) {
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ?
                    path[i][j] : path[i][k] + path[k][j];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = N;
    struct timespec t0, t1;

    POLYBENCH_2D_ARRAY_DECL(path, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(path));

    clock_gettime(CLOCK_MONOTONIC, &t0);
    kernel_floyd_warshall(n, POLYBENCH_ARRAY(path));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.6f s\n", (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));

    polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(path)));

    POLYBENCH_FREE_ARRAY(path);
    return 0;
}
