"""The kernels issue #15 measured as pathological, counted exactly and fast.

The all-pairs shortest-path file of a polyhedral benchmark suite took 25 s.  Not because of its
shortest-path kernel (0.1 s), but because of its init_array: a store guarded by `(i + j) % 13 == 0 ||
(i + j) % 7 == 0 || (i + j) % 11 == 0`.  isl counts a union of sets by first making it disjoint, and
each complement of a lattice (`% 13 != 0`) splits into one piece per residue: minutes of counting and
a quasi-polynomial of thousands of terms.  polyhedra.set_card counts overlapping unions of lattices
by inclusion-exclusion instead (seven lattices, one term each).  Expected values are derived by hand
in the kernel files' headers (tests/data/real/polybench/floyd-warshall*.c) and below."""

from __future__ import annotations

import islpy as isl
import pytest

from helpers import ROOT, analyze_file

POLYBENCH = ROOT / "tests" / "data" / "real" / "polybench"


def _pairs_with_sum_divisible(n: int, moduli=(13, 7, 11)) -> int:
    """#{(i, j) in [0, n)^2 : some modulus divides i + j}, by brute force over the sums: the sum s
    (0 <= s <= 2n - 2) is made by min(s + 1, 2n - 1 - s) pairs."""
    return sum(min(s + 1, 2 * n - 1 - s) for s in range(2 * n - 1) if any(s % m == 0 for m in moduli))


def test_pair_count_by_hand():
    # n = 7: the sums run over 0 .. 12; those 13, 7 or 11 divides are 0 (1 pair), 7 (2n - 1 - 7 = 6
    # pairs) and 11 (13 - 11 = 2 pairs): 9
    assert _pairs_with_sum_divisible(7) == 1 + 6 + 2
    assert _pairs_with_sum_divisible(1) == 1


@pytest.fixture(scope="module")
def floyd():
    kernels, _ = analyze_file(POLYBENCH / "floyd-warshall.c", {})
    return kernels


def test_shortest_path_kernel_is_exact(floyd):
    """int data: the `?:` picks one of two values the condition has already read, at no FLOP, so the
    choice costs the same either way (no SR104).  By hand (see the file's header): W = 0,
    Q = 4*n^2 read + 4*n^2 written, Q_access = 4*(2n^3 + n^2) loads + 4*n^3 stores."""
    k = floyd["kernel_floyd_warshall"]
    assert k.exact and not k.failed, [str(d) for d in k.diagnostics]
    assert "SR104" not in {d.code for d in k.diagnostics}
    t = k.total
    assert t.flops.expr == 0
    for n in (1, 2, 3, 10):
        values = {"n": n}
        assert t.compulsory.pieces.value(values) == 8 * n * n
        assert t.access.pieces.value(values) == 12 * n ** 3 + 4 * n * n


@pytest.mark.parametrize("n", [1, 6, 7, 8, 10, 11, 12, 13, 14, 76, 77, 78, 90, 91, 92, 142, 143, 144,
                               1000, 1001, 1002, 2003])
def test_guarded_init_store_count(floyd, n):
    """init_array: n^2 stores, then one more where 13, 7 or 11 divides i + j; every element is first
    written.  Sizes on both sides of each modulus and of each least common multiple."""
    t = floyd["init_array"].total
    assert floyd["init_array"].exact
    assert t.flops.expr == 0
    assert t.compulsory.pieces.value({"n": n}) == 4 * n * n
    assert t.access.pieces.value({"n": n}) == 4 * (n * n + _pairs_with_sum_divisible(n))


def test_float_select_is_a_bound_and_fminf_exact():
    """float data (floyd-warshall-float.c): with `?:` the false branch adds again, so an iteration
    costs 1 or 2 FLOPs by the data: the upper bound 2*n^3, SR104.  fminf counts 0: n^3, exact."""
    kernels, _ = analyze_file(POLYBENCH / "floyd-warshall-float.c", {})
    sel, fmin = kernels["kernel_fw_select"], kernels["kernel_fw_fminf"]
    assert not sel.exact and "SR104" in {d.code for d in sel.diagnostics}
    assert fmin.exact, [str(d) for d in fmin.diagnostics]
    for n in (1, 2, 5):
        assert sel.total.flops.pieces.value({"n": n}) == 2 * n ** 3
        assert fmin.total.flops.pieces.value({"n": n}) == n ** 3
        assert fmin.total.compulsory.pieces.value({"n": n}) == 8 * n * n


def _value(pw, n: int) -> int:
    pt = isl.Point.zero(pw.get_domain_space()).set_coordinate_val(isl.dim_type.param, 0, n)
    return int(pw.eval(pt).to_python())


def test_overlapping_lattices_are_counted_by_inclusion_exclusion():
    """The union of three overlapping lattices is one piece (isl's own count: dozens of pieces and
    minutes); the values are those of a brute-force count."""
    from staticroof.analysis.polyhedra import set_card

    s = isl.Set("[p_n] -> { S[i, j] : 0 <= i < p_n and 0 <= j < p_n and ((i + j) mod 13 = 0 or "
                "(i + j) mod 7 = 0 or (i + j) mod 11 = 0) }")
    c = set_card(s)
    assert len(c.get_pieces()) == 1
    for n in (0, 1, 7, 13, 91, 1001, 1002):
        assert _value(c, n) == (_pairs_with_sum_divisible(n) if n > 0 else 0)


@pytest.mark.parametrize("text", [
    # two lattices, small enough for isl's own count to compare with
    "[p_n] -> { S[i] : 0 <= i < p_n and (i mod 2 = 0 or i mod 3 = 0) }",
    # a lattice and a box that overlap
    "[p_n] -> { S[i, j] : 0 <= i < p_n and 0 <= j < p_n and ((i + j) mod 4 = 0 or i < 3) }",
    # disjoint parts (an odd/even split): isl's own count is used as it is
    "[p_n] -> { S[i] : 0 <= i < p_n and (i mod 2 = 0 or i mod 2 = 1) }",
    # no divisibility at all: isl's own count
    "[p_n] -> { S[i, j] : 0 <= i < p_n and 0 <= j < p_n and (i < 5 or j < 5) }",
])
def test_set_card_equals_isl_count(text):
    from staticroof.analysis.polyhedra import set_card

    s = isl.Set(text)
    ours, theirs = set_card(s), s.card()
    for n in range(30):
        assert _value(ours, n) == _value(theirs, n), n


def test_python_conditional_expression_picking_values_already_read(tmp_path):
    """The same rule in the Python front end: `a if a < b + c else b + c` on int32 re-reads what the
    condition read, so it is exact (W = 0, Q = 8*n^2, Q_access = 12*n^3 + 4*n^2 as in C)."""
    from helpers import analyze_source

    src = '''from numba import njit


@njit("void(int32[:, :])")
def floyd(path):
    n = path.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                path[i, j] = path[i, j] if path[i, j] < path[i, k] + path[k, j] else path[i, k] + path[k, j]
'''
    k = analyze_source(src, tmp_path, name="floyd.py")["floyd"]
    assert k.exact, [str(d) for d in k.diagnostics]
    for n in (1, 3):
        assert k.total.flops.pieces.value({"n": n}) == 0
        assert k.total.compulsory.pieces.value({"n": n}) == 8 * n * n
        assert k.total.access.pieces.value({"n": n}) == 12 * n ** 3 + 4 * n * n
