"""One warp per row with a run-time block size (llm.c's layernorm_forward_kernel3 and its plain-CUDA
spelling), and pointers compared with null (an optional output): issue #28.

The row `blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32` (or cooperative groups'
`blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()`) is, for blocks of whole warps, the
global thread index divided by 32, and the lane `threadIdx.x % 32` is that index mod 32: the warps
of all blocks cover the rows [0, gridDim.x * blockDim.x / 32) once each, so the guard `idx >= N`
bounds the rows and the counts are exact in N and C without the block size (SR154 names the
whole-warps assumption).  Expected counts are derived by hand in each test, at C on both sides of
the 32 lanes (20 and 70) and at two N; the trace runs the kernels at those sizes."""

from __future__ import annotations

import pytest
import sympy

from staticroof.options import AnalysisOptions
from staticroof.pipeline import run

from helpers import analyze_source, codes, totals_agree, trace_agrees

# llm.c dev/cuda/layernorm_forward.cu, kernel 3, as written there (cooperative groups, __stcs/__ldcs,
# optional statistics), launched by its host function with a block size chosen at run time
LAYERNORM = r"""
#include <assert.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void layernorm_forward_kernel3(float* __restrict__ out, float* __restrict__ mean,
                                    float* __restrict__ rstd, const float* __restrict__ inp,
                                    const float* __restrict__ weight, const float* __restrict__ bias,
                                    int N, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if(idx >= N) {
        return;
    }

    // the row of input that this group of threads is responsible for
    const float* x = inp + idx * C;

    // mean
    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        sum += x[i];
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float m = sum / C;
    if(warp.thread_rank() == 0 && mean != nullptr) {
        __stcs(mean + idx, m);
    }

    // rstd
    sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        float diff = x[i] - m;
        sum += diff * diff;
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float s = rsqrtf(sum / C + 1e-5f);
    if(warp.thread_rank() == 0 && rstd != nullptr) {
        __stcs(rstd + idx, s);
    }

    // final normalization and scaling by weight/bias
    float* o = out + idx * C;
    for (int c = warp.thread_rank(); c < C; c += warp.size()) {
        float n = s * (__ldcs(x+c) - m);
        __stcs(o + c, n * weight[c] + bias[c]);
    }
}

int ceil_div(int dividend, int divisor) { return (dividend + divisor - 1) / divisor; }

void layernorm_forward3(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                        const float* bias, int B, int T, int C, const int block_size) {
    assert(block_size % 32 == 0);
    const int N = B * T;
    const int grid_size = ceil_div(N * 32, block_size);
    layernorm_forward_kernel3<<<grid_size, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
}
"""

# the same idiom without cooperative groups: lane and warp from threadIdx.x, a shuffle tree
ROW_SUM = r"""
__global__ void row_sum_kernel(float* out, const float* inp, int N, int C)
{
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int warps_per_block = blockDim.x / 32;
    int row = blockIdx.x * warps_per_block + warp;
    if (row >= N)
        return;
    float s = 0.0f;
    for (int i = lane; i < C; i += 32)
        s += inp[row * C + i];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffff, s, offset);
    if (lane == 0)
        out[row] = s;
}

void row_sum(float* out, const float* inp, int N, int C, int block_size)
{
    int grid_size = (N * 32 + block_size - 1) / block_size;
    row_sum_kernel<<<grid_size, block_size>>>(out, inp, N, C);
}
"""

SIZES = [{"N": 3, "C": 20}, {"N": 9, "C": 70}]  # C on both sides of the 32 lanes


def _launch(n: int, block: int = 64) -> dict:
    return {"grid": (-(-n * 32 // block), 1, 1), "block": (block, 1, 1)}


def test_layernorm_warp_per_row_is_exact_without_the_block_size(tmp_path):
    # Per row (one 32-lane tile): the sum pass adds each of the C elements once (lanes stride by 32):
    # C; cg::reduce over 32 lanes: 31; m = sum / C in every lane: 32; the variance pass
    # (x - m, * , +): 3*C; cg::reduce 31; s = rsqrtf(sum / C + 1e-5f) in every lane: 3*32 = 96
    # (rsqrtf one special call, 1 FLOP); the output pass (x - m, s *, * weight, + bias): 4*C.
    # W = N*(8*C + 190), special = 32*N.  Q: inp read N*C, out written N*C, mean and rstd written N
    # each by lane 0 (not null: SR154), weight and bias read C each: Q = 8*N*C + 8*N + 8*C.
    # Q_access: inp 3 reads per element (3*N*C), out N*C, weight and bias once per element per row
    # (2*N*C), mean and rstd N each: 4*(6*N*C + 2*N) = 24*N*C + 8*N.
    k = analyze_source(LAYERNORM, tmp_path, name="layernorm.cu")["layernorm_forward_kernel3"]
    totals_agree(k, {"W": "N*(8*C + 190)", "fp32": "N*(8*C + 190)", "Q": "8*N*C + 8*N + 8*C",
                     "Q_access": "24*N*C + 8*N"})
    assert k.total.special.expr == 32 * sympy.Symbol("N")
    messages = [d.message for d in k.diagnostics if d.code == "SR154"]
    assert any("blockDim.x assumed a multiple of 32" in m for m in messages), messages
    assert any("`mean`" in m for m in messages) and any("`rstd`" in m for m in messages), messages
    assert not {"SR104", "SR108", "SR113"} & codes(k)
    for sizes in SIZES:
        n, c = sizes["N"], sizes["C"]
        k = analyze_source(LAYERNORM, tmp_path, {kk: str(v) for kk, v in sizes.items()},
                           name="layernorm.cu")["layernorm_forward_kernel3"]
        assert k.exact, [str(d) for d in k.diagnostics]
        assert (k.total.flops.value, k.total.compulsory.value) == (n * (8 * c + 190), 8 * n * c + 8 * n + 8 * c)
        trace_agrees(tmp_path / "layernorm.cu", "layernorm_forward_kernel3", sizes, k, "cuda", _launch(n))


@pytest.mark.parametrize("sizes", SIZES)
def test_row_sum_with_lanes_from_thread_idx(tmp_path, sizes):
    # Per row: C adds (the lanes stride by 32), the shuffle tree 16, 8, 4, 2, 1 adds in all 32 lanes:
    # 5*32 = 160.  W = N*(C + 160).  inp read N*C, out written N: Q = Q_access = 4*N*C + 4*N.
    # At (3, 20): W = 540, Q = 252; at (9, 70): W = 2070, Q = 2556.
    ks = analyze_source(ROW_SUM, tmp_path, name="rows.cu")
    totals_agree(ks["row_sum_kernel"], {"W": "N*(C + 160)", "Q": "4*N*C + 4*N", "Q_access": "4*N*C + 4*N"})
    n, c = sizes["N"], sizes["C"]
    k = analyze_source(ROW_SUM, tmp_path, {kk: str(v) for kk, v in sizes.items()}, name="rows.cu")["row_sum_kernel"]
    assert k.exact and "SR154" in codes(k)
    assert (k.total.flops.value, k.total.compulsory.value) == (n * (c + 160), 4 * n * c + 4 * n)
    trace_agrees(tmp_path / "rows.cu", "row_sum_kernel", sizes, k, "cuda", _launch(n))


@pytest.mark.parametrize("sizes,w", [({"N": 3, "C": 20}, 732), ({"N": 9, "C": 70}, 3014)])
def test_a_block_of_partial_warps_is_not_read_as_whole_warps(tmp_path, sizes, w):
    # --block 48: warp 1 of each block has 16 lanes, and its row is the next block's warp 0's row.
    # With the grid covering N rows, row r gets a full warp (block r) and, for r >= 1, a 16-lane warp
    # (block r - 1; lanes 0..15 add the i < C with i mod 32 < 16: 16*floor(C/32) + min(C mod 32, 16),
    # 16 at C = 20 and 38 at C = 70; the tree 5*16 = 80).  W = N*(C + 160) + (N - 1)*(that + 80):
    # 3*180 + 2*96 = 732 and 9*230 + 8*118 = 3014.  No whole-warps note: the block is known.
    defines = {kk: str(v) for kk, v in sizes.items()}
    path = tmp_path / "rows.cu"
    path.write_text(ROW_SUM)
    report = run([path], AnalysisOptions(defines=defines, launches={None: {"block": (48, 1, 1)}}))
    (k,) = [k for k in report.kernels if k.name == "row_sum_kernel"]
    assert k.exact and "SR154" not in codes(k), [str(d) for d in k.diagnostics]
    assert k.total.flops.value == w
    trace_agrees(path, "row_sum_kernel", sizes, k, "cuda", {"grid": (sizes["N"], 1, 1), "block": (48, 1, 1)})


NULLABLE = r"""
#include <stddef.h>
/* row norms with optional outputs, as numerical codes write them: y and norms may be NULL */
void row_norms(const double *x, double *norms, double *y, int n, int m)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++)
            s += x[i*m + j] * x[i*m + j];
        if (norms != NULL)
            norms[i] = s;
        if (y == NULL)
            continue;
        for (int j = 0; j < m; j++)
            y[i*m + j] = x[i*m + j] / s;
    }
}
"""


@pytest.mark.parametrize("n,m", [(3, 5), (40, 17)])
def test_pointers_compared_with_null_are_counted_not_null(tmp_path, n, m):
    # Counted for norms and y not null (SR154, the same reading as `if (flag)` on an int flag):
    # s += x*x: 2*m per row; y = x / s: m per row.  W = 3*n*m (fp64).  x read n*m, norms written n,
    # y written n*m: Q = 16*n*m + 8*n.
    k = analyze_source(NULLABLE, tmp_path, {"n": str(n), "m": str(m)}, name="norms.c")["row_norms"]
    totals_agree(k, {"W": "3*n*m", "fp64": "3*n*m", "Q": "16*n*m + 8*n"})
    assert (k.total.flops.value, k.total.compulsory.value) == (3 * n * m, 16 * n * m + 8 * n)
    assert "SR104" not in codes(k)
    assert sorted(d.message.split("`")[1] for d in k.diagnostics if d.code == "SR154") == ["norms", "y"]
    trace_agrees(tmp_path / "norms.c", "row_norms", {"n": n, "m": m}, k)
