/* uxx-stencil.c -- the velocity update of a staggered-grid seismic code (the example's uxx). */
void uxx_stencil(int m, int n, double c1, double c2, double dth, double u1[m][n][n], double d1[m][n][n],
                 double xx[m][n][n], double xy[m][n][n], double xz[m][n][n])
{
    for (int k = 2; k < m - 2; k++)
        for (int j = 2; j < n - 2; j++)
            for (int i = 2; i < n - 2; i++) {
                double d = 0.25 * (d1[k][j][i] + d1[k][j - 1][i] + d1[k - 1][j][i] + d1[k - 1][j - 1][i]);
                u1[k][j][i] = u1[k][j][i] + (dth / d)
                    * (c1 * (xx[k][j][i] - xx[k][j][i - 1]) + c2 * (xx[k][j][i + 1] - xx[k][j][i - 2])
                       + c1 * (xy[k][j + 1][i] - xy[k][j - 1][i]) + c2 * (xy[k][j + 1][i] - xy[k][j - 2][i])
                       + c1 * (xz[k][j][i] - xz[k - 1][j][i]) + c2 * (xz[k + 1][j][i] - xz[k - 2][j][i]));
            }
}
