"""`while` loops that are counted loops (issue #28 §3): `while (cond) { body; v op= step; }` with the
last statement the only change of the variable the condition reads, and no `continue`, is the `for`
loop `for (; cond; v op= step) body` (tests/data/idioms/while_loops.c, while_gridstride.cu).  An
affine early exit `if (e) break;` first in a loop body, with `!e` holding for a prefix of the trips,
is a condition of the loop.
Expectations derived by hand below; each is also run by `staticroof trace` at n = 37 and n = 1000
(on both sides of the 64 of `halves`, which has no size)."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, same, skip_without_cc, totals_agree, trace_agrees

DATA = ROOT / "tests" / "data" / "idioms"
C_FILE = DATA / "while_loops.c"
CUDA_FILE = DATA / "while_gridstride.cu"

EXPECT = {
    # i = 1, 4, 7, ... < n: ceil((n - 1)/3) = floor((n + 1)/3) trips (n = 37: 12, n = 1000: 333),
    # one multiply each, x read and y written at each: 8 B.
    "stride3": {"W": "floor((n + 1)/3)", "Q": "8*floor((n + 1)/3)"},
    # s = 64, 32, 16, 8, 4, 2, 1 (then 0 ends it): 7 adds, x read at 7 distinct elements, out written
    # once: Q = 4*7 + 4 = 32.
    "halves": {"W": "7", "Q": "32"},
    # k = n - 1 down to 0: n adds (fp64), x read and y written n times: 16*n.
    "countdown": {"W": "n", "Q": "16*n", "fp64": "n"},
    # ceil(n/64) blocks of j < 64, leaving at the first ib*64 + j >= n: exactly k = 0..n-1, one
    # multiply each, x read and y written: W = n, Q = 8*n (n = 37: one cut block; 1000: 15 + 40).
    "blocked_tail": {"W": "n", "Q": "8*n"},
    # rows i < m while 2*i <= n: min(m, floor(n/2) + 1) rows of one multiply (fp64), a read and s
    # written: 16 B each.
    "first_rows": {"W": "Min(m, floor(n/2) + 1)", "Q": "16*Min(m, floor(n/2) + 1)"},
}
SIZES = {"first_rows": [{"m": 10, "n": 7}, {"m": 3, "n": 37}], "halves": [{}]}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_a_counted_while_loop_is_exact(kernel):
    k = analyze_file(C_FILE)[0][kernel]
    totals_agree(k, EXPECT[kernel])


@pytest.mark.parametrize("kernel", ["skips", "jumps"])
def test_a_while_loop_that_is_no_for_loop_stays_approximate(kernel):
    """`skips` has a `continue` (a `for` would run the increment on it), `jumps` steps `i` in the
    body too: both keep the unknown trip count (SR103)."""
    k = analyze_file(C_FILE)[0][kernel]
    assert not k.exact
    assert any(d.code == "SR103" for d in k.diagnostics)


@pytest.mark.parametrize("kernel", ["equal_exit", "data_exit"])
def test_an_exit_that_is_no_prefix_stays_a_break(kernel):
    """`if (j == 5) break;` in a loop from j = n: only a loop that passes 5 meets it (read as `j < 5`
    it would run no trip at all for n > 5); `if (x[j] < 0) break;` reads data.  Both stay SR102
    (counted over the full range, approximate)."""
    k = analyze_file(C_FILE)[0][kernel]
    assert not k.exact
    assert any(d.code == "SR102" and "break" in d.message for d in k.diagnostics)


TRACED = [(k, s) for k in sorted(EXPECT) for s in SIZES.get(k, [{"n": 37}, {"n": 1000}])]


@pytest.mark.parametrize("kernel,sizes", TRACED, ids=[f"{k}-{s}" for k, s in TRACED])
def test_counted_while_loops_agree_with_the_trace(kernel, sizes):
    k = analyze_file(C_FILE, {k: str(v) for k, v in sizes.items()})[0][kernel]
    trace_agrees(C_FILE, kernel, sizes, k, "c")


def test_a_while_grid_stride_loop_is_exact_with_a_runtime_grid():
    """saxpy as `while (i < n) { y[i] = a*x[i] + y[i]; i += stride; }` with stride = blockDim.x *
    gridDim.x and a grid from the device's SM count (unknown): every i < n once whatever the grid.
    W = 2*n, Q = 12*n."""
    k = analyze_file(CUDA_FILE)[0]["saxpy_while"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.flops.expr, S("2*n")) and same(k.total.compulsory.expr, S("12*n"))


@pytest.mark.parametrize("grid,block", [(2, 32), (3, 7)])
@pytest.mark.parametrize("n", [37, 1000])
def test_a_while_grid_stride_loop_agrees_with_the_trace(n, grid, block):
    """Grids of 64 and 21 threads: below 37 (each thread strides) and below 1000."""
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = analyze_file(CUDA_FILE, {"n": str(n)})[0]["saxpy_while"]
    traced = run_trace(str(CUDA_FILE), "saxpy_while", {"n": n}, "cuda",
                       launch={"grid": (grid, 1, 1), "block": (block, 1, 1)})
    assert not [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
