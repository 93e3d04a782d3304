"""The asynchronous copy API (issue #28 §2): `cooperative_groups::memcpy_async`, `cuda::memcpy_async`
with a pipeline or a barrier, `__pipeline_memcpy_async` (tests/data/idioms/async_copy.cu).  A copy
reads its global elements and writes its shared ones, once per group for a group's copy (by its rank
0: the group's threads copy together), once per thread for a thread's own; its synchronization moves
nothing.  Expectations derived by hand below (G = floor(n/256) blocks of TILE = 256 threads), each
also run by `staticroof trace` at n = 768 (3 full blocks) and n = 1000 (3 blocks, the rest of n
never launched: the grid is n / TILE)."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, same, totals_agree, trace_agrees

DATA = ROOT / "tests" / "data" / "idioms" / "async_copy.cu"
G = "floor(n/256)"

EXPECT = {
    # the block copies its 256 floats of x into tile (x read 1024 B, tile written 1024 B), then each
    # thread writes y[i] = a*tile[t]: 1 multiply, y 4 B.  W = 256*G, Q = 2048*G, shared 2048*G.
    "stage_scale": {"W": f"256*{G}", "Q": f"2048*{G}", "Q_shared": f"2048*{G}"},
    # each thread copies sizeof(float) = one element through its pipeline and adds 1: the same totals.
    "pipe_copy": {"W": f"256*{G}", "Q": f"2048*{G}", "Q_shared": f"2048*{G}"},
    # 16 bytes = 4 floats per thread, summed (3 adds): x 16 B and y 4 B per thread, shared 4 writes and
    # 4 reads.  Its grid is main's n/TILE (no size of its own): per block W = 768, Q = 5120, shared 8192.
    "prim_copy": {"W": "768*gridDim_x", "Q": "5120*gridDim_x", "Q_shared": "8192*gridDim_x"},
    # the block's copy completed on a barrier (its init under `if (rank == 0)` dropped), read back
    # reversed: no FLOP, x and y 1024 B per block, shared 2048 B.
    "barrier_copy": {"W": "0", "Q": f"2048*{G}", "Q_shared": f"2048*{G}"},
    # each of the 8 warps copies its 32 floats (the tile's rank 0 copies): 256 per block, then a
    # multiply per thread: the same as stage_scale.
    "warp_stage": {"W": f"256*{G}", "Q": f"2048*{G}", "Q_shared": f"2048*{G}"},
}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_async_copies_are_the_copies_they_make(kernel):
    k = analyze_file(DATA)[0][kernel]
    totals_agree(k, EXPECT[kernel])


@pytest.mark.parametrize("n", [768, 1000])
@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_async_copies_agree_with_the_trace(kernel, n):
    sizes = {"gridDim_x": 3} if kernel == "prim_copy" else {"n": n}
    k = analyze_file(DATA, {name: str(v) for name, v in sizes.items()})[0][kernel]
    run_sizes = {} if kernel == "prim_copy" else sizes
    trace_agrees(DATA, kernel, run_sizes, k, "cuda", launch={"grid": (3, 1, 1), "block": (256, 1, 1)})


def test_variables_named_like_the_synchronization_types_are_kept(tmp_path):
    """`int barrier = 0; ... barrier = i; y[barrier] = 2*x[i]` (no async copy in sight): the names
    `barrier` and `pipeline` as variables are statements like any other, not synchronization to drop.
    W = n, Q = 8*n, exact."""
    from helpers import analyze_source

    src = """
__global__ void k(const float *x, float *y, int n)
{
    int barrier = 0, pipeline = 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    barrier = i;
    pipeline = barrier;
    if (i < n) y[pipeline] = 2.0f * x[i];
}
int main() { k<<<(1000 + 255) / 256, 256>>>(0, 0, 1000); }
"""
    k = analyze_source(src, tmp_path, name="k.cu")["k"]
    assert k.exact and same(k.total.flops.expr, S("n")) and same(k.total.compulsory.expr, S("8*n"))


def test_a_grid_divided_by_a_parameter_is_its_value_not_a_lost_kernel():
    """panel_dot<<<m / tile, 128, ...>>> with tile a kernel parameter: the grid formula floor(4096/tile)
    is no loop bound the counting takes (a size in a denominator: the kernel was unsupported, SR102);
    the grid is the size gridDim_x = 256 (its value at the launch).  Per block: a_s gets tile*n floats,
    b_s n floats (async copies), then tile rows of n multiply-adds: W = 2*gridDim_x*n*tile =
    2*256*1024*16 = 8388608.  Q: a read at 256*16*1024 elements (its panel per block), b at n, c written
    at 256*16: 4*(4194304 + 1024 + 4096) = 16797696 B (a's linearized panel counted at the sizes, SR117)."""
    k = analyze_file(ROOT / "tests" / "data" / "idioms" / "panel_dot.cu")[0]["panel_dot"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.flops.expr, S("2*gridDim_x*n*tile")) and k.total.flops.value == 8388608
    assert k.total.compulsory.value == 16797696
