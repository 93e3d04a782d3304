/* Function templates in C++ host code: one result per instantiation the file makes.
 *
 * axpby<T>(n, a, x, b, y): y[i] = a*x[i] + b*y[i] for i < n: 2 multiplies + 1 add = 3 per i.
 *   Instantiated on float (explicit `axpby<float>(...)` in run) and on double (deduced in run from
 *   `double *xd`): two results.  Q = x read + y read + y written = 3n elements; Q_access: 2 loads and
 *   1 store per i, the same 3n.
 *   axpby<float>:  W = 3n fp32, Q = Q_access = 12n.      axpby<double>: W = 3n fp64, Q = Q_access = 24n.
 * scal<T>(n, a, x): x[i] = a*x[i]: 1 per i; instantiated only by the explicit instantiation below:
 *   scal<double>: W = n fp64, Q = Q_access = 16n.
 * diff<T>(n, x): x[i] = x[i+1] - x[i] for i < n-1; never instantiated: T assumed float (SR114),
 *   approximate; W = n - 1 (fp32 under the assumption).
 */

template <typename T>
void axpby(int n, T a, const T *x, T b, T *y)
{
    for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + b * y[i];
}

template <typename T>
void scal(int n, T a, T *x)
{
    for (int i = 0; i < n; ++i)
        x[i] = a * x[i];
}

template void scal<double>(int n, double a, double *x);

template <typename T>
void diff(int n, T *x)
{
    for (int i = 0; i + 1 < n; ++i)
        x[i] = x[i + 1] - x[i];
}

void run(int n, float *xf, float *yf, double *xd, double *yd)
{
    axpby<float>(n, 2.0f, xf, 1.0f, yf);
    axpby(n, 2.0, xd, 0.5, yd);
}
