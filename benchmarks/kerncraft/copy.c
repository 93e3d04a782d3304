/* copy.c -- STREAM copy, a = b.  W = 0; Q = 16n. */
void stream_copy(int n, double *restrict a, const double *restrict b)
{
    for (int i = 0; i < n; ++i)
        a[i] = b[i];
}
