"""Host-side launch inference (issue #10, item 4): the grid a host computes (`ceil((float)N /
block.x)`, `(n + threads - 1) / threads`, `ceil_div`, `std::min`, dim3 from variables), sizes that
reach a kernel through a host wrapper, launches in host loops, and the work budget: a kernel whose
sizes are all known is counted exactly at them whatever the budget.  Every expected value is
derived by hand in the comment beside it, at sizes on both sides of each block multiple."""

from __future__ import annotations

import time

import pytest
import sympy
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.frontends.common.tokens import tokenize
from staticroof.frontends.cuda.hostexpr import Folder, host_function
from staticroof.frontends.cuda.launch import find_launches

from helpers import ROOT, S, analyze_file, analyze_source, code_list, same

CUDA = ROOT / "tests" / "data" / "cuda"


def cdiv(a, b):
    return -(-a // b)


def site_of(body: str, env: dict):
    (site,) = find_launches(tokenize(body, "host.cu"), env)
    return site


# ---------------------------------------------------------------------------------------------
# Host expressions, folded to numbers

@pytest.mark.parametrize("ni", [31, 32, 33, 1000, 1024, 1025])
def test_polybench_float_ceil_grid_is_ceiling_division(ni):
    # dim3 block(32, 8); grid(ceil((float)NI / block.x), ceil((float)NJ / block.y)): below 2**24 the
    # float quotient's ceiling is the exact ceiling division: NI = 1000 -> 32 (31.25), 1024 -> 32,
    # 1025 -> 33; NJ = NI along y with block.y = 8: 1000 -> 125, 1025 -> 129.
    site = site_of("""
        dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
        dim3 grid((size_t)(ceil(((float)NI) / ((float)block.x))), (size_t)(ceil(((float)NJ) / ((float)block.y))));
        gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu);""",
                   {"NI": ni, "NJ": ni, "DIM_THREAD_BLOCK_X": 32, "DIM_THREAD_BLOCK_Y": 8})
    assert site.block == (32, 8, 1)
    assert site.grid == (cdiv(ni, 32), cdiv(ni, 8), 1)


def test_float_grid_past_2_pow_24_is_folded_as_the_hardware_rounds():
    # NI = 2**24 + 1 is not a float: (float)NI = 2**24, / 2 = 2**23 = 8388608 blocks, one fewer than
    # the exact ceiling division 8388609; in double (2**53 bound) it is exact: 8388609.
    n = 2 ** 24 + 1
    f = site_of("k<<<(unsigned)ceil((float)NI / 2.0f), 2>>>(x);", {"NI": n})
    d = site_of("k<<<(unsigned)ceil(NI / 2.0), 2>>>(x);", {"NI": n})
    assert f.grid[0] == 2 ** 23 and d.grid[0] == 2 ** 23 + 1


@pytest.mark.parametrize("n", [255, 256, 257, 1 << 20])
def test_integer_idioms(n):
    # threads = 256: (n + threads - 1) / threads = ceil(n/256): 255 -> 1, 256 -> 1, 257 -> 2,
    # 2**20 -> 4096; std::min(max_blocks = 1024, that) caps it: 2**20 -> 1024.
    env = {"N": n}
    site = site_of("""
        int threads = 256;
        int blocks = (n + threads - 1) / threads;
        dim3 grid(blocks);
        saxpy<<<grid, threads>>>(n, 2.0f, x, y);""", {"n": n})
    assert site.grid == (cdiv(n, 256), 1, 1) and site.block == (256, 1, 1)
    site = site_of("""
        const int max_blocks = 1024;
        const int block_size = 256;
        int grid_size = std::min(max_blocks, (N + block_size - 1) / block_size);
        reduce<<<grid_size, block_size, block_size * sizeof(float), stream>>>(d_in, d_out, N);""", env)
    assert site.grid == (min(1024, cdiv(n, 256)), 1, 1) and site.block == (256, 1, 1)


@pytest.mark.parametrize("n", [127, 128, 129])
def test_user_ceil_div_function(n):
    # int ceil_div(int a, int b) { return (a + b - 1) / b; } with b = 128: 127 -> 1, 128 -> 1, 129 -> 2
    name, fn = host_function(tokenize("int ceil_div(int a, int b)"), tokenize("return (a + b - 1) / b;"))
    (site,) = find_launches(tokenize("k<<<ceil_div(N, 128), 128>>>(x, N);"), {"N": n}, {name: fn})
    assert site.grid == (cdiv(n, 128), 1, 1)


@pytest.mark.parametrize("n", [255, 256, 257, 1 << 18, (1 << 18) + 1])
def test_a_helper_with_locals_and_a_remainder_test(n):
    # static int blocks_for(int n) { const int threads = 256; int b = (n + threads - 1) / threads;
    # return b < 1024 ? b : 1024; }: 255 -> 1, 256 -> 1, 257 -> 2, 2**18 -> 1024, 2**18 + 1 -> 1024
    # (1025 capped); `n / 256 + (n % 256 != 0)` is the ceiling division too (a comparison is 1 or 0)
    name, fn = host_function(tokenize("static int blocks_for(int n)"), tokenize(
        "const int threads = 256; int b = (n + threads - 1) / threads; return b < 1024 ? b : 1024;"))
    (site,) = find_launches(tokenize("k<<<blocks_for(N), 256>>>(x, N);"), {"N": n}, {name: fn})
    assert site.grid == (min(1024, cdiv(n, 256)), 1, 1)
    (site,) = find_launches(tokenize("k<<<N / 256 + (N % 256 != 0), 256>>>(x, N);"), {"N": n})
    assert site.grid == (cdiv(n, 256), 1, 1)


def test_a_helper_with_a_branch_is_not_evaluated():
    # a body with an `if` is not a formula: no HostFunc, so a grid calling it stays unknown
    assert host_function(tokenize("int g(int n)"), tokenize("if (n > 4) return 4; return n;")) is None


def test_symbolic_float_ceil_states_its_bound():
    # in the kernel's own n: ceil((float)n / 256.0f) is ceiling(n/256) = floor((n + 255)/256) while
    # n < 2**24 (the float quotient's rounding cannot cross an integer there)
    f = Folder({})
    v = f.evaluate(tokenize("(unsigned int)ceil((float)n / 256.0f)"), {"n": "n"})
    assert same(v, S("floor((n + 255)/256)"))
    assert sympy.Lt(sympy.Abs(sympy.Symbol("n")), 2 ** 24) in f.bounds


# ---------------------------------------------------------------------------------------------
# Whole files: the grid, the sizes through wrappers, and exact counts

_WRAPPER = """
#include <cuda_runtime.h>
#include <math.h>
#define N {n}
#define THREADS 256
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

struct Timer {{ cudaEvent_t start, stop; }};

__global__ void scale_kernel(float *d, int n, float alpha)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = alpha * d[i];
}}

void launch_scale(float *d, int n, cudaStream_t stream)
{{
    dim3 block(THREADS);
    dim3 grid(CEIL_DIV(n, block.x));
    scale_kernel<<<grid, block, 0, stream>>>(d, n, 0.5f);
}}

int main(int argc, char **argv)
{{
    float *d;
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaMalloc(&d, N * sizeof(float));
    launch_scale(d, N, stream);
    cudaStreamSynchronize(stream);
    cudaFree(d);
    return 0;
}}
"""


@pytest.mark.parametrize("n", [1000, 1024, 1025])
def test_sizes_reach_the_kernel_through_a_wrapper(tmp_path, n):
    # main passes N to launch_scale(d, n, stream), which computes grid = CEIL_DIV(n, 256) and
    # launches with a stream: n = N, grid = ceil(N/256) (1000 -> 4, 1024 -> 4, 1025 -> 5).
    # W = n (one multiply per element), Q = 8n (d read and written).
    k = analyze_source(_WRAPPER.format(n=n), tmp_path, name="scale.cu")["scale_kernel"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.sizes == {"n": n}
    assert k.launch["grid"] == (cdiv(n, 256), 1, 1) and k.launch["block"] == (256, 1, 1)
    assert same(k.total.flops.expr, S("n")) and k.total.flops.value == n
    assert same(k.total.compulsory.expr, S("8*n")) and k.total.compulsory.value == 8 * n


_GRID_STRIDE = """
#include <cuda_runtime.h>
#include <algorithm>
#define N {n}

static inline int cdiv(int a, int b) {{ return (a + b - 1) / b; }}

__global__ void axpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}}

int main()
{{
    int n = N;
    const int threads = 128;
    const int max_blocks = 8;
    int blocks = std::min(max_blocks, cdiv(n, threads));
    float *x, *y;
    for (int rep = 0; rep < 10; ++rep)
        axpy<<<blocks, threads>>>(n, 2.0f, x, y);
    return 0;
}}
"""


@pytest.mark.parametrize("n", [1000, 1024, 1025])
def test_min_of_a_user_cdiv_and_a_host_loop(tmp_path, n):
    # blocks = min(8, cdiv(n, 128)) = 8 for all three (cdiv = 8, 8, 9); a grid-stride loop covers
    # [0, n) once whatever the grid: W = 2n (a*x + y), Q = 12n.  The launch sits in
    # `for (rep = 0; rep < 10; ++rep)`: SR150 says the counts are per launch, 10 iterations.
    k = analyze_source(_GRID_STRIDE.format(n=n), tmp_path, name="axpy.cu")["axpy"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.launch["grid"] == (min(8, cdiv(n, 128)), 1, 1) and k.launch["block"] == (128, 1, 1)
    assert k.sizes == {"n": n}
    assert same(k.total.flops.expr, S("2*n")) and same(k.total.compulsory.expr, S("12*n"))
    (d,) = [d for d in k.diagnostics if d.code == "SR150"]
    assert "10 iterations" in d.message and "per launch" in d.message


def test_a_host_loop_variable_is_not_its_first_value(tmp_path):
    # `for (int t = 0; t < steps; t++) k<<<...>>>(..., t)`: t is not 0 at every launch, so it is not
    # bound as a size; the kernel reads src[t * n + i], a row per launch: W = n, Q = 8n
    k = analyze_source("""
#include <cuda_runtime.h>
__global__ void step(const float *src, float *dst, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = 0.5f * src[t * n + i];
}
int main()
{
    int n = 4096, steps = 100;
    float *src, *dst;
    for (int t = 0; t < steps; t++)
        step<<<(n + 255) / 256, 256>>>(src, dst, n, t);
}
""", tmp_path, name="step.cu")["step"]
    assert k.sizes.get("n") == 4096 and k.sizes.get("t") is None
    assert same(k.total.flops.expr, S("n"))
    assert any(d.code == "SR150" and "100 iterations" in d.message for d in k.diagnostics)


_UNGUARDED = """
#include <cuda_runtime.h>
#include <math.h>
__global__ void fill(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 1.0f;
}
int main(void)
{
    float *d_y;
    int n = %d;
    dim3 block(256);
    dim3 grid((unsigned int)ceil((float)n / (float)block.x));
    fill<<<grid, block>>>(d_y, n);
}
"""


@pytest.mark.parametrize("n", [1000, 1024, 1025])
def test_unguarded_kernel_counts_the_float_grid(tmp_path, n):
    # no guard: every launched thread stores, 256 * ceil(n/256) stores of 4 B:
    # Q = 1024*ceiling(n/256) (1000 -> 4096, 1024 -> 4096, 1025 -> 5120), stated for n < 2**24 (SR151)
    k = analyze_source(_UNGUARDED % n, tmp_path, name="fill.cu")["fill"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.compulsory.expr, S("1024*floor((n + 255)/256)"))
    assert k.total.compulsory.value == 1024 * cdiv(n, 256)
    (d,) = [d for d in k.diagnostics if d.code == "SR151"]
    assert "n < 16777216" in d.message


@pytest.mark.parametrize("n", [1000, 1025])
def test_the_trace_runs_the_inferred_launches(tmp_path, n):
    # the oracle runs each kernel on the launch the host computes: the wrapper's CEIL_DIV grid (only
    # the guarded n threads work: W = n, Q = 8n) and the float-ceil grid of the unguarded fill
    # (Q = 1024*ceil(n/256): 4096 at 1000, 5120 at 1025); the static counts must agree
    for src, name in ((_WRAPPER.format(n=n), "scale.cu"), (_UNGUARDED % n, "fill.cu")):
        p = tmp_path / name
        p.write_text(src)
        r = CliRunner().invoke(main, ["trace", str(p), "-D", f"n={n}"])
        assert r.exit_code == 0 and ": agree" in r.output, r.output


def test_unguarded_float_grid_beyond_its_bound_is_approximate(tmp_path):
    # n = 2**24 + 1: the float grid is 65536 blocks, the formula says 65537: SR152, approximate
    k = analyze_source(_UNGUARDED % (2 ** 24 + 1), tmp_path, name="fill.cu")["fill"]
    assert not k.exact and "SR152" in code_list(k)


# ---------------------------------------------------------------------------------------------
# The work budget (commit 795e06c): sizes known, counted exactly at them

_ACC = """
#include <cuda_runtime.h>
#define NJ 64
#define NK 64
__global__ void gemm_acc(int ni, int nj, int nk, int unused, float alpha, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * NJ + j] *= alpha;
        for (int k = 0; k < nk; k++)
            c[i * NJ + j] += a[i * NK + k] * b[k * NJ + j];
    }
}
void run(int ni, int nj, int nk, float *a, float *b, float *c)
{
    dim3 block(32, 8);
    dim3 grid((nj + 31) / 32, (ni + 7) / 8);
    gemm_acc<<<grid, block>>>(ni, nj, nk, 0, 1.5f, a, b, c);
}
int main() { int ni = %d, nj = %d, nk = %d; float *a, *b, *c; run(ni, nj, nk, a, b, c); }
"""


@pytest.mark.parametrize("ni,nj,nk", [(40, 64, 64), (40, 50, 30), (70, 64, 64)])
def test_past_the_budget_with_every_size_known_counts_at_the_sizes(tmp_path, monkeypatch, ni, nj, nk):
    # A tiny isl budget: the symbolic first accesses are out of reach, but ni, nj, nk reach the
    # kernel through run() and `unused` is never read, so it is counted at the sizes (SR118), exact.
    # c[i][j] (stride NJ = 64, nj <= 64 so rows do not overlap): read and written ni*nj;
    # a[i][k] (stride 64, nk <= 64): ni*nk reads; b[k][j]: nk*nj reads.
    # W = ni*nj*(1 + 2*nk); Q = 8*ni*nj + 4*ni*nk + 4*nk*nj
    monkeypatch.setenv("STATICROOF_ISL_BUDGET", "2000")
    k = analyze_source(_ACC % (ni, nj, nk), tmp_path, name="acc.cu")["gemm_acc"]
    assert k.exact and "SR116" not in code_list(k), [str(d) for d in k.diagnostics]
    assert "SR118" in code_list(k)
    assert k.total.flops.value == ni * nj * (1 + 2 * nk)
    assert k.total.compulsory.value == 8 * ni * nj + 4 * ni * nk + 4 * nk * nj


def test_past_the_budget_without_the_sizes_is_sr116(tmp_path, monkeypatch):
    # the same kernel with no caller: ni, nj, nk unknown, and the budget too small -> SR116
    monkeypatch.setenv("STATICROOF_ISL_BUDGET", "2000")
    src = (_ACC % (1, 1, 1)).replace("int main() {", "int unused_main() {").replace("run(ni, nj, nk, a, b, c);", "")
    k = analyze_source(src, tmp_path, name="acc.cu")["gemm_acc"]
    assert "SR116" in code_list(k) and not k.exact


# ---------------------------------------------------------------------------------------------
# A PolyBench-GPU-style file: every kernel exact at its #define sizes

# (kernel, W, Q compulsory) at NI = NJ = NK = NL = NX = NY = 1000, as derived in the file's header
_POLYBENCH = {
    "gemm_kernel": (10 ** 6 * 3001, 16 * 10 ** 6),         # NI*NJ*(1 + 3NK); 4NI*NK + 4NK*NJ + 8NI*NJ
    "mm2_kernel1": (3 * 10 ** 9, 12 * 10 ** 6),            # 3NI*NJ*NK; 4(NI*NK + NK*NJ + NI*NJ)
    "mm2_kernel2": (10 ** 6 * 2001, 16 * 10 ** 6),         # NI*NL*(1 + 2NJ); 4NI*NJ + 4NJ*NL + 8NI*NL
    "atax_kernel1": (2 * 10 ** 6, 4 * 10 ** 6 + 12000),    # 2NX*NY; 4NX*NY + 4NY + 8NX
    "atax_kernel2": (2 * 10 ** 6, 4 * 10 ** 6 + 12000),    # 2NX*NY; 4NX*NY + 4NX + 8NY
    "bicg_kernel1": (2 * 10 ** 6, 4 * 10 ** 6 + 8000),     # 2NX*NY; 4NX*NY + 4NX + 4NY
    "bicg_kernel2": (2 * 10 ** 6, 4 * 10 ** 6 + 8000),
    "mvt_kernel1": (16 * 10 ** 6, 4 * 10 ** 6 + 12000),    # block 32 x 8, y unused: 8 * 2NX**2; 4NX**2 + 12NX
    "syrk_kernel": (10 ** 6 * 3001, 12 * 10 ** 6),         # NX**2*(1 + 3NY); 4NX*NY + 8NX**2
    "gesummv_kernel": (4 * 10 ** 6 + 3000, 8 * 10 ** 6 + 12000),  # 4NX**2 + 3NX; 8NX**2 + 12NX
    "jacobi2d_kernel1": (5 * 998 ** 2, 4 * (10 ** 6 - 4) + 4 * 998 ** 2),
    "jacobi2d_kernel2": (0, 8 * 998 ** 2),
    "gemm_acc_kernel": (10 ** 6 * 3001, 16 * 10 ** 6),     # ni = nj = nk = 1000 from main via gemmAccCuda
    # fdtd step 1: rows 1..999 do ey - 0.5*(hz - hz): 3 FLOPs each; ey written 1e6 and read 999e3,
    # hz rows 0..999 read, one _fict_[t]: 4*(1e6 + 999e3 + 1e6 + 1)
    "fdtd_step1_kernel": (3 * 999 * 1000, 4 * (10 ** 6 + 999000 + 10 ** 6 + 1)),
}


def test_polybench_style_file_is_exact_at_its_sizes():
    start = time.process_time()
    kernels, _ = analyze_file(CUDA / "polybench_style.cu")
    elapsed = time.process_time() - start
    assert set(_POLYBENCH) <= set(kernels)
    for name, (w, q) in _POLYBENCH.items():
        k = kernels[name]
        assert k.exact, (name, [str(d) for d in k.diagnostics])
        assert k.total.flops.value == w, name
        assert k.total.compulsory.value == q, name
    # grids: ceil(1000/32) = 32 blocks along x, ceil(1000/8) = 125 along y; 1-D: ceil(1000/256) = 4
    assert kernels["gemm_kernel"].launch["grid"] == (32, 125, 1)
    assert kernels["gemm_acc_kernel"].launch["grid"] == (32, 125, 1)
    assert kernels["atax_kernel1"].launch["grid"] == (4, 1, 1)
    assert kernels["gemm_acc_kernel"].sizes == {"ni": 1000, "nj": 1000, "nk": 1000}
    for name in ("jacobi2d_kernel1", "jacobi2d_kernel2", "fdtd_step1_kernel"):
        assert any(d.code == "SR150" and "20 iterations" in d.message for d in kernels[name].diagnostics), name
    assert elapsed < 10, elapsed


@pytest.mark.parametrize("ni", [1000, 1024, 1025])
def test_polybench_gemm_at_sizes_on_both_sides_of_the_block(ni):
    # -D NI (an #ifndef default): grid.y = ceil(NI/8) (1000 -> 125, 1024 -> 128, 1025 -> 129) while
    # NJ = 1000 along x: 32; W = NI*NJ*(1 + 3NK) = 3,001,000*NI; Q = 4NI*NK + 4NK*NJ + 8NI*NJ
    # = 12000*NI + 4,000,000
    kernels, _ = analyze_file(CUDA / "polybench_style.cu", {"NI": str(ni)})
    k = kernels["gemm_kernel"]
    assert k.exact
    assert k.launch["grid"] == (32, cdiv(ni, 8), 1)
    assert k.total.flops.value == 3001000 * ni
    assert k.total.compulsory.value == 12000 * ni + 4000000


# (kernel, W or None, Q compulsory) at M = 500, N = 600, ni = nj = nl = 400, nx = 300, ny = 350, with
# the sizes reaching each kernel from main through its host wrapper; derived in the file's header
_ACC_STYLE = {
    "mean_kernel": (153856, 615424),          # the host's grid is 1 block of 256: 256 columns run
    "reduce_kernel": (None, 2307840),         # W depends on how sqrt(FLOAT_N) of a constant is folded
    "corr_kernel": (114124800, 1961856),
    "covar_kernel": (114432000, 1961856),
    "syr2k_kernel": (384160000, 2560000),
    "mm3_kernel3": (128000000, 2560000),
    "fdtd_step2_kernel": (314100, 1257600),
    "fdtd_step3_kernel": (521755, 1672208),
}


def test_polybench_sizes_as_parameters_are_exact_at_the_sizes_main_passes():
    start = time.process_time()
    kernels, _ = analyze_file(CUDA / "polybench_acc_style.cu")
    elapsed = time.process_time() - start
    for name, (w, q) in _ACC_STYLE.items():
        k = kernels[name]
        assert k.exact and "SR116" not in code_list(k), (name, [str(d) for d in k.diagnostics])
        if w is not None:
            assert k.total.flops.value == w, name
        assert k.total.compulsory.value == q, name
    # the data-dependent clamp of std_kernel is the one approximate kernel, with its reason
    assert not kernels["std_kernel"].exact and "SR104" in code_list(kernels["std_kernel"])
    # (size_t)(ceil((float)500) / 256.0f) = 1 block, not covering the 500 columns: SR119
    assert kernels["mean_kernel"].launch["grid"] == (1, 1, 1) and "SR119" in code_list(kernels["mean_kernel"])
    assert kernels["reduce_kernel"].launch["grid"] == (15, 75, 1)
    assert kernels["fdtd_step3_kernel"].sizes == {"nx": 300, "ny": 350}
    assert kernels["fdtd_step3_kernel"].launch["grid"] == (11, 38, 1)  # ceil(350/32), ceil(300/8)
    assert any(d.code == "SR150" and "50 iterations" in d.message for d in kernels["fdtd_step2_kernel"].diagnostics)
    assert elapsed < 15, elapsed


@pytest.mark.parametrize("n", [1000, 262144, 300000])
def test_assignments_after_the_declaration(n):
    # `if (blocks > 1024) blocks = 1024;` caps: min(ceil(n/256), 1024): 1000 -> 4, 262144 -> 1024,
    # 300000 -> 1024 (1172 capped); `blocks = n / 256; if (n % 256) blocks++;` (or `++blocks`,
    # `blocks += 1`) is ceil(n/256): 4, 1024, 1172; `n = n / 2` before the launch halves it: 2, 512, 586
    def grid(src):
        (site,) = find_launches(tokenize(src), {"n": n})
        return site.grid[0]

    assert grid("int blocks = (n + 255) / 256; if (blocks > 1024) blocks = 1024; k<<<blocks, 256>>>(n);") \
        == min(1024, cdiv(n, 256))
    for inc in ("blocks++;", "++blocks;", "blocks += 1;", "{ blocks = blocks + 1; }"):
        assert grid(f"int blocks = n / 256; if (n % 256) {inc} k<<<blocks, 256>>>(n);") == cdiv(n, 256), inc
    assert grid("n = n / 2; k<<<(n + 255) / 256, 256>>>(n);") == cdiv(n // 2, 256)


def test_assignments_the_host_cannot_fold_leave_the_grid_unknown():
    # an assignment in an `else`, a value carried around a host loop (`m /= 2` each iteration), and a
    # dim3 member set under a branch have no single value at the launch: unknown, never a guess.
    # A value that does not depend on the loop is fine: g2 = (n + 127)/128 = 8 at n = 1000.
    def grid(src):
        (site,) = find_launches(tokenize(src), {"n": 1000})
        return site.grid[0]

    assert grid("int b = 4; if (n > 10) { b = 8; } else { b = 2; } k<<<b, 256>>>(n);") is None
    assert grid("int m = n; for (int r = 0; r < 3; r++) { m /= 2; k<<<(m + 255) / 256, 256>>>(m); }") is None
    assert grid("dim3 g(4); if (n > 10) g.x = 8; k<<<g, 256>>>(n);") is None
    assert grid("int g2; for (int r = 0; r < 3; r++) { g2 = (n + 127) / 128; k<<<g2, 128>>>(n); }") == 8


@pytest.mark.parametrize("n", [1000, 1024, 1025])
def test_dim3_arguments_of_a_launch_wrapper(tmp_path, n):
    # main builds dim3 threads(128), blocks((N + 127) / 128) and passes both to run_fill(dim3 grid,
    # dim3 block, ...), which launches with them: grid = ceil(N/128) (1000 -> 8, 1024 -> 8, 1025 -> 9).
    # fill has no guard: every launched thread stores one float: Q = 4 * 128 * ceil(N/128)
    k = analyze_source(f"""
#include <cuda_runtime.h>
#define N {n}
__global__ void fill(float *y, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f;
}}
static void run_fill(dim3 grid, dim3 block, float *y, int n, cudaStream_t s)
{{
    fill<<<grid, block, 0, s>>>(y, n);
}}
int main()
{{
    float *y;
    cudaStream_t s;
    dim3 threads(128);
    dim3 blocks((N + threads.x - 1) / threads.x);
    run_fill(blocks, threads, y, N, s);
}}
""", tmp_path, name="fill.cu")["fill"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.launch["grid"] == (cdiv(n, 128), 1, 1) and k.launch["block"] == (128, 1, 1)
    assert k.total.compulsory.value == 512 * cdiv(n, 128)


# ---------------------------------------------------------------------------------------------
# Several dim3 declarators in one declaration (issue #11): `dim3 grid(a, b), block(c, d);`

@pytest.mark.parametrize("decl,grid,block", [
    ("dim3 grid(a, b), block(c, d);", (5, 6, 1), (7, 8, 1)),
    # n / 256 truncates: 1000 / 256 = 3
    ("dim3 grid(n / 256), block(256);", (3, 1, 1), (256, 1, 1)),
    # ceil(1000/16) = 63, ceil(33/16) = 3, the second declarator reading the first's members too
    ("dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);", (63, 3, 1), (16, 16, 1)),
    ("dim3 block(16, 16), grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);", (63, 3, 1), (16, 16, 1)),
    # `= dim3(4)` then a constructor; braces; a copy of the first; no initializer is (1, 1, 1)
    ("dim3 grid = dim3(4), block(2);", (4, 1, 1), (2, 1, 1)),
    ("dim3 grid = {4, 3}, block = grid;", (4, 3, 1), (4, 3, 1)),
    ("dim3 grid, block; grid.x = (n + 127) / 128; block.x = 128;", (8, 1, 1), (128, 1, 1)),
    # a whole dim3 assigned after its declaration: ceil(1000/256) = 4
    ("dim3 grid, block(256); grid = dim3((n + 255) / 256);", (4, 1, 1), (256, 1, 1)),
    ("dim3 grid(1), block(256); grid = {4, 2};", (4, 2, 1), (256, 1, 1)),
    # under a branch it has no single value: unknown, never the declaration's (1, 1, 1)
    ("dim3 grid(1), block(256); if (n > 10) grid = dim3(8);", (None, None, None), (256, 1, 1)),
])
def test_dim3_declarators_in_one_declaration(decl, grid, block):
    site = site_of(f"{decl} k<<<grid, block>>>(x, n, m);", {"a": 5, "b": 6, "c": 7, "d": 8, "n": 1000, "m": 33})
    assert site.grid == grid and site.block == block


_MULTI_DECL = r"""
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NX {nx}
#define NY {ny}
#define N {n}

#define CUDA_CHECK(call)                                                                  \
    do {{                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ != cudaSuccess) {{                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(EXIT_FAILURE);                                                           \
        }}                                                                                 \
    }} while (0)

__global__ void scale2d(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, float alpha)
{{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < ny && col < nx)
        out[row * nx + col] = alpha * in[row * nx + col];
}}

__global__ void saxpy(int n, float a, const float *x, float *y)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}}

__global__ void fill(float *y, float v)
{{
    y[blockIdx.x * blockDim.x + threadIdx.x] = v;
}}

int main(int argc, char **argv)
{{
    int nx = NX, ny = NY, n = N;
    size_t bytes = (size_t)(nx * ny > n ? nx * ny : n) * sizeof(float);
    float *h_a = (float *)malloc(bytes), *d_a, *d_b;
    for (int i = 0; i < n; i++)
        h_a[i] = (float)i;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));

    {decl2d}
    scale2d<<<grid, block>>>(d_a, d_b, nx, ny, 2.0f);
    CUDA_CHECK(cudaGetLastError());

    dim3 grid1(n / 256), block1(256);
    saxpy<<<grid1, block1>>>(n, 2.0f, d_a, d_b);

    dim3 fill_grid = dim3(n / 128), fill_block(128);
    fill<<<fill_grid, fill_block>>>(d_b, 0.0f);
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaMemcpy(h_a, d_b, bytes, cudaMemcpyDeviceToHost));
    printf("%f\n", h_a[0]);
    cudaFree(d_a);
    cudaFree(d_b);
    free(h_a);
    return 0;
}}
"""

_DECL_2D = ["dim3 block(16, 16), grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);",
            "dim3 block(16, 16), grid((nx + 15) / 16, (ny + 15) / 16);"]


@pytest.mark.parametrize("decl2d", _DECL_2D, ids=["members", "literal"])
@pytest.mark.parametrize("nx,ny,n", [(15, 17, 1000), (16, 16, 1024), (17, 15, 1025)])
def test_multi_declarator_launches_in_a_real_main(tmp_path, decl2d, nx, ny, n):
    k = analyze_source(_MULTI_DECL.format(nx=nx, ny=ny, n=n, decl2d=decl2d), tmp_path, name="multi.cu")
    # scale2d: block 16 x 16, grid (ceil(nx/16), ceil(ny/16)): (15, 17) -> 1 x 2, (16, 16) -> 1 x 1,
    # (17, 15) -> 2 x 1.  The guard admits nx*ny threads, each one fp32 multiply, reading in and
    # writing out once: W = nx*ny (255, 256, 255), Q = 8*nx*ny (2040, 2048, 2040).
    s = k["scale2d"]
    assert s.exact, [str(d) for d in s.diagnostics]
    assert s.launch["block"] == (16, 16, 1) and s.launch["grid"] == (cdiv(nx, 16), cdiv(ny, 16), 1)
    assert s.sizes == {"nx": nx, "ny": ny}
    assert same(s.total.flops.expr, S("nx*ny")) and s.total.flops.value == nx * ny
    assert same(s.total.compulsory.expr, S("8*nx*ny")) and s.total.compulsory.value == 8 * nx * ny
    # saxpy: grid n / 256 truncates (1000 -> 3, 1024 -> 4, 1025 -> 4) with 256 threads: 768, 1024,
    # 1024 launched, min(n, that) work: 2 FLOPs and 12 B each: W = 1536, 2048, 2048; Q = 9216,
    # 12288, 12288.  At 1000 and 1025 the grid misses the last elements: SR119.
    a = k["saxpy"]
    assert a.launch["grid"] == (n // 256, 1, 1) and a.launch["block"] == (256, 1, 1)
    work = min(n, 256 * (n // 256))
    assert a.total.flops.value == 2 * work and a.total.compulsory.value == 12 * work
    assert ("SR119" in code_list(a)) == (n % 256 != 0)
    # fill: `= dim3(n / 128)` then `fill_block(128)` in one declaration: 7, 8, 8 blocks of 128 and no
    # guard: every launched thread stores 4 B: Q = 512 * floor(n/128) = 3584, 4096, 4096; W = 0
    f = k["fill"]
    assert f.exact and f.launch["grid"] == (n // 128, 1, 1) and f.launch["block"] == (128, 1, 1)
    assert f.total.flops.value == 0 and f.total.compulsory.value == 512 * (n // 128)


@pytest.mark.slow
def test_multi_declarator_launches_agree_with_the_trace(tmp_path):
    # the oracle runs the three launches the declarations give (nx = 15, ny = 17, n = 1000)
    p = tmp_path / "multi.cu"
    p.write_text(_MULTI_DECL.format(nx=15, ny=17, n=1000, decl2d=_DECL_2D[0]))
    r = CliRunner().invoke(main, ["trace", str(p)])
    assert r.exit_code == 0 and r.output.count(": agree") == 3, r.output
