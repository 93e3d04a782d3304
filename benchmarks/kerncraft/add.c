/* add.c -- STREAM add, a = b + c.  W = n; Q = 24n. */
void stream_add(int n, double *restrict a, const double *restrict b, const double *restrict c)
{
    for (int i = 0; i < n; ++i)
        a[i] = b[i] + c[i];
}
