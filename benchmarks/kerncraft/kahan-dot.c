/* kahan-dot.c -- compensated dot product (Kahan summation).  W = 5n; Q = 16n. */
double kahan_dot(int n, const double *a, const double *b)
{
    double sum = 0.0, c = 0.0;
    for (int i = 0; i < n; ++i) {
        double prod = a[i] * b[i];
        double y = prod - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}
