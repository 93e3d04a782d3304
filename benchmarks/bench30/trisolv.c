/* trisolv.c -- forward substitution L x = b, L lower triangular (PolyBench-like).
 *
 * Derivation (double):
 *   W: x[i] -= L[i][j] * x[j] for j < i is 2 per pair -> n(n-1); one divide per row -> n.  W = n^2.
 *   Q: L's lower triangle with the diagonal read -> 8 * n(n+1)/2; x first written (x[i] = b[i]) -> 8n;
 *      b read -> 8n.  Q = 4n^2 + 20n.
 *
 * staticroof:expect kernel_trisolv
 *   W    = n**2
 *   Q    = 4*n**2 + 20*n
 */
void kernel_trisolv(int n, double L[n][n], double x[n], double b[n])
{
    for (int i = 0; i < n; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
}
