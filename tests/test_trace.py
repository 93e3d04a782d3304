"""The trace oracle: every C sample, run at small sizes, agrees with its static counts; the
`staticroof trace` command reports the comparison and fails on a difference."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner

from helpers import SAMPLES, analyze_file
from staticroof.cli import main
from staticroof.trace import compare
from staticroof.trace import run as run_trace

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="the trace oracle needs a C compiler")

SMALL = {"n": 9, "m": 6, "N": 8}


def c_kernels():
    out = []
    for path in sorted(SAMPLES.glob("*.c")):
        for name in re.findall(r"staticroof:expect\s+(\w+)", path.read_text()):
            out.append(pytest.param(path, name, id=f"{path.name}:{name}"))
    return out


@pytest.mark.parametrize("path,kernel", c_kernels())
def test_every_c_sample_agrees_with_its_trace(path, kernel):
    kernels, _ = analyze_file(path, {k: str(v) for k, v in SMALL.items()})
    k = kernels[kernel]
    traced = run_trace(str(path), kernel, dict(k.sizes), "c")
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


CUDA_SIZES = {
    "saxpy.cu": {"n": 1000}, "vector_add.cu": {"n": 700}, "matmul_naive.cu": {"N": 20},
    "matmul_tiled.cu": {"N": 64}, "transpose.cu": {"rows": 40, "cols": 70}, "reduce.cu": {"n": 3000},
    "stencil2d.cu": {"n": 20}, "gemv_half.cu": {"M": 40, "K": 30}, "softmax.cu": {"rows": 10, "cols": 20},
    "l2norm.cu": {"n": 3000},
}


def cuda_kernels():
    out = []
    for name, sizes in CUDA_SIZES.items():
        path = SAMPLES / name
        for kernel in re.findall(r"staticroof:expect\s+(\w+)", path.read_text()):
            out.append(pytest.param(path, kernel, sizes, id=f"{name}:{kernel}"))
    return out


def test_every_cuda_sample_is_traced():
    assert set(CUDA_SIZES) == {p.name for p in SAMPLES.glob("*.cu")}


@pytest.mark.parametrize("path,kernel,sizes", cuda_kernels())
def test_every_cuda_sample_agrees_with_its_serial_trace(path, kernel, sizes):
    kernels, _ = analyze_file(path, {k: str(v) for k, v in sizes.items()})
    k = kernels[kernel]
    traced = run_trace(str(path), kernel, dict(k.sizes), "cuda", launch=k.launch)
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


def test_trace_command_prints_both_and_exits_zero_when_they_agree():
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "jacobi2d.c"), "-D", "n=7"])
    assert r.exit_code == 0, r.output
    # 5-point stencil at n = 7: (n-2)^2 = 25 points x 5 FLOPs = 125; A read n^2 - 4 = 45 doubles
    assert re.search(r"W\s+125\s+125", r.output)
    assert re.search(r"A read\s+360\s+360", r.output)


def test_trace_command_needs_sizes():
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy.c")])
    assert r.exit_code == 2 and "give -D n=" in r.output


def test_trace_exits_one_on_a_difference_in_an_exact_kernel(tmp_path, monkeypatch):
    """A deliberately wrong static rule (every fp32 FLOP counted twice) is caught."""
    from staticroof.frontends import c as front

    original = front.Acc.flop
    monkeypatch.setattr(front.Acc, "flop", lambda self, prec, n=1: original(self, prec, 2 * n))
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy.c"), "-D", "n=10"])
    assert r.exit_code == 1 and "DIFFER" in r.output


def test_identical_references_are_identical_expressions(tmp_path):
    """`a[j + i + 1]` and `a[i + j + 1]` in one statement are the same reference (the analysis
    compares index expressions, not their spelling): one load, in the analysis and in the trace."""
    path = tmp_path / "k.c"
    path.write_text("void k(int n, double *restrict a, double *restrict b) {\n"
                    "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) b[i] = a[j + i + 1] - a[i + j + 1];\n}\n")
    kernels, _ = analyze_file(path, {"n": "6"})
    traced = run_trace(str(path), "k", {"n": 6}, "c")
    # loads of a: one per (i, j) = 36 doubles = 288 bytes
    assert kernels["k"].total.arrays["a"].access_read.value == 288
    assert all(r.ok for r in compare(kernels["k"], traced))


def test_trace_command_on_a_cuda_file():
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy.cu"), "-D", "n=1000"])
    assert r.exit_code == 0, r.output
    # 1000 threads of work: 2 FLOPs each; x read, y read and written: 12 bytes each
    assert re.search(r"W\s+2000\s+2000", r.output) and re.search(r"Q compulsory\s+12000\s+12000", r.output)


def test_trace_refuses_a_cuda_kernel_without_a_launch(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text("__global__ void fill(float* y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n")
    r = CliRunner().invoke(main, ["trace", str(p)])
    assert r.exit_code == 2 and "--grid/--block" in r.output
    r = CliRunner().invoke(main, ["trace", str(p), "--grid", "3", "--block", "32"])
    # 3 blocks of 32 threads, one 4-byte store each: 384 bytes written, no FLOPs
    assert r.exit_code == 0, r.output
    assert re.search(r"Q compulsory\s+384\s+384", r.output)
