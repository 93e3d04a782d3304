/* scale.c -- STREAM scale, a = s*b.  W = n; Q = 16n. */
void stream_scale(int n, double s, double *restrict a, const double *restrict b)
{
    for (int i = 0; i < n; ++i)
        a[i] = s * b[i];
}
