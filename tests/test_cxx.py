"""C++ idioms of real CUDA kernels (part 1): cooperative groups, warp shuffles, cuRAND, inline PTX,
lambdas, range-for, `auto`/`constexpr`, unknown types.

Each expected value is derived by hand in the comment above it, at sizes on both sides of every
constant of the kernel (the block, the tile of 32 lanes); where the trace can run the kernel it
must agree."""

from __future__ import annotations

import pytest

from staticroof.trace import TraceError, run as run_trace

from helpers import S, analyze_source, same, skip_without_cc, trace_agrees


def W(k) -> dict:
    return {p: q.value for p, q in k.total.by_precision.items() if q.value}


def arrays(k) -> dict:
    """name -> (read, write, access read, access write) in bytes."""
    return {n: (a.read.value, a.write.value, a.access_read.value, a.access_write.value)
            for n, a in k.total.arrays.items()}


def analyze(src, tmp_path, name, sizes):
    return analyze_source(src, tmp_path, {k: str(v) for k, v in sizes.items()}, name=name)


# ---------------------------------------------------------------------------------------------
# Cooperative groups and warp shuffles

BLOCK_SUM = r"""
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define THREADS 256
#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("cuda error\n"); } } while (0)

__inline__ __device__ float warp_reduce(float v)
{
    for (int off = warpSize / 2; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

__global__ void __launch_bounds__(THREADS) block_sum(const float *__restrict__ in, float *out, int n)
{
    __shared__ float warp_sums[THREADS / 32];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    v = warp_reduce(v);
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
    cta.sync();
    if (tile.meta_group_rank() == 0) {
        v = (tile.thread_rank() < THREADS / 32) ? warp_sums[tile.thread_rank()] : 0.0f;
        v = cg::reduce(tile, v, cg::plus<float>());
        if (cta.thread_rank() == 0) atomicAdd(out, v);
    }
}

int main(int argc, char **argv)
{
    int n = 1000;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    block_sum<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}
"""


@pytest.mark.parametrize("n", [200, 256, 1000, 4096])  # below, at and above the block of 256
def test_block_sum_with_tiles_shuffles_and_cg_reduce(tmp_path, n):
    k = analyze(BLOCK_SUM, tmp_path, "block_sum.cu", {"n": n})["block_sum"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # G = ceil(n/256) blocks of 256 threads (the launch).  Every thread: warp_reduce's loop runs
    # off = 16, 8, 4, 2, 1: 5 adds.  The first warp of each block (meta_group_rank 0) does
    # cg::reduce over its 32 lanes: 31 adds per tile, one tile per block; thread 0 then adds into
    # *out: 1 atomic add per block.  W = G*(256*5 + 31 + 1) = 1312*G.
    G = -(-n // 256)
    assert W(k) == {"fp32": 1312 * G}
    assert same(k.total.flops.expr, S("1312*ceiling(n/256)"))
    # in[i] under i < n: n floats; *out read and written once each (one element): 8 B
    assert arrays(k)["in"][:2] == (4 * n, 0) and arrays(k)["out"][:2] == (4, 4)
    assert k.total.compulsory.value == 4 * n + 8
    trace_agrees(tmp_path / "block_sum.cu", "block_sum", {"n": n}, k, "cuda")


ROW_SUMS = r"""
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define WARPS_PER_BLOCK 8

// one warp per row: lanes stride over the columns, then the warp reduces
__global__ void row_sums(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= rows) return;
    float acc = 0.0f;
    for (int c = warp.thread_rank(); c < cols; c += warp.size())
        acc += a[row * cols + c];
    float total = cg::reduce(warp, acc, cg::plus<float>());
    if (warp.thread_rank() == 0) sums[row] = total;
}

void launch_row_sums(const float *a, float *s, int rows, int cols)
{
    dim3 block(32 * WARPS_PER_BLOCK);
    dim3 grid((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    row_sums<<<grid, block>>>(a, s, rows, cols);
}

int main()
{
    float *a, *s;
    launch_row_sums(a, s, 100, 1000);
    return 0;
}
"""


@pytest.mark.parametrize("rows,cols", [(5, 20), (100, 1000), (9, 33)])  # rows vs 8 warps, cols vs 32 lanes
def test_warp_per_row_with_auto_tile(tmp_path, rows, cols):
    k = analyze(ROW_SUMS, tmp_path, "row_sums.cu", {"rows": rows, "cols": cols})["row_sums"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # warp w of block b takes row 8*b + w (< rows); its lane l adds a[row][c] for c = l, l+32, ...
    # < cols: cols adds per row over the warp; cg::reduce: 31 adds per row (on lane 0).
    # W = rows*cols + 31*rows; Q: a read once (4*rows*cols), sums written once (4*rows).
    assert W(k) == {"fp32": rows * cols + 31 * rows}
    assert same(k.total.flops.expr, S("rows*cols + 31*rows"))
    assert k.total.compulsory.value == 4 * rows * cols + 4 * rows
    trace_agrees(tmp_path / "row_sums.cu", "row_sums", {"rows": rows, "cols": cols}, k, "cuda")


GRID_MAX = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// a persistent kernel: grid-stride over x, a max over tiles of 16 (comparisons: 0 FLOPs), grid sync
__global__ void grid_max(const float *x, float *block_max, int n)
{
    cg::grid_group grid = cg::this_grid();
    float m = -1e30f;
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        m = fmaxf(m, x[i]);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
    m = cg::reduce(t16, m, cg::greater<float>());
    grid.sync();
    if (t16.thread_rank() == 0) block_max[blockIdx.x * t16.meta_group_size() + t16.meta_group_rank()] = m * 2.0f;
}

int main()
{
    int n = 5000;
    float *x, *bm;
    grid_max<<<4, 128>>>(x, bm, n);
}
"""


@pytest.mark.parametrize("n", [100, 5000])  # below and above the 4 x 128 threads
def test_grid_group_stride_and_comparison_reduce(tmp_path, n):
    k = analyze(GRID_MAX, tmp_path, "grid_max.cu", {"n": n})["grid_max"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # grid.thread_rank()/grid.size() are the grid-stride idiom: x read once, n floats; fmaxf and
    # cg::greater: 0 FLOPs; lane 0 of each 16-lane tile (4 blocks x 8 tiles) stores m * 2: 32 mults
    assert W(k) == {"fp32": 32}
    assert arrays(k)["x"][:2] == (4 * n, 0) and arrays(k)["block_max"][:2] == (0, 4 * 32)
    trace_agrees(tmp_path / "grid_max.cu", "grid_max", {"n": n}, k, "cuda")


# ---------------------------------------------------------------------------------------------
# cuRAND

OPTIONS = r"""
#include <curand_kernel.h>

#define BLOCK 128

// Monte-Carlo European call: each thread prices one option over `paths` simulated prices
__global__ void price_calls(const float *spot, const float *strike, float *price, int nopt, int paths,
                            float drift, float vol, float discount, unsigned long long seed)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nopt) return;
    curandState state;
    curand_init(seed, tid, 0, &state);
    float s0 = spot[tid], k = strike[tid];
    float sum = 0.0f;
    for (int p = 0; p < paths; ++p) {
        float z = curand_normal(&state);
        float st = s0 * expf(drift + vol * z);
        sum += fmaxf(st - k, 0.0f);
    }
    price[tid] = discount * sum / paths;
}

int main()
{
    int nopt = 1000, paths = 64;
    float *s, *k, *p;
    price_calls<<<(nopt + BLOCK - 1) / BLOCK, BLOCK>>>(s, k, p, nopt, paths, 0.01f, 0.2f, 0.99f, 1234ULL);
}
"""


@pytest.mark.parametrize("nopt,paths", [(100, 1), (1000, 64)])  # nopt below/above the block of 128
def test_curand_monte_carlo(tmp_path, nopt, paths):
    sizes = {"nopt": nopt, "paths": paths, "seed": 7}
    k = analyze(OPTIONS, tmp_path, "options.cu", sizes)["price_calls"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # per path: curand_normal (a special call, 1), drift + vol*z (an fma, 2), expf (special, 1),
    # s0 * e (1), st - k (1), fmaxf (0), sum += (1): 7; per option: discount * sum and / paths: 2.
    # curand_init: integer state setup, 0; the state is registers (no traffic).
    assert W(k) == {"fp32": nopt * (7 * paths + 2)}
    specials = {n: q.value for n, q in k.total.special_by_name.items()}
    assert specials == {"curand_normal": nopt * paths, "expf": nopt * paths}
    # spot and strike read, price written: 12 B per option
    assert k.total.compulsory.value == 12 * nopt
    trace_agrees(tmp_path / "options.cu", "price_calls", sizes, k, "cuda")


# ---------------------------------------------------------------------------------------------
# Inline PTX

ASM = r"""
__device__ __forceinline__ unsigned lane_id()
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__global__ void scale_fast(float *__restrict__ y, const float *__restrict__ x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float r;
    asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x[i]));
    y[i] = a * r + (float)lane_id();
}

int main() { float *x, *y; int n = 4096; scale_fast<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n); }
"""


@pytest.mark.parametrize("n", [100, 4096])
def test_inline_ptx_is_a_diagnostic_and_the_rest_is_counted(tmp_path, n):
    k = analyze(ASM, tmp_path, "asm.cu", {"n": n})["scale_fast"]
    assert not k.failed and not k.exact
    locs = sorted((d.location.line, d.location.col) for d in k.diagnostics if d.code == "SR140")
    assert locs == [(5, 5), (14, 5)]  # each asm statement, at its own line:col
    # the asm's own work is not counted; its input x[i] is read (n floats); a * r + lane: an fma
    # (2 FLOPs, the conversion of the lane is free); y[i] written
    assert W(k) == {"fp32": 2 * n}
    assert arrays(k)["x"][:2] == (4 * n, 0) and arrays(k)["y"][:2] == (0, 4 * n)
    skip_without_cc()
    with pytest.raises(TraceError, match="inline PTX"):
        run_trace(str(tmp_path / "asm.cu"), "scale_fast", {"n": n}, "cuda")


# ---------------------------------------------------------------------------------------------
# Lambdas, range-for, constexpr functions, if constexpr, auto

VEC_ACT = r"""
#include <cuda_runtime.h>

#define ITEMS 4
#define BLOCK 128

constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
template <typename T>
__device__ __forceinline__ constexpr T square(T v) { return v * v; }

// each thread applies a scaled activation to ITEMS consecutive elements and writes their energy
template <bool kScale>
__global__ void __launch_bounds__(BLOCK) act_energy(const float *__restrict__ x, float *__restrict__ y,
                                                    float *__restrict__ energy, float s, int n)
{
    const auto base = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
    auto act = [&](float a) -> float { return a * s + 1.0f; };
    float vals[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
        vals[k] = (base + k < n) ? __ldg(&x[base + k]) : 0.0f;
    if constexpr (kScale) {
        for (float &v : vals) v = act(v);
    }
    float e = 0.0f;
    for (auto v : vals) e += square(v);
#pragma unroll 4
    for (int k = 0; k < ITEMS; ++k)
        if (base + k < n) y[base + k] = vals[k];
    constexpr int per = ceil_div(ITEMS * 2, 2);
    if (base < n) energy[base / per] = e;
}

int main()
{
    int n = 1000;
    float *x, *y, *e;
    act_energy<true><<<(n + BLOCK * ITEMS - 1) / (BLOCK * ITEMS), BLOCK>>>(x, y, e, 0.5f, n);
}
"""


@pytest.mark.parametrize("n", [100, 512, 1000, 2049])  # vs the 512 elements of a block, and the 4 items
def test_lambda_range_for_and_constexpr_helpers(tmp_path, n):
    k = analyze(VEC_ACT, tmp_path, "act.cu", {"n": n})["act_energy"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # G = ceil(n/512) blocks of 128 threads, 4 items each: T = 128*G threads, every one runs the
    # item loops (the guards only pick the elements).  Per thread: act on each of the 4 items (an
    # fma: 2) = 8; square and += on each: 2 * 4 = 8.  W = 16*T.
    # kScale = true: `if constexpr (1)`; ceil_div(8, 2) = 4 is folded, so energy[base / 4] is the
    # thread's index: written where base < n, ceil(n/4) elements.
    T = 128 * -(-n // 512)
    assert W(k) == {"fp32": 16 * T}
    got = arrays(k)
    assert got["x"][:2] == (4 * n, 0) and got["y"][:2] == (0, 4 * n)
    assert got["energy"][:2] == (0, 4 * -(-n // 4))
    trace_agrees(tmp_path / "act.cu", "act_energy", {"n": n}, k, "cuda")


GENERIC_LAMBDA = r"""
// a generic lambda with a reference parameter, one with a statement body, a by-value capture
__global__ void smooth(float *u, const float *f, float h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float w = 0.25f;
    auto axpy = [=](auto a, auto b) { return w * a + b; };
    auto relax = [&](float &dst, float rhs) { dst = dst + h * rhs; };
    auto store = [&](int j, float v) { if (j < n) u[j] = v; };
    if (i < n) {
        float t = axpy(u[i], f[i]);
        relax(t, f[i]);
        store(i, t);
    }
}
"""


@pytest.mark.parametrize("n", [100, 1000])
def test_generic_and_statement_lambdas(tmp_path, n):
    src = GENERIC_LAMBDA + "int main() { float *u, *f; smooth<<<(1000 + 255) / 256, 256>>>(u, f, 0.1f, 1000); }\n"
    k = analyze(src, tmp_path, "smooth.cu", {"n": n})["smooth"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # per i < n: axpy is w*u[i] + f[i] (2); relax, with dst a reference to t, t + h*f[i] (2);
    # store writes u[i] under j = i < n: 4 FLOPs; u[i] read and written, f[i] read (twice, the same
    # element: compulsory once)
    assert W(k) == {"fp32": 4 * n}
    got = arrays(k)
    assert got["u"][:2] == (4 * n, 4 * n) and got["f"][:2] == (4 * n, 0)
    trace_agrees(tmp_path / "smooth.cu", "smooth", {"n": n}, k, "cuda")


# ---------------------------------------------------------------------------------------------
# Atomics on every type, cache-hinted loads and stores, warp votes

ATOMICS = r"""
#include <cuda_fp16.h>

template <typename T>
__global__ void accumulate(const int *__restrict__ bins, const T *__restrict__ w, T *out, int *count, double *dsum,
                           __half *h, __half2 *h2, unsigned int *mx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&count[0], 1);
        atomicAdd(&out[i % 4], w[i] * T(2) + static_cast<T>(sizeof(T)));
        atomicAdd(dsum, (double)w[i]);
        atomicAdd(&h[0], __float2half(1.0f));
        atomicAdd(&h2[0], __floats2half2_rn(1.0f, 2.0f));
        atomicMax(&mx[0], (unsigned)i);
        atomicCAS(&count[1], 0, i);
        atomicExch(&count[2], i);
        __stwt(&out[i + 4], w[i]);
        float g = __ldg(&w[i]) + __ldcs(&w[i]);
        __stcs(&out[i + 8], g);
        unsigned m = __ballot_sync(__activemask(), i < n);
        __syncwarp(m);
    }
}

int main() { int n = 1000; float *w; accumulate<float><<<(n + 127) / 128, 128>>>(0, w, 0, 0, 0, 0, 0, 0, n); }
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_atomics_on_every_type(tmp_path, n):
    k = analyze(ATOMICS, tmp_path, "atomics.cu", {"n": n})["accumulate"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # per thread i < n: int atomicAdd 0; w*T(2) + (float)sizeof(T) 2 and the float atomicAdd 1: 3
    # fp32; the double atomicAdd 1 fp64; __half 1 and __half2 2 (two lanes) fp16; atomicMax/CAS/
    # Exch 0; __ldg(w[i]) + __ldcs(w[i]) 1 fp32.  fp32 4n, fp64 n, fp16 3n.
    assert W(k) == {"fp32": 4 * n, "fp64": n, "fp16": 3 * n}
    got = arrays(k)
    # every atomic reads and writes its element: count[0..2] 12 B each way, *dsum 8, h[0] 2,
    # h2[0] 4 (two halves), mx[0] 4; out: out[i % 4] 4 elements read and written, __stwt writes
    # out[i + 4], __stcs out[i + 8]: writes cover out[0 .. n + 7] = n + 8 elements
    assert got["count"][:2] == (12, 12) and got["dsum"][:2] == (8, 8) and got["mx"][:2] == (4, 4)
    assert got["h"][:2] == (2, 2) and got["h2"][:2] == (4, 4)
    assert got["out"][:2] == (16, 4 * (n + 8)) and got["w"][:2] == (4 * n, 0)


# ---------------------------------------------------------------------------------------------
# Unknown types

OPAQUE = r"""#include "precision.h"   // not shipped with the kernel: defines my_real_t and geom::Point

__global__ void weights(const float *x, float *y, const my_real_t *scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    my_real_t s = scale[0];
    geom::Point p;
    if (i < n) y[i] = 2.0f * x[i] + (float)s;
}
"""


def test_unknown_types_are_opaque_with_a_note(tmp_path):
    (tmp_path / "precision.h").write_text("/* empty: the real header is elsewhere */\n")
    k = analyze(OPAQUE, tmp_path, "weights.cu", {"n": 1000})["weights"]
    assert not k.failed and not k.exact  # the unknown types' sizes are assumptions
    notes = {(d.location.line, d.location.col): d.message for d in k.diagnostics if d.code == "SR141"}
    assert set(notes) == {(3, 57), (7, 5)}  # each name once, at its first use
    assert "`my_real_t`" in notes[(3, 57)] and "`geom::Point`" in notes[(7, 5)]
    # per i < n: 2 * x[i] + s: 2 fp32; x read, y written; scale[0]: one element of 4 B (assumed)
    assert W(k) == {"fp32": 2000}
    got = arrays(k)
    assert got["x"][:2] == (4000, 0) and got["y"][:2] == (0, 4000) and got["scale"][:2] == (4, 0)


COALESCED = r"""#include <cooperative_groups.h>
using namespace cooperative_groups;

// the CUDA-samples style: a reduction over a thread_group parameter, and a coalesced group's count
__device__ float reduce_group(thread_group g, float *tmp, float v)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        tmp[lane] = v;
        g.sync();
        if (lane < i) v += tmp[lane + i];
        g.sync();
    }
    return v;
}

__device__ void mark(thread_group g, float *flags)
{
    flags[g.thread_rank()] = 1.0f;
}

__global__ void count_positive(const float *x, int *total, float *sums, float *flags, int n)
{
    __shared__ float tmp[256];
    thread_block block = this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : 0.0f;
    float s = reduce_group(block, tmp, v);
    if (block.thread_rank() == 0) sums[blockIdx.x] = s;
    mark(block, flags);
    mark(tiled_partition<32>(block), flags);
    if (i < n && x[i] > 0.0f) {
        coalesced_group active = coalesced_threads();
        float f = reduce(active, x[i], plus<float>());
        if (active.thread_rank() == 0) atomicAdd(total, 1);
    }
    sync(block);
}

int main() { int n = 1000; float *x, *s, *fl; int *t; count_positive<<<(n + 255) / 256, 256>>>(x, t, s, fl, n); }
"""


def test_groups_whose_kind_is_not_stated_are_said_not_guessed(tmp_path):
    k = analyze(COALESCED, tmp_path, "count.cu", {"n": 1000})["count_positive"]
    assert not k.failed and not k.exact
    by_line = {}
    for d in k.diagnostics:
        by_line.setdefault(d.location.line, set()).add(d.code)
    # reduce_group's thread_group is a block at its one call: its rank and size are the block's, so
    # the halving loop (i = 128, 64, ..., 1) adds where lane < i: 255 adds per block, 4 blocks
    assert W(k) == {"fp32": 255 * 4}
    assert 9 not in by_line and 11 not in by_line
    # mark's thread_group is a block at one call and a tile at the other: its rank is not an index
    # (SR101 at line 19); the coalesced group's reduce has no known size (SR142 at line 34, its
    # work not counted); its rank is data (SR104 at line 35)
    assert "SR101" in by_line[19]
    assert "SR142" in by_line[34] and "SR104" in by_line[35]
    (d,) = [d for d in k.diagnostics if d.code == "SR142"]
    assert "not counted" in d.message
    # the block's own rank is exact: sums is written once per block (4 blocks)
    assert k.total.arrays["sums"].write.value == 4 * 4


TEMPLATE_GROUP = r"""#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename Group>
__device__ float group_sum(Group g, float v)
{
    for (int o = g.size() / 2; o > 0; o /= 2) v += g.shfl_down(v, o);
    return v;
}

__global__ void sums(const float *x, float *out, int n)
{
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = group_sum(tile, i < n ? x[i] : 0.0f);
    if (tile.thread_rank() == 0) out[i / 16] = v;
}

int main() { int n = 1000; float *x, *o; sums<<<(n + 127) / 128, 128>>>(x, o, n); }
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_template_group_parameter_takes_its_callers_tile(tmp_path, n):
    k = analyze(TEMPLATE_GROUP, tmp_path, "sums.cu", {"n": n})["sums"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # Group is a 16-lane tile at the only call: g.size() = 16, o = 8, 4, 2, 1: 4 adds per thread,
    # 128 threads per block, G = ceil(n/128) blocks: W = 512*G; lane 0 of each tile (8 per block)
    # writes out[i / 16]: 8*G elements
    G = -(-n // 128)
    assert W(k) == {"fp32": 512 * G}
    assert arrays(k)["out"][:2] == (0, 4 * 8 * G) and arrays(k)["x"][:2] == (4 * n, 0)
    # not traced: the trace instantiates template __device__ functions for arithmetic types only,
    # and a group argument is none (it refuses the call, see README "Ground truth")


PHILOX = r"""#include <curand_kernel.h>

__constant__ coeff_t weights[8];   // coeff_t comes from a header this file does not include

// a generator state kept in global memory between launches, four normals per draw
__global__ void noise(float4 *out, curandStatePhilox4_32_10_t *states, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandStatePhilox4_32_10_t s = states[i];
    float4 r = curand_normal4(&s);
    out[i] = make_float4(r.x * 2.0f, r.y, r.z, r.w + (float)weights[i % 8]);
    states[i] = s;
}
"""


@pytest.mark.parametrize("n", [5, 1000])  # below and above the 8 weights
def test_curand_state_in_global_memory_and_an_unknown_constant_type(tmp_path, n):
    k = analyze(PHILOX, tmp_path, "noise.cu", {"n": n})["noise"]
    assert not k.failed and not k.exact  # coeff_t is assumed (SR141)
    (d,) = [d for d in k.diagnostics if d.code == "SR141"]
    assert (d.location.line, d.location.col) == (3, 14) and "`coeff_t`" in d.message
    # per thread i < n: curand_normal4 is one special call (1), r.x * 2 (1), r.w + w (1): 3 fp32
    assert W(k) == {"fp32": 3 * n}
    assert {q: v.value for q, v in k.total.special_by_name.items()} == {"curand_normal4": n}
    got = arrays(k)
    # out[i]: a float4, 16 B; the state array: 8 B per element read and written (the stub's size,
    # not Philox's real 64 B: README); weights[i % 8]: min(n, 8) elements of the assumed 4 B
    assert got["out"][:2] == (0, 16 * n) and got["states"][:2] == (8 * n, 8 * n)
    assert got["weights"][:2] == (4 * min(n, 8), 0)


OPAQUE_PARAMS = r"""#include "precision.h"
__global__ void scale_real(int n, const real_t* __restrict__ x, real_t* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
"""


def test_unknown_types_behind_qualified_pointer_parameters(tmp_path):
    # `const real_t* __restrict__ x` in a parameter list used to be SR001 (the qualifier after `*`
    # hid the parameter's name): now the type is opaque (SR141) and the kernel is analyzed.  Per
    # i < n: x[i] read, y[i] written, 4 B each (the assumed size): Q = 8n = 8,000 at n = 1000.
    (tmp_path / "precision.h").write_text("/* empty */\n")
    k = analyze(OPAQUE_PARAMS, tmp_path, "qual.cu", {"n": 1000})["scale_real"]
    assert not k.failed and not k.exact
    assert any(d.code == "SR141" and "`real_t`" in d.message for d in k.diagnostics)
    got = arrays(k)
    assert got["x"][:2] == (4000, 0) and got["y"][:2] == (0, 4000)
