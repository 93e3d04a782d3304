/* vector_sum.c -- s += a[i].  W = n; Q = 8n. */
double vector_sum(int n, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += a[i];
    return s;
}
