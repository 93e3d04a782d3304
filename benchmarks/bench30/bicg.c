/* bicg.c -- the two products of a BiCG step, s = A^T r and q = A p, in one sweep over A (PolyBench-like).
 *
 * Derivation (double; A n x m):
 *   W: 2 per (i, j) for each product -> 4nm.
 *   Q: s and q first written (the zero stores) -> 8m + 8n; A read -> 8nm; r read -> 8n; p read -> 8m.
 *
 * staticroof:expect kernel_bicg
 *   W    = 4*n*m
 *   Q    = 8*n*m + 16*m + 16*n
 */
void kernel_bicg(int m, int n, double A[n][m], double s[m], double q[n], double p[m], double r[n])
{
    for (int i = 0; i < m; i++)
        s[i] = 0;
    for (int i = 0; i < n; i++) {
        q[i] = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}
