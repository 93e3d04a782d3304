/* 3d-27pt.c -- 27-point box sweep of an m x n x n grid, the sum written out as in the example.
 * W = 27 (m-2)(n-2)^2 (26 adds and one multiply per point); a is read whole. */
void stencil_3d_27pt(int m, int n, double s, double a[m][n][n], double b[m][n][n])
{
    for (int k = 1; k < m - 1; ++k)
        for (int j = 1; j < n - 1; ++j)
            for (int i = 1; i < n - 1; ++i)
                b[k][j][i] = (a[k][j][i]
                              + a[k][j][i - 1] + a[k][j][i + 1] + a[k][j - 1][i] + a[k][j + 1][i]
                              + a[k - 1][j][i] + a[k + 1][j][i]
                              + a[k][j - 1][i - 1] + a[k][j - 1][i + 1] + a[k][j + 1][i - 1] + a[k][j + 1][i + 1]
                              + a[k - 1][j][i - 1] + a[k - 1][j][i + 1] + a[k + 1][j][i - 1] + a[k + 1][j][i + 1]
                              + a[k - 1][j - 1][i] + a[k - 1][j + 1][i] + a[k + 1][j - 1][i] + a[k + 1][j + 1][i]
                              + a[k - 1][j - 1][i - 1] + a[k - 1][j - 1][i + 1]
                              + a[k - 1][j + 1][i - 1] + a[k - 1][j + 1][i + 1]
                              + a[k + 1][j - 1][i - 1] + a[k + 1][j - 1][i + 1]
                              + a[k + 1][j + 1][i - 1] + a[k + 1][j + 1][i + 1]) * s;
}
