/* matvec_trans.c -- c[i] += a[j][i] * b[i], row j outer.  W = 2mn. */
void matvec_trans(int m, int n, double a[m][n], const double b[n], double c[n])
{
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < n; ++i)
            c[i] += a[j][i] * b[i];
}
