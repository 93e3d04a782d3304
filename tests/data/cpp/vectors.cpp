/* std::vector, std::array in C++ host code: the arrays they hold.
 *
 * axpy(n, a, x, y), x and y `std::vector<double> &`: y[i] += a*x[i] for i < n: W = 2n fp64;
 *   x read, y read and written: Q = Q_access = 24n.
 * total(v): s += v.at(i) for i < v.size(): the size is the symbol `v.size`: W = v.size fp32,
 *   Q = Q_access = 4*v.size.
 * twice(n, src, dst) through data(): d[i] = 2.0*s[i] for i < n: W = n fp64, Q = Q_access = 16n.
 * ends(n, v): v.front() += v.back() * x[i] for i < n: 2 per i: W = 2n fp32; v's two ends read
 *   (element v.size - 1 and element 0; v.size >= 2) and element 0 written, x read: Q = 4*(n + 3).
 * grow(v, n, x): push_back changes the vector's size: its statement is not counted (SR123, the reason
 *   named), the kernel approximate.
 * stencil3(n, w, x, y), w a `std::array<double, 3>` (an array of 3): y[i] = w0*x[i-1] + w1*x[i] +
 *   w2*x[i+1] for 1 <= i < n-1: 3 multiplies + 2 adds = 5 per i: W = 5(n - 2) fp64.
 *   Q: w's 3 elements, x's n, y's n - 2 written: 8*(3 + n + n - 2) = 16n + 8.  Q_access: w's 3
 *   loads are loop-invariant (once, in registers after), 3 loads of x and 1 store per i:
 *   24 + 32(n - 2) = 32n - 40.
 */
#include <array>
#include <cstddef>
#include <vector>

void axpy(int n, double a, const std::vector<double> &x, std::vector<double> &y)
{
    for (int i = 0; i < n; ++i)
        y[i] += a * x[i];
}

float total(const std::vector<float> &v)
{
    float s = 0.0f;
    for (std::size_t i = 0; i < v.size(); ++i)
        s += v.at(i);
    return s;
}

void twice(int n, const std::vector<double> &src, std::vector<double> &dst)
{
    const double *s = src.data();
    double *d = dst.data();
    for (int i = 0; i < n; ++i)
        d[i] = 2.0 * s[i];
}

void ends(int n, std::vector<float> &v, const float *x)
{
    for (int i = 0; i < n; ++i)
        v.front() += v.back() * x[i];
}

void grow(std::vector<double> &v, int n, const double *x)
{
    for (int i = 0; i < n; ++i)
        v.push_back(2.0 * x[i]);
}

void stencil3(int n, const std::array<double, 3> &w, const double *x, double *y)
{
    for (int i = 1; i < n - 1; ++i)
        y[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1];
}
