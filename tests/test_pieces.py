"""Piecewise counts (issue #9, patterns 1-3): sizes compared with constants, a linearized index
with a constant stride and a parameter bound, a `#define` compared with a thread index.  Every
expected value is derived by hand below, at sizes on both sides of each constant."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import S, analyze_source, same

CLAMP = """
void clamp_head(int n, const float *a, float *b)
{
    for (int i = 0; i < n && i < 100; i++)
        b[i] = 2.0f * a[i];
}
"""

TAIL = """
void skip_head(int n, const float *a, float *b)
{
    for (int i = 0; i < n - 100; i++)
        b[i] = 2.0f * a[i];
}
"""

BRANCH = """
void by_size(int n, const float *a, float *b)
{
    if (n > 64) {
        for (int i = 0; i < n; i++)
            b[i] = 2.0f * a[i];
    } else {
        for (int i = 0; i < n; i++)
            b[i] = a[i] * a[i] + 2.0f * a[i];
    }
}
"""


def _at(src, tmp_path, name, n):
    return analyze_source(src, tmp_path, {"n": str(n)})[name].total


def test_min_with_a_constant(tmp_path):
    # i < n && i < 100: min(n, 100) trips, 1 FLOP each; a read and b written once per trip.
    k = analyze_source(CLAMP, tmp_path)["clamp_head"].total
    assert same(k.flops.expr, S("Min(n, 100)")) and k.flops.holds is None
    assert same(k.compulsory.expr, S("8*Min(n, 100)"))
    assert k.intensity.expr == S("1/8")
    for n, w in ((1, 1), (37, 37), (99, 99), (100, 100), (101, 100), (1000, 100)):
        t = _at(CLAMP, tmp_path, "clamp_head", n)
        assert (t.flops.value, t.compulsory.value) == (w, 8 * w), n


def test_min_at_given_sizes_shows_the_piece_that_holds(tmp_path):
    # with n = 37 the formula is `n` (true for n <= 100), never the constant 100 of large n
    t = _at(CLAMP, tmp_path, "clamp_head", 37)
    assert t.flops.expr == S("n") and str(t.flops.holds) == "n <= 100" and t.flops.value == 37
    t = _at(CLAMP, tmp_path, "clamp_head", 1000)
    assert t.flops.expr == 100 and str(t.flops.holds) == "n >= 101" and t.flops.value == 100
    # text and JSON say the same thing
    p = tmp_path / "kernel.c"
    text = CliRunner().invoke(main, ["analyze", str(p), "-D", "n=37"]).output
    assert "W            n = 37 FLOP   [for n <= 100]" in text
    doc = json.loads(CliRunner().invoke(main, ["analyze", str(p), "-D", "n=37", "--format", "json"]).output)
    flops = doc["kernels"][0]["flops"]
    assert (flops["total"], flops["expr"], flops["condition"]) == (37, "n", "n <= 100")
    assert sorted((piece["condition"], piece["expr"]) for piece in flops["pieces"]) == \
        [("n <= 100", "n"), ("n >= 101", "100")]


def test_max_with_a_constant(tmp_path):
    # i < n - 100: n - 100 trips from n = 101 on, none below: max(n - 100, 0).
    k = analyze_source(TAIL, tmp_path)["skip_head"].total
    assert same(k.flops.expr, S("Max(n - 100, 0)")) and same(k.compulsory.expr, S("8*Max(n - 100, 0)"))
    for n, w in ((1, 0), (37, 0), (99, 0), (100, 0), (101, 1), (102, 2), (1000, 900)):
        t = _at(TAIL, tmp_path, "skip_head", n)
        assert (t.flops.value, t.compulsory.value) == (w, 8 * w), n
    # at n = 37 nothing runs: the formula shown is 0, and there is no intensity
    t = _at(TAIL, tmp_path, "skip_head", 37)
    assert t.flops.expr == 0 and t.intensity.value is None


def test_branch_on_a_size_keeps_both_pieces(tmp_path):
    # n > 64: n trips of 1 FLOP; else n trips of 3 FLOPs (a*a + 2*a).  Q = 8n either way.
    k = analyze_source(BRANCH, tmp_path)["by_size"].total
    pieces = {str(c): e for c, e in k.flops.piece_list()}
    assert pieces == {"n >= 65": S("n"), "n <= 64": S("3*n")}
    assert same(k.compulsory.expr, S("8*n"))
    for n, w in ((1, 3), (37, 111), (64, 192), (65, 65), (1000, 1000)):
        t = _at(BRANCH, tmp_path, "by_size", n)
        assert (t.flops.value, t.compulsory.value) == (w, 8 * n), n
    t = _at(BRANCH, tmp_path, "by_size", 37)
    assert t.flops.expr == S("3*n") and str(t.flops.holds) == "n <= 64"
    assert t.intensity.expr == S("3/8")
    # without sizes the text report gives one line per piece, each with its condition
    text = CliRunner().invoke(main, ["analyze", str(tmp_path / "kernel.c")]).output
    assert "  W            n FLOP     if n >= 65" in text and "               3*n FLOP   if n <= 64" in text


LINEARIZED = """
#define NK 512
void copy_rows(int ni, int nk, const float *a, float *b)
{
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            b[i * NK + k] = 2.0f * a[i * NK + k];
}
"""


def _distinct(ni, nk):
    return len({i * 512 + k for i in range(ni) for k in range(nk)})


@pytest.mark.parametrize("ni,nk", [(1, 37), (2, 511), (2, 512), (2, 513), (3, 1000), (256, 256), (37, 600)])
def test_linearized_rows_on_both_sides_of_the_stride(tmp_path, ni, nk):
    # Elements i*512 + k: rows of nk elements at a stride of 512.  For nk <= 512 they do not
    # overlap: ni*nk distinct elements; for nk > 512 row i overlaps row i+1 and the union is the
    # interval 0 .. 512*(ni-1) + nk - 1: 512*(ni - 1) + nk elements (the set above, by enumeration).
    expected = ni * nk if nk <= 512 else 512 * (ni - 1) + nk
    assert expected == _distinct(ni, nk)
    t = analyze_source(LINEARIZED, tmp_path, {"ni": str(ni), "nk": str(nk)})["copy_rows"].total
    assert t.arrays["a"].read.value == 4 * expected and t.arrays["b"].write.value == 4 * expected
    assert t.compulsory.value <= t.access.value == 8 * ni * nk
    # the formula shown is the piece that holds at these sizes
    shown = t.compulsory.expr.subs({S("ni"): ni, S("nk"): nk})
    assert shown == 8 * expected


def test_linearized_rows_formula_pieces(tmp_path):
    k = analyze_source(LINEARIZED, tmp_path)["copy_rows"].total
    pieces = {str(c): e for c, e in k.arrays["a"].read.piece_list()}
    # at nk = 512 both formulas give 2048*ni: the boundary may sit on either side of it
    assert set(map(str, pieces.values())) == {"4*ni*nk", "2048*ni + 4*nk - 2048"}
    assert pieces.get("nk <= 511", pieces.get("nk <= 512")) == S("4*ni*nk")


LINEARIZED_CUDA = """
#define NK 512
__global__ void copy_rows(int ni, int nk, const float *a, float *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ni)
        for (int k = 0; k < nk; k++)
            b[i * NK + k] = 2.0f * a[i * NK + k];
}
"""


def test_linearized_rows_grid_unknown(tmp_path):
    # No launch: the grid covers the guard, so the numbers are the C kernel's.  At ni = nk = 256
    # rows do not overlap: 2 arrays x 4 B x 65,536 elements = 524,288 B (never the overlapping
    # formula 4096*ni + 8*nk - 4096 = 1,050,624 evaluated there).
    p = tmp_path / "k.cu"
    p.write_text(LINEARIZED_CUDA)
    doc = json.loads(CliRunner().invoke(main, ["analyze", str(p), "--block", "128", "-D", "ni=256", "-D", "nk=256",
                                               "--format", "json"]).output)
    b = doc["kernels"][0]["bytes"]
    assert (b["compulsory"], b["compulsory_expr"], b["access"]) == (524288, "8*ni*nk", 524288)
    doc = json.loads(CliRunner().invoke(main, ["analyze", str(p), "--block", "128", "-D", "ni=3", "-D", "nk=600",
                                               "--format", "json"]).output)
    b = doc["kernels"][0]["bytes"]
    # 512*2 + 600 = 1,624 elements per array
    assert b["compulsory"] == 8 * 1624 and b["compulsory_expr"] == "4096*ni + 8*nk - 4096"


HALF_BLOCK = """
#define THREADS 1024
__global__ void half_block(int n, const float *a, float *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && threadIdx.x < THREADS / 2)
        b[i] = 2.0f * a[i];
}
"""


@pytest.mark.parametrize("n,w", [(37, 37), (511, 511), (512, 512), (513, 512), (1000, 512), (1024, 512),
                                 (1100, 588), (1536, 1024), (2000, 1024)])
def test_define_compared_with_a_thread_index(tmp_path, n, w):
    # Blocks of 1024 threads; thread t of block b handles i = 1024 b + t when i < n and t < 512:
    # W = 512*floor(n/1024) + min(n mod 1024, 512).  n = 1000: 512 (not 1000); n = 1100: 512 + 76.
    # THREADS is folded to 1024 (SR115): it describes the launch's block, not a problem size.
    p = tmp_path / "k.cu"
    p.write_text(HALF_BLOCK)
    doc = json.loads(CliRunner().invoke(main, ["analyze", str(p), "--block", "1024", "-D", f"n={n}",
                                               "--format", "json"]).output)
    k = doc["kernels"][0]
    assert k["exact"] and k["flops"]["total"] == w and k["bytes"]["compulsory"] == 8 * w
    assert any(d["code"] == "SR115" and "THREADS" in d["message"] for d in k["diagnostics"])


def test_define_compared_with_a_thread_index_and_grid(tmp_path):
    # the form: the guard is the thread index alone; one block of 1024 threads of which
    # 512 pass: W = 512 per block, so 512*gridDim_x, 512 with --grid 1 and 1,536 with --grid 3.
    src = HALF_BLOCK.replace("i < n && ", "")
    p = tmp_path / "k.cu"
    p.write_text(src)
    for grid, w in ((None, None), ("1", 512), ("3", 1536)):
        args = ["analyze", str(p), "--block", "1024", "--format", "json"] + (["--grid", grid] if grid else [])
        k = json.loads(CliRunner().invoke(main, args).output)["kernels"][0]
        assert k["flops"]["expr"] == "512*gridDim_x" and k["flops"]["total"] == w


def test_differ_treats_floors_as_unknowns():
    """probes.differ_opaque is the cheap half of _equal: formulas equal as functions of the sizes can
    still differ as polynomials in their floors, and _equal (floors opaque) calls them unequal.
    Hand-derived cases: floor(n/2) and floor(n/2 + 1/2) agree at every even n but are different
    unknowns (differ); 2*floor(n/2) vs n likewise; floor((n+1)/2) is floor(n/2 + 1/2) once its
    argument is expanded (same unknown: no difference); x/(x+1) = (x**2+x)/(x+1)**2 as rational
    functions (x+1 cancels: no difference)."""
    import sympy

    from staticroof.analysis.pieces import _equal
    from staticroof.analysis.probes import differ_opaque as _differ_opaque

    n, x = sympy.symbols("p_n p_x")
    half, half_up = sympy.floor(n / 2), sympy.floor(n / 2 + sympy.Rational(1, 2))
    assert _differ_opaque(half, half_up) and not _equal(half, half_up)
    assert _differ_opaque(2 * half, n) and not _equal(2 * half, n)
    assert not _differ_opaque(sympy.floor((n + 1) / 2), half_up)
    assert _equal(sympy.floor((n + 1) / 2) * n, n * half_up)
    ratio, other = x / (x + 1), (x ** 2 + x) / (x + 1) ** 2
    assert not _differ_opaque(ratio, other) and _equal(ratio, other)
    assert _differ_opaque(ratio, x / (x + 2))


def test_tiled_pieces_told_apart_off_the_sample_point():
    """probes.differ_at_a_point decides `_agrees` is False from exact values at points of the
    domain.  The pair below is two pieces of the compulsory traffic of the tiled GEMM of
    tests/data/ncu/rtx5070_kernels.cu (sizes k, m, n; TILE = 32).  By hand, with C = ceil(k/32)
    and F = floor(m/32):
        praw - raw = 64k(F^2 - C^2) - 4km(F - C) + 64k(F - C) = (F - C)(64k(F + C) - 4km + 64k).
    On the domain k >= 2, k <= m <= k + 31: m >= k > 32(C - 1) gives F >= C - 1, m <= 32C + 31 gives
    F <= C.  F = C: they agree.  F = C - 1 (m < 32C): the difference is -(128kC - 4km) = -4k(32C - m)
    < 0.  So they agree at isl's sample point (k = 2, m = 33: C = F = 1) and on the whole face
    m = k + 31, but differ at k = m = 40 (C = 2, F = 1): raw = 128*40*2 = 10240, praw = 2560 - 10240
    - 3840 + 17920 = 6400, a difference of -3840 = -4*40*(64 - 40).  On k = 1, m = 32 (n free) raw
    is 128*1*1 = 128 = praw: equal, and no point may tell them apart."""
    import islpy as isl
    import sympy

    from staticroof.analysis.evaluators import evaluator
    from staticroof.analysis.pieces import Piece, _agrees
    from staticroof.analysis.probes import differ_at_a_point, more_points

    k, m, n = sympy.symbols("p_k p_m p_n")
    C, F = sympy.floor(k / 32 + sympy.Rational(31, 32)), sympy.floor(m / 32)
    raw = 128 * k * C
    praw = 64 * k * F ** 2 - 64 * k * C ** 2 + (-4 * k * m + 64 * k) * F + (4 * k * m + 64 * k) * C
    syms = [k, m, n]
    f, g = evaluator(raw, syms), evaluator(praw, syms)
    assert f([40, 40, 1]) == 10240 and g([40, 40, 1]) == 6400
    dom = isl.Set("[p_k, p_m, p_n] -> { : p_k >= 2 and p_k <= p_m <= 31 + p_k and p_n > 0 }")
    first = [2, 33, 1]  # the sample point isl gave for this piece in the GEMM's analysis
    assert f(first) == g(first)  # one point is not enough here
    assert all(f([kk, kk + 31, 1]) == g([kk, kk + 31, 1]) for kk in range(2, 500))  # nor the face
    names = ["p_k", "p_m", "p_n"]
    assert differ_at_a_point(raw, Piece(dom, praw), names) and not _agrees(raw, Piece(dom, praw))
    # the points added from there lie in the domain (a difference there proves the formula wrong)
    # and leave the face
    found = list(more_points(dom, names, dict(zip(names, first, strict=True))))
    for p in found:
        cons = " and ".join(f"{x} = {p[x]}" for x in names)
        assert isl.Set(f"[p_k, p_m, p_n] -> {{ : {cons} }}").is_subset(dom)
    assert any(f([p[x] for x in names]) != g([p[x] for x in names]) for p in found)
    equal_dom = isl.Set("[p_k, p_m, p_n] -> { : p_k = 1 and p_m = 32 and p_n > 0 }")
    assert not differ_at_a_point(raw, Piece(equal_dom, sympy.Integer(128)), names)
    assert _agrees(raw, Piece(equal_dom, sympy.Integer(128)))

    # the points are remembered by the domain's text: a second piece on an equal domain built
    # separately (another count of the same kernel) shares them, and its answers are the same
    first_piece, second_piece = Piece(dom, praw), Piece(isl.Set(str(dom)), praw)
    assert differ_at_a_point(raw, first_piece, names) and differ_at_a_point(raw, second_piece, names)
    assert first_piece._probes is second_piece._probes
    assert not differ_at_a_point(praw, second_piece, names)  # a formula agrees with itself everywhere
    assert second_piece._probes[1] is None  # ... at every point: all of them made, and shared


def test_agreement_point_by_point_on_a_small_domain():
    """_agrees proves agreement on a bounded domain of at most 64 points by evaluating both formulas
    at every point.  floor(n/8) is 0 for 1 <= n <= 7 (agrees with 0 there), but 1 at n = 8: on
    1 <= n <= 8 it does not agree; floor(n/8)*n - n + n agrees with floor(n/8)*n on any domain."""
    import islpy as isl
    import sympy

    from staticroof.analysis.pieces import Piece, _agrees
    from staticroof.analysis.probes import zero_at as _zero_at

    n = sympy.Symbol("p_n")
    low = isl.Set("[p_n] -> { : 1 <= p_n <= 7 }")
    assert _agrees(sympy.floor(n / 8), Piece(low, sympy.Integer(0)))
    assert not _agrees(sympy.floor(n / 8), Piece(isl.Set("[p_n] -> { : 1 <= p_n <= 8 }"), sympy.Integer(0)))
    assert _zero_at(lambda: sympy.floor(n / 8), sympy.floor(n / 8), sympy.Integer(0), {n: 7})
    assert not _zero_at(lambda: sympy.floor(n / 8), sympy.floor(n / 8), sympy.Integer(0), {n: 8})


def test_membership_of_a_point_in_a_parameter_set():
    """probes.membership decides membership as isl's subset test does.  By hand, for the union
    `1 <= n <= 10 and m = 2n` or `n >= 20 and m <= n`: (5, 10) is in the first part, (5, 11) in
    neither (m != 2n, n < 20), (20, -7) and (25, 25) in the second, (15, 0) and (20, 21) in neither.
    A set with an integer division (`n % 4 = 0`: an existential variable) is left to isl: 8 is in
    it, 6 is not.  Then every point of a box agrees with isl, for both sets."""
    import islpy as isl

    from staticroof.analysis.probes import membership

    union = isl.Set("[n, m] -> { : (1 <= n <= 10 and m = 2n) or (n >= 20 and m <= n) }")
    inside = membership(union)
    assert inside((5, 10)) and inside((20, -7)) and inside((25, 25))
    assert not inside((5, 11)) and not inside((15, 0)) and not inside((20, 21))
    divided = isl.Set("[n, m] -> { : n % 4 = 0 and m >= 1 }")
    assert membership(divided)((8, 1)) and not membership(divided)((6, 1))
    for dom in (union, divided):
        test = membership(dom)
        for n in range(-2, 30):
            for m in range(-8, 30):
                one = isl.Set(f"[n, m] -> {{ : n = {n} and m = {m} }}")
                assert test((n, m)) == one.is_subset(dom), (str(dom), n, m)


def test_merge_does_not_key_on_recycled_ids(monkeypatch):
    """_merge keys its ranks and failed trials on the pieces, not on id(): a merged piece may take
    the id of a piece a merge dropped.  Shown by giving every object one id (the worst recycling):
    A = 3n on n >= 10, B = 100 on 1 <= n <= 4, C = 3n + (n-5)(n-6)(n-7)(n-8)(n-9) on 5 <= n <= 9.
    3n fails on B (3 .. 12, never 100) and agrees with C on its five points (the product is 0
    there; proven point by point), so A absorbs C: two pieces, 3n on n >= 5 and B.  Keyed on ids,
    the failed (3n, B) would hide (3n, C) and leave three."""
    import islpy as isl
    import sympy

    from staticroof.analysis import pieces as P

    n = sympy.Symbol("p_n")
    a = P.Piece(isl.Set("[p_n] -> { : p_n >= 10 }"), 3 * n)
    b = P.Piece(isl.Set("[p_n] -> { : 1 <= p_n <= 4 }"), sympy.Integer(100))
    c = P.Piece(isl.Set("[p_n] -> { : 5 <= p_n <= 9 }"),
                3 * n + (n - 5) * (n - 6) * (n - 7) * (n - 8) * (n - 9))
    monkeypatch.setattr(P, "id", lambda obj: 0, raising=False)
    merged = P._merge([a, b, c])
    assert len(merged) == 2
    whole = next(p for p in merged if p.raw == 3 * n)
    assert whole.domain.is_equal(isl.Set("[p_n] -> { : p_n >= 5 }"))
    assert any(p.raw == 100 for p in merged)


def test_pinned_hull_equalities_are_read_off():
    """hulls._pinned solves hull equalities that each fix a size of their own without sympy.solve,
    and gives sympy.solve's answer.  By hand: n - 1 = 0: n = 1; 2m - 6 = 0 and n - 80 = 0: m = 3,
    n = 80; 3m - 2 = 0: m = 2/3.  Not pinned (None; _solved asks sympy): 80*b + d - 10320 = 0 has
    two sizes (sympy: b = 129 - d/80); n - 1 = n - 2 = 0 fixes n twice (no solution: _solved says
    None); n*m - 1 = 0 is not linear."""
    import sympy

    from staticroof.analysis.hulls import _pinned, _solved

    n, m, b, d = sympy.symbols("p_n p_m p_b p_d")
    for eqs, want in (((n - 1,), {n: 1}), ((2 * m - 6, n - 80), {m: 3, n: 80}),
                      ((3 * m - 2,), {m: sympy.Rational(2, 3)})):
        assert _pinned(eqs) == want
        assert sympy.solve(list(eqs), sorted(want, key=str), dict=True) == [want]
    assert _pinned((80 * b + d - 10320,)) is None
    assert _solved((80 * b + d - 10320,)) == {b: 129 - d / 80}
    assert _pinned((n - 1, n - 2)) is None and _solved((n - 1, n - 2)) is None
    assert _pinned((n * m - 1,)) is None


def test_the_piece_at_sizes_from_an_isl_point(tmp_path):
    # clamp_head, by hand: i runs min(n, 100) times, one multiply each, so W = min(n, 100): the
    # piece n for n <= 100, 100 from n = 100 on (one of them holds at n = 100, where both give 100); n = 0
    # is outside the region (every size at least 1): no piece.  The one-point set is built from
    # an isl Point: the same set as its text, also past 64 bits (a product of grid dimensions)
    import islpy as isl

    from staticroof.analysis import pieces as PM

    w = analyze_source(CLAMP, tmp_path)["clamp_head"].total.flops
    p = w.pieces
    assert len(p.pieces) == 2
    for n, expected in ((1, 1), (99, 99), (100, 100), (101, 100), (10 ** 6, 100)):
        piece = p._at({"n": n})
        assert piece is not None and piece.expr.subs(S("n"), n) == expected
    assert p._at({"n": 0}) is None and p._at({}) is None
    space = isl.Set("[p_a, p_b] -> { : p_a >= 1 and p_b >= 1 }").get_space()
    region = isl.Set("[p_a, p_b] -> { : p_a >= 1 and p_b >= 10 }")
    big = 10 ** 30
    got = PM.point_set(space, [5, big], region)
    assert got is not None and got.is_equal(isl.Set(f"[p_a, p_b] -> {{ : p_a = 5 and p_b = {big} }}"))
    assert PM.point_set(space, [5, 9], region) is None  # p_b = 9 is outside the region


def test_a_resplit_on_remembered_halves_is_the_resplit_afresh():
    """pieces._resplit with its candidate halves remembered per pair of domains (_halves).  By hand,
    on the region n, m >= 1: piece a = {n >= 3, m >= 2} with formula 4n, piece b (the rest:
    n <= 2, or n >= 3 and m = 1) with 4n + (m - 1)(3 - n), which is 4n on the line n >= 3, m = 1
    (proven on its affine hull).  Split by a's constraint m >= 2 neither formula holds on the other
    side (at n = 1, m = 2 b's is 6, a's 4; at n = 4, m = 2 b's is 15, a's 16); split by n >= 3,
    4n holds on all of n >= 3 and b's formula on n <= 2: the pieces become {n >= 3} (4n) and
    {n <= 2} (b's).  The second call, on the same two domains with the same formulas, reads the
    halves from the memo and must split the same way; a pair whose domains have one constraint
    each ({n >= 3}, {n <= 2}) has nothing to re-split."""
    import islpy as isl
    import sympy

    from staticroof.analysis import pieces as P

    n, m = sympy.Symbol("p_n"), sympy.Symbol("p_m")
    region = isl.Set("[p_n, p_m] -> { : p_n >= 1 and p_m >= 1 }")
    a_dom = isl.Set("[p_n, p_m] -> { : p_n >= 3 and p_m >= 2 }")
    b_dom = region.subtract(a_dom).coalesce()
    b_raw = 4 * n + (m - 1) * (3 - n)
    P._HALVES.clear()
    for _ in range(2):
        out = P._resplit([P.Piece(a_dom, 4 * n), P.Piece(b_dom, b_raw)], region)
        assert [p.raw for p in out] == [4 * n, b_raw]
        assert out[0].domain.is_equal(isl.Set("[p_n, p_m] -> { : p_n >= 3 and p_m >= 1 }"))
        assert out[1].domain.is_equal(isl.Set("[p_n, p_m] -> { : 1 <= p_n <= 2 and p_m >= 1 }"))
    assert len(P._HALVES) == 1
    lone = [P.Piece(out[0].domain, 4 * n), P.Piece(out[1].domain, b_raw)]
    assert P._resplit(lone, region) == lone and P._halves(out[0].domain, out[1].domain, region) is None


def test_a_region_is_its_parameters_and_their_grid_roles():
    # p_a and p_b as two plain sizes: both >= 1; the same names with p_b a grid dimension
    # (gridDim_x): p_b >= GRID and p_a then between 1 and SIZE_CAP.  Remembered per names and
    # roles, so the second namer, whose p_b is the grid, must not get the first one's region
    import islpy as isl
    import sympy

    from staticroof.analysis import pieces as PM
    from staticroof.analysis.polyhedra import Namer

    space = isl.Set("[p_a, p_b] -> { : }").get_space()
    plain, grid = Namer(), Namer()
    plain.params.update(p_a=sympy.Symbol("n"), p_b=sympy.Symbol("m"))
    grid.params.update(p_a=sympy.Symbol("n"), p_b=sympy.Symbol("gridDim_x"))
    for _ in range(2):  # made, then remembered: the same sets
        assert PM.region_of(space, plain).is_equal(isl.Set("[p_a, p_b] -> { : p_a >= 1 and p_b >= 1 }"))
        assert PM.region_of(space, grid).is_equal(isl.Set(
            f"[p_a, p_b] -> {{ : 1 <= p_a <= {PM.SIZE_CAP} and p_b >= {PM.GRID} }}"))


def _differ_at_a_point_afresh(raw, piece, names):
    """probes.differ_at_a_point as it was before the piece's own values were kept (issue #15):
    symbols made and sorted at each call, both formulas evaluated at every point."""
    import sympy

    from staticroof.analysis.probes import _points, compiled

    if piece.domain.is_empty():
        return False
    syms = tuple(sorted((sympy.Symbol(n) for n in names), key=str))
    try:
        f, g = compiled(raw, syms), compiled(piece.raw, syms)
    except (ValueError, TypeError):
        return False
    for values in _points(piece, names):
        point = [values[x.name] for x in syms]
        try:
            if f(point) != g(point):
                return True
        except (ValueError, TypeError, ZeroDivisionError):
            continue
    return False


def test_differ_at_a_point_with_kept_values_and_fingerprints_in_all_parameters_as_afresh():
    # every comparison _merge and _resplit make while analyzing tiled and stencil kernels (pieces
    # compared with several formulas, their own values kept), each answered again afresh on a
    # new Piece of the same domain and formula (no values kept); every fingerprint _group takes
    # in its domain's parameters, taken again in the formula's own symbols
    from pathlib import Path

    from staticroof import pipeline
    from staticroof.analysis import isltext, pieces as P, polyhedra

    root = Path(__file__).resolve().parent.parent
    files = ["samples/matmul_tiled.cu", "tests/data/cuda/laplace3d.cu", "tests/data/cuda/tile_div_mod.cu",
             "tests/data/cuda/transpose_tiled.cu"]
    seen: list = []
    kept = P.differ_at_a_point

    def checked(raw, piece, names):
        reused = piece._values is not None and len(piece._values[1]) > 0  # values kept by an earlier call
        got = kept(raw, piece, names)
        seen.append((got, _differ_at_a_point_afresh(raw, P.Piece(piece.domain, piece.raw), names), reused))
        return got

    prints: list = []
    printed = P.fingerprint

    def checked_print(raw, names=None):
        got = printed(raw, names)
        if names is not None:  # in all the domain's parameters: what it is in the formula's own symbols
            prints.append((got, printed(raw)))
        return got

    isltext.qp_sympy.cache_clear()
    polyhedra._pieces_cache.clear()
    mp = pytest.MonkeyPatch()
    mp.setattr(P, "differ_at_a_point", checked)
    mp.setattr(P, "fingerprint", checked_print)
    try:
        for f in files:
            assert not pipeline.run([root / f]).failed, f
    finally:
        mp.undo()
    assert len(seen) > 50 and all(got == afresh for got, afresh, _ in seen)
    assert any(got for got, _, _ in seen) and not all(got for got, _, _ in seen)
    assert sum(reused for _, _, reused in seen) >= 5  # values kept and read again (12 of 244)
    assert len(prints) > 20 and all(got == own for got, own in prints) and any(got for got, _ in prints)
