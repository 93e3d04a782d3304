/* Local references in C++ host code.
 *
 * update(n, a, x, y): float &r = y[i]; r += a*x[i]: r is y[i]: W = 2n fp32; x read, y read and
 *   written: Q = Q_access = 12n.
 * rowsum(n, m, a, out): double &o = out[i] (bound once per row); o = 0; o += a[i*m + j] for j < m:
 *   W = n*m fp64 adds; a read (n*m), out written (n): Q = 8(nm + n).
 * accumulate(n, x): double &t = total; t += x[i] (t is the local total): W = n fp64, Q = 8n.
 */

void update(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; ++i) {
        float &r = y[i];
        r += a * x[i];
    }
}

void rowsum(int n, int m, const double *a, double *out)
{
    for (int i = 0; i < n; ++i) {
        double &o = out[i];
        o = 0.0;
        for (int j = 0; j < m; ++j)
            o += a[i * m + j];
    }
}

double accumulate(int n, const double *x)
{
    double total = 0.0;
    double &t = total;
    for (int i = 0; i < n; ++i)
        t += x[i];
    return total;
}
