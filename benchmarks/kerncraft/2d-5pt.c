/* 2d-5pt.c -- five-point Jacobi sweep of an m x n grid (the centre is not used).
 * W = 4(m-2)(n-2); Q = 8(mn - 4) (a: every element but the corners) + 8(m-2)(n-2) (b). */
void stencil_2d_5pt(int m, int n, double s, double a[m][n], double b[m][n])
{
    for (int j = 1; j < m - 1; ++j)
        for (int i = 1; i < n - 1; ++i)
            b[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;
}
