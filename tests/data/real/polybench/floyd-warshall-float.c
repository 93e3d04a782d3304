/* floyd-warshall-float.c -- all-pairs shortest paths on float edge weights, the relaxation written
 * twice: with `?:` as in the integer benchmark, and with fminf.
 *
 * Derivation (float, 4 B; k, i, j in [0, n)):
 *   kernel_fw_select: the condition computes path[i][k] + path[k][j] (1 fp32 add); the true branch
 *     is path[i][j] (no FLOP), the false branch adds again (1 fp32 add).  Counting source
 *     operations, an iteration costs 1 or 2 FLOPs depending on the data: W is between n^3 and
 *     2*n^3, and staticroof reports the upper bound 2*n**3 with SR104 (approximate).  A compiler
 *     computes the common sum once, which is what kernel_fw_fminf spells out.
 *   kernel_fw_fminf: 1 fp32 add; fminf counts 0 (like comparisons): W = n**3, exact.
 *   Traffic is that of the integer kernel for both: Q = 8*n**2, Q_access = 12*n**3 + 4*n**2.
 *
 * staticroof:expect kernel_fw_select
 *   exact = false
 *   W     = 2*n**3
 *   fp32  = 2*n**3
 *
 * staticroof:expect kernel_fw_fminf
 *   W        = n**3
 *   fp32     = n**3
 *   Q        = 8*n**2
 *   Q_access = 12*n**3 + 4*n**2
 */

#include <math.h>
#include <stdio.h>
#include <time.h>
#include "polybench_c99.h"

#ifndef N
# define N 400
#endif

static void kernel_fw_select(int n, float POLYBENCH_2D(path, N, N, n, n))
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
}

static void kernel_fw_fminf(int n, float POLYBENCH_2D(path, N, N, n, n))
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                path[i][j] = fminf(path[i][j], path[i][k] + path[k][j]);
}

int main(int argc, char **argv)
{
    int n = N;
    struct timespec t0, t1;

    POLYBENCH_2D_ARRAY_DECL(path, float, N, N, n, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            (*path)[i][j] = i == j ? 0.0f : (float) ((i * 31 + j * 17) % 97 + 1);

    clock_gettime(CLOCK_MONOTONIC, &t0);
    kernel_fw_select(n, POLYBENCH_ARRAY(path));
    kernel_fw_fminf(n, POLYBENCH_ARRAY(path));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.6f s\n", (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));

    polybench_prevent_dce(printf("%f\n", (*path)[0][n - 1]));
    POLYBENCH_FREE_ARRAY(path);
    return 0;
}
