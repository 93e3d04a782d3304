/* matvec.c -- the example's loop order: column j outer, c[i] += a[i][j] * b[i].  W = 2mn. */
void matvec(int n, int m, double a[n][m], const double b[n], double c[n])
{
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < n; ++i)
            c[i] += a[i][j] * b[i];
}
