"""Numba CUDA launch sites per kernel and per instance (#29): a kernel takes the launches
`k[blocks, threads](...)` of its own scope (two nested kernels of one name in two test functions
each keep their own) and an instance the launches that call it with its own type set
(`square[float32]`, `square[float64]`).  The file is tests/data/python/launch_per_instance.py; its
expect blocks give the numbers at the launches' sizes, derived there by hand.  Here: the grid and
block of each, and W and Q at a second size, where the grid formula of a launch follows the size."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import ROOT, analyze_file

FILE = ROOT / "tests" / "data" / "python" / "launch_per_instance.py"


def _line_of(text: str) -> tuple:
    """(line, column) of the launch written as `text` in the file."""
    lines = FILE.read_text().splitlines()
    at = next(k for k, line in enumerate(lines, 1) if text in line)
    return at, lines[at - 1].index(text) + 1


def test_each_kernel_and_instance_takes_its_own_launch():
    kernels, _ = analyze_file(FILE)
    # grid, block and the launch they come from, as written at each launch of the file
    expect = {"test_double.kernel": ((4, 1, 1), (256, 1, 1), "kernel[4, 256](x, y)"),
              "test_square_plus.kernel": ((32, 1, 1), (128, 1, 1), "kernel[blocks, threads](x, y)"),
              "square[float32]": ((8, 1, 1), (256, 1, 1), "square[8, 256](d_a, d_b)"),
              "square[float64]": ((8, 1, 1), (64, 1, 1), "square[blockspergrid, threadsperblock](c, e)")}
    for name, (grid, block, site) in expect.items():
        k = kernels[name]
        assert (k.launch["grid"], k.launch["block"], k.launch["site"]) == (grid, block, _line_of(site)), name
    assert kernels["test_square_plus.kernel"].sizes["x_shape0"] == 4096  # its own launch's array, not 1000
    assert kernels["square[float64]"].sizes["x_shape0"] == 512  # the float64 launch's array, not 2048


def test_at_another_size_each_grid_formula_follows_its_own_launch():
    # -D x_shape0=1024: test_double.kernel keeps grid 4 x 256 (a constant: 1,024 threads, just
    # enough): W = 1024 fp32, Q = 8 * 1024.  test_square_plus.kernel's grid (x.size + 127) // 128 = 8:
    # W = 2 * 1024, Q = 16 * 1024.  square[float32]: grid 8 x 256 constant, W = 1024, Q = 8192;
    # square[float64]'s grid (c.size + 63) // 64 = 16 blocks of 64: W = 1024, Q = 16 * 1024
    kernels, _ = analyze_file(FILE, {"x_shape0": "1024"})
    expect = {"test_double.kernel": (4, 1024, 8192), "test_square_plus.kernel": (8, 2048, 16384),
              "square[float32]": (8, 1024, 8192), "square[float64]": (16, 1024, 16384)}
    for name, (grid, w, q) in expect.items():
        k = kernels[name]
        assert (k.launch["grid"][0], k.total.flops.value, k.total.compulsory.value) == (grid, w, q), name
        assert k.exact, (name, [str(d) for d in k.diagnostics])


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="the trace needs cc")
@pytest.mark.parametrize("size", [[], ["-D", "x_shape0=1024"]])
def test_the_trace_runs_each_instance_at_its_own_launch(size):
    r = CliRunner().invoke(main, ["trace", str(FILE), *size])
    assert r.exit_code == 0, r.output
    assert r.output.count(": agree") == 4, r.output


LAUNCH_FORMS = '''import numpy as np
from numba import cuda


@cuda.jit
def scale(x, y, a):
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a * x[i]


def run(n):
    x = cuda.to_device(np.ones(n, dtype=np.float32))
    y = cuda.device_array(n, dtype=np.float32)
    %s
'''


@pytest.mark.parametrize("launch,grid,block", [
    ("scale.configure(4096, 256)(x, y, np.float32(2.0))", (4096, 1, 1), (256, 1, 1)),
    ("scale.forall(n)(x, y, np.float32(2.0))", (None, None, None), (None, None, None)),
    ("scale.forall(n, tpb=128)(x, y, np.float32(2.0))", (None, None, None), (128, 1, 1)),
    ("scale.forall(n, 0)(x, y, np.float32(2.0))", (None, None, None), (None, None, None)),
])
def test_configure_and_forall_are_launches(tmp_path, launch, grid, block):
    """#29 §4: `k.configure(blocks, threads)(args)` is `k[blocks, threads](args)` spelled as a call, and
    `k.forall(n[, tpb])(args)` launches n threads in blocks of tpb (0 or none: Numba picks): each is
    the kernel's launch site and types it from its arguments (float32 arrays and a float32 scalar: one
    fp32 multiply per element, W = x_shape0, Q = 8*x_shape0, no SR160)."""
    from helpers import S, same

    p = tmp_path / "forms.py"
    p.write_text(LAUNCH_FORMS % launch)
    (k,) = analyze_file(p)[0].values()
    assert k.launch["grid"] == grid and k.launch["block"] == block, k.launch
    assert k.launch["origin"].startswith("launch at")
    assert set(k.total.by_precision) == {"fp32"} and same(k.total.flops.expr, S("x_shape0"))
    assert same(k.total.compulsory.expr, S("8*x_shape0")) and "SR160" not in {d.code for d in k.diagnostics}
