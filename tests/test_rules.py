"""One test per counting rule of the contract, each on a tiny C kernel.

Every expected value is derived by hand in the comment next to it; the tests compare the analyzer's
formulas with `same` (exact symbolic equality, floor/Min checked at many points).
"""

from __future__ import annotations

import pytest
import sympy

from helpers import S, analyze_source, codes, same


def one(src, tmp_path, name, defines=None):
    ks = analyze_source(src, tmp_path, defines)
    assert name in ks, f"kernel {name} not found; got {list(ks)}"
    k = ks[name]
    assert not k.failed, [str(d) for d in k.diagnostics]
    return k


def prec(k, p):
    """The W of one precision (0 when the precision has no operations)."""
    q = k.total.by_precision.get(p)
    return sympy.Integer(0) if q is None else q.expr


# ---------------------------------------------------------------------------------------------
# W: arithmetic operators


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_each_operator_counts_one_flop(tmp_path, op):
    src = f"""
void op(int n, const float *x, const float *y, float *z)
{{
    for (int i = 0; i < n; i++)
        z[i] = x[i] {op} y[i];
}}
"""
    k = one(src, tmp_path, "op")
    # n trips, one float `op` per trip -> W = n, all fp32.
    assert same(k.total.flops.expr, S("n"))
    assert same(prec(k, "fp32"), S("n"))
    assert set(k.total.by_precision) == {"fp32"}
    # x, y read n elements each, z written n elements, 4 bytes each -> Q = 12n.
    assert same(k.total.compulsory.expr, S("12*n"))
    assert k.exact


def test_several_operators_in_one_statement(tmp_path):
    src = """
void mixed(int n, const float *x, const float *y, float *z)
{
    for (int i = 0; i < n; i++)
        z[i] = x[i] * y[i] + x[i] / y[i] - y[i];
}
"""
    k = one(src, tmp_path, "mixed")
    # per trip: *, /, +, - = 4 float operations -> W = 4n.
    assert same(k.total.flops.expr, S("4*n"))
    # access: x[i] and y[i] each appear more than once in the statement but are the same
    # reference -> one load each; z one store: 3 accesses * 4 bytes * n.
    assert same(k.total.access.expr, S("12*n"))


def test_compound_assignment(tmp_path):
    src = """
void comp(int n, float a, const float *x, float *y, float *z, float *w, float *v)
{
    for (int i = 0; i < n; i++) {
        y[i] += a * x[i];
        z[i] -= x[i];
        w[i] *= a;
        v[i] /= a;
    }
}

float acc(int n, const float *x)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
"""
    ks = analyze_source(src, tmp_path)
    # y += a*x: 1 multiply + the compound add = 2; z -= x: 1; w *= a: 1; v /= a: 1 -> 5 per trip.
    assert same(ks["comp"].total.flops.expr, S("5*n"))
    # the compound read-modify-write moves each of y, z, w, v twice (read first, then written):
    # 4 arrays * 2 * 4n + x 4n = 36n.
    assert same(ks["comp"].total.compulsory.expr, S("36*n"))
    # s += x[i]: one add per trip; s is a local scalar -> Q = x only = 4n.
    assert same(ks["acc"].total.flops.expr, S("n"))
    assert same(ks["acc"].total.compulsory.expr, S("4*n"))


def test_fma_counts_two(tmp_path):
    src = """
#include <math.h>
void f32(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = fmaf(a, x[i], y[i]);
}

void f64(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = fma(a, x[i], y[i]);
}
"""
    ks = analyze_source(src, tmp_path)
    # fmaf = 2 fp32 FLOPs per trip, no special call.
    assert same(ks["f32"].total.flops.expr, S("2*n"))
    assert same(prec(ks["f32"], "fp32"), S("2*n"))
    assert ks["f32"].total.special.expr == 0
    # fma on doubles = 2 fp64 FLOPs per trip.
    assert same(ks["f64"].total.flops.expr, S("2*n"))
    assert same(prec(ks["f64"], "fp64"), S("2*n"))
    assert ks["f64"].total.special.expr == 0


def test_integer_index_arithmetic_is_free(tmp_path):
    src = """
void idx(int n, int k, const float *x, float *y, int *c)
{
    for (int i = 0; i < n; i++) {
        int j = 2 * i + k - 1;
        y[2 * i + 1] = x[n - 1 - i];
        c[i] = 3 * c[i] + i % 5 - j / 2;
    }
}
"""
    k = one(src, tmp_path, "idx")
    # only integer arithmetic (index computations, an int array update) -> W = 0.
    assert k.total.flops.expr == 0
    assert k.total.by_precision == {}
    # traffic still counted: x n reads (x[n-1-i] covers 0..n-1), y n writes, c n reads + n writes
    # (int = 4 bytes) -> 4n + 4n + 8n = 16n.
    assert same(k.total.compulsory.expr, S("16*n"))
    assert k.exact


def test_unary_minus_casts_comparisons_are_free(tmp_path):
    src = """
void z(int n, const float *x, float *y, double *v, int *c)
{
    for (int i = 0; i < n; i++) {
        y[i] = -x[i];
        v[i] = (double)x[i];
        c[i] = x[i] < y[i];
    }
}
"""
    k = one(src, tmp_path, "z")
    # unary minus, a cast and a comparison: 0 FLOPs.
    assert k.total.flops.expr == 0
    assert k.total.by_precision == {}


# ---------------------------------------------------------------------------------------------
# W: precision


def test_double_literal_promotes_to_fp64(tmp_path):
    src = """
void promo(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2.0;
}

void chain(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2.0 + 1.0f;
}

void suffixed(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2.0f;
}
"""
    ks = analyze_source(src, tmp_path)
    # float * double literal -> usual conversions make it a double multiply: fp64 = n, fp32 = 0.
    k = ks["promo"]
    assert same(prec(k, "fp64"), S("n"))
    assert "fp32" not in k.total.by_precision
    assert "SR107" in codes(k)
    assert k.exact  # SR107 is not approximate
    # (x*2.0) is double; double + 1.0f is double too -> 2 fp64 per trip.
    k = ks["chain"]
    assert same(prec(k, "fp64"), S("2*n"))
    assert "fp32" not in k.total.by_precision
    assert k.exact
    # 2.0f keeps it fp32, no diagnostic.
    k = ks["suffixed"]
    assert same(prec(k, "fp32"), S("n"))
    assert "fp64" not in k.total.by_precision
    assert "SR107" not in codes(k)


def test_float_times_int_is_fp32(tmp_path):
    src = """
void fi(int n, int k, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * i + k;
}
"""
    k = one(src, tmp_path, "fi")
    # float * int -> float (fp32); float + int -> float (fp32): 2 fp32 per trip.
    assert same(prec(k, "fp32"), S("2*n"))
    assert set(k.total.by_precision) == {"fp32"}
    assert "SR107" not in codes(k)


def test_float16_precision_and_element_size(tmp_path):
    src = """
void h(int n, const _Float16 *x, _Float16 *y, const float *w, float *z)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * x[i] + y[i];
        z[i] = x[i] * w[i];
    }
}
"""
    k = one(src, tmp_path, "h")
    # statement 1: _Float16*_Float16 and _Float16+_Float16 -> 2 fp16 per trip.
    # statement 2: _Float16*float -> float -> 1 fp32 per trip.
    assert same(prec(k, "fp16"), S("2*n"))
    assert same(prec(k, "fp32"), S("n"))
    a = k.total.arrays
    assert a["x"].dtype == "fp16"
    # 2-byte elements: x n reads -> 2n bytes; y read + written -> 2n + 2n.
    assert same(a["x"].read.expr, S("2*n"))
    assert same(a["y"].read.expr, S("2*n"))
    assert same(a["y"].write.expr, S("2*n"))
    # w 4n read, z 4n written -> Q = 2n + 4n + 4n + 4n = 14n.
    assert same(k.total.compulsory.expr, S("14*n"))


def test_special_functions(tmp_path):
    src = """
#include <math.h>
void sp(int n, const float *x, float *y, const double *u, double *v)
{
    for (int i = 0; i < n; i++) {
        y[i] = sqrtf(x[i]) + expf(x[i]);
        v[i] = sqrt(u[i]);
    }
}
"""
    k = one(src, tmp_path, "sp")
    # per trip: sqrtf, expf (fp32 specials), sqrt (fp64 special) -> special = 3n calls.
    assert same(k.total.special.expr, S("3*n"))
    assert same(k.total.special_by_name["sqrtf"].expr, S("n"))
    assert same(k.total.special_by_name["expf"].expr, S("n"))
    assert same(k.total.special_by_name["sqrt"].expr, S("n"))
    # W = specials (weight 1) + the float add: fp32 = 2n + n = 3n, fp64 = n, W = 4n.
    assert same(prec(k, "fp32"), S("3*n"))
    assert same(prec(k, "fp64"), S("n"))
    assert same(k.total.flops.expr, S("4*n"))
    assert k.exact


def test_fabs_fmin_fmax_are_free(tmp_path):
    src = """
#include <math.h>
void fr(int n, const float *x, float *y, float *z, const double *u, double *w)
{
    for (int i = 0; i < n; i++) {
        y[i] = fabsf(x[i]);
        z[i] = fmaxf(x[i], fminf(y[i], 1.0f));
        w[i] = fabs(u[i]);
    }
}
"""
    k = one(src, tmp_path, "fr")
    # fabsf, fmaxf, fminf, fabs: 0 FLOPs and not special.
    assert k.total.flops.expr == 0
    assert k.total.special.expr == 0


# ---------------------------------------------------------------------------------------------
# Loop shapes (trip counts)


def test_counted_down_loop(tmp_path):
    src = """
void down(int n, const float *x, float *y)
{
    for (int i = n - 1; i >= 0; i--)
        y[i] = x[i] + 1.0f;
}
"""
    k = one(src, tmp_path, "down")
    # i = n-1, ..., 0: n trips, one add each.
    assert same(k.total.flops.expr, S("n"))
    # x n read, y n written -> 8n.
    assert same(k.total.compulsory.expr, S("8*n"))


def test_strided_loop(tmp_path):
    src = """
void str4(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i += 4)
        y[i] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "str4")
    # i = 0, 4, ..., 4(T-1) < n  ->  T = ceil(n/4) = floor((n+3)/4).
    assert same(k.total.flops.expr, S("floor((n+3)/4)"))
    # x and y: T elements each, 4 bytes -> 8T.
    assert same(k.total.compulsory.expr, S("8*floor((n+3)/4)"))
    assert same(k.total.access.expr, S("8*floor((n+3)/4)"))


def test_le_bound(tmp_path):
    src = """
void le(int n, const float *x, float *y)
{
    for (int i = 0; i <= n; i++)
        y[i] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "le")
    # i = 0..n: n+1 trips.
    assert same(k.total.flops.expr, S("n + 1"))
    assert same(k.total.compulsory.expr, S("8*(n + 1)"))


def test_ne_bound(tmp_path):
    src = """
void ne(int n, const float *x, float *y)
{
    for (int i = 0; i != n; i++)
        y[i] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "ne")
    # i = 0..n-1: n trips.
    assert same(k.total.flops.expr, S("n"))
    assert k.exact


def test_offset_bounds(tmp_path):
    src = """
void off(int n, const float *x, float *y)
{
    for (int i = 2; i < n - 3; i++)
        y[i] = x[i + 3] - x[i - 2];
}
"""
    k = one(src, tmp_path, "off")
    # i = 2 .. n-4: n-5 trips, one subtract each.
    assert same(k.total.flops.expr, S("n - 5"))
    # x[i+3] covers 5..n-1, x[i-2] covers 0..n-6 (each n-5 elements, none for n <= 5).  They are
    # disjoint while n-6 < 5 (n <= 10): 2(n-5) elements = 8n - 40 B for 6 <= n <= 10; from n = 10
    # on the union is 0..n-1: 4n B (both give 40 at n = 10).
    pieces = {str(c): e for c, e in k.total.arrays["x"].read.piece_list()}
    assert pieces == {"(n >= 6) & (n <= 10)": S("8*n - 40"), "n >= 11": S("4*n"), "n <= 5": 0}, pieces
    for n, expected in ((3, 0), (5, 0), (6, 8), (9, 32), (10, 40), (11, 44), (37, 148)):
        x = one(src, tmp_path, "off", {"n": str(n)}).total.arrays["x"].read
        assert x.value == expected, (n, x.value)
    # y[2..n-4]: n-5 elements written.
    assert same(k.total.arrays["y"].write.expr, S("4*(n - 5)"))
    # access: two loads of x and one store of y per trip.
    assert same(k.total.access.expr, S("12*(n - 5)"))


def test_triangular_le(tmp_path):
    src = """
void tri(int n, float A[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            A[i][j] = A[i][j] * 2.0f;
}
"""
    k = one(src, tmp_path, "tri")
    # j runs 0..i for i in 0..n-1 -> sum(i+1) = n(n+1)/2 trips, 1 FLOP each.
    assert same(k.total.flops.expr, S("n*(n+1)/2"))
    # each of the n(n+1)/2 elements read first then written: 2 * 4 bytes each.
    assert same(k.total.compulsory.expr, S("4*n*(n+1)"))


def test_triangular_lt(tmp_path):
    src = """
void stri(int n, const float A[n][n], float *y)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            y[i] += A[i][j];
}
"""
    k = one(src, tmp_path, "stri")
    # j runs 0..i-1 -> sum(i) = n(n-1)/2 trips, 1 FLOP (the +=) each.
    assert same(k.total.flops.expr, S("n*(n-1)/2"))
    # A: the n(n-1)/2 strictly-lower elements, read.
    assert same(k.total.arrays["A"].read.expr, S("4*n*(n-1)/2"))
    # y[i] is touched only for i >= 1 (row 0 has no j): n-1 elements read and written.
    assert same(k.total.arrays["y"].read.expr, S("4*(n-1)"))
    assert same(k.total.arrays["y"].write.expr, S("4*(n-1)"))


def test_rectangular_two_sizes(tmp_path):
    src = """
void add2(int m, int n, const float A[m][n], const float B[m][n], float C[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            C[i][j] = A[i][j] + B[i][j];
}
"""
    k = one(src, tmp_path, "add2")
    # m*n trips, 1 add each.
    assert same(k.total.flops.expr, S("m*n"))
    # A, B read m*n each, C written m*n: 3 * 4mn.
    assert same(k.total.compulsory.expr, S("12*m*n"))
    assert same(k.total.access.expr, S("12*m*n"))
    assert same(k.total.intensity.expr, S("1/12"))


def test_imperfectly_nested(tmp_path):
    src = """
void imp(int n, int m, const float *x, float A[n][m], float *y)
{
    for (int i = 0; i < n; i++) {
        float s = x[i] * 2.0f;
        for (int j = 0; j < m; j++)
            A[i][j] = A[i][j] * s;
        y[i] = s + 1.0f;
    }
}
"""
    k = one(src, tmp_path, "imp")
    # per i: 1 (x*2) + m (inner multiplies) + 1 (s+1) -> W = n*m + 2n.
    assert same(k.total.flops.expr, S("n*m + 2*n"))
    # x: n read (4n); A: nm read + nm written (8nm); y: n written (4n).
    assert same(k.total.compulsory.expr, S("8*n*m + 8*n"))
    # access: x[i] is in the i loop and varies with i: n loads; A: nm loads + nm stores; y: n stores.
    assert same(k.total.access.expr, S("8*n*m + 8*n"))


def test_several_top_level_nests(tmp_path):
    src = """
void three(int n, const float *x, float *y, float *z)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2.0f;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            z[i] = z[i] + y[j];
    for (int i = 0; i < n; i++)
        z[i] = z[i] * z[i];
}
"""
    k = one(src, tmp_path, "three")
    assert len(k.nests) == 3
    # nest 1: n multiplies; nest 2: n(n+1)/2 adds; nest 3: n multiplies.
    assert same(k.nests[0].flops.expr, S("n"))
    assert same(k.nests[1].flops.expr, S("n*(n+1)/2"))
    assert same(k.nests[2].flops.expr, S("n"))
    assert same(k.total.flops.expr, S("2*n + n*(n+1)/2"))
    # whole kernel: x n read (4n); y first written in nest 1, later reads free (4n);
    # z first read in nest 2 (4n) and written (4n) -> Q = 16n.
    assert same(k.total.compulsory.expr, S("16*n"))


# ---------------------------------------------------------------------------------------------
# Guards


def test_affine_guard_interior(tmp_path):
    src = """
void interior(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        if (i > 0 && i < n - 1)
            y[i] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "interior")
    # i = 1..n-2: n-2 executions.
    assert same(k.total.flops.expr, S("n - 2"))
    assert same(k.total.compulsory.expr, S("8*(n - 2)"))
    assert k.exact


def test_affine_guard_modulo(tmp_path):
    src = """
void even(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        if (i % 2 == 0)
            y[i] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "even")
    # even i in 0..n-1: ceil(n/2) = floor((n+1)/2).
    assert same(k.total.flops.expr, S("floor((n+1)/2)"))
    assert same(k.total.compulsory.expr, S("8*floor((n+1)/2)"))
    assert k.exact


def test_if_else_both_branches(tmp_path):
    src = """
void ie(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0)
            y[i] = x[i] * 2.0f;
        else
            y[i] = x[i] * x[i] + 1.0f;
    }
}
"""
    k = one(src, tmp_path, "ie")
    # then: floor((n+1)/2) even i, 1 FLOP; else: floor(n/2) odd i, 2 FLOPs.
    assert same(k.total.flops.expr, S("floor((n+1)/2) + 2*floor(n/2)"))
    # every x[i] read and every y[i] written exactly once across the two branches: 8n.
    assert same(k.total.compulsory.expr, S("8*n"))
    assert k.exact


def test_guard_on_two_loop_variables(tmp_path):
    src = """
void upper(int n, float A[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i + j < n)
                A[i][j] = A[i][j] + 1.0f;
}
"""
    k = one(src, tmp_path, "upper")
    # for each i: j = 0..n-1-i, n-i values -> sum = n(n+1)/2.
    assert same(k.total.flops.expr, S("n*(n+1)/2"))


def test_early_return_guard_in_called_body(tmp_path):
    src = """
static void body(int i, int n, const float *x, float *y)
{
    if (i >= n)
        return;
    y[i] = 2.0f * x[i];
}

void launch(int m, int n, const float *x, float *y)
{
    for (int i = 0; i < m; i++)
        body(i, n, x, y);
}
"""
    k = analyze_source(src, tmp_path)["launch"]
    # the body runs for i < m and i < n: min(m, n) times, 1 FLOP each.
    assert same(k.total.flops.expr, S("Min(m, n)"))
    assert same(k.total.compulsory.expr, S("8*Min(m, n)"))


def test_early_return_guard_at_top(tmp_path):
    src = """
void guarded(int n, const float *x, float *y)
{
    if (n < 4)
        return;
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "guarded")
    # for large n the loop runs n times.
    assert same(k.total.flops.expr, S("n"))
    # n = 2 < 4: the function returns first, nothing is done.
    k2 = one(src, tmp_path, "guarded", defines={"n": "2"})
    assert k2.total.flops.value == 0
    assert k2.total.compulsory.value == 0
    k10 = one(src, tmp_path, "guarded", defines={"n": "10"})
    assert k10.total.flops.value == 10
    assert k10.total.compulsory.value == 80


def test_continue_guard(tmp_path):
    src = """
void skip3(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0)
            continue;
        y[i] = x[i] * 2.0f;
    }
}
"""
    k = one(src, tmp_path, "skip3")
    # i not a multiple of 3: n - ceil(n/3) = n - floor((n+2)/3).
    assert same(k.total.flops.expr, S("n - floor((n+2)/3)"))


def test_return_inside_loop_ends_the_function(tmp_path):
    src = """
void stop(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (i == 2)
            return;
        y[i] = x[i] * 2.0f;
    }
}
"""
    k = analyze_source(src, tmp_path)["stop"]
    # `return` leaves the function at i == 2: only i = 0, 1 run the body (for n >= 2),
    # so W = min(n, 2) = 2 for large n -- not n - 1 (that would treat `return` as `continue`).
    # An exact result must be this count; an approximation must say so.
    if k.exact:
        assert same(k.total.flops.expr, S("2"))
        k9 = one(src, tmp_path, "stop", defines={"n": "9"})
        assert k9.total.flops.value == 2
        assert k9.total.compulsory.value == 16  # x[0..1] read, y[0..1] written
    else:
        assert codes(k) & {"SR102"}


EXIT_CASES = {
    # `continue` inside a block nested in the loop body (not at the body's top level).
    "nested_continue": ("""
void k(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (i > 2) {
            if (i % 2 == 0)
                continue;
            y[i] = x[i] * 2.0f;
        }
    }
}
""", {10: 4, 11: 4}),  # odd i with 3 <= i < n: n=10 -> 3,5,7,9; n=11 -> 3,5,7,9
    # `continue` inside a bare compound block of the loop body.
    "block_continue": ("""
void k(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        {
            if (i % 2 == 0)
                continue;
            y[i] = x[i] * 2.0f;
        }
    }
}
""", {10: 5, 11: 5}),  # odd i < n: floor(n/2)
    # `continue` ending the then-branch of an if/else.
    "then_continue_with_else": ("""
void k(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0) {
            y[i] = 1.0f;
            continue;
        } else {
            y[i] = x[i] * 3.0f;
        }
        y[i] = y[i] * 2.0f;
    }
}
""", {10: 10, 11: 10}),  # even i: 0 FLOPs (skips the last line); odd i: 2 -> 2*floor(n/2)
    # `continue` in the else-branch.
    "else_continue": ("""
void k(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0) {
            y[i] = 1.0f;
        } else {
            continue;
        }
        y[i] = x[i] * 2.0f;
    }
}
""", {10: 5, 11: 6}),  # even i < n: ceil(n/2)
    # `return` in the else-branch at function level.
    "else_return": ("""
void k(int n, const float *x, float *y)
{
    if (n >= 4)
        y[0] = x[0] * 3.0f;
    else
        return;
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2.0f;
}
""", {2: 0, 10: 11}),  # n < 4: returns at once (0); n >= 4: 1 + n
}


@pytest.mark.parametrize("case", sorted(EXIT_CASES))
def test_continue_and_return_in_other_positions(tmp_path, case):
    src, expected = EXIT_CASES[case]
    for n, w in expected.items():
        k = one(src, tmp_path, "k", defines={"n": str(n)})
        # Either the count is exact and right, or a diagnostic says it is approximate.
        if k.exact:
            assert k.total.flops.value == w, (case, n, k.total.flops.value, w)
        else:
            assert any(d.approximate for d in k.diagnostics)


# ---------------------------------------------------------------------------------------------
# Q: compulsory and access-level traffic


def test_scalars_cost_nothing_and_y_moves_twice(tmp_path):
    src = """
void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
"""
    k = one(src, tmp_path, "saxpy")
    # a is by value: not an array, 0 bytes.
    assert set(k.total.arrays) == {"x", "y"}
    # y: read first (RHS before the store) then written: 4n + 4n; x: 4n.
    assert same(k.total.arrays["y"].read.expr, S("4*n"))
    assert same(k.total.arrays["y"].write.expr, S("4*n"))
    assert same(k.total.arrays["x"].write.expr, S("0"))
    assert same(k.total.compulsory.expr, S("12*n"))
    assert same(k.total.access.expr, S("12*n"))
    # I = 2n / 12n.
    assert same(k.total.intensity.expr, S("1/6"))


def test_loop_invariant_reference(tmp_path):
    src = """
void bcast(int n, int m, const float *x, float A[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] = x[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "bcast")
    x = k.total.arrays["x"]
    # x[i]: n distinct elements read.
    assert same(x.read.expr, S("4*n"))
    # x[i] does not depend on j (its innermost loop), but the j loop writes A, a float parameter
    # that may alias x (no restrict): the compiler reloads x[i] on every trip -> nm loads.
    assert same(x.access_read.expr, S("4*n*m"))
    # A[i][j] varies with j: nm stores.
    assert same(k.total.arrays["A"].access_write.expr, S("4*n*m"))


def test_write_then_read_temporary_same_loop(tmp_path):
    src = """
void tmp1(int n, const float *x, float *t, float *y)
{
    for (int i = 0; i < n; i++) {
        t[i] = x[i];
        y[i] = t[i] * 2.0f;
    }
}
"""
    k = one(src, tmp_path, "tmp1")
    t = k.total.arrays["t"]
    # t[i] is written before it is read: no compulsory read, n writes.
    assert same(t.read.expr, S("0"))
    assert same(t.write.expr, S("4*n"))
    # but the load and the store both happen: n each.
    assert same(t.access_read.expr, S("4*n"))
    assert same(t.access_write.expr, S("4*n"))
    # Q = x 4n + t 4n + y 4n.
    assert same(k.total.compulsory.expr, S("12*n"))


def test_write_then_read_temporary_separate_loops(tmp_path):
    src = """
void tmp2(int n, const float *x, float *t, float *y)
{
    for (int i = 0; i < n; i++)
        t[i] = x[i] * 2.0f;
    for (int i = 0; i < n; i++)
        y[i] = t[i] + 1.0f;
}
"""
    k = one(src, tmp_path, "tmp2")
    t = k.total.arrays["t"]
    # the first loop writes t[0..n-1] before the second reads them: read 0, write 4n.
    assert same(t.read.expr, S("0"))
    assert same(t.write.expr, S("4*n"))
    assert same(k.total.compulsory.expr, S("12*n"))
    # access: x n, t n + n, y n -> 16n.
    assert same(k.total.access.expr, S("16*n"))


def test_read_then_write_in_place(tmp_path):
    src = """
void inc(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] + 1.0f;
}
"""
    k = one(src, tmp_path, "inc")
    x = k.total.arrays["x"]
    # each x[i] read first, then written: 4n + 4n.
    assert same(x.read.expr, S("4*n"))
    assert same(x.write.expr, S("4*n"))
    assert same(k.total.compulsory.expr, S("8*n"))


def test_overlapping_stencil_references(tmp_path):
    src = """
void st3(int n, const float *a, float *b)
{
    for (int i = 1; i < n - 1; i++)
        b[i] = a[i - 1] + a[i] + a[i + 1];
}
"""
    k = one(src, tmp_path, "st3")
    a = k.total.arrays["a"]
    # a[i-1]: 0..n-3, a[i]: 1..n-2, a[i+1]: 2..n-1 -> union a[0..n-1]: exactly n distinct.
    assert same(a.read.expr, S("4*n"))
    # three different references, each loaded on every one of the n-2 trips.
    assert same(a.access_read.expr, S("12*(n - 2)"))
    assert same(k.total.arrays["b"].write.expr, S("4*(n - 2)"))
    # 2 adds per trip.
    assert same(k.total.flops.expr, S("2*(n - 2)"))


VLA_2D = """
void rowsum(int n, int m, const double A[n][m], double *r)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++)
            s += A[i][j];
        r[i] = s;
    }
}
"""
PTR_2D = VLA_2D.replace("const double A[n][m]", "const double (*A)[m]")


@pytest.mark.parametrize("src", [VLA_2D, PTR_2D], ids=["A[n][m]", "(*A)[m]"])
def test_2d_array_parameter(tmp_path, src):
    k = one(src, tmp_path, "rowsum")
    # n*m adds (fp64).
    assert same(prec(k, "fp64"), S("n*m"))
    # A: n*m distinct doubles read; r: n doubles written; s local.
    assert same(k.total.arrays["A"].read.expr, S("8*n*m"))
    assert same(k.total.arrays["r"].write.expr, S("8*n"))
    assert same(k.total.compulsory.expr, S("8*n*m + 8*n"))
    assert k.exact


def test_linearized_index_exact(tmp_path):
    src = """
void lin(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i * n + j] = 2.0 * A[i * n + j];
}
"""
    k = one(src, tmp_path, "lin")
    # (i, j) -> i*n + j is injective for 0 <= j < n: m*n distinct elements each.
    assert same(k.total.arrays["A"].read.expr, S("8*m*n"))
    assert same(k.total.arrays["B"].write.expr, S("8*m*n"))
    assert "SR108" not in codes(k)
    assert k.exact


def test_linearized_index_not_injective(tmp_path):
    src = """
double over(int m, int n, const double *A)
{
    double s = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n + 1; j++)
            s += A[i * n + j];
    return s;
}
"""
    k = one(src, tmp_path, "over")
    # j reaches n, one past the row length: rows overlap, not provably injective.
    assert "SR108" in codes(k)
    assert not k.exact
    # with all sizes given the count is exact: m=3, n=4 -> i*4 + j for j in 0..4 covers 0..12:
    # 13 distinct doubles = 104 bytes (not 3*5 = 15 accesses).
    k2 = one(src, tmp_path, "over", defines={"m": "3", "n": "4"})
    # counted at the given sizes: SR117 (the numbers are exact, the formula holds only there)
    assert "SR117" in codes(k2) and k2.exact
    assert k2.total.compulsory.value == 104


def test_local_row_pointer(tmp_path):
    src = """
void rp(int n, int m, const double *A, double *r)
{
    for (int i = 0; i < n; i++) {
        const double *row = A + i * m;
        double s = 0.0;
        for (int j = 0; j < m; j++)
            s += row[j] * row[j];
        r[i] = s;
    }
}
"""
    k = one(src, tmp_path, "rp")
    # 2 fp64 per inner trip.
    assert same(k.total.flops.expr, S("2*n*m"))
    # row[j] = A[i*m + j], 0 <= j < m: n*m distinct doubles.
    assert same(k.total.arrays["A"].read.expr, S("8*n*m"))
    # row[j]*row[j]: the same reference twice -> one load per trip.
    assert same(k.total.arrays["A"].access_read.expr, S("8*n*m"))
    assert k.exact


def test_function_called_from_kernel(tmp_path):
    src = """
static float dot(int n, const float *a, const float *b)
{
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[k] * b[k];
    return s;
}

void matvec(int m, int n, const float *A, const float *x, float *y)
{
    for (int i = 0; i < m; i++)
        y[i] = dot(n, &A[i * n], x);
}
"""
    ks = analyze_source(src, tmp_path)
    k = ks["matvec"]
    assert not k.failed
    # dot does 2n FLOPs per call, called m times: 2mn.
    assert same(k.total.flops.expr, S("2*m*n"))
    # a[k] = A[i*n + k]: mn distinct; x[k]: n; y[i]: m written.
    assert same(k.total.arrays["A"].read.expr, S("4*m*n"))
    assert same(k.total.arrays["x"].read.expr, S("4*n"))
    assert same(k.total.arrays["y"].write.expr, S("4*m"))
    # access: A and x loaded on every inner trip (mn each), y stored m times.
    assert same(k.total.access.expr, S("8*m*n + 4*m"))
    assert k.exact
    # dot on its own: 2n.
    assert same(ks["dot"].total.flops.expr, S("2*n"))


def test_identical_references_across_inlined_calls(tmp_path):
    src = """
static float sq(float v)
{
    return v * v;
}

void sumsq(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = sq(x[i]) + sq(x[i]);
}
"""
    k = analyze_source(src, tmp_path)["sumsq"]
    # W: two inlined multiplies + one add = 3 per trip.
    assert same(k.total.flops.expr, S("3*n"))
    # `x[i]` appears twice in the one source statement `y[i] = sq(x[i]) + sq(x[i])`: identical
    # references (same array, index, kind) in one statement count once -> n loads of x, n stores
    # of y -> Q_access = 4n + 4n.
    assert same(k.total.arrays["x"].access_read.expr, S("4*n"))
    assert same(k.total.access.expr, S("8*n"))


def test_recursion(tmp_path):
    src = """
float rsum(int n, const float *x)
{
    if (n <= 0)
        return 0.0f;
    return x[n - 1] + rsum(n - 1, x);
}

float even_sum(int n, const float *x);

float odd_sum(int n, const float *x)
{
    if (n <= 0)
        return 0.0f;
    return x[n] + even_sum(n - 1, x);
}

float even_sum(int n, const float *x)
{
    if (n <= 0)
        return 0.0f;
    return x[n] * 2.0f + odd_sum(n - 1, x);
}
"""
    ks = analyze_source(src, tmp_path)
    for name in ("rsum", "odd_sum", "even_sum"):
        assert "SR106" in codes(ks[name]), name
        assert not ks[name].exact


def test_while_loop(tmp_path):
    src = """
void relax(int n, float tol, float *x)
{
    float err = 1.0f;
    while (err > tol) {
        for (int j = 0; j < n; j++)
            x[j] = x[j] * 0.5f;
        err = err * 0.5f;
    }
}
"""
    k = one(src, tmp_path, "relax")
    line = src.splitlines().index("    while (err > tol) {") + 1
    trip = f"trip_L{line}"
    assert "SR103" in codes(k)
    assert not k.exact
    # per while trip: n multiplies + 1 multiply of err -> W = trip * (n + 1).
    assert same(k.total.flops.expr, S(f"{trip}*(n + 1)"))
    # x[0..n-1] read first and written, whatever the trip count (>= 1): 8n.
    assert same(k.total.arrays["x"].read.expr, S("4*n"))
    assert same(k.total.arrays["x"].write.expr, S("4*n"))
    # the trip symbol is a size like any other: -D trip_L<line>=10 -D n=4 -> W = 10 * (4 + 1).
    k2 = one(src, tmp_path, "relax", defines={trip: "10", "n": "4"})
    assert k2.total.flops.value == 50


def test_data_dependent_index(tmp_path):
    src = """
void gather(int n, const int *idx, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[idx[i]];
}
"""
    k = one(src, tmp_path, "gather")
    assert "SR101" in codes(k)
    assert not k.exact
    # the affine parts stay exact: idx n ints read, y n floats written.
    assert same(k.total.arrays["idx"].read.expr, S("4*n"))
    assert same(k.total.arrays["y"].write.expr, S("4*n"))
    # x: each access assumed a new element -> upper bound n.
    assert same(k.total.arrays["x"].read.expr, S("4*n"))


@pytest.mark.parametrize("n", [1, 10])
def test_data_dependent_choice_between_equal_special_calls(tmp_path, n):
    # `c[i] > 0.0f ? sqrtf(s) : sqrtf(t)` on scalar parameters: whichever value it picks, one sqrtf
    # and no reference, so the choice costs the same either way (exact, no SR104).  By hand, per
    # trip: 1 sqrtf (a special call, 1 fp32 FLOP), c[i] read (4 B), y[i] written (4 B):
    # W = n, special = n, Q = 8n.  (The special call of such a choice used to be dropped: W = 0.)
    src = """
#include <math.h>
void pick_root(int n, const float *c, float *y, float s, float t)
{
    for (int i = 0; i < n; i++) {
        float u = c[i] > 0.0f ? sqrtf(s) : sqrtf(t);
        y[i] = u;
    }
}
"""
    k = one(src, tmp_path, "pick_root", {"n": n})
    assert k.exact and "SR104" not in codes(k), [str(d) for d in k.diagnostics]
    assert same(k.total.flops.expr, S("n")) and same(k.total.special.expr, S("n"))
    assert k.total.compulsory.pieces.value({"n": n}) == 8 * n


def test_data_dependent_if(tmp_path):
    src = """
void relu2(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        if (x[i] > 0.0f)
            y[i] = x[i] * 2.0f;
        else
            y[i] = x[i] + x[i] + x[i];
    }
}
"""
    k = one(src, tmp_path, "relu2")
    assert "SR104" in codes(k)
    assert not k.exact
    # both branches counted (upper bound): 1 + 2 FLOPs per trip.
    assert same(k.total.flops.expr, S("3*n"))


def test_fixed_size_local_array_is_free(tmp_path):
    src = """
void loc(const float *x, float *y)
{
    float t[16];
    for (int i = 0; i < 16; i++)
        t[i] = x[i] * 2.0f;
    for (int i = 0; i < 16; i++)
        y[i] = t[i] + t[15 - i];
}
"""
    k = one(src, tmp_path, "loc")
    # 16 + 16 FLOPs.
    assert k.total.flops.expr == 32
    # t is a local array: 0 DRAM bytes; x 16 floats read, y 16 written -> 128 bytes.
    assert "t" not in k.total.arrays or (k.total.arrays["t"].read.expr == 0 and k.total.arrays["t"].write.expr == 0)
    assert k.total.compulsory.expr == 128
    assert k.total.compulsory.value == 128


@pytest.mark.parametrize("decl", ["float t[n];", "float *t = malloc(n * sizeof(float));"],
                         ids=["vla", "malloc"])
def test_variable_size_local_array_is_dram(tmp_path, decl):
    src = f"""
#include <stdlib.h>
void tmpn(int n, const float *x, float *y)
{{
    {decl}
    for (int i = 0; i < n; i++)
        t[i] = x[i] * 2.0f;
    for (int i = 0; i < n; i++)
        y[i] = t[i] + 1.0f;
}}
"""
    k = one(src, tmp_path, "tmpn")
    # t has a variable size (or is malloc'ed): a DRAM array. Written first (4n), then read (free).
    assert same(k.total.arrays["t"].write.expr, S("4*n"))
    assert same(k.total.arrays["t"].read.expr, S("0"))
    # Q = x 4n + t 4n + y 4n.
    assert same(k.total.compulsory.expr, S("12*n"))


def test_global_arrays_are_dram(tmp_path):
    src = """
float A[1024];
float B[1024];

void g(void)
{
    for (int i = 0; i < 1024; i++)
        B[i] = A[i] * 2.0f;
}
"""
    k = one(src, tmp_path, "g")
    assert k.total.flops.expr == 1024
    # A: 1024 floats read (4096 bytes), B: 1024 written (4096 bytes).
    assert k.total.arrays["A"].read.expr == 4096
    assert k.total.arrays["B"].write.expr == 4096
    assert k.total.compulsory.expr == 8192


# ---------------------------------------------------------------------------------------------
# Sizes


DEFINE_SRC = """
#define N 64
void sq(const float *x, float *y)
{
    for (int i = 0; i < N; i++)
        y[i] = x[i] * x[i] + 1.0f;
}
"""


def test_define_size(tmp_path):
    k = one(DEFINE_SRC, tmp_path, "sq")
    assert k.sizes == {"N": 64}
    # 2 FLOPs per trip, N trips; x N read, y N written.
    assert same(k.total.flops.expr, S("2*N"))
    assert k.total.flops.value == 128
    assert same(k.total.compulsory.expr, S("8*N"))
    assert k.total.compulsory.value == 512


def test_define_size_overridden(tmp_path):
    k = one(DEFINE_SRC, tmp_path, "sq", defines={"N": "100"})
    assert k.sizes == {"N": 100}
    assert same(k.total.flops.expr, S("2*N"))  # still a formula in N
    assert k.total.flops.value == 200
    assert k.total.compulsory.value == 800


def test_define_naming_a_parameter(tmp_path):
    src = """
void scale(int N, const float *x, float *y)
{
    for (int i = 0; i < N; i++)
        y[i] = 2.0f * x[i];
}
"""
    k = one(src, tmp_path, "scale", defines={"N": "50"})
    # `int N` must stay a parameter (not `int 50`); N is bound to 50.
    assert not k.failed
    assert k.sizes == {"N": 50}
    assert same(k.total.flops.expr, S("N"))
    assert k.total.flops.value == 50
    assert k.total.compulsory.value == 400


IFDEF_SRC = """
#ifdef SMALL
#define LEN 16
#else
#define LEN 1024
#endif

void addone(const float *x, float *y)
{
    for (int i = 0; i < LEN; i++)
        y[i] = x[i] + 1.0f;
}
"""


@pytest.mark.parametrize("defines,expected", [(None, 1024), ({"SMALL": None}, 16), ({"SMALL": "1"}, 16)])
def test_ifdef_selects_branch(tmp_path, defines, expected):
    k = one(IFDEF_SRC, tmp_path, "addone", defines=defines)
    assert k.sizes == {"LEN": expected}
    assert same(k.total.flops.expr, S("LEN"))
    assert k.total.flops.value == expected
    assert k.total.compulsory.value == 8 * expected


def test_pragma_sizes(tmp_path):
    src = """
#pragma staticroof sizes K=7
void pk(int K, const float *x, float *y)
{
    for (int i = 0; i < K; i++)
        y[i] = x[i] * x[i];
}
"""
    k = one(src, tmp_path, "pk")
    assert k.sizes == {"K": 7}
    assert same(k.total.flops.expr, S("K"))
    assert k.total.flops.value == 7
    assert k.total.compulsory.value == 56
    # -D wins over the pragma.
    k9 = one(src, tmp_path, "pk", defines={"K": "9"})
    assert k9.sizes == {"K": 9}
    assert k9.total.flops.value == 9


def test_call_site_default(tmp_path):
    src = """
void f(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 3.0f;
}

float bx[4096], by[4096];

int main(void)
{
    f(4096, bx, by);
    return 0;
}
"""
    k = one(src, tmp_path, "f")
    assert k.sizes == {"n": 4096}
    assert same(k.total.flops.expr, S("n"))
    assert k.total.flops.value == 4096
    assert k.total.compulsory.value == 8 * 4096


def test_min_of_two_sizes(tmp_path):
    src = """
void diag(int n, int m, const float A[n][m], float *d)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (i == j)
                d[i] = A[i][j] * 2.0f;
}
"""
    k = one(src, tmp_path, "diag")
    # (i, i) with i < n and i < m: min(m, n) points.
    assert same(k.total.flops.expr, S("Min(m, n)"))
    assert same(k.total.compulsory.expr, S("8*Min(m, n)"))
    for m, n in [(3, 8), (8, 3), (5, 5)]:
        kk = one(src, tmp_path, "diag", defines={"m": str(m), "n": str(n)})
        assert kk.total.flops.value == min(m, n)


# ---------------------------------------------------------------------------------------------
# Errors


def test_unsupported_construct(tmp_path):
    src = """
void jumpy(int n, float *x)
{
    for (int i = 0; i < n; i++) {
        if (i > 3)
            goto out;
        x[i] = x[i] * 2.0f;
    }
out:
    return;
}

void fine(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] * 2.0f;
}
"""
    ks = analyze_source(src, tmp_path)
    # the `goto` costs only its statement (SR123, approximate): the guard around it is empty and the
    # store runs n times, 1 FLOP each
    assert not ks["jumpy"].failed and not ks["jumpy"].exact
    assert "SR123" in codes(ks["jumpy"]) and same(ks["jumpy"].total.flops.expr, S("n"))
    # the neighbour is unaffected.
    assert not ks["fine"].failed
    assert same(ks["fine"].total.flops.expr, S("n"))


def test_syntax_error_costs_one_function(tmp_path):
    src = """
void broken(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = ;
}

void fine(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] * 2.0f;
}
"""
    ks = analyze_source(src, tmp_path)
    assert ks["broken"].failed
    assert "SR001" in codes(ks["broken"])
    assert same(ks["fine"].total.flops.expr, S("n"))


def test_conditional_expression_with_affine_condition_is_exact(tmp_path):
    src = """
void tern(int n, const float *x, float *y)
{
    for (int i = 0; i < 2 * n; i++)
        y[i] = (i < n) ? x[i] * 2.0f : 0.0f;
}
"""
    k = one(src, tmp_path, "tern")
    # i runs 0..2n-1; the multiply and the read of x happen only for i < n: W = n, x read 4n B;
    # y is written for every i: 4 * 2n = 8n B.  Q = 12n, exact (the condition is affine).
    assert k.exact
    assert same(k.total.flops.expr, S("n"))
    assert same(k.total.arrays["x"].read.expr, S("4*n"))
    assert same(k.total.arrays["y"].write.expr, S("8*n"))


def test_halving_loop_is_unrolled_when_its_start_is_known(tmp_path):
    src = """
void tree(float *s)
{
    for (int h = 128; h > 0; h >>= 1)
        for (int t = 0; t < h; t++)
            s[t] += s[t + h];
}
"""
    k = one(src, tmp_path, "tree")
    # h = 128, 64, ..., 1: 255 additions in all.  s[0..255] are all read first (s[t+h] for
    # h = 128 reads 128..255, s[t] reads 0..127) and s[0..127] are written: 4*256 + 4*128 B.
    assert k.exact
    assert k.total.flops.value == 255
    assert k.total.compulsory.value == 4 * 256 + 4 * 128
