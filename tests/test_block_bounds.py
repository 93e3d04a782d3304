"""Issue #32 §6: a `--block` (or a launch site's block) that contradicts what the kernel states about
its block is a warning (SR155) and makes the result approximate: `__launch_bounds__(N)` with more than
N threads, an `assert` on blockDim that fails (through <cassert>'s stub or undeclared)."""

from __future__ import annotations

import pytest

from helpers import analyze_source

KERNELS = """%s
__global__ void __launch_bounds__(128) bounded(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
__global__ void warp_only(const float *x, float *y, int n)
{
    assert(blockDim.x == 32);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
__global__ void whole_warps(const float *x, float *y, int n)
{
    assert(blockDim.x %% 32 == 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
__global__ void free_block(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
"""


def sr155(k) -> list:
    return [d.message for d in k.diagnostics if d.code == "SR155"]


@pytest.mark.parametrize("include", ["#include <cassert>", ""], ids=["cassert", "undeclared"])
def test_a_block_the_kernel_rules_out_is_a_warning(tmp_path, include, monkeypatch):
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run

    p = tmp_path / "k.cu"
    p.write_text(KERNELS % include)
    for block, expected in (((256, 1, 1), {"bounded", "warp_only"}), ((32, 1, 1), set()),
                            ((48, 1, 1), {"warp_only", "whole_warps"})):
        report = run([p], AnalysisOptions(defines={"n": 1000}, launches={None: {"block": block}}))
        ks = {k.name: k for k in report.kernels}
        warned = {name for name, k in ks.items() if sr155(k)}
        assert warned == expected, (block, warned)
        for name in warned:
            assert not ks[name].exact
        # the counts are still made for the launch given: one multiply per element, W = n = 1000
        assert all(k.total.flops.value == 1000 for k in ks.values())
    report = run([p], AnalysisOptions(defines={"n": 1000}, launches={None: {"block": (256, 1, 1)}}))
    (msg,) = sr155({k.name: k for k in report.kernels}["bounded"])
    assert "`__launch_bounds__(128)` allows at most 128 threads per block, the launch has 256" in msg
    (msg,) = sr155({k.name: k for k in report.kernels}["warp_only"])
    assert "`assert(blockDim.x == 32)` fails for block 256 x 1 x 1" in msg


def test_a_launch_site_past_the_bounds_is_a_warning_too(tmp_path):
    src = (KERNELS % "") + "int main() { float *x, *y; bounded<<<4, 512>>>(x, y, 2048); return 0; }\n"
    k = analyze_source(src, tmp_path, name="site.cu")["bounded"]
    assert any("the launch has 512" in m for m in sr155(k)) and not k.exact
