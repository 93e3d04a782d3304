/* dger.c -- rank-1 update A += alpha * x * y^T (C99 array parameter).
 *
 * Derivation (double):
 *   W: alpha*x[i]*y[j] two multiplies, += one add -> 3mn.
 *   Q: A read and written m*n each -> 16mn; x read m, y read n -> 16mn + 8m + 8n.
 *
 * staticroof:expect dger
 *   W    = 3*m*n
 *   Q    = 16*m*n + 8*m + 8*n
 */
void dger(int m, int n, double alpha, const double x[m], const double y[n], double A[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            A[i][j] += alpha * x[i] * y[j];
}
