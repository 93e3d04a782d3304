"""Issue #28 §2: numerical C++ host code (`.cpp .cc .cxx .hpp`): function templates per
instantiation, `std::vector`/`std::array` parameters and members, member functions of classes as
kernels, local references.  The files are tests/data/cpp/*.cpp; each header comment derives the
counts by hand.  The trace has no C++ executor, so each kernel's static counts are compared with
the trace of the same loop written as C (same array and size names)."""

from __future__ import annotations

import shutil

import pytest

from helpers import ROOT, analyze_file, analyze_source, trace_agrees

DATA = ROOT / "tests" / "data" / "cpp"
SIZES = (37, 1000)  # no constant in these loops but the 1-element offsets of stencil3 and diff


def _cpp(name: str, sizes: dict, folder=None, suffix: str = ".cpp"):
    path = DATA / name
    if folder is not None:  # the same file under another C++ suffix
        path = shutil.copy(path, folder / (path.stem + suffix))
    return analyze_file(path, {k: str(v) for k, v in sizes.items()})[0]


def _codes(k) -> set:
    return {d.code for d in k.diagnostics}


def _counts(k) -> tuple:
    t = k.total
    return t.flops.value, t.compulsory.value, t.access.value


# ---------------------------------------------------------------------------------------------
# Function templates

AXPBY_C = """void axpby_f(int n, float a, const float *x, float b, float *y)
{ for (int i = 0; i < n; ++i) y[i] = a * x[i] + b * y[i]; }
void axpby_d(int n, double a, const double *x, double b, double *y)
{ for (int i = 0; i < n; ++i) y[i] = a * x[i] + b * y[i]; }
"""


@pytest.mark.parametrize("n", SIZES)
def test_template_instantiated_on_float_and_double(tmp_path, n):
    # axpby<float> (explicit) and axpby<double> (deduced from `double *xd`): two results; 3 FLOP per i,
    # x read, y read and written: W = 3n, Q = Q_access = 3n elements (4 B, then 8 B)
    got = _cpp("templates.cpp", {"n": n})
    assert "axpby" not in got  # never the template under a placeholder type
    f, d = got["axpby<float>"], got["axpby<double>"]
    assert f.exact and d.exact and not f.failed and not d.failed
    assert f.total.by_precision["fp32"].value == 3 * n and "fp64" not in f.total.by_precision
    assert d.total.by_precision["fp64"].value == 3 * n and "fp32" not in d.total.by_precision
    assert _counts(f) == (3 * n, 12 * n, 12 * n)
    assert _counts(d) == (3 * n, 24 * n, 24 * n)
    # an explicit instantiation alone instantiates: scal<double>, x[i] = a*x[i]: W = n, Q = 16n
    assert _counts(got["scal<double>"]) == (n, 16 * n, 16 * n) and got["scal<double>"].exact
    path = tmp_path / "axpby.c"
    path.write_text(AXPBY_C)
    trace_agrees(path, "axpby_f", {"n": n}, f)
    trace_agrees(path, "axpby_d", {"n": n}, d)


@pytest.mark.parametrize("n", SIZES)
def test_uninstantiated_template_is_approximate_and_names_its_guess(n):
    # diff<T> is never instantiated: T assumed float, said in SR114, approximate; x[i+1] - x[i] for
    # i < n - 1: W = n - 1 (fp32 under the guess)
    k = _cpp("templates.cpp", {"n": n})["diff"]
    assert not k.exact and not k.failed
    sr114 = [d.message for d in k.diagnostics if d.code == "SR114"]
    assert sr114 and "`T`" in sr114[0] and "assuming float" in sr114[0]
    assert k.total.by_precision["fp32"].value == n - 1


EXPLICIT_CPP = """template <typename T> T sq(T v) { return v * v; }
template <typename T> void apply(int n, const float *x, T *y) { for (int i = 0; i < n; ++i) y[i] = sq<T>(x[i]); }
void k(int n, const float *x, double *y) { for (int i = 0; i < n; ++i) y[i] = sq<double>(x[i]); }
void k2(int n, const float *x, float *y) { for (int i = 0; i < n; ++i) y[i] = sq(x[i]); }
void run(int n, const float *x, double *y) { apply<double>(n, x, y); }
"""


@pytest.mark.parametrize("n", SIZES)
def test_explicit_template_arguments_of_an_inlined_call_decide(tmp_path, n):
    # sq<double>(x[i]) with float x: v*v in double, not deduced float: W = n fp64, Q = 4n + 8n = 12n;
    # sq<T> inside apply<double> is sq<double> too; sq(x[i]) deduces float: W = n fp32, Q = 8n
    got = analyze_source(EXPLICIT_CPP, tmp_path, {"n": str(n)}, name="explicit.cpp")
    for name in ("k", "apply<double>"):
        k = got[name]
        assert k.exact and k.total.by_precision["fp64"].value == n and "fp32" not in k.total.by_precision, name
        assert _counts(k) == (n, 12 * n, 12 * n)
    assert got["k2"].total.by_precision["fp32"].value == n and _counts(got["k2"]) == (n, 8 * n, 8 * n)


def test_overloaded_function_template(tmp_path):
    # a name defined twice is lowered once, as its last definition: a plain function is exact (x[i] *=
    # 2.0, W = n fp64, Q = 16n); a template is lowered with T assumed float, approximate (SR114)
    template = "template <typename T> void sc(int n, T a, T *x) { for (int i = 0; i < n; ++i) x[i] *= a; }\n"
    plain = "void sc(int n, double *x) { for (int i = 0; i < n; ++i) x[i] *= 2.0; }\n"
    k = analyze_source(template + plain, tmp_path, {"n": "37"}, name="ov1.cpp")["sc"]
    assert k.exact and _counts(k) == (37, 16 * 37, 16 * 37)
    k = analyze_source(plain + template, tmp_path, {"n": "37"}, name="ov2.cpp")["sc"]
    assert not k.exact and "SR114" in _codes(k)


# ---------------------------------------------------------------------------------------------
# std::vector and std::array

VECTORS_C = """void axpy(int n, double a, const double *x, double *y) { for (int i = 0; i < n; ++i) y[i] += a * x[i]; }
void twice(int n, const double *src, double *dst) { for (int i = 0; i < n; ++i) dst[i] = 2.0 * src[i]; }
void stencil3(int n, const double *w, const double *x, double *y)
{ for (int i = 1; i < n - 1; ++i) y[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1]; }
"""


@pytest.mark.parametrize("suffix", [".cpp", ".cc", ".cxx", ".hpp"])
@pytest.mark.parametrize("n", SIZES)
def test_vector_parameters(tmp_path, n, suffix):
    # every C++ suffix is read the same way
    got = _cpp("vectors.cpp", {"n": n, "v.size": 10}, tmp_path, suffix)
    # axpy: `const std::vector<double> &x`: y[i] += a*x[i]: W = 2n fp64, Q = Q_access = 24n
    assert got["axpy"].exact and got["axpy"].language == "cpp"
    assert _counts(got["axpy"]) == (2 * n, 24 * n, 24 * n)
    assert got["axpy"].total.by_precision["fp64"].value == 2 * n
    # twice, through data(): d[i] = 2.0*s[i]: W = n, Q = Q_access = 16n
    assert _counts(got["twice"]) == (n, 16 * n, 16 * n) and got["twice"].exact
    # ends: v.front() += v.back() * x[i]: W = 2n fp32; x's n, v's 2 read and 1 written (v.size = 10):
    # Q = 4(n + 3);
    # v's accesses are loop-invariant, but v's floats may alias x's (both float parameters, the loop
    # writes v): front loaded and stored, back loaded, every trip: Q_access = 4n + 3*4n = 16n
    assert _counts(got["ends"]) == (2 * n, 4 * n + 12, 16 * n) and got["ends"].exact
    # stencil3 with `const std::array<double, 3> &w`: W = 5(n - 2); Q = 8(3 + n + n - 2) = 16n + 8;
    # Q_access: w's 3 loads are invariant in i, but w's doubles may alias y's (the loop writes y):
    # reloaded every i; with x's 3 loads and y's store, 7 per i: 56(n - 2)
    assert _counts(got["stencil3"]) == (5 * (n - 2), 16 * n + 8, 56 * (n - 2)) and got["stencil3"].exact
    if suffix == ".cpp":
        path = tmp_path / "vectors.c"
        path.write_text(VECTORS_C)
        for name in ("axpy", "twice", "stencil3"):
            trace_agrees(path, name, {"n": n}, got[name])


@pytest.mark.parametrize("size", SIZES)
def test_vector_size_is_a_named_size(size):
    # total: s += v.at(i) for i < v.size(): the size is the symbol `v.size` (-D v.size=...):
    # W = v.size fp32, Q = Q_access = 4*v.size
    k = _cpp("vectors.cpp", {"v.size": size})["total"]
    assert k.exact and "v.size" in k.sizes
    assert _counts(k) == (size, 4 * size, 4 * size)


RANGES_CPP = """#include <span>
#include <vector>
double sum(const std::vector<double> &x) { double s = 0.0; for (double v : x) s += v; return s; }
void twice(std::vector<float> &x) { for (float &v : x) v *= 2.0f; }
struct G { std::vector<double> u_; void half() { for (auto &u : u_) u = 0.5 * u; } };
void mat(int n, int m, std::vector<std::vector<double>> &a)
{ for (int i = 0; i < n; ++i) for (int j = 0; j < m; ++j) a[i][j] *= 2.0; }
void sp(std::span<const float> x, std::span<float> y) { for (size_t i = 0; i < x.size(); ++i) y[i] = 2.0f * x[i]; }
void rowsq(int n, std::vector<double> &out, const std::vector<std::vector<double>> &rows)
{ for (int i = 0; i < n; ++i) { const auto &r = rows[i]; double s = 0; for (double v : r) s += v * v; out[i] = s; } }
"""


@pytest.mark.parametrize("n", SIZES)
def test_range_for_nested_vectors_and_spans(tmp_path, n):
    got = analyze_source(RANGES_CPP, tmp_path, {"x.size": str(n), "u_.size": str(n), "n": str(n), "m": "5"},
                         name="ranges.cpp")
    # a range-for over a vector runs x.size times: sum, W = x.size, Q = 8 x.size; twice (a reference
    # element, read and written): W = x.size fp32, Q = 8 x.size; over a member: W = u_.size, Q = 16 u_.size
    assert _counts(got["sum"]) == (n, 8 * n, 8 * n) and got["sum"].exact
    assert _counts(got["twice"]) == (n, 8 * n, 8 * n) and got["twice"].exact
    assert _counts(got["G::half"]) == (n, 16 * n, 16 * n) and got["G::half"].exact
    # vector<vector<double>> (`>>`): a[i][j] *= 2 for i < n, j < m: W = 5n, Q = 16 * 5n
    assert _counts(got["mat"]) == (5 * n, 80 * n, 80 * n) and got["mat"].exact
    # spans, with size_t from <span>: y[i] = 2x[i] for i < x.size(): W = x.size, Q = 8 x.size
    assert _counts(got["sp"]) == (n, 8 * n, 8 * n) and got["sp"].exact
    # a range-for over one row of a vector<vector<double>>: each row has its own size, not rows.size:
    # an unknown trip count, approximate
    assert not got["rowsq"].exact and "rows.size" not in got["rowsq"].sizes


LOCALS_CPP = """#include <span>
#include <vector>
void cp(int n, const std::vector<double> &x, double *y)
{ std::vector<double> t = x; for (int i = 0; i < n; ++i) y[i] = t[i] * 3.0; }
void view(int n, std::vector<float> &v) { std::span<float> s(v); for (int i = 0; i < n; ++i) s[i] *= 2.0f; }
"""


def test_local_vector_is_new_storage_and_a_span_a_view(tmp_path):
    got = analyze_source(LOCALS_CPP, tmp_path, {"n": "37"}, name="locals.cpp")
    # `std::vector<double> t = x;` copies: t is storage of its own (not x), its copy uncounted: SR123
    cp = got["cp"]
    assert not cp.exact and "SR123" in _codes(cp) and "t" in cp.total.arrays and "x" not in cp.total.arrays
    # a span views v: s[i] *= 2 is v's elements: W = n fp32, Q = 8n, exact
    assert got["view"].exact and _counts(got["view"]) == (37, 8 * 37, 8 * 37) and "v" in got["view"].total.arrays


def test_vector_push_back_is_named_and_approximate():
    k = _cpp("vectors.cpp", {"n": 37})["grow"]
    assert not k.exact
    assert any("push_back" in d.message for d in k.diagnostics)


# ---------------------------------------------------------------------------------------------
# Member functions

MEMBERS_C = """void scale(int n_, double a, double *u_) { for (int i = 0; i < n_; ++i) u_[i] *= a; }
void damp(int n_, double *u_, const double *restrict decay_) { for (int i = 0; i < n_; ++i) u_[i] = u_[i] * decay_[0]; }
double dot(int n_, const double *u_, const double *v_)
{ double s = 0.0; for (int i = 0; i < n_; ++i) s += u_[i] * v_[i]; return s; }
void axpy_rows(int m_, int n_, double a, const double *u_, double *v_)
{ for (int i = 0; i < m_; ++i) for (int j = 0; j < n_; ++j) v_[i * n_ + j] += a * u_[i * n_ + j]; }
"""


@pytest.mark.parametrize("n", SIZES)
def test_member_functions_over_vector_members(tmp_path, n):
    m = 5
    got = _cpp("members.cpp", {"n_": n, "m_": m})
    # in the class: scale, u_[i] *= a: W = n_, Q = 16 n_; damp, u_[i] * decay_ (the member in memory,
    # loop-invariant: read once): W = n_, Q = Q_access = 16 n_ + 8
    assert got["Grid::scale"].exact and _counts(got["Grid::scale"]) == (n, 16 * n, 16 * n)
    assert got["Grid::damp"].exact and _counts(got["Grid::damp"]) == (n, 16 * n + 8, 16 * n + 8)
    # outside the class: dot, s += u_[i]*v_[i]: W = 2 n_, Q = 16 n_; its sizes are the members it uses
    dot = got["Grid::dot"]
    assert dot.exact and _counts(dot) == (2 * n, 16 * n, 16 * n)
    assert set(dot.sizes) == {"n_"}
    # axpy_rows calls this->row_axpy(i, a) per row (inlined on the same object): W = 2 m_ n_,
    # Q = Q_access = 24 m_ n_
    rows = got["Grid::axpy_rows"]
    assert rows.exact and _counts(rows) == (2 * m * n, 24 * m * n, 24 * m * n)
    assert rows.total.by_precision["fp64"].value == 2 * m * n
    assert not any(name.startswith("__sr") for name in got)
    path = tmp_path / "members.c"
    path.write_text(MEMBERS_C)
    trace_agrees(path, "scale", {"n_": n}, got["Grid::scale"])
    trace_agrees(path, "damp", {"n_": n}, got["Grid::damp"])
    trace_agrees(path, "dot", {"n_": n}, dot)
    trace_agrees(path, "axpy_rows", {"n_": n, "m_": m}, rows)


ACC_CPP = """#include <vector>
template <class T> T vsum(const std::vector<T> &v, int n) { T s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }
struct Acc {
    double sum_;
    int n_;
    std::vector<double> u_;
    void add() { for (int i = 0; i < n_; ++i) sum_ += u_[i]; }
    double total(const std::vector<double> &x) { return vsum(x, n_); }
};
"""
ACC_C = """void add(int n_, double *restrict sum_, const double *u_) { for (int i = 0; i < n_; ++i) sum_[0] += u_[i]; }
"""


@pytest.mark.parametrize("n", SIZES)
def test_member_accumulator_and_a_template_deduced_in_a_member(tmp_path, n):
    # Acc::add: sum_ += u_[i]: W = n_ fp64; u_ read, sum_ read and written once (loop-invariant, kept
    # in a register between): Q = Q_access = 8 n_ + 16
    got = analyze_source(ACC_CPP, tmp_path, {"n_": str(n), "n": str(n)}, name="acc.cpp")
    add = got["Acc::add"]
    assert add.exact and _counts(add) == (n, 8 * n + 16, 8 * n + 16)
    # vsum's T deduced from Acc::total's `const std::vector<double> &x`: vsum<double>, W = n fp64, Q = 8n
    assert _counts(got["vsum<double>"]) == (n, 8 * n, 8 * n) and got["vsum<double>"].exact
    path = tmp_path / "acc.c"
    path.write_text(ACC_C)
    trace_agrees(path, "add", {"n_": n}, add)


def test_integer_member_stored_to_is_memory_not_a_size(tmp_path):
    # set() assigns n_ and loops to it: n_ is then the object's memory (4 B written), its value
    # unknown: the loop's trip count is not a size, approximate (never the size n_ while n_ changes)
    src = """#include <vector>
struct C { int n_; std::vector<double> u_;
  void set(int m) { n_ = m; for (int i = 0; i < n_; ++i) u_[i] = 0.0; }
  void zero() { for (int i = 0; i < n_; ++i) u_[i] = 0.0; } };
"""
    got = analyze_source(src, tmp_path, {"n_": "37"}, name="c.cpp")
    assert not got["C::set"].exact and "n_" in got["C::set"].total.arrays
    # zero() only reads n_: a size, exact: W = 0, Q = 8 n_
    assert got["C::zero"].exact and _counts(got["C::zero"]) == (0, 8 * 37, 8 * 37)


GRID_CPP = """#include <vector>
template <typename T, int B>
class Grid {
public:
    void scale(T a) { for (int i = 0; i < n_ * B; ++i) u_[i] *= a; }
    T sum() const;
private:
    int n_;
    std::vector<T> u_;
};
template <typename T, int B>
T Grid<T, B>::sum() const { T s = 0; for (int i = 0; i < n_; ++i) s += u_[i]; return s; }
int main() { Grid<double, 2> g; Grid<float, 4> h; g.scale(2.0); h.scale(2.0f); return 0; }
"""


@pytest.mark.parametrize("n", SIZES)
def test_class_template_member_functions_per_instantiation(tmp_path, n):
    # main spells Grid<double, 2> and Grid<float, 4>: each member function once per instantiation.
    # scale: u_[i] *= a for i < n_*B: W = B n_, Q = 2 * B n_ elements; sum: s += u_[i], W = n_, Q = n_
    got = analyze_source(GRID_CPP, tmp_path, {"n_": str(n)}, name="grid.cpp")
    assert "Grid::scale" not in got and "Grid::sum" not in got
    d, f = got["Grid<double, 2>::scale"], got["Grid<float, 4>::scale"]
    assert d.exact and d.total.by_precision["fp64"].value == 2 * n and _counts(d)[1:] == (32 * n, 32 * n)
    assert f.exact and f.total.by_precision["fp32"].value == 4 * n and _counts(f)[1:] == (32 * n, 32 * n)
    assert _counts(got["Grid<double, 2>::sum"]) == (n, 8 * n, 8 * n)
    assert _counts(got["Grid<float, 4>::sum"]) == (n, 4 * n, 4 * n)
    assert got["Grid<float, 4>::sum"].total.by_precision["fp32"].value == n


def test_class_template_member_function_is_approximate(tmp_path):
    # the file never instantiates the class template: its T is assumed float, SR114
    src = """#include <vector>
template <typename T>
struct Buf {
    int n;
    std::vector<T> a;
    void twice() { for (int i = 0; i < n; ++i) a[i] = a[i] * 2; }
};
"""
    k = analyze_source(src, tmp_path, {"n": "37"}, name="buf.cpp")["Buf::twice"]
    assert not k.exact and "SR114" in _codes(k)
    assert k.total.by_precision["fp32"].value == 37


# ---------------------------------------------------------------------------------------------
# Local references

REFS_C = """void update(int n, float a, const float *x, float *y) { for (int i = 0; i < n; ++i) y[i] += a * x[i]; }
void rowsum(int n, int m, const double *a, double *out)
{ for (int i = 0; i < n; ++i) { out[i] = 0.0; for (int j = 0; j < m; ++j) out[i] += a[i * m + j]; } }
double accumulate(int n, const double *x)
{ double total = 0.0; for (int i = 0; i < n; ++i) total += x[i]; return total; }
"""


@pytest.mark.parametrize("n", SIZES)
def test_local_references(tmp_path, n):
    m = 5
    got = _cpp("refs.cpp", {"n": n, "m": m})
    # float &r = y[i]; r += a*x[i]: W = 2n fp32, Q = Q_access = 12n
    assert got["update"].exact and _counts(got["update"]) == (2 * n, 12 * n, 12 * n)
    # double &o = out[i]: W = n*m, Q = 8(nm + n); Q_access as C's out[i]: 0 stored (8n), then
    # accumulated in memory, as `out` may alias `a` (both double, no restrict): a load and a store
    # per (i, j), 16nm; a's 8nm: 24nm + 8n
    assert got["rowsum"].exact and _counts(got["rowsum"]) == (n * m, 8 * (n * m + n), 24 * n * m + 8 * n)
    # double &t = total: t is the local: W = n, Q = 8n
    assert got["accumulate"].exact and _counts(got["accumulate"]) == (n, 8 * n, 8 * n)
    path = tmp_path / "refs.c"
    path.write_text(REFS_C)
    trace_agrees(path, "update", {"n": n}, got["update"])
    trace_agrees(path, "rowsum", {"n": n, "m": m}, got["rowsum"])
    trace_agrees(path, "accumulate", {"n": n}, got["accumulate"])


def test_reference_to_a_call_result_is_named_and_approximate(tmp_path):
    # a reference bound to a call's result: its statement is not counted (SR123, the reference named),
    # the kernel approximate; the file's other kernel is unaffected
    src = """void bad(int n, float *y) { for (int i = 0; i < n; ++i) { float &r = pick(y, i); r += 1.0f; } }
void good(int n, float *y) { for (int i = 0; i < n; ++i) y[i] += 1.0f; }
"""
    got = analyze_source(src, tmp_path, {"n": "37"}, name="refs.cpp")
    assert not got["bad"].exact and any("reference `r`" in d.message for d in got["bad"].diagnostics)
    assert got["good"].exact and got["good"].total.flops.value == 37


def test_unknown_type_is_named_and_approximate(tmp_path):
    # `my_real_t` is declared nowhere: an opaque 4-byte scalar, which must make the result
    # approximate (SR141) in C++ as in CUDA; it was reported exact with W = 0
    src = "void f(int n, const my_real_t *x, my_real_t *y) { for (int i = 0; i < n; ++i) y[i] = x[i] * 2; }\n"
    k = analyze_source(src, tmp_path, {"n": "37"}, name="opaque.cpp")["f"]
    assert not k.exact and "SR141" in _codes(k)
