/* scalar_product.c -- s += a[i]*b[i].  W = 2n; Q = 16n. */
double scalar_product(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}
