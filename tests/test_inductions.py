"""Induction variables (issue #28 §3): integers and pointers advanced by a loop-invariant amount once
per trip, loops that step two variables, and what a loop or an `if` assigns being unknown after it
(tests/data/idioms/inductions.c).  Expectations derived by hand; each exact one also traced at two
sizes."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, same, trace_agrees

PATH = ROOT / "tests" / "data" / "idioms" / "inductions.c"

EXPECT = {
    # p = a + j + cols*r at trip r: a[j + cols*r] for r < rows, j < cols is every element of a rows x
    # cols matrix once.  W: one add per element; Q: a read rows*cols, out written cols (4 B each).
    "colsum": ({}, {"W": "rows*cols", "Q": "4*rows*cols + 4*cols"}),
    # trip i reads x[i] and writes y[i] (8 B each): W = n multiplies (fp64), Q = 16*n.
    "scale_walk": ({}, {"W": "n", "Q": "16*n"}),
    # i = t, j = n - 1 - t while i < j, i.e. t < (n - 1)/2: floor(n/2) trips, each reading and writing
    # v[i] and v[j] (distinct, i < j): 2*floor(n/2) elements read and written, 4 B each.
    "reverse": ({}, {"W": "0", "Q": "16*floor(n/2)"}),
    # k = stride*i: with stride = 3 the reads src[3i] are distinct: W = n adds, Q = 4n + 4n.
    "gather_strided": ({"stride": "3"}, {"W": "n", "Q": "8*n"}),
    # a = A + 9*r (ld = 9): for cols <= 9 the rows do not overlap, A read and B read and written at
    # rows*cols elements each: Q = 12*rows*cols; for cols >= 9 they cover [0, 9*(rows - 1) + cols)
    # (consecutive rows overlap or touch): Q = 12*(9*(rows - 1) + cols).  W = rows*cols adds.
    "add_rows": ({"ld": "9"}, {"W": "rows*cols",
                               "Q": "Piecewise((12*cols + 108*rows - 108, cols >= 9), (12*cols*rows, True))"}),
    # j = -1 stepped twice per trip: a[2i] then a[2i + 1], 2n distinct elements written (8n B); b and
    # c read n each (8n B): an add and a multiply per trip.
    "two_steps": ({}, {"W": "2*n", "Q": "16*n"}),
}

TRACES = {
    "colsum": [{"rows": 5, "cols": 7}, {"rows": 1, "cols": 37}],
    "two_steps": [{"n": 37}, {"n": 1}],
    "scale_walk": [{"n": 37}, {"n": 1}],
    "reverse": [{"n": 7}, {"n": 10}],
    "gather_strided": [{"n": 37, "stride": 3}, {"n": 4, "stride": 3}],
    "add_rows": [{"rows": 4, "cols": 7, "ld": 9}, {"rows": 3, "cols": 11, "ld": 9}],
}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_induction_variable_is_exact(kernel):
    defines, expect = EXPECT[kernel]
    k = analyze_file(PATH, defines)[0][kernel]
    assert k.exact, [str(d) for d in k.diagnostics]
    got = {"W": k.total.flops.expr, "Q": k.total.compulsory.expr}
    for key, expected in expect.items():
        value = S(expected).subs({S(n): int(v) for n, v in defines.items()})
        assert same(got[key], value), f"{kernel} {key}: got {got[key]}, expected {expected}"


@pytest.mark.parametrize("kernel,sizes", [(k, s) for k, sets in TRACES.items() for s in sets],
                         ids=[f"{k}-{i}" for k, sets in TRACES.items() for i in range(len(sets))])
def test_induction_variable_agrees_with_the_trace(kernel, sizes):
    k = analyze_file(PATH, {n: str(v) for n, v in sizes.items()})[0][kernel]
    assert k.exact
    trace_agrees(PATH, kernel, sizes, k)


@pytest.mark.parametrize("kernel,why", [
    ("compact", "the increment is under a data condition"),
    ("triangle_walk", "the amount (i) changes each trip"),
    ("after_loop", "k after the loop is 2n, not its value before"),
    ("after_if", "k after the `if` is 5 or 0 depending on n"),
])
def test_not_an_induction_stays_approximate(kernel, why):
    """Before this, after_loop and after_if were "exact" with a[0] written once: k kept its value from
    before the loop or took the then-branch's value whatever the condition (a wrong exact count)."""
    from staticroof.pipeline import AnalysisOptions, run

    report = run([PATH], AnalysisOptions(all_functions=True))  # after_loop and after_if have no loop nest
    k = {k.name: k for k in report.kernels}[kernel]
    assert not k.exact, why
