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

from pathlib import Path

import pytest

from staticroof.pipeline import run
from staticroof.trace import TraceError, compare, run as run_trace

ROOT = Path(__file__).resolve().parent.parent
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
    # blur3 and lap2d: interiors from 1 to n - 2
    "stencils.py": [{"n": 2, "m": 2, "nt": 1}, {"n": 3, "m": 5, "nt": 2}, {"n": 8, "m": 3, "nt": 3}],
    "ufuncs_and_helpers.py": [{"n": 1, "x_shape0": 1}, {"n": 5, "x_shape0": 4}],
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
# Kernels not traced, and why (none at present).
UNTRACED: dict = {}


def _path(name: str) -> Path:
    return SAMPLES / name if (SAMPLES / name).exists() else DATA / name


def _disagreements(path: Path, sizes: dict, only=None) -> list:
    defines = {n: str(v) for n, v in sizes.items()}
    report = run([path], defines, only=only)
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

    from staticroof.frontends.python import _device_function
    from staticroof.frontends.python_kernels import functions, imports, kernel_of

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
    report = run([SAMPLES / "saxpy_numba.py"], {"n": "300"}, only={"saxpy_gpu"})
    (k,) = report.kernels
    t = run_trace(str(SAMPLES / "saxpy_numba.py"), "saxpy_gpu", dict(k.sizes), "python", {"n": "300"},
                  launch=k.launch)
    assert t.flops == {"fp32": 600}
    assert {n: (a.first_read * a.elem_bytes, a.written * a.elem_bytes) for n, a in t.arrays.items()} == {
        "x": (1200, 0), "y": (1200, 1200)}


def test_a_kernel_without_a_launch_needs_one():
    report = run([DATA / "cuda_basics.py"], {"c_shape0": "8"}, only={"vec_add"})
    (k,) = report.kernels
    with pytest.raises(TraceError, match="launch configuration is unknown"):
        run_trace(str(DATA / "cuda_basics.py"), "vec_add", dict(k.sizes), "python", {"c_shape0": "8"})
