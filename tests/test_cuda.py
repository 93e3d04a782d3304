"""The CUDA front end: every kernel of every .cu file is reported, C and CUDA agree on the same
algorithm, and the GPU execution model's idioms give exact domains."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT, SAMPLES, S, analyze_file, analyze_source, same

CUDA_FILES = sorted(SAMPLES.glob("*.cu")) + sorted((ROOT / "tests" / "data" / "cuda").glob("*.cu"))
_GLOBAL = re.compile(r"__global__\s+(?:void|[\w:<>]+)\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")


@pytest.mark.parametrize("path", CUDA_FILES, ids=lambda p: p.name)
def test_corpus_every_kernel_reported(path):
    names = set(_GLOBAL.findall(re.sub(r"//[^\n]*|/\*.*?\*/", "", path.read_text(), flags=re.S)))
    assert names, "no __global__ kernel found by the test's own scan"
    kernels, _report = analyze_file(path)
    assert names <= set(kernels), f"missing: {names - set(kernels)}"
    for k in kernels.values():
        if k.failed:  # unsupported: the construct and its location are named
            assert any(d.code in ("SR001", "SR002", "SR116") and d.location and d.location.line for d in k.diagnostics)


@pytest.mark.parametrize("c_file,c_kernel,cu_file,cu_kernel,renames", [
    ("saxpy.c", "saxpy", "saxpy.cu", "saxpy", {}),
    ("saxpy.c", "saxpy", "saxpy.cu", "saxpy_grid_stride", {}),
    ("gemm.c", "gemm", "matmul_naive.cu", "matmul_naive", {}),
])
def test_same_algorithm_in_c_and_cuda(c_file, c_kernel, cu_file, cu_kernel, renames):
    c = analyze_file(SAMPLES / c_file)[0][c_kernel]
    cu = analyze_file(SAMPLES / cu_file)[0][cu_kernel]
    assert c.exact and cu.exact
    # the size symbols may be spelled differently (n vs N): compare with one size symbol
    def one_size(e, k):
        syms = sorted(e.free_symbols, key=str)
        assert len(syms) <= 1, syms
        return e.subs({s: S("n") for s in syms})
    assert same(one_size(c.total.flops.expr, c), one_size(cu.total.flops.expr, cu))
    assert same(one_size(c.total.compulsory.expr, c), one_size(cu.total.compulsory.expr, cu))


def test_global_index_guard_is_exactly_n_threads(tmp_path):
    k = analyze_source("""
__global__ void k(int n, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}""", tmp_path, name="k.cu")["k"]
    # no launch known: one thread per i in [0, n), assuming the grid covers n -> W = n, Q = 8n
    assert k.exact and same(k.total.flops.expr, S("n")) and same(k.total.compulsory.expr, S("8*n"))
    assert "cover" in k.launch["model"]


def test_early_return_guard_and_2d_guard(tmp_path):
    ks = analyze_source("""
__global__ void early(int n, float* y) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i >= n) return;
    y[i] = y[i] * 3.0f;
}
__global__ void twod(int M, int N, const double* A, double* B) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) B[row * N + col] = A[row * N + col] + 1.0;
}""", tmp_path, name="k.cu")
    # early: threads i < n each do 1 FLOP, read and write y[i]: W = n, Q = 8n
    assert same(ks["early"].total.flops.expr, S("n")) and same(ks["early"].total.compulsory.expr, S("8*n"))
    # twod: M*N threads, one fp64 add each; A read and B written once: Q = 16MN (linearized, exact)
    assert ks["twod"].exact
    assert same(ks["twod"].total.by_precision["fp64"].expr, S("M*N"))
    assert same(ks["twod"].total.compulsory.expr, S("16*M*N"))


def test_no_guard_stays_symbolic_in_the_launch(tmp_path):
    k = analyze_source("""
__global__ void fill(float* y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
""", tmp_path, name="k.cu")["fill"]
    # one store per thread: Q = 4 * gridDim_x * blockDim_x bytes, no FLOPs
    assert same(k.total.compulsory.expr, S("4*gridDim_x*blockDim_x"))
    assert k.launch["grid"] == (None, None, None)


def test_launch_site_binds_grid_block_and_arguments(tmp_path):
    k = analyze_source("""
__global__ void scale(int n, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= 2.0f;
}
int main() {
    int n = 1 << 20;
    float* y;
    cudaMalloc(&y, n * sizeof(float));
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    scale<<<blocks, threads>>>(n, y);
    return 0;
}""", tmp_path, name="k.cu")["scale"]
    assert k.launch["grid"] == (4096, 1, 1) and k.launch["block"] == (256, 1, 1)
    assert k.sizes == {"n": 1 << 20}
    assert k.total.flops.value == 1 << 20 and k.total.compulsory.value == 8 << 20


def test_grid_and_block_options(tmp_path):
    import json

    from click.testing import CliRunner

    from staticroof.cli import main

    p = Path(tmp_path) / "k.cu"
    p.write_text("__global__ void fill(float* y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n")
    r = CliRunner().invoke(main, ["analyze", str(p), "--grid", "fill=10", "--block", "128", "--format", "json"])
    (k,) = json.loads(r.output)["kernels"]
    # 10 blocks of 128 threads, one 4-byte store each
    assert k["bytes"]["compulsory"] == 10 * 128 * 4 and k["launch"]["block"] == [128, 1, 1]


def test_shared_memory_is_not_dram_and_is_reported(tmp_path):
    k = analyze_source("""
#define B 128
__global__ void stage(const float* x, float* y) {
    __shared__ float buf[B];
    int t = threadIdx.x;
    int i = blockIdx.x * B + t;
    buf[t] = x[i];
    __syncthreads();
    y[i] = buf[B - 1 - t];
}""", tmp_path, name="k.cu")["stage"]
    # per thread: one shared store and one shared load (8 B); x read, y written (8 B of DRAM)
    assert same(k.total.shared.expr, S("8*gridDim_x*blockDim_x"))
    assert set(k.total.arrays) == {"x", "y"}


SHARED_TALLY = """
#include <cuda_runtime.h>

// a per-block count of set flags in one __shared__ int (a contended update: the traffic is the point)
__global__ void tally(int n, const int *flags, int *out)
{
    __shared__ int total;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    for (int k = 0; k < n; k++)
        total = total + flags[k];
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}

int main()
{
    int n = 1000, *flags, *out;
    cudaMalloc(&flags, n * sizeof(int));
    cudaMalloc(&out, 4 * sizeof(int));
    tally<<<4, 32>>>(n, flags, out);
    return 0;
}
"""


@pytest.mark.parametrize("n", [1, 40])  # one iteration, and more than the 32 threads
def test_a_shared_int_updated_in_a_loop_stays_shared(tmp_path, n):
    k = analyze_source(SHARED_TALLY, tmp_path, {"n": str(n)}, name="tally.cu")["tally"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # 4 blocks of 32 threads.  Per block: thread 0 stores total (4 B) and loads it at the end (4 B);
    # in the loop every thread loads and stores total once per k (32 * n * 8 B): shared 4 * (8 + 256n)
    # B.  DRAM: flags[0..n-1] read (4n B), out[0..3] written (16 B)
    assert k.total.shared.value == 4 * (8 + 256 * n)
    assert k.total.compulsory.value == 4 * n + 16


def test_vector_loads_count_elements(tmp_path):
    k = analyze_source("""
__global__ void copy4(int n4, const float* __restrict__ x, float* __restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x)[i];
}""", tmp_path, name="k.cu")["copy4"]
    # each thread moves 4 floats in and 4 out: Q = 2 * 16 * n4 bytes
    assert same(k.total.compulsory.expr, S("32*n4"))


def test_atomic_add_is_one_flop_and_read_write(tmp_path):
    k = analyze_source("""
__global__ void total(int n, const float* x, float* sum) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, x[i]);
}""", tmp_path, name="k.cu")["total"]
    # n atomics: n FLOPs; x read n elements, sum[0] read once and written (compulsory 4 + 4);
    # access level: every thread reads and writes sum[0] (no register across threads)
    assert same(k.total.flops.expr, S("n"))
    assert same(k.total.compulsory.expr, S("4*n + 8"))
    assert same(k.total.access.expr, S("12*n"))


def test_unsupported_construct_is_named_with_location(tmp_path):
    kernels = analyze_source("""
__global__ void ok(float* y) { y[threadIdx.x] = 0.0f; }
__global__ void lam(float* y) {
    y[threadIdx.x] = apply([](float v) { return v * 2.0f; }, y[threadIdx.x]);  // a lambda as an argument
}""", tmp_path, name="k.cu")
    assert not kernels["ok"].failed
    bad = kernels["lam"]
    assert bad.failed and bad.diagnostics[0].location.line == 4


def test_cxx_spellings_in_kernels(tmp_path):
    k = analyze_source("""
#include <cuda_runtime.h>
namespace ops {
template <typename T, int UNROLL = 4>
__global__ void __launch_bounds__(256) scale(const T* __restrict__ x, T* __restrict__ y, int n,
                                             const float& alpha, bool flag = true) {
    constexpr int kStride = 1;
    const auto i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) y[i] = x[i] * T(alpha) + float(kStride) * 0.0f;
}
}
int main() {
    float *x, *y;
    int n = 1000;
    ops::scale<float, 4><<<(n + 255) / 256, 256>>>(x, y, n, 2.0f);
}""", tmp_path, name="k.cu")["scale"]
    # T = float from the launch; per element: x*alpha and + : 2 fp32 FLOPs (`float(kStride) * 0.0f`
    # is a compile-time constant, folded by the compiler: 0 FLOPs); x read, y written
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.by_precision["fp32"].expr, S("2*n"))
    assert same(k.total.compulsory.expr, S("8*n")) and k.sizes == {"n": 1000}


def test_sr119_when_the_launch_grid_does_not_cover_the_sizes():
    # matmul_naive's main launches (1024+15)/16 = 64 x 64 blocks of 16 x 16 threads: 1024 x 1024
    # threads.  With -D N=8192 the guards admit 8192 x 8192, so only 1024^2 outputs are computed:
    # W = 2 * 1024^2 * 8192 = 17,179,869,184 at the launch, while the formula 2N^3 gives
    # 1,099,511,627,776.  Both are reported, and SR119 says which is which.
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run

    k = run([SAMPLES / "matmul_naive.cu"], AnalysisOptions(defines={"N": "8192"})).kernels[0]
    assert k.total.flops.value == 2 * 1024**2 * 8192
    (d,) = [d for d in k.diagnostics if d.code == "SR119"]
    assert "17,179,869,184" in d.message and "1,099,511,627,776" in d.message
    # at the launch's own size the grid covers the guards: no warning
    k = run([SAMPLES / "matmul_naive.cu"]).kernels[0]
    assert not [d for d in k.diagnostics if d.code == "SR119"] and k.total.flops.value == 2 * 1024**3
