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
