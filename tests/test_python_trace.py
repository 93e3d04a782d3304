"""The Python trace oracle: each kernel's pure-Python body run with wrapped arrays and scalars
(elements read and written recorded, arithmetic counted by precision with Numba's promotion), at
sizes on both sides of the kernels' constants; the static counts must equal the traced ones.

Every kernel of every Python sample (samples/*_numba.py) and of every file under tests/data/python/
is traced here (W per precision, specials, each array's compulsory and access-level bytes), or
listed in UNTRACED with the reason.  @njit kernels run their body; @vectorize ufuncs once per
element; @cuda.jit kernels over every block and thread of their launch (the launch site folded
again at the traced sizes, or -D gridDim_x=... where the file's grid would be needlessly large),
barriers kept.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from staticroof.options import AnalysisOptions
from staticroof.pipeline import run
from staticroof.trace import TraceError, compare, run as run_trace

from helpers import ROOT

DATA = ROOT / "tests" / "data" / "python"
SAMPLES = ROOT / "samples"

# file -> size points (each analyzed once for all the file's kernels).  The constants the points
# straddle are in the comments.
POINTS = {
    # saxpy_gpu: 256 threads per block ((n + 255) // 256 blocks at the traced n)
    "saxpy_numba.py": [{"n": 1}, {"n": 37}, {"n": 300}],
    "daxpy_numba.py": [{"n": 1}, {"n": 5}],
    "gemm_numba.py": [{"N": 1}, {"N": 4}],
    "stencil2d_numba.py": [{"n": 2}, {"n": 3}, {"n": 6}],  # the interior starts at 3
    "reduce_numba.py": [{"n": 17}, {"n": 200}],  # sum_gpu: 128 threads per block
    # TPB = 16: one and two tiles along x (the i loop runs gridDim_x times)
    "matmul_tiled_numba.py": [{"gridDim_x": 1, "gridDim_y": 2}, {"gridDim_x": 2, "gridDim_y": 1}],
    # smooth3's y[1:-1] is empty below 3 elements
    "whole_array_numba.py": [{"y_shape0": s, "x_shape0": s, "n": a, "m": b, "p": c}
                             for s, a, b, c in ((1, 1, 1, 1), (2, 1, 2, 1), (5, 2, 3, 4))],
    "blas1.py": [{"n": 1}, {"n": 6}],
    # last: range(n - 1); skip_odd: odd/even extents; piecewise: 10 and 20; local_acc: 128 threads
    # per block and its 4-element local array
    "control.py": [{"n": 1, "x_shape0": 1}, {"n": 9, "x_shape0": 6}, {"n": 15, "x_shape0": 7},
                   {"n": 21, "x_shape0": 130}],
    # increment_by_one: 32 threads per block; increment_a_2D_array: 16 x 16; scale_shared: 128
    "cuda_basics.py": [{"an_array_shape0": 20, "an_array_shape1": 5, "n": 100},
                       {"an_array_shape0": 70, "an_array_shape1": 17, "n": 300}],
    "linalg.py": [{"n": 1, "m": 1, "k": 1}, {"n": 3, "m": 4, "k": 2}],
    "misc.py": [{"n": 1, "deg": 1, "h": 1, "w": 1, "m": 1, "nx": 1, "ny": 1, "nz": 1},
                {"n": 3, "deg": 4, "h": 3, "w": 5, "m": 4, "nx": 2, "ny": 3, "nz": 4}],
    "pairsum.py": [{"n": 1}, {"n": 4}],
    # mandelbrot: its 4.0 bound is data, not a size; fft_butterfly: x holds 2*half values
    "numba_arith.py": [{"x_shape0": a, "m_shape0": a, "S_shape0": a, "X_shape0": a, "z_shape0": a, "sq_shape0": a,
                        "im_shape0": b, "re_shape0": c, "max_iter": d, "half": h, "tw_shape0": h}
                       for a, b, c, d, h in ((1, 1, 1, 1, 1), (5, 2, 3, 4, 3))],
    # blur3 and lap2d: interiors from 1 to n - 2
    "stencils.py": [{"n": 2, "m": 2, "nt": 1}, {"n": 3, "m": 5, "nt": 2}, {"n": 8, "m": 3, "nt": 3}],
    # neighborhoods (-1, 1) (smooth3, laplacian, heat_step) and (-2, 2) (window5): extents with no
    # interior point (1, 2; 3 and 4 for window5) and with some
    "stencil_kernels.py": [{"a_shape0": s, "u_shape0": s, "u_shape1": t, "x_shape0": s, "n": s, "m": t}
                           for s, t in ((1, 2), (2, 3), (3, 3), (4, 5), (6, 4))],
    "ufuncs_and_helpers.py": [{"n": 1, "x_shape0": 1}, {"n": 5, "x_shape0": 4}],
    # nested kernels and their instances (axpy[float32], mean[float64], ...); the CUDA kernels at
    # their launches' grids (4096 and 1024 threads), below and at them
    "nested_and_typed.py": [{"n": 1, "x_shape0": 1, "u_shape0": 1, "u_shape1": 2, "A_shape0": 2, "A_shape1": 1,
                             "out_shape0": 3},
                            {"n": 6, "x_shape0": 5, "u_shape0": 4, "u_shape1": 3, "A_shape0": 3, "A_shape1": 4,
                             "out_shape0": 1000}],
    # each kernel and instance at its own launch: test_double.kernel and square[float32] at constant
    # grids (1,024 and 2,048 threads), the others at grid formulas in x_shape0 (128 and 64 per block)
    "launch_per_instance.py": [{"x_shape0": 1}, {"x_shape0": 100}, {"x_shape0": 1024}],
}
# (file, kernel) -> its own points, where it needs a launch the file does not give, or a smaller
# grid than the file's (1024 and 64 blocks of threads that find no work)
OWN = {
    ("saxpy_numba.py", "saxpy_grid_stride"): [{"n": 37, "gridDim_x": 1}, {"n": 700, "gridDim_x": 2}],
    ("cuda_basics.py", "vec_add"): [{"c_shape0": 20, "blockDim_x": 32, "gridDim_x": 2},
                                    {"c_shape0": 64, "blockDim_x": 32, "gridDim_x": 2}],
    ("cuda_basics.py", "grid_stride_mul"): [{"n": 100, "gridDim_x": 1}, {"n": 300, "gridDim_x": 2}],
    ("ufuncs_and_helpers.py", "fma_kernel"): [{"out_shape0": 10, "blockDim_x": 16, "gridDim_x": 2},
                                              {"out_shape0": 32, "blockDim_x": 16, "gridDim_x": 2}],
}
# Kernels not traced, and why.
UNTRACED: dict = {
    # approximate by design (SR113, SR160): no launch and no type anywhere in the file
    ("nested_and_typed.py", "reset_counter"): "no launch configuration to run it under",
}


def _path(name: str) -> Path:
    return SAMPLES / name if (SAMPLES / name).exists() else DATA / name


def _disagreements(path: Path, sizes: dict, only=None) -> list:
    defines = {n: str(v) for n, v in sizes.items()}
    report = run([path], AnalysisOptions(defines=defines, only=only))
    out = []
    for k in report.kernels:
        if (path.name, k.name) in UNTRACED or (only is None and (path.name, k.name) in OWN):
            continue
        assert k.exact and not k.failed, (k.name, [str(d) for d in k.diagnostics])
        traced = run_trace(str(path), k.name, dict(k.sizes), "python", defines, launch=k.launch or None)
        out += [(k.name, sizes, r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    return out


@pytest.mark.parametrize("name", sorted(POINTS))
def test_every_kernel_of_the_file_agrees_with_its_trace(name):
    bad = []
    for sizes in POINTS[name]:
        bad += _disagreements(_path(name), sizes)
    assert not bad


@pytest.mark.parametrize("name,kernel", sorted(OWN), ids=[f"{f}:{k}" for f, k in sorted(OWN)])
def test_kernels_with_their_own_launch_agree(name, kernel):
    bad = []
    for sizes in OWN[(name, kernel)]:
        bad += _disagreements(_path(name), sizes, only={kernel})
    assert not bad


def test_every_python_kernel_is_traced():
    """Every Python sample and test kernel file is swept, and every kernel in it is traced (a
    kernel listed in UNTRACED says why not)."""
    import libcst as cst

    from staticroof.frontends.python.frontend import _device_function
    from staticroof.frontends.python.kernels import functions, imports, kernel_of

    files = {p.name for p in SAMPLES.glob("*_numba.py")} | {p.name for p in DATA.glob("*.py")}
    assert files == set(POINTS)
    for name in files:
        module = cst.parse_module(_path(name).read_text())
        names = imports(module)
        defs = [kernel_of(f, names) for f in functions(module)]
        # device functions (cuda.jit(device=True)) are inlined where they are called, not kernels
        kernels = {d.name for d in defs if d is not None and not _device_function(d)}
        assert kernels, name
        for kernel in kernels:  # the sweep asserts each is exact and traced, unless listed here
            assert (name, kernel) not in UNTRACED or UNTRACED[(name, kernel)]


def test_a_numba_cuda_kernel_runs_every_thread_of_its_launch():
    """saxpy_gpu at n = 300: the launch site's (n + 255) // 256 = 2 blocks of 256 threads, folded
    again at the traced n; the 300 threads with i < n do 2 fp32 FLOPs and move 12 bytes each."""
    report = run([SAMPLES / "saxpy_numba.py"], AnalysisOptions(defines={"n": "300"}, only={"saxpy_gpu"}))
    (k,) = report.kernels
    t = run_trace(str(SAMPLES / "saxpy_numba.py"), "saxpy_gpu", dict(k.sizes), "python", {"n": "300"},
                  launch=k.launch)
    assert t.flops == {"fp32": 600}
    assert {n: (a.first_read * a.elem_bytes, a.written * a.elem_bytes) for n, a in t.arrays.items()} == {
        "x": (1200, 0), "y": (1200, 1200)}


def test_a_kernel_without_a_launch_needs_one():
    report = run([DATA / "cuda_basics.py"], AnalysisOptions(defines={"c_shape0": "8"}, only={"vec_add"}))
    (k,) = report.kernels
    with pytest.raises(TraceError, match="launch configuration is unknown"):
        run_trace(str(DATA / "cuda_basics.py"), "vec_add", dict(k.sizes), "python", {"c_shape0": "8"})


# ---------------------------------------------------------------------------------------------
# Mismatches the oracle found, each a front-end bug now fixed (hand-derived expectations)

EDGE = '''import numpy as np
from numba import cuda, njit, vectorize


@njit("void(float64[:])")
def shift(y):
    y[1:] = y[:-1] * 2.0


@cuda.jit("void(int64, float32[:])")
def unused_y(n, x):
    i = cuda.grid(1)
    if i < n:
        x[i] = x[i] * 2.0


@vectorize(["float32(float32)"])
def half(a):
    return a * 0.5


@cuda.jit("void(int64, float32[:])")
def first_of_block(n, x):
    i = cuda.grid(1)
    if i < n and cuda.threadIdx.x < 1:
        x[i] = x[i] * 2.0


def main():
    n = 10
    x = np.ones(n, dtype=np.float32)
    unused_y[(n + 3) // 4, (4, 2)](n, x)
    first_of_block[(n + 3) // 4, 4](n, x)
'''


def _both(tmp_path, kernel, sizes):
    path = tmp_path / "edge.py"
    path.write_text(EDGE)
    defines = {n: str(v) for n, v in sizes.items()}
    (k,) = run([path], AnalysisOptions(defines=defines, only={kernel})).kernels
    traced = run_trace(str(path), kernel, dict(k.sizes), "python", defines, launch=k.launch or None)
    assert all(r.ok for r in compare(k, traced)), [(r.quantity, r.static, r.traced) for r in compare(k, traced)
                                                   if not r.ok]
    return k, traced


@pytest.mark.parametrize("m", [1, 2, 5])
def test_a_slice_store_reads_its_own_shifted_elements_first(tmp_path, m):
    """y[1:] = y[:-1] * 2.0 on m float64 elements: NumPy evaluates the right-hand side in full, so
    y[0 .. m-2] are all read before y[1 .. m-1] are written: read 8(m-1), written 8(m-1), m-1 fp64
    multiplies.  (The analysis had one loop reading y[e] and writing y[e+1]: y[1 .. m-2] looked
    written before read, y read 8 bytes at every m >= 2.)"""
    k, t = _both(tmp_path, "shift", {"y_shape0": m})
    assert k.total.arrays["y"].read.value == 8 * (m - 1) == t.arrays["y"].first_read * 8
    assert k.total.arrays["y"].write.value == 8 * (m - 1)
    assert t.flops == ({"fp64": m - 1} if m > 1 else {})


@pytest.mark.parametrize("n", [3, 6])
def test_a_launch_dimension_the_kernel_never_indexes_repeats_it(tmp_path, n):
    """unused_y launched with blocks of (4, 2) threads: both threads along y pass `i < n` and run
    the body, so each of the n elements is multiplied twice (x[i] * 2.0 is float32 * float64: fp64)
    and loaded and stored twice (2 * 4n bytes each); x is read and written once (4n each).  The
    analysis counted one thread per i (SR120 now says why it counts two)."""
    k, t = _both(tmp_path, "unused_y", {"n": n})
    assert t.flops == {"fp64": 2 * n}
    assert k.total.flops.value == 2 * n
    x = t.arrays["x"]
    assert (x.first_read * 4, x.written * 4, x.loads * 4, x.stores * 4) == (4 * n, 4 * n, 8 * n, 8 * n)
    assert any(d.code == "SR120" for d in k.diagnostics)


@pytest.mark.parametrize("n", [3, 13])
def test_the_grid_follows_the_sizes_the_launch_passes(tmp_path, n):
    """first_of_block: main launches (n + 3) // 4 blocks of 4 threads with its n passed as the
    kernel's n, and only thread 0 of each block works, so the grid does not cover the guard: at
    n = 13 the launch has (13 + 3) // 4 = 4 blocks and threads i = 0, 4, 8, 12 work (4 fp64 FLOPs,
    x read and written 16 bytes each); at n = 3, one block and one thread.  The analysis used the
    grid folded at main's own n = 10 (3 blocks, so 3 threads at n = 13); it now takes the grid as
    the formula floor((n + 3)/4) in the kernel's n, as the CUDA C front end does."""
    k, t = _both(tmp_path, "first_of_block", {"n": n})
    work = (n + 3) // 4
    assert t.flops == {"fp64": work} and k.total.flops.value == work
    assert t.arrays["x"].first_read * 4 == 4 * work == t.arrays["x"].written * 4


def test_a_ufunc_output_has_its_signature_type(tmp_path):
    """half (@vectorize float32(float32)): a * 0.5 is a float64 multiply, but the output array holds
    float32: per element 4 bytes read, one fp64 FLOP, 4 bytes written (the analysis wrote 8)."""
    k, t = _both(tmp_path, "half", {"n": 3})
    assert t.flops == {"fp64": 3}
    assert k.total.arrays["out"].write.value == 12 == t.arrays["out"].written * t.arrays["out"].elem_bytes


# ---------------------------------------------------------------------------------------------
# Barriers keep their meaning

BARRIER = '''import numpy as np
from numba import cuda, float32

B = 8


@cuda.jit("void(float32[:], float32[:])")
def flip(x, out):
    tile = cuda.shared.array(B, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = -1.0
    cuda.syncthreads()
    if tile[B - 1 - t] < 0:
        out[i] = x[i]
    c = cuda.syncthreads_count(t < 3)
    if c == 3:
        x[i] = 0.0


def main():
    x = np.ones(16, dtype=np.float32)
    out = np.zeros_like(x)
    flip[2, B](x, out)
'''


def test_threads_meet_at_barriers(tmp_path):
    """flip: each thread writes -1 into its slot of the block's tile, and after the barrier tests its
    mirror's slot.  Run thread by thread (no barrier), thread 0 would test slot 7 before thread 7
    wrote it; with the barrier every test sees -1, so all 2 x 8 threads copy x[i] to out[i]: x read
    16 * 4 = 64 bytes, out written 64.  syncthreads_count(t < 3) is 3 in every block, so every
    thread then writes x[i] = 0: x written 64.  The tests depend on data, so the analysis is
    approximate; only the trace's counts are checked."""
    path = tmp_path / "flip.py"
    path.write_text(BARRIER)
    (k,) = run([path]).kernels
    t = run_trace(str(path), "flip", dict(k.sizes), "python", {}, launch=k.launch)
    assert (t.arrays["out"].written, t.arrays["x"].first_read, t.arrays["x"].written) == (16, 16, 16)
    assert "tile" not in t.arrays  # shared memory is on chip


def test_tracing_without_numpy_says_so(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(TraceError, match="needs NumPy"):
        run_trace(str(SAMPLES / "saxpy_numba.py"), "saxpy", {"n": 4}, "python", {"n": "4"})


def test_trace_command_on_a_numba_file():
    """`staticroof trace samples/saxpy_numba.py -D n=300` for saxpy (@njit) and saxpy_gpu (its
    launch's (300 + 255) // 256 = 2 blocks of 256 threads): both agree, each doing 2 * 300 = 600
    fp32 FLOPs and moving 12 * 300 = 3,600 bytes."""
    from click.testing import CliRunner

    from staticroof.cli import main

    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy_numba.py"), "-D", "n=300", "--kernel", "saxpy",
                                  "--kernel", "saxpy_gpu"])
    assert r.exit_code == 0, r.output
    assert r.output.count("agree") == 2
    assert len(re.findall(r"W fp32\s+600\s+600 FLOP\n", r.output)) == 2
    assert len(re.findall(r"Q compulsory\s+3,600\s+3,600 B\n", r.output)) == 2


def test_trace_exits_one_when_a_python_count_is_wrong(monkeypatch):
    """A deliberately wrong static rule (every fp32 FLOP of the Python front end counted twice) is
    caught by the trace."""
    from click.testing import CliRunner

    from staticroof.cli import main
    from staticroof.frontends.common import lowering

    original = lowering.Acc.flop
    monkeypatch.setattr(lowering.Acc, "flop", lambda self, prec, n=1: original(self, prec, 2 * n))
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy_numba.py"), "-D", "n=10", "--kernel", "saxpy_gpu"])
    assert r.exit_code == 1 and "DIFFER" in r.output


def test_module_constants_folded_as_the_front_end_folds_them(tmp_path):
    """TPB = 2 * 4 and N = 1 << 2 at module level are frozen into the kernel (8 and 4): y[i] = x[i]
    for i < N over one block of TPB threads, at -D n=10: 4 copies (x read 16 B, y written 16 B)."""
    path = tmp_path / "k.py"
    path.write_text("import numpy as np\nfrom numba import cuda\n\nTPB = 2 * 4\nN = 1 << 2\n\n\n"
                    "@cuda.jit('void(int64, float32[:], float32[:])')\ndef copy(n, x, y):\n"
                    "    i = cuda.grid(1)\n    if i < n and i < N:\n        y[i] = x[i]\n\n\n"
                    "def main():\n    x = np.ones(16, dtype=np.float32)\n    copy[1, TPB](16, x, x)\n")
    (k,) = run([path], AnalysisOptions(defines={"n": "10"})).kernels
    t = run_trace(str(path), "copy", dict(k.sizes), "python", {"n": "10"}, launch=k.launch)
    assert (t.arrays["x"].first_read * 4, t.arrays["y"].written * 4) == (16, 16)
    assert all(r.ok for r in compare(k, t))


@pytest.mark.parametrize("n", [1, 5])
def test_module_float_constants_folded_from_expressions(tmp_path, n):
    """THIRD = 1.0 / 3.0 and W = 2 * THIRD - 0.5 at module level are float64 constants Numba freezes
    (they were SR002, "unsupported `*` on a module"): b[i] = a[i] * THIRD + a[i] * W is 3 fp64 FLOP
    per element (2 multiplies, an add), a read 8n B and b written 8n B; the trace agrees."""
    path = tmp_path / "k.py"
    path.write_text("from numba import njit\n\nTHIRD = 1.0 / 3.0\nW = 2 * THIRD - 0.5\n\n\n"
                    "@njit(\"void(float64[:], float64[:])\")\ndef f(a, b):\n"
                    "    for i in range(a.shape[0]):\n        b[i] = a[i] * THIRD + a[i] * W\n")
    sizes = {"a_shape0": str(n), "b_shape0": str(n)}
    (k,) = run([path], AnalysisOptions(defines=sizes)).kernels
    assert k.exact and not k.failed, [str(d) for d in k.diagnostics]
    t = run_trace(str(path), "f", dict(k.sizes), "python", sizes)
    assert t.flops == {"fp64": 3 * n}
    assert (t.arrays["a"].first_read * 8, t.arrays["b"].written * 8) == (8 * n, 8 * n)
    assert all(r.ok for r in compare(k, t))
