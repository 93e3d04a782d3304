/* 3d-7pt.c -- seven-point sweep (without the centre) of an m x n x n grid.
 * W = 6(m-2)(n-2)^2. */
void stencil_3d_7pt(int m, int n, double s, double a[m][n][n], double b[m][n][n])
{
    for (int k = 1; k < m - 1; ++k)
        for (int j = 1; j < n - 1; ++j)
            for (int i = 1; i < n - 1; ++i)
                b[k][j][i] = (a[k][j][i - 1] + a[k][j][i + 1] + a[k][j - 1][i] + a[k][j + 1][i]
                              + a[k - 1][j][i] + a[k + 1][j][i]) * s;
}
