"""Issue #28 §3: launch configurations the host computes (tests/data/launch/host_configs.cu).

A remainder test `n / 256 + (n % 256 ? 1 : 0)`, a float ceiling, `std::min` and a user `imin`
macro (a grid capped below n, and a grid-stride kernel under the same cap), a block size fixed by
a `switch` case or an `if` around the launch, a block size from cudaOccupancyMaxPotentialBlockSize,
a dim3 built by a host helper, and launches in host loops.  The file's header derives W and Q by
hand for each at n = 37 (one partial block) and n = 1000 (several blocks; the capped grid of 2
blocks covers 512 elements only), and a 2-D grid at 37 x 9 and 1000 x 20 (both sides of the
32 x 8 block).  Every exact kernel is also run by `staticroof trace` at the launch the analysis
read, at both sizes."""

from __future__ import annotations

import pytest
import sympy

from staticroof.frontends.common.tokens import tokenize
from staticroof.frontends.cuda.hostexpr import Folder
from staticroof.frontends.cuda.launch import find_launches, host_sites, scan_host

from helpers import ROOT, S, analyze_file, same, skip_without_cc

DATA = ROOT / "tests" / "data" / "launch" / "host_configs.cu"

SIZES = [{"n": 37, "nx": 37, "ny": 9}, {"n": 1000, "nx": 1000, "ny": 20}]

# kernel -> (W, Q, Q_access) at each of SIZES, from the file's header:
# per-block kernels: W = T + G, Q = 8*T + 4*G with T = min(n, G*B) elements covered by G blocks.
NUMBERS = {
    "k_rem": [(38, 300, 300), (1004, 8016, 8016)],  # G = ceiling(n/256): 1, 4
    "k_ceil": [(38, 300, 300), (1004, 8016, 8016)],
    "k_min": [(38, 300, 300), (514, 4104, 4104)],  # G = min(ceiling(n/256), 2): T = 37, 512
    "k_imin": [(38, 300, 300), (514, 4104, 4104)],
    "k_min_stride": [(38, 300, 300), (1002, 8008, 8008)],  # grid-stride: T = n, G = 1, 2
    "k_min_plain": [(37, 296, 296), (512, 4096, 4096)],  # no per-block term, T = min(n, 512) all the same
    "k_sw<128>": [(38, 300, 300), (1008, 8032, 8032)],  # G = ceiling(n/128): 1, 8
    "k_sw<64>": [(38, 300, 300), (1016, 8064, 8064)],  # G = ceiling(n/64): 1, 16
    "k_if": [(38, 300, 300), (1008, 8032, 8032)],
    "k_loop_n": [(38, 300, 300), (1004, 8016, 8016)],  # per launch, G = ceiling(n/256) in its own n
    "k_loop_block": [(37, 296, 296), (1000, 8000, 8000)],  # no per-block term: W = n, Q = 8*n
    # W = nx*ny + Gx*Gy, Q = 12*nx*ny + 8, Q_access = 12*nx*ny + 8*Gx*Gy; Gx, Gy = 2, 2 and 32, 3
    "k_2d": [(337, 4004, 4028), (20096, 240008, 240768)],
}

# the formulas, in the kernel's sizes
FORMULAS = {
    "k_rem": ("n + ceiling(n/256)", "8*n + 4*ceiling(n/256)"),
    "k_ceil": ("n + ceiling(n/256)", "8*n + 4*ceiling(n/256)"),
    "k_min": ("Min(n, 512) + Min(2, ceiling(n/256))", "8*Min(n, 512) + 4*Min(2, ceiling(n/256))"),
    "k_imin": ("Min(n, 512) + Min(2, ceiling(n/256))", "8*Min(n, 512) + 4*Min(2, ceiling(n/256))"),
    "k_min_stride": ("n + Min(2, ceiling(n/256))", "8*n + 4*Min(2, ceiling(n/256))"),
    "k_min_plain": ("Min(n, 512)", "8*Min(n, 512)"),  # never n: the capped grid does not cover it
    "k_sw<128>": ("n + ceiling(n/128)", "8*n + 4*ceiling(n/128)"),
    "k_sw<64>": ("n + ceiling(n/64)", "8*n + 4*ceiling(n/64)"),
    "k_if": ("n + ceiling(n/128)", "8*n + 4*ceiling(n/128)"),
    "k_loop_n": ("n + ceiling(n/256)", "8*n + 4*ceiling(n/256)"),
    "k_2d": ("nx*ny + ceiling(nx/32)*ceiling(ny/8)", "12*nx*ny + 8"),
}


def analyzed(sizes: dict) -> dict:
    return analyze_file(DATA, {k: str(v) for k, v in sizes.items()})[0]


@pytest.fixture(scope="module")
def results():
    return [analyzed(s) for s in SIZES]


def whole(q):
    """A quantity as one expression: its pieces (with their conditions) when it has several."""
    pieces = q.piece_list()
    if len(pieces) == 1:
        return sympy.sympify(pieces[0][1])
    return sympy.Piecewise(*[(e, c) for c, e in pieces[:-1]], (pieces[-1][1], True))


@pytest.mark.parametrize("kernel", sorted(NUMBERS))
def test_host_computed_launch_is_exact_at_both_sizes(results, kernel):
    for k, sizes, expected in zip([r[kernel] for r in results], SIZES, NUMBERS[kernel], strict=True):
        assert k.exact, [str(d) for d in k.diagnostics]
        t = k.total
        got = (t.flops.value, t.compulsory.value, t.access.value)
        assert got == expected, f"{kernel} at {sizes}: {got} != {expected}"


@pytest.mark.parametrize("kernel", sorted(FORMULAS))
def test_host_computed_launch_formulas(results, kernel):
    """The formulas (every piece of them) are the hand-derived ones at every size: a capped grid
    (Min) is piecewise, n + 2 blocks' worth above 512 elements."""
    k = results[1][kernel]
    w, q = FORMULAS[kernel]
    assert same(whole(k.total.flops), S(w)), k.total.flops.expr
    assert same(whole(k.total.compulsory), S(q)), k.total.compulsory.expr
    values = [{S(n): v for n, v in s.items()} for s in SIZES] + [{S("n"): 20000, S("nx"): 9, S("ny"): 70}]
    for at in values:
        assert whole(k.total.flops).subs(at) == S(w).subs(at)


def test_the_launch_read_for_each_idiom(results):
    k = results[1]
    assert k["k_sw<128>"].launch["block"] == (128, 1, 1) and k["k_sw<128>"].launch["grid"] == (8, 1, 1)
    assert k["k_sw<64>"].launch["block"] == (64, 1, 1) and k["k_sw<64>"].launch["grid"] == (16, 1, 1)
    assert k["k_if"].launch["block"] == (128, 1, 1)
    assert k["k_min"].launch["grid"] == (2, 1, 1)  # min(4, 2)
    assert k["k_2d"].launch["grid"] == (32, 3, 1) and k["k_2d"].launch["block"] == (32, 8, 1)
    assert results[0]["k_2d"].launch["grid"] == (2, 2, 1)


def test_an_occupancy_block_size_is_unknown_never_guessed(results):
    """`int bs = 256; cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, k_occ, 0, 0)`: the call
    writes bs, so the block is unknown (blockDim_x stays a size), never the 256 before it."""
    k = results[1]["k_occ"]
    assert k.launch["block"][0] is None and k.launch["grid"][0] is None
    assert "blockDim_x" in {str(s) for s in k.total.flops.expr.free_symbols}


def test_a_grid_from_the_host_loop_variable_is_approximate(results):
    """k_loop<<<s, 256>>> for s = 1..4: the grid is no formula in the kernel's parameters and
    differs per launch: approximate, SR153 (the counts take a covering grid)."""
    for r in results:
        k = r["k_loop"]
        assert not k.exact
        assert {"SR150", "SR153"} <= {d.code for d in k.diagnostics}
    for name in ("k_loop_n", "k_loop_block"):  # per launch a formula: exact, counted per launch
        codes = {d.code for d in results[0][name].diagnostics}
        assert "SR150" in codes and "SR153" not in codes


TRACED = [(kernel, i) for kernel in sorted(NUMBERS) for i in range(len(SIZES))]


@pytest.mark.parametrize("kernel,i", TRACED, ids=[f"{k}-{SIZES[i]['n']}" for k, i in TRACED])
def test_host_computed_launch_agrees_with_the_trace(results, kernel, i):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = results[i][kernel]
    launch = dict(k.launch)
    if None in launch["block"]:  # k_loop_block: any of the loop's blocks, its grid covering n
        b = 64
        launch = {"grid": (-(-SIZES[i]["n"] // b), 1, 1), "block": (b, 1, 1)}
    traced = run_trace(str(DATA), kernel, dict(k.sizes), "cuda", launch=launch)
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


# ---------------------------------------------------------------------------------------------
# The host scan itself

def sites_of(src: str, env: dict | None = None) -> dict:
    from staticroof.frontends.cuda.toplevel import split_items

    items = split_items(tokenize(src, "host.cu"))
    return host_sites(items, env or {})


def test_a_dim3_helper_is_inlined_and_an_unknown_one_is_unknown_in_every_component():
    # make_grid returns dim3(ceil(nx/32), ceil(ny/8)): nx = 100 -> 4, ny = 20 -> 3.  lib_grid is not
    # in the file: its dim3 is unknown in x, y and z (not x alone with y = z = 1).
    sites = sites_of("""
        static dim3 make_grid(int nx, int ny, dim3 b) { return dim3((nx + b.x - 1) / b.x, (ny + b.y - 1) / b.y); }
        static dim3 braces(int nx) { return {nx, 2, 1}; }
        void run(float* x) {
            dim3 block(32, 8);
            k1<<<make_grid(100, 20, block), block>>>(x);
            dim3 g = lib_grid(100);
            k2<<<g, block>>>(x);
            k3<<<braces(7), 64>>>(x);
            k4<<<lib_blocks(100), 64>>>(x);
        }""")
    assert sites["k1"].grid == (4, 3, 1)
    assert sites["k2"].grid == (None, None, None)
    assert sites["k3"].grid == (7, 2, 1)
    assert sites["k4"].grid == (None, None, None)


def test_an_integer_helper_is_one_dimension():
    # a helper the file defines returning int, which the folder cannot read (it has a branch): x only
    sites = sites_of("""
        static int blocks_for(int n) { if (n > 100) return 4; return 1; }
        void run(float* x, int n) { k<<<blocks_for(n), 64>>>(x); }""")
    assert sites["k"].grid == (None, 1, 1)


def test_a_dim3_parameter_no_caller_gives_is_unknown():
    sites = sites_of("void launch(dim3 grid, float* x) { k<<<grid, 64>>>(x); }")
    assert sites["k"].grid == (None, None, None)


def test_a_case_arm_binds_its_value_only_when_entered_by_its_label():
    # case 128 binds t = 128 (grid (1000 + 127)/128 = 8); `case 64: case 32:` is two values: t
    # unknown there; an arm the one before may fall into is unknown too.
    body = tokenize("""
        int g = (n + t - 1) / t;
        switch (t) {
        case 128: a<<<g, t>>>(x); break;
        case 64: case 32: b<<<g, t>>>(x); break;
        case 16: c<<<g, t>>>(x);
        case 8: d<<<g, t>>>(x); break;
        case 4: if (n > 5) { h<<<g, t>>>(x); } else { break; }
        case 2: { i<<<g, t>>>(x); break; }
        case 1: j<<<g, t>>>(x);
        }
        if (t == 256 && n > 0) e<<<g, t>>>(x);
        f<<<g, t>>>(x);""", "host.cu")
    sites = {s.kernel: s for s in find_launches(body, {"n": 1000})}
    assert sites["a"].grid == (8, 1, 1) and sites["a"].block == (128, 1, 1)
    assert sites["b"].block == (None, 1, 1)
    assert sites["c"].block == (16, 1, 1) and sites["c"].grid == (63, 1, 1)
    assert sites["d"].block == (None, 1, 1)  # reached from case 16 as well
    assert sites["h"].block == (4, 1, 1)
    assert sites["i"].block == (None, 1, 1)  # case 4 falls into it when n > 5 (its `break` is in an else)
    assert sites["j"].block == (1, 1, 1)  # case 2's own block ends with break
    assert sites["e"].block == (256, 1, 1) and sites["e"].grid == (4, 1, 1)
    assert sites["f"].block == (None, 1, 1)


def test_an_assignment_in_a_case_arm_is_conditional():
    # blocks = 4 in case 1 only: after the switch it is (mode == 1 ? 4 : 2); mode unknown: unknown
    body = tokenize("""
        int blocks = 2;
        switch (mode) { case 1: blocks = 4; break; default: break; }
        k<<<blocks, 64>>>(x);""", "host.cu")
    (site,) = find_launches(body, {})
    assert site.grid == (None, 1, 1)
    (site,) = find_launches(body, {"mode": 1})
    assert site.grid == (4, 1, 1)


def test_a_callee_parameter_stands_for_the_caller_expression():
    # run(n, t, (n + 2*t - 1) / (2*t)) with t unknown in main: in run, case 256 binds t, and the
    # grid (n + 511) / 512 is a formula in the kernel's n (the callee's size): n = 1000 -> 2.
    sites = sites_of("""
        __global__ void k(float* x, int n) { }
        static void run(int size, int threads, int blocks, float* x) {
            switch (threads) { case 256: k<<<blocks, threads>>>(x, size); break; }
        }
        int main(int argc, char** argv) {
            const int n = 1000;
            int t = atoi(argv[1]);
            int b = (n + 2 * t - 1) / (2 * t);
            run(n, t, b, 0);
        }""")
    site = sites["k"]
    assert site.grid == (2, 1, 1) and site.block == (256, 1, 1)
    from staticroof.frontends.cuda.launch import grid_in_params

    assert same(grid_in_params(site, ["x", "n"])[0], S("ceiling(n/512)"))


def test_an_address_taken_makes_a_host_variable_unknown():
    body = tokenize("""
        int bs = 256;
        k1<<<4, bs>>>(x);
        cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, k2, 0, 0);
        k2<<<(n + bs - 1) / bs, bs>>>(x);""", "host.cu")
    sites = {s.kernel: s for s in find_launches(body, {"n": 1000})}
    assert sites["k1"].block == (256, 1, 1)
    assert sites["k2"].block == (None, 1, 1) and sites["k2"].grid == (None, 1, 1)


def test_what_a_host_loop_assigns_has_no_single_value_in_it_or_after_it():
    # m starts at n and is divided in the loop: inside, the grid from m is not the first value's
    # (1000 + 255)/256 = 4; after the loop m is unknown too.
    body = tokenize("""
        int m = n;
        while (m > 1) { k1<<<(m + 255) / 256, 256>>>(x); m = m / 4; }
        k2<<<(m + 255) / 256, 256>>>(x);
        k3<<<(n + 255) / 256, 256>>>(x);""", "host.cu")
    sites = {s.kernel: s for s in scan_host(body, {"n": 1000})[0]}
    assert sites["k1"].grid == (None, 1, 1) and sites["k1"].varying == ["m"]
    assert sites["k2"].grid == (None, 1, 1)
    assert sites["k3"].grid == (4, 1, 1)


@pytest.mark.parametrize("text,n,expected", [
    # a remainder test folded to a ceiling: 37 -> 1, 256 -> 1, 257 -> 2, 1000 -> 4
    ("n / 256 + (n % 256 ? 1 : 0)", 37, 1), ("n / 256 + (n % 256 ? 1 : 0)", 256, 1),
    ("n / 256 + (n % 256 ? 1 : 0)", 257, 2), ("n / 256 + (n % 256 != 0)", 1000, 4),
    ("n / 256 + (n % 256 == 0 ? 0 : 1)", 512, 2),
    # a ternary min and max: imin(2, 4) = 2, the max of 2 and ceiling(37/256) = 1 is 2
    ("((2) < ((n + 255) / 256) ? (2) : ((n + 255) / 256))", 1000, 2),
    ("((n + 255) / 256 > 2 ? (n + 255) / 256 : 2)", 37, 2),
])
def test_host_ternaries_fold(text, n, expected):
    assert Folder({"n": n}).number(tokenize(text, "h.cu")) == expected
    formula = Folder({}).evaluate(tokenize(text, "h.cu"), {"n": "n"})
    assert not formula.has(sympy.Piecewise)  # a Min, Max or floors: affine to the analysis
    assert formula.subs(S("n"), n) == expected


def test_a_passed_expression_takes_the_parameter_type():
    # run(t, t / 2.0) into `int blocks`, t unknown in main and 5 in the case arm: the conversion
    # truncates, 5 / 2.0 = 2.5 -> 2 blocks, grid 2*2 = 4 (not 5, the double quotient doubled)
    sites = sites_of("""
        static void run(int t, int blocks, float* x) { switch (t) { case 5: k<<<blocks * 2, 64>>>(x); break; } }
        int main(int argc, char** argv) { int t = atoi(argv[1]); run(t, t / 2.0, 0); }""")
    assert sites["k"].grid == (4, 1, 1)


GRID_NOT_A_BOUND = """#include <cstdlib>
__global__ void shift(int n, const float *x, opaque_t *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + 1.0f;
}
__global__ void fill(int n, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * y[i];
}
int main(int argc, char **argv)
{
    const int n = 1 << 20;
    float *x, *y;
    const int threads = 256;
    const int blocks = (n > + threads - 1) / threads;   /* `>` where `+` was meant: 1 / 256 = 0 */
    shift<<<blocks, threads>>>(n, x, (opaque_t *)y);
    fill<<<(n + 255) / 256, atoi(argv[1])>>>(n, y);     /* a block size known only at run time */
    return 0;
}
"""


def test_a_grid_formula_that_is_no_loop_bound_is_the_grid_size(tmp_path):
    """Fuzz cases 7059 and 6386: a grid the host computes as `(n > 255) / 256` (C's comparison is 1
    or 0: a Piecewise) or as `(n + 255) / 256` with the block size unknown (gridDim * blockDim is then a
    product of a floor and a size) is no affine loop bound: both kernels were `unsupported` with only a
    warning.  The grid is then its own size, `gridDim_x`, as for a grid the host does not compute.
    `shift`: the guard `i < n` bounds the work, one add per element: W = n, at the launch n = 2**20
    (its grid of 0 blocks is SR119).  `fill` has no guard: one multiply per launched thread,
    W = blockDim_x * gridDim_x, y read and written: Q = 8 * blockDim_x * gridDim_x."""
    p = tmp_path / "grids.cu"
    p.write_text(GRID_NOT_A_BOUND)
    ks, _ = analyze_file(p)
    assert not ks["shift"].failed and same(ks["shift"].total.flops.expr, S("n"))
    fill = ks["fill"]
    assert not fill.failed
    assert same(fill.total.flops.expr, S("blockDim_x*gridDim_x"))
    assert same(fill.total.compulsory.expr, S("8*blockDim_x*gridDim_x"))
