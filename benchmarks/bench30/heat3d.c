/* heat3d.c -- 7-point heat equation in 3-D, A -> B -> A, tsteps times (PolyBench-like).
 *
 * Derivation (double; interior points (n-2)^3; tsteps >= 1, n >= 3):
 *   W per point and sweep: each axis term 0.125 * (a - 2.0*b + c) is 4 FLOPs (2 adds/subs, 2
 *      multiplies), three axes 12, the 2 adds joining them and the final + A[i][j][k] 3 -> 15.
 *      W = 2 * 15 * tsteps (n-2)^3 = 30 tsteps (n-2)^3.
 *   Q: A is read first everywhere the stencil reaches: every point but those with two or more
 *      coordinates on the boundary (12 edges of n-2 points and 8 corners) -> n^3 - 12n + 16; its
 *      interior is written -> (n-2)^3.  B's interior is first written -> (n-2)^3; the 6 faces (without
 *      their edges) are only read -> 6(n-2)^2.
 *      Q = 8(n^3 - 12n + 16) + 16(n-2)^3 + 48(n-2)^2.
 *
 * staticroof:expect kernel_heat_3d
 *   W    = 30*tsteps*(n - 2)**3
 *   Q    = 8*(n**3 - 12*n + 16) + 16*(n - 2)**3 + 48*(n - 2)**2
 */
void kernel_heat_3d(int tsteps, int n, double A[n][n][n], double B[n][n][n])
{
    for (int t = 0; t < tsteps; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                for (int k = 1; k < n - 1; k++)
                    B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                               + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                               + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                               + A[i][j][k];
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                for (int k = 1; k < n - 1; k++)
                    A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                               + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                               + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                               + B[i][j][k];
    }
}
