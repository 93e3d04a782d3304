"""The corpus of realistic kernels (tests/data/real/: a C loop-benchmark suite with timers in a struct,
polyhedral-benchmark-style C, CUDA with cooperative groups, 128-bit vector structs, wmma, textures,
curand, lambdas, inline PTX, ...): every `staticroof:expect` block, derived by hand in its file's
header comment, is reproduced exactly; the share of kernels analyzed without SR001/SR002 never
regresses; no internal error anywhere; `trace` agrees where a kernel is traceable.

Kernels the code cannot handle yet are listed in XFAIL (strict: a kernel that starts passing fails
its test until its entry is removed), so the list always says what is still missing."""

from __future__ import annotations

import functools
import re
import shutil

import pytest
import sympy
from click.testing import CliRunner

from staticroof.cli import main

from helpers import ROOT, S, analyze_file, formula_agrees, formula_at, same

REAL = ROOT / "tests" / "data" / "real"

# "file:kernel" (file relative to tests/data/real) -> why its expect block is not reproduced yet.
XFAIL = {
    "cuda/gemm.cu:wmma_gemm": "the counts are right at the launch's grid, but the formulas are in gridDim_x/y, "
                              "for two reasons: (1) the host folds dim3(N_TILES, M_TILES) to (64, 64) and keeps "
                              "a grid formula only in the kernel's parameters (grid_expr is None: macros are not "
                              "parameters); (2) K_GLOBAL = 16*K_TILES and N_GLOBAL scale blockIdx in the tile "
                              "pointers, so K_TILES and N_TILES are folded to 64 (SR115, everywhere in the kernel, "
                              "to keep indices affine): a formula in the tile macros needs them kept as sizes and "
                              "the products delinearized instead",
}

# The share of kernels analyzed without SR001/SR002 today: it may only go up (raise it as features land).
# Every kernel of the corpus is analyzed now (test_share_analyzed_is_everything); the floor stays at 1.
SHARE_FLOOR = sympy.Integer(1)

# Files with an internal error (SR099) today, and why.
SR099_XFAIL: dict = {}

# Small sizes at which the traceable kernels of a file are run (`staticroof trace`) and compared (a list:
# several size sets, on both sides of the file's constants).
TRACE_SIZES = {
    "polybench/2mm.c": {"ni": 5, "nj": 6, "nk": 7, "nl": 8},
    "polybench/atax.c": {"m": 5, "n": 7},
    "polybench/bicg.c": {"m": 6, "n": 5},
    "polybench/jacobi-2d.c": {"n": 7, "tsteps": 2},
    "polybench/floyd-warshall.c": [{"n": 5}, {"n": 16}],  # i + j on both sides of 7, 11 and 13
    "polybench/floyd-warshall-float.c": [{"n": 3}, {"n": 6}],
    "driver_main.c": {"n": 9},
    "loops_suite.c": {"LEN_1D": 45, "LEN_2D": 9, "iterations": 2},
    "cuda/gemm.cu": [{"M": 20, "N": 24, "K": 18}, {"M": 9, "N": 13, "K": 40}],  # both sides of TILE 16
    "cuda/stencils.cu": [{"n": 40, "nx": 9, "ny": 8, "nz": 7}, {"n": 10, "nx": 3, "ny": 5, "nz": 4}],
    "cuda/reductions_cg.cu": [{"n": 3000, "rows": 9, "cols": 70}, {"n": 100, "rows": 3, "cols": 20}],  # warps
    "cuda/llm_layers.cu": [{"N": 9, "C": 70}, {"N": 3, "C": 20}],  # rows per block, 32 lanes
    "cuda/nbody.cu": {"n": 40},
    "cuda/cxx_constructs.cu": [{"n": 37}, {"n": 1000}],
    "cuda/idioms.cu": {"n": 1000, "n2": 300, "n4": 200, "rows": 3, "C": 300},
    # both sides of the 32-lane warps, the 64-thread trace blocks, the 4 x 16 matmul rows and 16 columns
    # per block, and the bias gradient's 512 threads (B*T = 6 and 520)
    "cuda/llm_train.cu": [{"B": 2, "T": 3, "C": 70, "N": 1100, "OC": 5, "BT": 9, "num_parameters": 1000,
                           "blockDim_x": 64},
                          {"B": 4, "T": 130, "C": 20, "N": 3, "OC": 70, "BT": 80, "num_parameters": 37,
                           "blockDim_x": 64}],
    # T both sides of 32, 64; the blocks the trace launches have 64 threads (TRACE_LAUNCH)
    "cuda/llm_attention.cu": [{"B": 2, "N": 5, "NH": 3, "d": 4, "T": 5, "HS": 4, "blockDim_x": 64},
                              {"B": 1, "N": 70, "NH": 2, "d": 3, "T": 70, "HS": 3, "blockDim_x": 64}],
    # both sides of the blocks 128 and 256, of 2*256 elements per block, of the grid caps 32*256 and
    # 64*256 (n = 20000), of BDIM 16 and of the 32 x 4 and 32 x 16 blocks
    "cuda/samples_basic.cu": [{"n": 37, "numElements": 37, "optN": 37, "nx": 37, "ny": 9, "nz": 5,
                               "cols": 37, "rows": 21},
                              {"n": 1000, "numElements": 1000, "optN": 300, "nx": 20, "ny": 21, "nz": 3,
                               "cols": 20, "rows": 33},
                              {"n": 20000, "numElements": 300, "optN": 40, "nx": 17, "ny": 3, "nz": 4,
                               "cols": 9, "rows": 17}],
    # both sides of TILE_DIM 32 and of the 128-thread blocks; the convolution grids at 1 and 2 blocks
    # wide, with and without a partial right (lower) halo
    "cuda/samples_linear_algebra.cu": [
        {"width": 37, "height": 20, "m": 5, "n": 37, "wA": 16, "wB": 40, "imageW": 136, "imageH": 70, "pitch": 136},
        {"width": 20, "height": 70, "m": 130, "n": 3, "wA": 48, "wB": 16, "imageW": 300, "imageH": 140,
         "pitch": 300}],
    "polybench/gemver.c": [{"n": 5}, {"n": 12}],
    "polybench/mvt.c": [{"n": 5}, {"n": 12}],
    "polybench/gesummv.c": [{"n": 5}, {"n": 12}],
    "polybench/syrk.c": [{"n": 5, "m": 7}, {"n": 9, "m": 2}],
    "polybench/trmm.c": [{"m": 5, "n": 7}, {"m": 9, "n": 2}],
    "polybench/lu.c": [{"n": 2}, {"n": 9}],
    "polybench/seidel-2d.c": [{"n": 3, "tsteps": 2}, {"n": 8, "tsteps": 3}],
    "polybench/heat-3d.c": [{"n": 3, "tsteps": 2}, {"n": 7, "tsteps": 1}],
    "polybench/fdtd-2d.c": [{"tmax": 2, "nx": 2, "ny": 3}, {"tmax": 3, "nx": 7, "ny": 5}],
    "polybench/covariance.c": [{"m": 5, "n": 7}, {"m": 9, "n": 2}],
    "polybench/doitgen.c": [{"nr": 2, "nq": 3, "np": 4}, {"nr": 3, "nq": 2, "np": 7}],
    "polybench/durbin.c": [{"n": 2}, {"n": 11}],
    "c_idioms.c": [{"n": 37, "m": 5, "npix": 7}, {"n": 1000, "m": 3, "npix": 70}],  # both sides of BS = 64
    "cpp_methods.cpp": [{"n": 3, "nx_": 4, "ny_": 5}, {"n": 40, "nx_": 9, "ny_": 6}],
}
# A covering launch for kernels whose grid the analysis cannot read from the host code yet (their
# guards bound the work, so the counts do not depend on it; the trace needs one to run).
TRACE_LAUNCH = {
    "sgemm_naive": {"grid": (2, 2, 1), "block": (16, 16, 1)},
    "softmax_rows_online": {"grid": (1, 1, 1), "block": (512, 1, 1)},
    "scale_add_grid_sync": {"grid": (4, 1, 1), "block": (256, 1, 1)},  # cudaLaunchCooperativeKernel
    "axpy_items": {"grid": (1, 1, 1), "block": (256, 1, 1)},  # its grid comes from a template ceil_div<T>
    "bias_act<0>": {"grid": (2, 3, 1), "block": (256, 1, 1)},
    "bias_act<1>": {"grid": (2, 3, 1), "block": (256, 1, 1)},
    # llm_train.cu and llm_attention.cu: the host times each kernel at block sizes it picks at run time
    # (the trace's blocks are 64 threads, the size blockDim_x = 64 of TRACE_SIZES)
    **{name: {"grid": (18, 1, 1), "block": (64, 1, 1)}
       for name in ("layernorm_forward_kernel1", "gelu_forward_kernel", "gelu_backward_kernel")},
    "layernorm_forward_kernel2": {"grid": (1100, 1, 1), "block": (64, 1, 1)},  # a block per row
    # a warp per row, 2 per 64-thread block: CEIL_DIV(1100*32, 64) = 550 blocks cover N = 1100 (and N = 3)
    "layernorm_forward_kernel3": {"grid": (550, 1, 1), "block": (64, 1, 1)},
    "residual_forward_kernel": {"grid": (4, 1, 1), "block": (64, 1, 1)},  # grid-stride: several turns
    "adamw_kernel2": {"grid": (16, 1, 1), "block": (64, 1, 1)},
    **{name: {"grid": (8, 1, 1), "block": (64, 1, 1)}
       for name in ("permute_kernel", "permute_kernel_backward", "unpermute_kernel", "unpermute_kernel_backward",
                    "attention_softmax_kernel1", "attention_value_kernel1", "softmax_autoregressive_backward_kernel1")},
    # one thread per (b, h, t, t2): 150 and 9800 at the two size sets; 160 blocks of 64 cover both
    **{name: {"grid": (160, 1, 1), "block": (64, 1, 1)} for name in ("scale_kernel", "attention_query_key_kernel1")},
    # one block per row of N*T: 25 and 4900 rows at the two size sets (the guard idx < N*T drops the rest)
    "softmax_forward_kernel4": {"grid": (4900, 1, 1), "block": (64, 1, 1)},
}
# "file:kernel" -> why the trace does not agree yet (strict, like XFAIL).
TRACE_XFAIL = {
    **dict.fromkeys(("cuda/nbody.cu:body_force", "cuda/nbody.cu:integrate_bodies", "cuda/stencils.cu:heat2d_step",
                     "cuda/cxx_constructs.cu:drift", "cuda/cxx_constructs.cu:pair_product"),
                    "the trace does not run kernels that use structs yet (trace/records.py refuses them)"),
    "cuda/idioms.cu:scale_half2": "the trace cannot pass a __half2 argument by value (the instrumented C "
                                  "does not compile: incompatible type for argument 2)",
}
# Kernels whose source the trace cannot run (tensor cores, filtered texture fetches, random numbers,
# inline PTX, C++ classes such as Packed128).
UNTRACEABLE = {"wmma_gemm", "box_blur_tex", "estimate_pi", "mc_european_call", "square_plus_one_timed",
               "residual_forward", "rmsnorm_forward", "reduce<double>", "reduce<float>",
               "packed_rowsum",
               # .cpp kernels: the trace has no executor for C++ kernels yet (tests/test_cpp_host.py traces
               # the same loops written as C)
               "smooth3", "axpy", "axpby<double>", "Field2D::jacobi_sweep", "Field2D::l2norm"}

_BLOCK = re.compile(r"staticroof:expect[ \t]+(\S[^\n]*?)[ \t]*\n((?:\s*\*?\s+\w+\s*=.*\n)+)")
_PRECISIONS = ("fp64", "fp32", "fp16", "bf16", "fp8")


def corpus_files():
    return sorted(p for p in REAL.rglob("*") if p.suffix in (".c", ".cpp", ".cu"))


def rel(path) -> str:
    return path.relative_to(REAL).as_posix()


@functools.cache
def analyzed(path, sizes=()):
    """{kernel name: KernelSummary}, Report for one corpus file (once per session and sizes)."""
    return analyze_file(path, {k: str(v) for k, v in sizes})


def expect_blocks(path) -> dict:
    """{kernel: {key: expression}} of a file's expect blocks."""
    out = {}
    for m in _BLOCK.finditer(path.read_text()):
        kernel, body = m.groups()
        values = {}
        for line in body.splitlines():
            key, _, expr = line.strip().lstrip("*").strip().partition("=")
            if key.strip():
                values[key.strip()] = expr.strip()
        out[kernel] = values
    return out


def expectations():
    out = []
    for path in corpus_files():
        for kernel, values in expect_blocks(path).items():
            key = f"{rel(path)}:{kernel}"
            marks = [pytest.mark.xfail(strict=True, reason=XFAIL[key])] if key in XFAIL else []
            out.append(pytest.param(path, kernel, values, id=key, marks=marks))
    return out


EXPECTATIONS = expectations()


def agrees(q, expected, k, points=()) -> bool:
    """helpers.formula_agrees with the formula shown (or, when the quantity is piecewise, the piece
    that holds at the kernel's sizes).  A piecewise quantity may also agree as a whole with an
    expectation that is one formula (`n + 1441*Min(64, ceiling(n/256))` against its pieces for
    n <= 16128 and n >= 16129): at helpers.same's points and at the kernel's and `points`' sizes
    (the file's trace sizes, which lie on both sides of its constants)."""
    got = q.expr
    if getattr(q, "piecewise", False) and k.sizes:
        try:
            got = formula_at(q, k.sizes)
        except (AssertionError, TypeError):
            pass
    if formula_agrees(sympy.sympify(got), expected, k):
        return True
    if not getattr(q, "piecewise", False):
        return False
    pieces = q.piece_list()
    whole = sympy.Piecewise(*[(e, c) for c, e in pieces[:-1]], (pieces[-1][1], True))
    names = {str(x) for x in whole.free_symbols | expected.free_symbols}
    for sizes in [k.sizes, *points]:
        at = {sympy.Symbol(n): v for n, v in sizes.items() if n in names and v is not None}
        if len(at) == len(names) and whole.subs(at) != expected.subs(at):
            return False
    return same(whole, expected)


def test_the_corpus_is_large_enough():
    assert len(EXPECTATIONS) >= 45
    assert sum(1 for p in corpus_files() if p.suffix == ".cu") >= 8


def test_every_xfail_entry_names_an_expect_block():
    documented = {p.id for p in EXPECTATIONS}
    assert set(XFAIL) <= documented, set(XFAIL) - documented


@pytest.mark.parametrize("path,kernel,values", EXPECTATIONS)
def test_real_kernel(path, kernel, values):
    values = dict(values)
    kernels, _ = analyzed(path)
    assert kernel in kernels, f"{kernel} not reported; kernels: {sorted(kernels)}"
    k = kernels[kernel]
    exact = values.pop("exact", "true").lower() != "false"
    assert not k.failed, [str(d) for d in k.diagnostics]
    assert k.exact == exact, [str(d) for d in k.diagnostics]
    t = k.total
    got = {"W": t.flops, "Q": t.compulsory, "Q_access": t.access, "I": t.intensity, "special": t.special,
           "Q_shared": t.shared}
    got.update(t.by_precision)
    numbers = {"W_value": t.flops.value, "Q_value": t.compulsory.value, "Q_access_value": t.access.value,
               "Q_shared_value": t.shared.value}
    for key, expected in values.items():
        if key in numbers:
            assert numbers[key] == S(expected), f"{kernel} {key}: got {numbers[key]}, expected {expected}"
            continue
        if not exact and key not in ("W", "special", *_PRECISIONS):
            continue  # an approximate kernel's traffic is a bound, not a formula to match
        assert key in got, f"{kernel} {key}: no such quantity (got {sorted(got)})"
        points = TRACE_SIZES.get(rel(path), [])
        points = points if isinstance(points, list) else [points]
        assert agrees(got[key], S(expected), k, points), f"{kernel} {key}: got {got[key].expr}, expected {expected}"
    if exact:
        for prec in _PRECISIONS:
            if prec not in values and prec in t.by_precision:
                assert sympy.sympify(t.by_precision[prec].expr) == 0, f"{kernel}: unexpected {prec} work"


def _bad_codes(k) -> set:
    return {d.code for d in k.diagnostics} & {"SR001", "SR002"}


def share_without_syntax_or_unsupported():
    """(analyzed, total): kernels reported without SR001/SR002, over every kernel reported or
    documented by an expect block (a kernel a file-level failure hides counts as not analyzed)."""
    ok = total = 0
    for path in corpus_files():
        kernels, _ = analyzed(path)
        names = set(kernels) | set(expect_blocks(path))
        total += len(names)
        ok += sum(1 for n in names if n in kernels and not kernels[n].failed and not _bad_codes(kernels[n]))
    return ok, total


def test_share_analyzed_never_regresses():
    ok, total = share_without_syntax_or_unsupported()
    assert sympy.Rational(ok, total) >= SHARE_FLOOR, f"{ok}/{total} analyzed without SR001/SR002"


def test_share_analyzed_is_everything():
    ok, total = share_without_syntax_or_unsupported()
    assert ok == total, f"{ok}/{total} analyzed without SR001/SR002"


def test_exit_status_is_zero_when_only_main_cannot_be_modelled():
    result = CliRunner().invoke(main, ["analyze", str(REAL / "driver_main.c")])
    assert result.exit_code == 0, result.output
    assert "ddot" in result.output and "daxpy_scaled" in result.output


@pytest.mark.parametrize("path", [pytest.param(p, id=rel(p), marks=[pytest.mark.xfail(
    strict=True, reason=SR099_XFAIL[rel(p)])] if rel(p) in SR099_XFAIL else []) for p in corpus_files()])
def test_no_internal_error(path):
    kernels, report = analyzed(path)
    codes = [str(d) for k in kernels.values() for d in k.diagnostics if d.code == "SR099"]
    codes += [str(d) for d in report.file_diagnostics if d.code == "SR099"]
    assert not codes


def trace_cases():
    out = []
    for name, size_sets in TRACE_SIZES.items():
        path = REAL / name
        for kernel, values in expect_blocks(path).items():
            if values.get("exact", "true").lower() == "false":
                continue  # an approximate kernel's bounds are not counts to compare
            key = f"{name}:{kernel}"
            marks = [pytest.mark.xfail(strict=True, reason=TRACE_XFAIL[key])] if key in TRACE_XFAIL else []
            if kernel in UNTRACEABLE:
                continue
            for sizes in size_sets if isinstance(size_sets, list) else [size_sets]:
                at = ",".join(f"{n}={v}" for n, v in sizes.items())
                out.append(pytest.param(path, kernel, sizes, id=f"{key}@{at}", marks=marks))
    return out


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="the trace oracle needs a C compiler")
@pytest.mark.parametrize("path,kernel,sizes", trace_cases())
def test_trace_agrees(path, kernel, sizes):
    """Run at small sizes on both sides of the file's constants, the traced counts equal the static
    ones.  A kernel that is not exact yet (it is in XFAIL) has nothing exact to compare."""
    from staticroof.trace import compare, run as run_trace

    kernels, _ = analyzed(path, tuple(sorted(sizes.items())))
    k = kernels.get(kernel)
    if k is None or k.failed or not k.exact:
        key = f"{rel(path)}:{kernel}"
        assert key in XFAIL, f"{key} is not exact at {sizes} but not listed in XFAIL"
        pytest.skip(f"not exact yet: {XFAIL[key]}")
    language = "cuda" if path.suffix == ".cu" else "c"
    launch = k.launch or None
    if language == "cuda" and None in tuple(k.launch.get("grid", (None,))) + tuple(k.launch.get("block", (None,))):
        launch = TRACE_LAUNCH.get(kernel, launch)
    traced = run_trace(str(path), kernel, dict(k.sizes), language, launch=launch)
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


def test_coverage_benchmark_counts_global_functions_and_c_functions_with_loops():
    """benchmarks/corpus_coverage.py's denominators come from the text, so a lost file still counts."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("corpus_coverage", ROOT / "benchmarks" / "corpus_coverage.py")
    cov = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cov)
    globals_, _ = cov.scanned_functions(REAL / "cuda" / "idioms.cu")
    assert globals_ == {"affine_product_lambda", "square_plus_one_timed", "relu_inplace", "vector_add",
                        "scale_half2", "bias_act", "scale_vec4", "axpy_items"}
    _, loops = cov.scanned_functions(REAL / "driver_main.c")
    assert loops == {"ddot", "daxpy_scaled"}  # main is a driver; run_dot/run_axpy have no loop
    row = cov.analyze_one(REAL / "cuda" / "missing_header.cu", {})
    assert row["global_total"] == 2
