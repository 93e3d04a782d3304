/* cpp_methods.cpp -- C++ host loops as numerical C++ codes write them: a grid class holding its data
 * in std::vector<double> with out-of-class member functions, a free function taking std::vector
 * references, a function template instantiated on double from a member function, and a static helper
 * on raw (__restrict) pointers reached through std::vector::data().  main times a few sweeps with
 * std::chrono.
 *
 * Sizes: the grid's extents are the members nx_ and ny_ (the expectations name them so); the free
 * functions take n.  double is 8 B, every operation fp64.
 *
 * Field2D::jacobi_sweep(): i in 1..nx_-2, j in 1..ny_-2 (rows of ny_ in one vector):
 *   unew_[i*ny_ + j] = 0.25*(four neighbours of u_): 3 adds + 1 multiply = 4 per point.
 *   W = 4*(nx_-2)*(ny_-2).  Q: u_'s 4-point footprint of the interior is every point but the four
 *   corners once nx_, ny_ >= 4 (an interior point is a neighbour of another interior point): nx_*ny_ - 4
 *   reads; unew_ written on the interior: (nx_-2)*(ny_-2).  Q = 8*(nx_*ny_ - 4) + 8*(nx_-2)*(ny_-2).
 *   Q_access: 4 loads + 1 store per point: 40*(nx_-2)*(ny_-2).
 * Field2D::l2norm(): i < nx_, j < ny_: s += u_[i*ny_ + j] * u_[i*ny_ + j] (2; one reference read
 *   once), then std::sqrt(s): 1 special call, counted in W with weight 1.  W = 2*nx_*ny_ + 1,
 *   special = 1.  Q = Q_access = 8*nx_*ny_.
 * axpy(n, a, x, y) with std::vector<double> references: y[i] += a*x[i] for i < n: W = 2*n,
 *   Q = Q_access = 24*n (x read, y read and written).
 * axpby<double>(n, a, x, b, y): y[i] = a*x[i] + b*y[i]: 3 per i.  W = 3*n, Q = Q_access = 24*n.
 *   (Instantiated by Field2D::relax with Real = double.)
 * smooth3(n, in, out): i in 1..n-2: out[i] = 0.25*in[i-1] + 0.5*in[i] + 0.25*in[i+1]: 3 multiplies
 *   + 2 adds = 5.  W = 5*(n-2).  Q: in read 0..n-1 (n), out written 1..n-2: 8*n + 8*(n-2) = 16*n - 16.
 *   Q_access: 3 loads + 1 store per i: 32*(n-2) = 32*n - 64.  (n >= 3)
 *
 * staticroof:expect Field2D::jacobi_sweep
 *   W        = 4*(nx_ - 2)*(ny_ - 2)
 *   Q        = 8*(nx_*ny_ - 4) + 8*(nx_ - 2)*(ny_ - 2)
 *   Q_access = 40*(nx_ - 2)*(ny_ - 2)
 *   fp64     = 4*(nx_ - 2)*(ny_ - 2)
 *
 * staticroof:expect Field2D::l2norm
 *   W        = 2*nx_*ny_ + 1
 *   Q        = 8*nx_*ny_
 *   Q_access = 8*nx_*ny_
 *   fp64     = 2*nx_*ny_ + 1
 *   special  = 1
 *
 * staticroof:expect axpy
 *   W        = 2*n
 *   Q        = 24*n
 *   Q_access = 24*n
 *   fp64     = 2*n
 *
 * staticroof:expect axpby<double>
 *   W        = 3*n
 *   Q        = 24*n
 *   Q_access = 24*n
 *   fp64     = 3*n
 *
 * staticroof:expect smooth3
 *   W        = 5*(n - 2)
 *   Q        = 16*n - 16
 *   Q_access = 32*n - 64
 *   fp64     = 5*(n - 2)
 */

#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

template <typename Real>
void axpby(int n, Real a, const Real *x, Real b, Real *y)
{
    for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + b * y[i];
}

static void smooth3(int n, const double *__restrict in, double *__restrict out)
{
    for (int i = 1; i < n - 1; ++i)
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

void axpy(int n, double a, const std::vector<double> &x, std::vector<double> &y)
{
    for (int i = 0; i < n; ++i)
        y[i] += a * x[i];
}

class Field2D {
public:
    Field2D(int nx, int ny) : nx_(nx), ny_(ny), u_(static_cast<std::size_t>(nx) * ny, 1.0), unew_(u_) {}

    void jacobi_sweep();
    double l2norm() const;
    void relax(double omega);
    void smooth_rows();
    void swap() { u_.swap(unew_); }
    int nx() const { return nx_; }
    int ny() const { return ny_; }

private:
    int nx_, ny_;
    std::vector<double> u_, unew_;
};

void Field2D::jacobi_sweep()
{
    for (int i = 1; i < nx_ - 1; ++i)
        for (int j = 1; j < ny_ - 1; ++j)
            unew_[i * ny_ + j] = 0.25 * (u_[(i - 1) * ny_ + j] + u_[(i + 1) * ny_ + j]
                                         + u_[i * ny_ + j - 1] + u_[i * ny_ + j + 1]);
}

double Field2D::l2norm() const
{
    double s = 0.0;
    for (int i = 0; i < nx_; ++i)
        for (int j = 0; j < ny_; ++j)
            s += u_[i * ny_ + j] * u_[i * ny_ + j];
    return std::sqrt(s);
}

void Field2D::relax(double omega)
{
    axpby<double>(nx_ * ny_, omega, unew_.data(), 1.0 - omega, u_.data());
}

void Field2D::smooth_rows()
{
    for (int i = 0; i < nx_; ++i)
        smooth3(ny_, u_.data() + static_cast<std::size_t>(i) * ny_, unew_.data() + static_cast<std::size_t>(i) * ny_);
}

int main(int argc, char **argv)
{
    const int nx = 512, ny = 768, sweeps = 50;
    Field2D f(nx, ny);
    std::vector<double> x(nx, 0.5), y(nx, 2.0);

    auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < sweeps; ++s) {
        f.jacobi_sweep();
        f.relax(0.8);
    }
    f.smooth_rows();
    f.swap();
    axpy(nx, 0.25, x, y);
    auto t1 = std::chrono::steady_clock::now();

    double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    std::printf("%d sweeps on %d x %d: %.3f ms, |u| = %g, y[0] = %g\n", sweeps, f.nx(), f.ny(), ms, f.l2norm(), y[0]);
    return argc > 42 ? 1 : 0;
}
