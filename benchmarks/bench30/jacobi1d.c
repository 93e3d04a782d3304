/* jacobi1d.c -- 3-point Jacobi sweeps, A -> B -> A, tsteps times (PolyBench-like).
 *
 * Derivation (double; interior 1 <= i <= n-2, so n-2 points; tsteps >= 1, n >= 3):
 *   W: 0.33333 * (three terms) is 2 adds and 1 multiply, in each of the two sweeps -> 6 tsteps (n-2).
 *   Q: A read whole at the first sweep (n) and its interior written (n-2); B's interior first
 *      written (n-2), its two end points only read (2).  Q = 8(n + (n-2) + (n-2) + 2) = 24n - 16.
 *
 * staticroof:expect kernel_jacobi_1d
 *   W    = 6*tsteps*(n - 2)
 *   Q    = 24*n - 16
 */
void kernel_jacobi_1d(int tsteps, int n, double A[n], double B[n])
{
    for (int t = 0; t < tsteps; t++) {
        for (int i = 1; i < n - 1; i++)
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
        for (int i = 1; i < n - 1; i++)
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
    }
}
