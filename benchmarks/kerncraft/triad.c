/* triad.c -- a = b + c*d.  W = 2n; Q = 32n. */
void triad(int n, double *restrict a, const double *restrict b, const double *restrict c, const double *restrict d)
{
    for (int i = 0; i < n; ++i)
        a[i] = b[i] + c[i] * d[i];
}
