/* floyd_warshall.c -- all-pairs shortest paths over int edge weights (PolyBench-like), with a driver
 * that fills a random graph and times the kernel.
 *
 * Derivation (int, 4 B):
 *   W: integer additions and comparisons only -> 0 FLOPs.
 *   Q: path read whole at k = 0 and every element written (the ?: assigns at every (k, i, j))
 *      -> 4n^2 + 4n^2 = 8n^2.
 *
 * staticroof:expect kernel_floyd_warshall
 *   W    = 0
 *   Q    = 8*n**2
 */
#include "bench30.h"

static void kernel_floyd_warshall(int n, int path[n][n])
{
    int i, j, k;

    for (k = 0; k < n; k++)
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
}

int main(void)
{
    int (*path)[N] = xmalloc(sizeof(int[N][N]));
    srand(42);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            path[i][j] = i == j ? 0 : 1 + rand() % 100;
    struct bench_timer t;
    timer_start(&t, "floyd-warshall");
    kernel_floyd_warshall(N, path);
    timer_stop(&t);
    printf("%d\n", path[0][N - 1]);
    free(path);
    return 0;
}
