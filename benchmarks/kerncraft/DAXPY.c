/* DAXPY.c -- a = a + s*b.  W = 2n; Q = 24n. */
void daxpy(int n, double s, double *restrict a, const double *restrict b)
{
    for (int i = 0; i < n; ++i)
        a[i] = a[i] + s * b[i];
}
