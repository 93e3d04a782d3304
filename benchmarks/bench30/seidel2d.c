/* seidel2d.c -- 9-point Gauss-Seidel sweeps in place (PolyBench-like).
 *
 * Derivation (double; interior (n-2)^2 points; tsteps >= 1, n >= 3):
 *   W: 8 adds and 1 divide per point -> 9 tsteps (n-2)^2.
 *   Q: the 9-point stencil reaches every element, the 4 corners too (A[i-1][j-1] at i = j = 1),
 *      each first read -> n^2; the interior is written -> (n-2)^2.
 *      Q = 8n^2 + 8(n-2)^2 = 16n^2 - 32n + 32.
 *
 * staticroof:expect kernel_seidel_2d
 *   W    = 9*tsteps*(n - 2)**2
 *   Q    = 16*n**2 - 32*n + 32
 */
void kernel_seidel_2d(int tsteps, int n, double A[n][n])
{
    for (int t = 0; t <= tsteps - 1; t++)
        for (int i = 1; i <= n - 2; i++)
            for (int j = 1; j <= n - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
}
