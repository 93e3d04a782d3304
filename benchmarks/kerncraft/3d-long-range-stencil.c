/* 3d-long-range-stencil.c -- a 25-point star (radius 4) wave-equation update, U = 2V - U + ROC*lap. */
void long_range_stencil(int m, int n, double c0, double c1, double c2, double c3, double c4,
                        double U[m][n][n], double V[m][n][n], double ROC[m][n][n])
{
    for (int k = 4; k < m - 4; k++)
        for (int j = 4; j < n - 4; j++)
            for (int i = 4; i < n - 4; i++) {
                double lap = c0 * V[k][j][i]
                    + c1 * (V[k][j][i + 1] + V[k][j][i - 1]) + c1 * (V[k][j + 1][i] + V[k][j - 1][i])
                    + c1 * (V[k + 1][j][i] + V[k - 1][j][i])
                    + c2 * (V[k][j][i + 2] + V[k][j][i - 2]) + c2 * (V[k][j + 2][i] + V[k][j - 2][i])
                    + c2 * (V[k + 2][j][i] + V[k - 2][j][i])
                    + c3 * (V[k][j][i + 3] + V[k][j][i - 3]) + c3 * (V[k][j + 3][i] + V[k][j - 3][i])
                    + c3 * (V[k + 3][j][i] + V[k - 3][j][i])
                    + c4 * (V[k][j][i + 4] + V[k][j][i - 4]) + c4 * (V[k][j + 4][i] + V[k][j - 4][i])
                    + c4 * (V[k + 4][j][i] + V[k - 4][j][i]);
                U[k][j][i] = 2.0 * V[k][j][i] - U[k][j][i] + ROC[k][j][i] * lap;
            }
}
