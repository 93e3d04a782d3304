/* Member functions of a C++ class as kernels: the object's std::vector members are DRAM arrays,
 * its int members sizes named after them, its double member a one-element array (the object is in
 * memory: a member read once is 8 B).
 *
 * Grid::scale(a), in the class: u_[i] *= a for i < n_: W = n_ fp64; u_ read and written:
 *   Q = Q_access = 16 n_.
 * Grid::damp(), in the class: u_[i] = u_[i] * decay_: W = n_; u_ read and written, decay_ read
 *   (loop-invariant: one load): Q = Q_access = 16 n_ + 8.
 * Grid::dot() const, outside the class: s += u_[i] * v_[i] for i < n_: W = 2 n_ fp64,
 *   Q = Q_access = 16 n_.
 * Grid::axpy_rows(a), outside: for i < m_ it calls this->row_axpy(i, a), which does
 *   v_[i*n_ + j] += a * u_[i*n_ + j] for j < n_: W = 2 m_ n_ fp64; u_ read, v_ read and written:
 *   Q = Q_access = 24 m_ n_.  unused_ is no size of any of them.
 */
#include <vector>

class Grid {
public:
    Grid(int m, int n) : n_(n), m_(m), unused_(0), decay_(0.5), u_(m * n), v_(m * n) {}

    void scale(double a)
    {
        for (int i = 0; i < n_; ++i)
            this->u_[i] *= a;
    }
    void damp()
    {
        for (int i = 0; i < n_; ++i)
            u_[i] = u_[i] * decay_;
    }
    double dot() const;
    void axpy_rows(double a);

private:
    void row_axpy(int i, double a)
    {
        for (int j = 0; j < n_; ++j)
            v_[i * n_ + j] += a * u_[i * n_ + j];
    }

    int n_, m_, unused_;
    double decay_;
    std::vector<double> u_, v_;
};

double Grid::dot() const
{
    double s = 0.0;
    for (int i = 0; i < n_; ++i)
        s += u_[i] * v_[i];
    return s;
}

void Grid::axpy_rows(double a)
{
    for (int i = 0; i < m_; ++i)
        this->row_axpy(i, a);
}
