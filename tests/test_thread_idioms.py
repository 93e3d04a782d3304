"""Issue #28 §3: block-stride and grid-stride loops with a run-time stride, and flat thread indices
decomposed by division and modulo, are exact without the block size (tests/data/idioms/).

Each expectation is derived by hand below; each kernel is also run by `staticroof trace` at block
sizes 7 and 32 (a block smaller and larger than the ranges' odd sizes) with the analysis told the
same block size only as a size value (`-D blockDim_x=`), so the formula the analysis derived without
knowing the block is the one checked."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, same, skip_without_cc

DATA = ROOT / "tests" / "data" / "idioms"
RUNTIME = DATA / "runtime_block.cu"

# kernel -> {quantity: formula}, derived by hand:
EXPECT = {
    # one block per row (grid covers N), threads striding over [0, C): every (row, i) once.
    # W: one add per element = N*C.  Q: inp read N*C, out written N*C, bias read C (rows share it).
    # Access: bias[i] varies with i, so every trip loads it: 3 accesses per element.
    "bias_add_rows": {"W": "N*C", "Q": "8*N*C + 4*C", "Q_access": "12*N*C"},
    # W = N*C multiplies; Q: x read, y written (N*C each), s read N.  Access: s[row] is invariant in
    # i, but the loop writes y (into `out`, a float parameter that may alias s, no __restrict__):
    # reloaded on every trip: 3 accesses per element, 12*N*C (held, it would be 4*N*blockDim_x).
    "scale_rows": {"W": "N*C", "Q": "8*N*C + 4*N", "Q_access": "12*N*C"},
    # grid of 64 blocks striding over rows, threads over columns: every (r, c) once.  W: 2*a + 1 is
    # a multiply and an add (fp64): 2*N*C.  Q: a read, out written: 16*N*C.
    "rows_grid_block_stride": {"W": "2*N*C", "Q": "16*N*C", "fp64": "2*N*C"},
    # each of the G blocks sums its row of C: G*C adds; x read G*C; every thread writes its partial:
    # G*B elements (the store is outside the loop and uses threadIdx.x).
    "partial_sums": {"W": "C*gridDim_x", "Q": "4*C*gridDim_x + 4*blockDim_x*gridDim_x"},
    # idx in [0, B*T*C) is b*T*C + t*C + c: one-to-one onto the box, so out is written at B*T*C
    # distinct elements and inp read at as many.  W: one multiply each.
    "permute_btc": {"W": "B*T*C", "Q": "8*B*T*C"},
    # the same box in two steps (bt = idx / C; b = bt / T; t = bt % T): out written B*T*C, wte read
    # over c: C, wpe over (t, c): T*C.  W: one add each.  Access: three per element.
    "encoder_add": {"W": "B*T*C", "Q": "4*B*T*C + 4*T*C + 4*C", "Q_access": "12*B*T*C"},
    # idx in [0, N*T*T) is n*T*T + t2*T + t (the radix T twice; idx % (T*T) divides by a power):
    # the (t, t2) with t <= t2 are T*(T + 1)/2 per n, each one multiply and a read of att; att is
    # written everywhere.  W = N*T*(T + 1)/2, Q = Q_access = 4*N*T**2 + 2*N*T*(T + 1).
    "causal_mask": {"W": "N*T*(T + 1)/2", "Q": "4*N*T**2 + 2*N*T*(T + 1)", "Q_access": "4*N*T**2 + 2*N*T*(T + 1)"},
    # blockIdx.x = row in [0, N*T) is n*T + t (the block index's own digits), len = t + 1: the
    # block's threads stride over i < t + 1.  Each t occurs in N rows: W = N*T*(T + 1)/2 multiplies,
    # inp read and out written at each: Q = Q_access = 4*N*T*(T + 1).
    "causal_rows": {"W": "N*T*(T + 1)/2", "Q": "4*N*T*(T + 1)", "Q_access": "4*N*T*(T + 1)"},
}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_idiom_is_exact_with_a_runtime_block(kernel):
    k = analyze_file(RUNTIME)[0][kernel]
    assert k.exact, [str(d) for d in k.diagnostics]
    t = k.total
    got = {"W": t.flops.expr, "Q": t.compulsory.expr, "Q_access": t.access.expr}
    got.update({p: q.expr for p, q in t.by_precision.items()})
    for key, expected in EXPECT[kernel].items():
        g = got[key]
        if key == "Q_access" and getattr(t.access, "piecewise", False):
            g = {str(c): e for c, e in t.access.piece_list()}.get("C - blockDim_x >= 0", g)
        assert same(g, S(expected)), f"{kernel} {key}: got {g}, expected {expected}"


# (kernel, sizes, grid for a block of b): the grid the launch site computes, or one that covers.
TRACED = [
    ("bias_add_rows", {"N": 5, "C": 37}, lambda b: 5),
    ("scale_rows", {"N": 4, "C": 37}, lambda b: 4),
    ("scale_rows", {"N": 3, "C": 5}, lambda b: 3),  # C below every block
    ("rows_grid_block_stride", {"N": 70, "C": 9}, lambda b: 64),  # more rows than blocks: 6 stride twice
    ("rows_grid_block_stride", {"N": 37, "C": 9}, lambda b: 64),  # fewer rows than the 64 blocks
    ("partial_sums", {"C": 37, "gridDim_x": 3}, lambda b: 3),
    ("permute_btc", {"B": 2, "T": 3, "C": 5}, lambda b: -(-30 // b)),
    ("permute_btc", {"B": 3, "T": 1, "C": 7}, lambda b: -(-21 // b)),
    ("encoder_add", {"B": 2, "T": 3, "C": 5}, lambda b: -(-30 // b)),
    ("encoder_add", {"B": 1, "T": 4, "C": 3}, lambda b: -(-12 // b)),
    ("causal_mask", {"N": 2, "T": 5}, lambda b: -(-50 // b)),
    ("causal_mask", {"N": 3, "T": 1}, lambda b: -(-3 // b)),
    ("causal_rows", {"N": 2, "T": 37}, lambda b: 74),  # rows longer than 7 and 32 threads, shorter than 64
    ("causal_rows", {"N": 3, "T": 5}, lambda b: 15),
]


# blocks of 7 and 32 threads, and 64: on both sides of C = 37 and of the 5 to 30 elements of the boxes
@pytest.mark.parametrize("block", [7, 32, 64])
@pytest.mark.parametrize("kernel,sizes,grid", TRACED,
                         ids=[f"{t[0]}-" + ",".join(f"{n}={v}" for n, v in t[1].items()) for t in TRACED])
def test_idiom_agrees_with_the_trace(kernel, sizes, grid, block):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    defines = {**{n: str(v) for n, v in sizes.items()}, "blockDim_x": str(block)}
    k = analyze_file(RUNTIME, defines)[0][kernel]
    assert k.exact
    run_sizes = {n: v for n, v in sizes.items() if not n.startswith("gridDim")}
    traced = run_trace(str(RUNTIME), kernel, run_sizes, "cuda", launch={"grid": (grid(block), 1, 1),
                                                                         "block": (block, 1, 1)})
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


def test_a_grid_stride_invariant_read_is_loaded_once_per_thread():
    """scale_by_first with a grid of 2 blocks of 8 (16 threads) over n = 37: every thread runs
    ceil((37 - t)/16) >= 1 trips.  a[0] is invariant, but `y` (float, not restrict) may alias `a`
    and is written in the loop: the compiler reloads a[0] on every trip: 37 loads of a; x and y 37
    each.  Q access = 4*(37 + 37 + 37) = 444 B; Q compulsory = 4*(1 + 37 + 37) = 300 B; W = 37.
    (Were a[0] held in a register: 16 loads, one per thread, 360 B.)  With a covering grid (G*B >=
    n): 12n."""
    from staticroof.pipeline import AnalysisOptions, run
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    launch = {"grid": (2, 1, 1), "block": (8, 1, 1)}
    report = run([RUNTIME], AnalysisOptions(defines={"n": "37"}, launches={"scale_by_first": launch}))
    k = {k.name: k for k in report.kernels}["scale_by_first"]
    assert k.exact
    assert (k.total.flops.value, k.total.compulsory.value, k.total.access.value) == (37, 300, 444)
    traced = run_trace(str(RUNTIME), "scale_by_first", {"n": 37}, "cuda", launch=launch)
    assert all(r.ok for r in compare(k, traced))
    covering = analyze_file(RUNTIME)[0]["scale_by_first"]
    assert same(covering.total.access.expr, S("12*n"))


@pytest.mark.parametrize("kernel", ["grid_stride_if", "half_the_threads", "body_reads_thread", "every_other",
                                    "invariant_store", "not_a_digit"])
def test_a_shape_that_does_not_cover_once_is_not_exact(kernel):
    """A grid-stride loop under an `if` (it was repeated per thread: W = B*G*n, "exact");
    only some threads reach the loop; the body indexes by threadIdx.x; the threads start at 2t (every
    other element is skipped); an invariant store each trip (its count depends on the threads); a
    remainder by a size that is no place value of the guard's box: none of these is one loop per
    block (or one digit per size), so the result stays approximate."""
    k = analyze_file(DATA / "runtime_block_refused.cu")[0][kernel]
    assert not k.exact


REDUCE6 = DATA / "reduce6.cu"


@pytest.mark.parametrize("kernel", ["reduce6<256, true>", "reduce6<256, false>"])
def test_a_grid_stride_loop_taking_two_elements_a_trip_is_exact(kernel):
    """reduce6<256, true>: i = blockIdx.x*512 + threadIdx.x stepping by 512*gridDim.x, adding x[i] and
    x[i + 256] (if < n): the threads' trips are the i < n with i mod 512 < 256, each once, and with
    their second elements every element of [0, n) is added once: n adds.  <256, false> steps by
    256*gridDim.x over one element: n adds as well.  The block's tree: tid < 128 (128 adds), < 64 (64),
    then the first warp: + sdata[tid + 32] (32) and 5 shuffle steps (160): 384 per block.
    W = n + 384*gridDim_x; Q: x read n (4 B), one partial sum per block: 4*n + 4*gridDim_x."""
    k = analyze_file(REDUCE6)[0][kernel]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.flops.expr, S("n + 384*gridDim_x")) and same(k.total.compulsory.expr, S("4*n + 4*gridDim_x"))


@pytest.mark.parametrize("n", [37, 1000, 70000])
@pytest.mark.parametrize("kernel", ["reduce6<256, true>", "reduce6<256, false>"])
def test_reduce6_agrees_with_the_trace(kernel, n):
    """A grid of 3 blocks (1536 elements a trip of the two-element loop): n below one block's span,
    below a trip, and many trips."""
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = analyze_file(REDUCE6, {"n": str(n), "gridDim_x": "3"})[0][kernel]
    traced = run_trace(str(REDUCE6), kernel, {"n": n}, "cuda", launch={"grid": (3, 1, 1), "block": (256, 1, 1)})
    assert not [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
