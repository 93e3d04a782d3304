"""Issue #28 §2: C++ reference parameters of `__device__` helpers (tests/data/idioms/references.cu).

A writable `T&` parameter is the caller's object itself: a store through it writes the caller's
element (or register), which a copy would lose (saxpy through `axpy_update(y[i], a, x[i])` counted y
as read only: Q = 8n instead of 12n).  A `const T&` reads its argument once, like a copy.  An integer
changed through a reference is unknown afterwards (an index built from it is SR101, approximate).
Every expectation is derived by hand below and checked by `staticroof trace` on both sides of m = 5
(m = 3 and m = 7) and at n = 37 and n = 1000 (one partial block, several)."""

from __future__ import annotations

import pytest

from helpers import ROOT, analyze_file, skip_without_cc, totals_agree

DATA = ROOT / "tests" / "data" / "idioms" / "references.cu"

EXPECT = {
    # yi = a*xi + yi through the reference: 2 FLOPs; x read, y read and written: 12 B per i.
    "saxpy_ref": {"W": "2*n", "Q": "12*n", "Q_access": "12*n"},
    # out = s*v: 1 FLOP; x read, y written only (the reference is never read): 8 B per i.
    "scale_out": {"W": "n", "Q": "8*n", "Q_access": "8*n"},
    # sum += v*v in the caller's register s, m times per row: 2*m FLOPs; x read m per row, out
    # written once: 4*m*n + 4*n.
    "row_norms": {"W": "2*m*n", "Q": "4*m*n + 4*n", "Q_access": "4*m*n + 4*n"},
    # v + v on a const reference: 1 FLOP, x read once, y written: 8 B.
    "double_it": {"W": "n", "Q": "8*n", "Q_access": "8*n"},
    # u *= 1.0 - w (2 FLOPs: w is a run-time scalar), u += w*v (2): 4 fp64 FLOPs.  u read and
    # written, v read: 24 B.  Access: u loaded and stored by each of the two statements, v once:
    # (8 + 8)*2 + 8 = 40 B.
    "relax_ref": {"W": "4*n", "Q": "24*n", "Q_access": "40*n", "fp64": "4*n"},
}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_reference_parameters_are_the_callers_objects(kernel):
    k = analyze_file(DATA)[0][kernel]
    totals_agree(k, EXPECT[kernel])


def test_an_integer_changed_through_a_reference_is_unknown():
    """`int k = i; advance(k, 1); y[i] = x[k];`: k is i + 1, but only the callee says so; the copy
    kept k = i (a wrong exact Q with x[i]).  Now x's index is unknown: SR101, approximate."""
    k = analyze_file(DATA)[0]["shifted"]
    assert not k.exact
    assert any(d.code == "SR101" and "advance" in d.message for d in k.diagnostics)


@pytest.mark.parametrize("sizes", [{"n": 37, "m": 3}, {"n": 37, "m": 7}, {"n": 1000, "m": 5}])
@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_references_agree_with_the_trace(kernel, sizes):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    defines = {n: str(v) for n, v in sizes.items()}
    k = analyze_file(DATA, defines)[0][kernel]
    assert k.exact
    block = 128 if kernel == "row_norms" else 256
    launch = {"grid": (-(-sizes["n"] // block), 1, 1), "block": (block, 1, 1)}
    traced = run_trace(str(DATA), kernel, sizes, "cuda", launch=launch)
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad
