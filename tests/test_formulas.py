"""How counts become formulas: floor-free forms only when proven, ceilings, compile-time folding."""

from __future__ import annotations

from fractions import Fraction

import sympy

from staticroof.analysis.result import _ceilings, drop_floors

from helpers import S, analyze_source, same


def test_floors_dropped_only_when_equal_on_every_residue_class():
    c, r = sympy.symbols("c r")
    a, b = sympy.floor(c / 32), sympy.floor(c / 32 + sympy.Rational(31, 32))
    f = sympy.floor(r / 8 + sympy.Rational(7, 8))
    # the count of a (row, col) tile grid guarded by r < rows, c < cols: with a = floor(c/32),
    # b = ceil(c/32) and f = ceil(r/8), c*r - c*a*f + c*b*f - c*f + 16(a^2 + a - b^2 + b)f.
    # If 32 | c then b = a and the f terms give -c*f + 32a*f = 0; otherwise b = a + 1 and they give
    # c*f - c*f + 16f(a^2 + a - (a+1)^2 + a + 1) = 0: the count is exactly c*r.
    q = c * r - c * a * f + c * b * f - c * f + 16 * (a**2 + a - b**2 + b) * f
    assert drop_floors(sympy.expand(q)) == c * r
    # floor(n/2)**2 is not a polynomial: it stays
    n = sympy.Symbol("n")
    assert drop_floors(sympy.floor(n / 2) ** 2) == sympy.floor(n / 2) ** 2


def test_ceiling_spelling():
    n = sympy.Symbol("n")
    # floor((n + 255)/256) = ceil(n/256) for integer n
    assert _ceilings(255 * sympy.floor(n / 256 + sympy.Rational(255, 256))) == 255 * sympy.ceiling(n / 256)
    # floor((n + 1)/3) is not a ceiling of n/3
    assert _ceilings(sympy.floor(n / 3 + sympy.Rational(1, 3))).has(sympy.floor)


def test_compile_time_size_scaling_an_index_is_folded(tmp_path):
    k = analyze_source("""
#define T 4
void tiles(int n, const float *x, float *y) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < T; j++)
            y[i * T + j] = 2.0f * x[i * T + j];
}""", tmp_path)["tiles"]
    # T multiplies the index, so it is folded to 4 (SR115): i*4 + j covers 0..4n-1 once:
    # W = 4n multiplies, x read 4n floats and y written 4n floats -> Q = 32n, exact and symbolic in n
    assert "SR115" in {d.code for d in k.diagnostics} and k.exact
    assert same(k.total.flops.expr, S("4*n")) and same(k.total.compulsory.expr, S("32*n"))


def test_auto_takes_the_type_of_its_initializer(tmp_path):
    k = analyze_source("""
__global__ void f(int n, const double* x, double* y) {
    auto i = blockIdx.x * blockDim.x + threadIdx.x;
    auto v = x[i] * 2.0;
    if (i < n) y[i] = v + v;
}""", tmp_path, name="k.cu")["f"]
    # v is a double: x[i]*2.0 (1) for every thread of the grid... the read and the multiply happen
    # before the guard, so they run for all gridDim_x*blockDim_x threads; v + v (1) only for i < n
    assert same(k.total.by_precision["fp64"].expr, S("gridDim_x*blockDim_x + n"))


def test_degree_bounds_read_off_the_tree():
    """result._degree_bounds bounds each variable's degree without expanding (drop_floors counts
    its proof points from them).  By hand: (n*m + 1)**2 * n has degree 3 in n (2 from the square,
    1 from the factor) and 2 in m; (n + 1)**2 - n**2 is n*2 + 1 (degree 1) but its tree bounds it
    by 2, which only adds proof points; 1/n is not a polynomial in n (None); a floor is read as its
    argument (on each residue class floor(a) is a minus a constant), 1/t as a constant."""
    import sympy

    from staticroof.analysis.result import _degree_bounds, _degrees

    n, m, t = sympy.symbols("n m t")
    assert _degree_bounds((n * m + 1) ** 2 * n, [n, m]) == {n: 3, m: 2}
    assert _degree_bounds((n + t) ** 2 - n ** 2, [n, m]) == {n: 2, m: 0}
    assert _degrees((n + t) ** 2 - n ** 2, [n, m]) == {n: 1, m: 0}
    assert _degree_bounds(1 / n + m, [n, m]) is None
    assert _degree_bounds(sympy.floor(n / 2) * m ** 2, [n, m]) == {n: 1, m: 2}
    assert _degree_bounds(sympy.floor(1 / n) * m, [n, m]) is None
    assert _degree_bounds(n / t + sympy.sqrt(t), [n, m]) == {n: 1, m: 0}


def test_ring_degrees_are_the_expansions_degrees():
    """result._ring_degrees multiplies the polynomial out in a ring, and must give what sympy.expand
    gives.  By hand: (n + t)**2 - n**2 = 2nt + t**2 (degree 1 in n: the n**2 cancels, which the tree
    bound 2 does not see; 0 in m, absent); (k/32 + t)**3*m - k**3*m/32768 = 3k**2*m*t/1024 + ... has
    degree 2 in k (k**3 cancels), 1 in m; 2*(n/2 + t) - n = 2t has lost n altogether (degree 0, n
    still asked for); the zero polynomial ((n + 1)**2 - n**2 - 2n - 1) and sqrt(n) are left to
    sympy's path (None), which says -oo and None for them."""
    import sympy

    from staticroof.analysis.result import _degrees, _ring_degrees

    n, m, t, k = sympy.symbols("n m t k")
    cases = [((n + t) ** 2 - n ** 2, [n, m], {n: 1, m: 0}),
             ((k / 32 + t) ** 3 * m - k ** 3 * m / 32768, [k, m], {k: 2, m: 1}),
             (2 * (n / 2 + t) - n, [n], {n: 0})]
    for poly, variables, degrees in cases:
        assert _ring_degrees(poly, variables) == degrees
        assert _degrees(poly, variables) == degrees
        terms = sympy.Add.make_args(sympy.expand(poly))  # what _degrees read before the ring
        assert {v: max(sympy.degree(x, v) for x in terms) for v in variables} == degrees
    zero = (n + 1) ** 2 - n ** 2 - 2 * n - 1
    assert _ring_degrees(zero, [n]) is None and _degrees(zero, [n]) == {n: -sympy.oo}
    assert _ring_degrees(sympy.sqrt(n) + n, [n]) is None and _degrees(sympy.sqrt(n) + n, [n]) is None


def test_exact_function_values_by_hand():
    """result._exact_function compiles a quasi-polynomial to integer arithmetic (floors as floor
    divisions; an integer numerator over one positive denominator).  By hand: 3*n*floor(n/4 + 1/2)
    - n**2/2 at n = 5 is 3*5*floor(7/4) - 25/2 = 15 - 25/2 = 5/2, at n = -3 it is -9*floor(-1/4) - 9/2 = 9 - 9/2 = 9/2
    (the floor of a negative number rounds down); m*floor((k + 2*m)/3) + 7 at k = 1, m = 4 is
    4*floor(3) + 7 = 19, and a constant is itself at any point."""
    import sympy

    from staticroof.analysis.result import _exact_function

    n, m, k = sympy.symbols("n m k")

    def value(expr, variables, point):
        f, denom = _exact_function(expr, variables)
        assert denom > 0 and isinstance(f(point), int)
        return Fraction(f(point), denom)

    q = 3 * n * sympy.floor(n / 4 + sympy.Rational(1, 2)) - n ** 2 / 2
    assert value(q, [n], (5,)) == Fraction(5, 2) and value(q, [n], (-3,)) == Fraction(9, 2)
    assert value(m * sympy.floor((k + 2 * m) / 3) + 7, [k, m], (1, 4)) == 19
    assert value(sympy.Integer(6), [n], (9,)) == 6


def test_degree_lower_bounds_from_two_values():
    """result._degrees_at_least: a polynomial whose value changes when only v changes has degree >= 1
    in v; equal values prove nothing (bound 0).  By hand: (n + t)**2 - n**2 = 2nt + t**2 has degree
    1 in n (changes with n), 0 in m (absent).  (n - 3)*(n - 10) has degree 2 but takes the value 0
    at both n = 3 and n = 10, the two values the bound compares: it says 0, a lower bound still.
    drop_floors uses it to stop before expanding: m*floor(k/32) + k*floor(m/32) needs (32*2)**2 =
    4096 proof points at the exact degrees (1 in k and in m), past the 2000 budget: it stays."""
    import sympy

    from staticroof.analysis.result import _degrees_at_least

    n, m, t, k = sympy.symbols("n m t k")
    assert _degrees_at_least((n + t) ** 2 - n ** 2, [n, m]) == {n: 1, m: 0}
    assert _degrees_at_least((n - 3) * (n - 10), [n]) == {n: 0}
    assert _degrees_at_least(1 / (n - 3), [n]) is None  # 1/0 at the first point: no bound
    e = m * sympy.floor(k / 32) + k * sympy.floor(m / 32)
    assert drop_floors(e) == e


def test_a_period_of_1024_is_within_the_proof_budget():
    """A grid-stride or items-per-thread kernel blocked by 1024 gives floors of period 1024.
    (n - 1024*f)*(n + 1) + 1024*f*(n + 1) with f = floor(n/1024) is n**2 + n (the f terms cancel),
    and its floors written f = n/1024 + t leave degree 2 in n: the proof needs 1024 residue classes
    times 3 points = 3,072 points, past the old budget of 2,000 and within today's 4,096."""
    n = sympy.Symbol("n")
    f = sympy.floor(n / 1024)
    e = (n - 1024 * f) * (n + 1) + 1024 * f * (n + 1)
    assert drop_floors(e, budget=3071) == e  # one point short of the proof: kept as it is
    assert drop_floors(e) == n**2 + n


def test_axpy_with_items_per_thread_prints_2n():
    """idioms.cu's axpy_items: a block of 256 threads, 4 items each, blocks = ceil_div(n, 1024), so
    barvinok's count carries floor(n/1024) and ceil(n/4); one multiply-add (2 FLOP) and 12 B (x read,
    y read and written) per i < n: W = 2*n, Q = 12*n, printed as such (before the budget of 4,096
    proof points it was printed as a page of floors equal to 2*n)."""
    from pathlib import Path

    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run

    path = Path(__file__).parent / "data" / "real" / "cuda" / "idioms.cu"
    (k,) = [k for k in run([path], AnalysisOptions(only={"axpy_items"})).kernels if k.name == "axpy_items"]
    assert k.exact
    t = k.total
    assert (str(t.flops.expr), str(t.compulsory.expr), str(t.intensity.expr)) == ("2*n", "12*n", "1/6")
    # and at sizes on both sides of the kernel's constants (4 items a thread, 1024 a block): every
    # i < n is one multiply-add and 12 B whatever the blocking, even in a last, partial block
    for n in (1, 3, 4, 5, 1023, 1024, 1025, 4097):
        options = AnalysisOptions(defines={"n": str(n)}, only={"axpy_items"})
        (k,) = [k for k in run([path], options).kernels if k.name == "axpy_items"]
        assert k.exact and (k.total.flops.value, k.total.compulsory.value) == (2 * n, 12 * n), n


def test_no_flops_over_a_count_is_zero_without_sympys_assumptions():
    """result._divide(0, Q): an integer-only kernel's intensity, W = 0 over Q, is 0 wherever Q is
    not zero at some point, as sympy's own 0/Q is.  By hand: Q = 4*n**2 - 8*n*floor(n/7 + 6/7)
    + 8*n*floor(2*n/7 + 6/7) is 4 at n = 1 (4 - 8*1 + 8*1), so not the zero function: 0/Q = 0.
    A Q over a symbol with assumptions (k positive) is left to sympy, which says 0 too; Q = 0 is
    no intensity (nan)."""
    import sympy

    from staticroof.analysis.result import _divide, _somewhere_not_zero

    n = sympy.Symbol("n")
    six = sympy.Rational(6, 7)
    q = 4 * n ** 2 - 8 * n * sympy.floor(n / 7 + six) + 8 * n * sympy.floor(2 * n / 7 + six)
    assert _somewhere_not_zero(q) and _divide(sympy.Integer(0), q) == 0 == sympy.Integer(0) / q
    k = sympy.Symbol("k", positive=True)
    assert not _somewhere_not_zero(k + q) and _divide(sympy.Integer(0), k + q) == 0
    assert _divide(sympy.Integer(0), sympy.Integer(0)) is sympy.nan
