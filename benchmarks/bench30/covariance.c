/* covariance.c -- covariance matrix of m variables over n observations (PolyBench-like).
 *
 * Derivation (double; float_n a double parameter; the pairs j >= i number m(m+1)/2):
 *   W: means: n adds and a divide per column -> mn + m; centering: one subtract per element -> mn;
 *      each pair: n products at 2 FLOPs, float_n - 1.0 and the divide -> 2n + 2.
 *      W = 2mn + m + m(m+1)(n+1).
 *   Q: data read and written -> 16nm; mean first written -> 8m; cov written whole (the upper
 *      triangle, and the lower by the mirror store) -> 8m^2.
 *
 * staticroof:expect kernel_covariance
 *   W    = 2*m*n + m + m*(m + 1)*(n + 1)
 *   Q    = 16*m*n + 8*m + 8*m**2
 */
void kernel_covariance(int m, int n, double float_n, double data[n][m], double cov[m][m], double mean[m])
{
    int i, j, k;

    for (j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (i = 0; i < n; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i][j] -= mean[j];
    for (i = 0; i < m; i++)
        for (j = i; j < m; j++) {
            cov[i][j] = 0.0;
            for (k = 0; k < n; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (float_n - 1.0);
            cov[j][i] = cov[i][j];
        }
}
