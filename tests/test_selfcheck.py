"""The self-check (SR121): every exact result's formulas against the exact counts at concrete
sizes, and the counts against running the loop IR.  Each test plants a bug the check must catch,
or checks the interpreter's counts against values derived by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from staticroof.analysis import pieces as pieces_module, traffic
from staticroof.analysis.interpret import enumerate_counts
from staticroof.frontends import load

from helpers import ROOT, analyze_source

SAXPY = """
void saxpy(int n, float a, const float *x, float *y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
"""

CLAMPED = """
void head(int n, const float *a, float *b) {
    for (int i = 0; i < n && i < 100; i++)
        b[i] = 2.0f * a[i];
}
"""


def _kernel(src, tmp_path, name):
    p = tmp_path / "k.c"
    p.write_text(src)
    res, _ = load(str(p), {})
    return next(k for k in res.kernels if k.name == name)


def test_clean_results_pass(tmp_path):
    k = analyze_source(SAXPY + CLAMPED, tmp_path)
    for name in ("saxpy", "head"):
        assert k[name].exact and not [d for d in k[name].diagnostics if d.code == "SR121"]


def test_a_wrong_piece_is_caught(monkeypatch, tmp_path):
    # Plant the old bug: always show the piece for large sizes.  For `i < n && i < 100` that is
    # W = 100, wrong for every n < 100 (W = n there); the check compares at n = 1, 2, 3, ..., 99.
    original = pieces_module.Pieces.formula

    def large_piece(self):
        if self.single:
            return original(self)
        return self.pieces[0].expr if self.pieces[0].expr.is_number else self.pieces[-1].expr, None

    monkeypatch.setattr(pieces_module.Pieces, "formula", large_piece)
    monkeypatch.setattr(pieces_module.Pieces, "_min_max", lambda self: None)
    monkeypatch.setattr(pieces_module.Pieces, "main", lambda self: None)
    monkeypatch.setattr(pieces_module.Pieces, "at", lambda self, sizes: self.pieces[0])
    k = analyze_source(CLAMPED, tmp_path)["head"]
    found = [d for d in k.diagnostics if d.code == "SR121"]
    assert found and not k.exact, [str(d) for d in k.diagnostics]
    assert "self-check failed" in found[0].message


def test_a_wrong_count_is_caught(monkeypatch, tmp_path):
    # Plant a counting bug: y's reads are dropped from the compulsory traffic, so y[i] = a*x[i] + y[i]
    # moves y once instead of twice.  Running the loops at n = 2 reads y[0] and y[1] first.
    real = traffic.compulsory

    def no_reads(kernel, name, refs, namer, sizes, t_rank, t, concrete=False):
        real(kernel, name, [r for r in refs if r[0].kind == "write" or name != "y"], namer, sizes, t_rank, t,
             concrete)

    monkeypatch.setattr(traffic, "compulsory", no_reads)
    import staticroof.analysis as analysis
    monkeypatch.setattr(analysis, "compulsory", no_reads)
    k = analyze_source(SAXPY, tmp_path)["saxpy"]
    found = [d for d in k.diagnostics if d.code == "SR121"]
    assert found and not k.exact
    # the interpreter saw y read before it was written: n first reads (n = 2: 2 reads, isl 0)
    assert "y read" in found[0].message and "running the loops" in found[0].message


def test_interpreter_counts_by_hand(tmp_path):
    # 5-point stencil over the interior of an n x n grid, n = 5:
    #   interior i, j in 1..3: 9 points, 4 adds and 1 multiply each -> W = 45 (fp32);
    #   A read: the interior's 9 plus its 4 neighbours' edges (3 each): 9 + 12 = 21 = n^2 - 4;
    #   B written: 9; loads: 5 per point = 45; stores 9.
    src = """
void stencil(int n, float A[n][n], float B[n][n]) {
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            B[i][j] = 0.2f * (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
}
"""
    k = _kernel(src, tmp_path, "stencil")
    c = enumerate_counts(k, {"n": 5})
    assert c.flops == {"fp32": 45}
    assert (c.arrays["A"].first_read, c.arrays["A"].written, c.arrays["A"].loads) == (21, 0, 45)
    assert (c.arrays["B"].first_read, c.arrays["B"].written, c.arrays["B"].stores) == (0, 9, 9)


@pytest.mark.parametrize("c_decl,held", [("float C[N][N]", False), ("float (*restrict C)[N]", True)])
def test_interpreter_register_rule(tmp_path, c_decl, held):
    # GEMM with C[i][j] += in the k-loop, N = 3: C[i][j] is invariant in k.  Declared `restrict`, it
    # is held in a register: loaded once before and stored once after the k-loop: 9 loads, 9
    # stores.  Without it, C may alias A and B (float parameters): every k trip loads and stores
    # it: 27 loads, 27 stores.  A and B: 27 loads each.  First accesses either way: C read first
    # (9), written (9); A 9, B 9.  W = 2 * 27 = 54.
    src = """
#define N 3
void gemm(float A[N][N], float B[N][N], DECL) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                C[i][j] += A[i][k] * B[k][j];
}
""".replace("DECL", c_decl)
    k = _kernel(src, tmp_path, "gemm")
    c = enumerate_counts(k, {"N": 3})
    assert c.flops == {"fp32": 54}
    per = 9 if held else 27
    assert (c.arrays["C"].first_read, c.arrays["C"].written, c.arrays["C"].loads, c.arrays["C"].stores) == \
        (9, 9, per, per)
    assert (c.arrays["A"].loads, c.arrays["B"].loads) == (27, 27)


def test_evaluator_is_exact():
    from staticroof.analysis.evaluators import evaluator

    n = sympy.Symbol("n")
    f = evaluator(sympy.floor(n / 3) * 3 + sympy.Mod(n, 3) + sympy.Max(0, n - 100), [n])
    # floor(n/3)*3 + n mod 3 = n; plus max(0, n - 100)
    assert [f([v]) for v in (0, 1, 37, 100, 101, 10 ** 20)] == [0, 1, 37, 100, 102, 2 * 10 ** 20 - 100]


def test_counted_at_the_sizes_is_checked_with_the_launch_grid(tmp_path):
    # A linearized index the analysis cannot prove injective (`a0[j * m + k]`) is counted at the
    # sizes in force (SR117), with the launch's own grid of 3 blocks: the check must run the loops
    # on that grid, not on one of its own choosing (it reported 23 first reads against 20 before).
    # Threads with threadIdx.x < 1: i = 0, 4, 8.  At n = 15, m = 1 the trace gives a0 read 80 B.
    src = """
#define C 9
#define HALF 1
__global__ void k(int n, int m, float * __restrict__ a0)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && threadIdx.x < HALF) {
        for (int j = 1; j < n - 1; j++) {
            a0[i] = a0[i * C];
            for (int k = 0; k < i; k++)
                a0[k * C + i] = a0[j * m + k] * a0[i + 1] - 0.5;
        }
    }
}
int main() {
    int n = 5, m = 7;
    float *a0 = 0;
    k<<<(n + m + 3) / 4, 4>>>(n, m, a0);
    return 0;
}
"""
    k = analyze_source(src, tmp_path, {"n": "15", "m": "1"}, name="k.cu")["k"]
    assert "SR117" in {d.code for d in k.diagnostics}
    assert not [d for d in k.diagnostics if d.code == "SR121"], [str(d) for d in k.diagnostics]
    assert k.total.arrays["a0"].read.value == 80


def test_budget_overrun_inside_a_parser_is_a_budget_overrun(monkeypatch, tmp_path):
    # isl reports a quota hit inside its string parser as a "syntax error"; that must read as the
    # work budget (SR116, or SR118 counting at the sizes), never as an internal error (SR099).
    monkeypatch.setenv("STATICROOF_ISL_BUDGET", "50")
    from staticroof.analysis import traffic

    monkeypatch.setattr(traffic, "_FIRST", {})  # counted afresh: saxpy's first accesses, remembered by other tests
    for defines in ({}, {"n": "1000"}):
        k = analyze_source(SAXPY, tmp_path, defines)["saxpy"]
        codes = {d.code for d in k.diagnostics}
        assert "SR099" not in codes and codes & {"SR116", "SR118"}, codes


def test_evaluator_floors_by_integer_division():
    """evaluator(..., integers=True) writes floor(n/6 + m/4 + 1/3) as (2n + 3m + 4) // 12 (12 the
    least common denominator).  By hand: n = 5, m = 3: 5/6 + 3/4 + 1/3 = (10 + 9 + 4)/12 = 23/12,
    floor 1; n = -5, m = 0: -5/6 + 1/3 = -1/2, floor -1 (truncation toward zero would say 0);
    n = 7, m = 1: (14 + 3 + 4)/12 = 21/12, floor 1; n = 12, m = 0: 28/12, floor 2.  A Fraction
    value floors the same: n = 1/2, m = 0: 1/12 + 1/3 = 5/12, floor 0; n = -3/2: -1/4 + 1/3 = 1/12,
    floor 0.  Nested: floor(floor(n/2)/3 + 1/2) at n = 9: floor(4/3 + 1/2) = floor(11/6) = 1."""
    from fractions import Fraction

    from staticroof.analysis.evaluators import evaluator

    n, m = sympy.symbols("n m")
    e = sympy.floor(n / 6 + m / 4 + sympy.Rational(1, 3))
    f, plain = evaluator(e, [n, m], integers=True), evaluator(e, [n, m])
    assert [f(p) for p in ([5, 3], [-5, 0], [7, 1], [12, 0])] == [1, -1, 1, 2]
    assert [f([Fraction(1, 2), 0]), f([Fraction(-3, 2), 0])] == [0, 0]
    assert all(f([a, b]) == plain([a, b]) for a in range(-30, 30) for b in range(-13, 13))
    nested = evaluator(sympy.floor(sympy.floor(n / 2) / 3 + sympy.Rational(1, 2)), [n], integers=True)
    assert nested([9]) == 1
    # ceiling(x) = -floor(-x): ceiling(n/6 + 1/3) is 2 at n = 5 (7/6), 0 at n = -5 (-1/2: a floor
    # would say -1), 1 at n = 4 (exactly 1)
    up = sympy.ceiling(n / 6 + sympy.Rational(1, 3))
    g, plain_up = evaluator(up, [n], integers=True), evaluator(up, [n])
    assert [g([5]), g([-5]), g([4])] == [2, 0, 1]
    assert all(g([a]) == plain_up([a]) for a in range(-40, 40))


SAXPY_TIMED = """
#include <stddef.h>
#include <time.h>

#define REPEAT 10

void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(void)
{
    static float x[1024], y[1024];
    clock_t t0 = clock();
    for (int r = 0; r < REPEAT; r++)
        saxpy(1024, 2.0f, x, y);
    return (int)(clock() - t0) < 0;
}
"""


def test_a_repeated_check_is_made_once(tmp_path):
    # saxpy in fp32, by hand: W = 2n (one fp32 precision, so `W fp32` is W's count); x is read
    # once per element (first reads = loads = n elements, 4n B) and never written (0); y is read
    # first then written, once per element, and loaded and stored once per element (n each, 4n B).
    # Q compulsory = 4n + 4n + 4n = 12n B = Q access, I = I access = 2n/12n = 1/6.  Counts with the
    # same isl text share one Pieces object, so x read, x access read and y's four counts are one
    # check, x's write and store another, Q access is Q compulsory's, I access is I's
    from staticroof.analysis import selfcheck as SC
    from staticroof.analysis.result import Quantity

    k = analyze_source(SAXPY_TIMED, tmp_path)["saxpy"]
    t = k.total
    n = sympy.Symbol("n")
    assert (t.flops.expr, t.compulsory.expr, t.access.expr) == (2 * n, 12 * n, 12 * n)
    assert t.intensity.expr == t.intensity_access.expr == sympy.Rational(1, 6)
    every = SC._quantities(t)
    assert len(every) == 14
    assert list(SC._distinct(every)) == ["W", "Q compulsory", "x read", "x write", "I"]
    # a formula, or the sizes it was chosen for, of its own: a check of its own
    other = dict(every)
    other["y read"] = Quantity(4 * n + 0 * n, t.arrays["y"].read.value, t.arrays["y"].read.pieces, None, {"n": 7})
    other["y write"] = Quantity(sympy.Integer(4) * n ** 1 + 1, None, t.arrays["y"].write.pieces, None, {})
    assert list(SC._distinct(other)) == ["W", "Q compulsory", "x read", "x write", "y read", "y write", "I"]


GUARDED = """
#define TILE 4

typedef struct { int n, m; } extent_t;

void clip_copy(int n, int m, const float *src, float *dst, float *rest)
{
    for (int i = 0; i < m; i++) {
        if (i < n)
            dst[i] = 2.0f * src[i];
        if (i < TILE) {
        } else {
            rest[i] = src[i] + 1.0f;
        }
    }
}
"""


def test_interpreter_walks_only_the_branch_taken(tmp_path):
    # m = 7, n = 3, by hand: the first guard holds at i = 0, 1, 2 (3 multiplies, src and dst 3
    # loads / stores each, then-branch only: no else); the second guard's then-branch is empty and
    # its else-branch runs at i = 4, 5, 6 (3 adds, src 3 more loads of new elements, rest 3 stores).
    # W = 3 + 3 = 6 fp32; src first reads 6 (0-2 and 4-6), loads 6; dst 3 written; rest 3 written.
    # Then n = 9 (every i < m = 7 passes the first guard): W = 7 + 3 = 10, src first reads 7
    # (0-6), loads 10 (the two statements' loads are different references), dst 7 written
    k = _kernel(GUARDED, tmp_path, "clip_copy")
    memo: dict = {}
    c = enumerate_counts(k, {"n": 3, "m": 7, "TILE": 4}, memo=memo)
    assert c.flops == {"fp32": 6}
    assert (c.arrays["src"].first_read, c.arrays["src"].loads) == (6, 6)
    assert (c.arrays["dst"].written, c.arrays["dst"].stores) == (3, 3)
    assert (c.arrays["rest"].written, c.arrays["rest"].stores) == (3, 3)
    c = enumerate_counts(k, {"n": 9, "m": 7, "TILE": 4}, memo=memo)
    assert c.flops == {"fp32": 10}
    assert (c.arrays["src"].first_read, c.arrays["src"].loads) == (7, 10)
    assert (c.arrays["dst"].written, c.arrays["rest"].written) == (7, 3)


def test_fast_formula_checks_decide_as_the_reference(monkeypatch):
    """The self-check's fast evaluators against the ways they replace, at every call the check
    makes on real kernels: the piece holding at a point from isl indicator quasi-polynomials
    (Pieces._at) against intersecting each domain with the point's set (_at_by_sets); a condition
    by its compiled predicate (_decide) against sympy (_decide_sympy), with every piece's
    condition asked too; a parameter standing for a product of sizes by its compiled closure
    against sympy; a count at a remembered isl Point against one made afresh.  gemm.cu has
    intensity conditions (`holds`) and several pieces, stencil1d.c several pieces,
    daxpy_extern_c.cu a product of sizes (a grid times a block dimension)."""
    from staticroof import pipeline
    from staticroof.analysis import pieces as PM, points as PT, polyhedra, selfcheck as SC
    from staticroof.memo import Bounded

    monkeypatch.setenv("STATICROOF_TIME_BUDGET", "0")
    seen = {"at": 0, "holds": 0, "product": 0, "value": 0}
    bad: list = []
    fast_at = PM.Pieces._at

    def at(self, sizes):
        got = fast_at(self, sizes)
        if not self.single:
            seen["at"] += 1
            if got is not self._at_by_sets(sizes):
                bad.append(("at", sizes))
            for piece in self.pieces:  # every piece's condition, as an intensity's `holds` is one
                decide(self.condition(piece), sizes)
        return got

    fast_decide = SC._decide

    def decide(cond, point):
        got = fast_decide(cond, point)
        seen["holds"] += SC._predicate(cond) is not None
        if got != SC._decide_sympy(cond, point):
            bad.append(("holds", cond, point))
        return got

    fast_items = PT.param_values_in_order

    def items(space, namer, sizes, grid_value):
        got = fast_items(space, namer, sizes, grid_value)
        if got is not None:
            for (expr, symbols, objects, fast), v in zip(PT._params_of(space, namer)[2], got[1], strict=True):
                if fast is not None:
                    seen["product"] += 1
                    args = [sizes.get(s, grid_value) for s in symbols]
                    if v != int(expr.xreplace(dict(zip(objects, args, strict=True)))):
                        bad.append(("product", expr, sizes))
        return got

    fast_eval = PT._eval

    def evaluate(pw, space, found):
        got = fast_eval(pw, space, found)
        seen["value"] += 1
        v = pw.eval(PT._isl_point(space, list(found[1])))
        if got != (int(v.to_python()) if v.is_int() else PT.exact_number(Fraction(str(v)))):
            bad.append(("value", found))
        return got

    # fresh memos: counts another test left remembered would never be asked again here
    monkeypatch.setattr(polyhedra, "_pieces_cache", Bounded(4096))
    monkeypatch.setattr(SC, "_held", Bounded(4096))
    monkeypatch.setattr(PT, "_points", Bounded(8192))
    monkeypatch.setattr(PM.Pieces, "_at", at)
    monkeypatch.setattr(SC, "_decide", decide)
    monkeypatch.setattr(PM, "param_values_in_order", items)  # Pieces._at's
    monkeypatch.setattr(PT, "param_values_in_order", items)  # pw_value's
    monkeypatch.setattr(PT, "_eval", evaluate)
    for path in ("tests/data/real/cuda/gemm.cu", "samples/stencil1d.c", "tests/data/cuda/daxpy_extern_c.cu"):
        pipeline.run([ROOT / path])  # from any folder the suite runs in
    assert not bad, bad[:5]
    assert all(seen.values()), seen
