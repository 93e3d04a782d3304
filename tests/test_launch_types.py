"""Front-end exactness (issue #9): launch dimensions a kernel ignores, --grid/--block over launch
sites, -D for sizes defined in headers, cast views of buffers, and template kernels instantiated
for several element types.  Every expected value is derived by hand in the comment beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.options import AnalysisOptions
from staticroof.pipeline import run

from helpers import ROOT, S, analyze_file, analyze_source, code_list, same

DATA = ROOT / "tests" / "data"
CUDA = DATA / "cuda"


def kernels_of(path, defines=None, launches=None, include_dirs=()):
    report = run([Path(path)], AnalysisOptions(defines=defines or {}, include_dirs=include_dirs, launches=launches))
    return {k.name: k for k in report.kernels}


# ---------------------------------------------------------------------------------------------
# 4. A launch dimension the kernel does not index repeats its body

@pytest.mark.parametrize("n", [20, 32, 33, 100])
def test_unused_block_y_repeats_the_body(n):
    # block(32, 8), grid.x = (n + 31)/32: the guard admits n threads along x, each 8 times along y
    # (threadIdx.y is never read).  W = 8 * n * 1, Q = 4n (x) + 4n (y) = 8n whatever the
    # repetition, Q_access = 8 * n * 2 refs * 4 B = 64n.  n = 20 < 32 <= 33 < 100: both sides of
    # the block size.
    k = kernels_of(CUDA / "unused_block_y.cu", {"n": str(n)})["scale_kernel"]
    assert k.exact, [str(d) for d in k.diagnostics]
    t = k.total
    assert same(t.flops.expr, S("8*n")) and t.flops.value == 8 * n
    assert same(t.compulsory.expr, S("8*n")) and t.compulsory.value == 8 * n
    assert same(t.access.expr, S("64*n")) and t.access.value == 64 * n
    (d,) = [d for d in k.diagnostics if d.code == "SR120"]
    assert "threadIdx.y" in d.message and "blockDim.y = 8" in d.message
    assert d.location.line == 49  # the launch site
    assert k.launch["block"] == (32, 8, 1) and k.launch["grid"][1:] == (1, 1)


def test_unused_dimension_with_an_unknown_extent_is_a_size(tmp_path):
    # block(32, ny) with ny from argv: the repetition along y is the size blockDim_y.
    # W = blockDim_y * n (one multiply per admitted thread), Q = 8n, Q_access = 8 * blockDim_y * n.
    k = analyze_source("""
#include <cuda_runtime.h>
#include <stdlib.h>
__global__ void scale(int n, float alpha, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i];
}
int main(int argc, char **argv) {
    int n = 4096;
    int ny = atoi(argv[1]);
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    dim3 block(32, ny);
    dim3 grid((n + 31) / 32);
    scale<<<grid, block>>>(n, 2.0f, x, y);
    return 0;
}""", tmp_path, name="k.cu")["scale"]
    t = k.total
    assert same(t.flops.expr, S("blockDim_y*n")) and t.flops.value is None
    assert same(t.compulsory.expr, S("8*n")) and t.compulsory.value == 8 * 4096
    assert same(t.access.expr, S("8*blockDim_y*n"))
    (d,) = [d for d in k.diagnostics if d.code == "SR120"]
    assert "blockDim_y" in d.message and "formulas" in d.message
    # bound with -D, the numbers follow: blockDim_y = 4 -> W = 4 * 4096
    k = analyze_source((tmp_path / "k.cu").read_text(), tmp_path, {"blockDim_y": "4"}, name="k.cu")["scale"]
    assert k.total.flops.value == 4 * 4096


def test_unused_grid_dimensions_and_used_ones(tmp_path):
    src = """
#include <cuda_runtime.h>
__global__ void axpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void add2d(int m, int n, const float *A, float *B) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m && c < n) B[r * n + c] += A[r * n + c];
}
int main() {
    int n = 1000, m = 10;
    float *x, *y;
    dim3 grid((n + 255) / 256, 4);
    axpy<<<grid, 256>>>(n, 2.0f, x, y);
    dim3 block2(16, 16);
    dim3 grid2((n + 15) / 16, (m + 15) / 16, 3);
    add2d<<<grid2, block2>>>(m, n, x, y);
}"""
    ks = analyze_source(src, tmp_path, name="k.cu")
    # axpy: gridDim.y = 4 blocks along y repeat every x-thread: W = 4 * 2n = 8n, Q = 12n (x read,
    # y read and written), Q_access = 4 * 3 refs * 4 B * n = 48n.  At n = 1000: 8000 FLOP, 12000 B.
    t = ks["axpy"].total
    assert same(t.flops.expr, S("8*n")) and t.flops.value == 8000
    assert same(t.compulsory.expr, S("12*n")) and t.compulsory.value == 12000
    assert same(t.access.expr, S("48*n"))
    assert any(d.code == "SR120" and "gridDim.y = 4" in d.message for d in ks["axpy"].diagnostics)
    # add2d indexes x and y; only z (gridDim.z = 3) repeats: W = 3 * m * n, Q = 12 m n (A read, B
    # read and written once each), Q_access = 3 * 3 refs * 4 B * m n = 36 m n.  m = 10, n = 1000.
    t = ks["add2d"].total
    assert same(t.flops.expr, S("3*m*n")) and t.flops.value == 30000
    assert t.compulsory.value == 12 * 10 * 1000 and t.access.value == 36 * 10 * 1000
    (d,) = [d for d in ks["add2d"].diagnostics if d.code == "SR120"]
    assert "threadIdx.z" in d.message and "gridDim.z = 3" in d.message


def test_no_launch_and_one_dimensional_launches_do_not_repeat(tmp_path):
    # No launch at all: the dimensions the kernel does not index are taken as 1 (W = n).  A
    # launch with y = z = 1 (`<<<blocks, 256>>>`, `--block 128`) repeats nothing.
    src = """
__global__ void scale(int n, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 3.0f * x[i];
}"""
    k = analyze_source(src, tmp_path, name="k.cu")["scale"]
    assert same(k.total.flops.expr, S("n")) and "SR120" not in code_list(k)
    p = tmp_path / "k.cu"
    k = kernels_of(p, launches={None: {"block": (128,)}})["scale"]
    assert same(k.total.flops.expr, S("n")) and "SR120" not in code_list(k)
    # --block 128,2 gives y = 2: W = 2n
    k = kernels_of(p, launches={None: {"block": (128, 2)}})["scale"]
    assert same(k.total.flops.expr, S("2*n")) and "SR120" in code_list(k)


def test_thread_index_read_in_a_device_function_is_used(tmp_path):
    # threadIdx.x/blockIdx.x read only inside a __device__ helper: x is indexed (no SR120) and every
    # thread of the launch runs: grid 8 x block 128 = 1024 threads.  The helper's return value is
    # not followed, so the guard is data-dependent (SR104): W = 1024 threads x 1 FLOP at n = 1000.
    k = analyze_source("""
__device__ int row_of(int base) { return base + blockIdx.x * blockDim.x + threadIdx.x; }
__global__ void k(int n, const float *x, float *y) {
    y[row_of(0)] = 3.0f;
    if (n > 0) y[0] = x[0] * 2.0f;
}
int main() { float *x, *y; int n = 1000; k<<<(n + 127) / 128, 128>>>(n, x, y); }
""", tmp_path, name="k.cu")["k"]
    assert "SR120" not in code_list(k)
    assert k.total.flops.value == 1024


# ---------------------------------------------------------------------------------------------
# 5. --grid/--block override a launch site everywhere they are shown

def test_grid_override_changes_the_numbers_and_the_launch_line():
    path = CUDA / "transpose_tiled.cu"
    # the launch site: grid 32 x 32, block 32 x 32 at width = 1024 (see the file's derivation)
    k = kernels_of(path)["transpose_scale"]
    assert k.launch["grid"] == (32, 32, 1) and k.total.flops.value == 1024**2
    # --grid 4,2 --block 32,32: 8 blocks x 1024 threads = 8192 threads, one multiply each:
    #   W = 8192.  in: rows y < 2*32 = 64, columns x < 4*32 = 128 <= width -> 8192 elements;
    #   out: rows < 128, columns < 64 -> 8192 elements: Q = 2 * 8192 * 4 = 65,536 B.
    #   Q_access = 65,536 B (each element once); Q_shared = 2 * 4 B * 8192 = 65,536 B.
    launches = {None: {"grid": (4, 2), "block": (32, 32)}}
    k = kernels_of(path, launches=launches)["transpose_scale"]
    assert k.launch["grid"] == (4, 2, 1) and k.launch["block"] == (32, 32, 1)
    assert k.launch["origin"] == "--grid/--block"
    assert k.sizes["gridDim_x"] == 4 and k.sizes["gridDim_y"] == 2
    assert k.size_origins["gridDim_x"] == "--grid/--block"
    t = k.total
    assert same(t.flops.expr, S("1024*gridDim_x*gridDim_y")) and t.flops.value == 8192
    assert t.compulsory.value == 65536 and t.access.value == 65536 and t.shared.value == 65536
    # per kernel, the grid alone: the block stays the launch site's 32 x 32, and the origin says both
    k = kernels_of(path, launches={"transpose_scale": {"grid": (4, 2)}})["transpose_scale"]
    assert k.total.flops.value == 8192 and k.launch["grid"] == (4, 2, 1) and k.launch["block"] == (32, 32, 1)
    assert k.launch["origin"].startswith("launch at") and k.launch["origin"].endswith("with --grid")
    # width = 64 (below the 128 columns the grid spans): in's rows overlap, y*64 + x over
    # y < 64, x < 128 covers [0, 63*64 + 127] = 4160 elements; out: y < 128, x < 64 covers
    # [0, 8191] = 8192.  Q = (4160 + 8192) * 4 = 49,408 B.  width = 16: in [0, 63*16 + 127] = 1136,
    # out [0, 127*16 + 63] = 2096 elements: Q = 3232 * 4 = 12,928 B.
    k = kernels_of(path, {"width": "64"}, launches)["transpose_scale"]
    assert k.total.flops.value == 8192 and k.total.compulsory.value == 49408
    k = kernels_of(path, {"width": "16"}, launches)["transpose_scale"]
    assert k.total.compulsory.value == 12928


def test_grid_override_in_the_text_report():
    r = CliRunner().invoke(main, ["analyze", str(CUDA / "transpose_tiled.cu"), "--grid", "4,2", "--block", "32,32"])
    assert r.exit_code == 0, r.output
    assert "grid 4 x 2 x 1, block 32 x 32 x 1 (--grid/--block)" in r.output
    assert "gridDim_x = 4 (--grid/--block)" in r.output and "gridDim_y = 2 (--grid/--block)" in r.output
    assert "= 8,192 FLOP" in r.output and "launch at" not in r.output.split("W ")[0].split("sizes")[1]


# ---------------------------------------------------------------------------------------------
# 6. -D NAME=VALUE rebinds a size wherever it is #defined, headers included

@pytest.mark.parametrize("n", [None, 3, 64])
def test_define_in_a_header_is_rebound_by_minus_d(n):
    # smooth: for 1 <= i < N-1, 2 adds + 1 multiply: W = 3(N-2); in[0..N-1] read, out[1..N-2]
    # written: Q = 4N + 4(N-2) = 8N - 8.  N = 1024 (the header), 64 and 3 (one iteration: W = 3,
    # Q = 16).  N is #defined under an include guard in smooth_sizes.h.
    defines = {} if n is None else {"N": str(n)}
    value = 1024 if n is None else n
    k = analyze_file(DATA / "c" / "smooth_fixed.c", defines)[0]["smooth"]
    assert k.exact
    assert same(k.total.flops.expr, S("3*N - 6")) and k.total.flops.value == 3 * (value - 2)
    assert same(k.total.compulsory.expr, S("8*N - 8")) and k.total.compulsory.value == 8 * value - 8
    assert k.sizes["N"] == value and k.size_origins["N"] == ("macro" if n is None else "-D")


def test_ifndef_default_in_a_header_and_a_tested_macro():
    # smooth_steps: STEPS sweeps of two smoothings: W = 2 * STEPS * 3(N-2) = 6 STEPS (N-2).
    # Q: A read whole (4N) and its interior written (4(N-2)); B's interior written first
    # (4(N-2)) and B[0], B[N-1] read (8): Q = 12N - 8.
    path = DATA / "c" / "smooth_steps.c"
    k = analyze_file(path)[0]["smooth_steps"]  # N = 1024, STEPS = 2 (no LARGE_DATASET)
    assert same(k.total.flops.expr, S("6*STEPS*(N - 2)")) and k.total.flops.value == 6 * 2 * 1022
    assert same(k.total.compulsory.expr, S("12*N - 8")) and k.total.compulsory.value == 12280
    # -D N=64 rebinds the #ifndef default: W = 6*2*62 = 744, Q = 760
    k = analyze_file(path, {"N": "64"})[0]["smooth_steps"]
    assert k.total.flops.value == 744 and k.total.compulsory.value == 760 and k.size_origins["N"] == "-D"
    # -D LARGE_DATASET=1 is a macro the header tests (#ifdef), not a size: STEPS = 4 -> W = 6*4*1022
    k = analyze_file(path, {"LARGE_DATASET": "1"})[0]["smooth_steps"]
    assert k.total.flops.value == 24528 and k.sizes["STEPS"] == 4
    # -D STEPS=3 binds the header's size: W = 6*3*1022 = 18396
    k = analyze_file(path, {"STEPS": "3"})[0]["smooth_steps"]
    assert k.total.flops.value == 18396 and k.size_origins["STEPS"] == "-D"


@pytest.mark.parametrize("cpp", [True, False], ids=["cc", "pcpp"])
def test_header_size_in_cuda_and_both_preprocessors(cpp, monkeypatch):
    # header_sizes.cu: the same smoothing on the GPU, N behind `#ifndef N` in header_sizes.cuh; the
    # launch (N + 255)/256 blocks of 256 covers 1 <= i < N-1 at every N.  N = 64: W = 3*62 = 186,
    # Q = 8*64 - 8 = 504, Q_access = 16*62 = 992.
    if not cpp:
        monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    k = analyze_file(CUDA / "header_sizes.cu", {"N": "64"})[0]["smooth"]
    assert k.exact and k.size_origins["N"] == "-D"
    assert k.total.flops.value == 186 and k.total.compulsory.value == 504 and k.total.access.value == 992
    assert k.launch["grid"] == (1, 1, 1)  # (64 + 255) / 256


def test_diagnostic_in_a_header_names_the_header(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "ops.h").write_text("#define M 16\n"
                               "static void bump(float *x) { for (int i = 0; i < M; i++) x[i] += 1.0f; }\n"
                               "static void broken(float *x) { x[0] += ; }\n")
    ks = analyze_source('#include "ops.h"\nvoid run(float *x) { bump(x); x[1] = 0.0f; }\n', tmp_path,
                        {"M": "8"}, include_dirs=[inc])
    # bump: M iterations of one add: W = M = 8 (-D), not 16
    assert ks["bump"].total.flops.value == 8 and ks["bump"].location.file.endswith("inc/ops.h")
    assert ks["broken"].failed and ks["broken"].diagnostics[0].location.file.endswith("inc/ops.h")
    assert ks["broken"].diagnostics[0].location.line == 3


# ---------------------------------------------------------------------------------------------
# 7. An access through a cast pointer moves the bytes of the pointer's element type

def test_cast_views_in_c():
    ks = analyze_file(DATA / "c" / "packed_records.c")[0]
    # decode_scale: values = (const float *)(payload + 16): payload's floats 4 .. n+3, 4 B each.
    # W = n (gain * values[i]); payload read 4n B, out written 4n B: Q = 8n (not 5n).
    k = ks["decode_scale"]
    assert k.exact and same(k.total.flops.expr, S("n")) and same(k.total.compulsory.expr, S("8*n"))
    assert k.total.arrays["payload"].dtype == "fp32" and same(k.total.arrays["payload"].read.expr, S("4*n"))
    # checksum_and_sum: payload read as 4n bytes and as n floats: aliasing views, SR110; counted as
    # two arrays, 4n B each: Q = 8n; W = n adds + 1 (s + (float)c).
    k = ks["checksum_and_sum"]
    assert not k.exact and "SR110" in code_list(k)
    assert same(k.total.flops.expr, S("n + 1")) and same(k.total.compulsory.expr, S("8*n"))
    assert {a.name: a.dtype for a in k.total.arrays.values()} == {"payload": "uint8", "payload as fp32": "fp32"}
    # widen: `double *d = dst` (a void * converted): 8 B per store.  W = n (fp64), Q = 4n + 8n.
    k = ks["widen"]
    assert k.exact and same(k.total.by_precision["fp64"].expr, S("n"))
    assert same(k.total.compulsory.expr, S("12*n")) and k.total.arrays["dst"].dtype == "fp64"


def test_byte_offsets_through_char_pointers(tmp_path):
    ks = analyze_source("""
void shift(float *x, int n, int k) {
    float *p = (float *)((char *)x + 4 * k);
    for (int i = 0; i < n; i++) p[i] = p[i] + 1.0f;
}
void odd(float *x, int n) {
    float *p = (float *)((char *)x + 2);
    for (int i = 0; i < n; i++) p[i] = p[i] + 1.0f;
}
void halves(unsigned short *h, int n) {
    unsigned int *w = (unsigned int *)h;
    for (int i = 0; i < n; i++) w[i] = w[i] + 1u;
}""", tmp_path)
    # shift: 4k bytes are k floats: p[i] is x[k + i], read then written: Q = 8n, W = n, exact
    k = ks["shift"]
    assert k.exact and same(k.total.compulsory.expr, S("8*n")) and same(k.total.flops.expr, S("n"))
    assert k.total.arrays["x"].dtype == "fp32"
    # odd: 2 bytes is half a float: not modeled (SR110), the accesses count as new elements
    assert "SR110" in code_list(ks["odd"]) and not ks["odd"].exact
    # halves: 16-bit buffer seen as 32-bit words: 4 B per access, read and written: Q = 8n, W = 0
    k = ks["halves"]
    assert k.exact and same(k.total.compulsory.expr, S("8*n")) and k.total.arrays["h"].dtype == "uint32"


@pytest.mark.parametrize("n", [3, 4, 10, 4096])
def test_cast_views_in_cuda(n):
    ks = kernels_of(CUDA / "cast_views.cu", {"n": str(n)})
    # sum_pairs: ((const double2 *)raw)[i]: 2 fp64 lanes (16 B) of a byte buffer; out 8 B:
    # W = n, Q = 24n.  to_double: a float buffer read as doubles: Q = 8n + 8n = 16n.  staged: a
    # byte __shared__ buffer used as floats: Q_shared = (4 B store + 4 B load) * n = 8n.
    # No constant in these kernels is compared with n; n = 3, 4, 10, 4096 (the launch's).
    k = ks["sum_pairs"]
    assert k.exact and k.total.flops.value == n and k.total.compulsory.value == 24 * n
    assert k.total.arrays["raw"].dtype == "fp64"
    k = ks["to_double"]
    assert k.exact and k.total.compulsory.value == 16 * n and k.total.by_precision["fp64"].value == n
    k = ks["staged"]
    assert k.exact and k.total.shared.value == 8 * n and k.total.compulsory.value == 8 * n


def test_vector_casts_over_scalar_buffers(tmp_path):
    k = analyze_source("""
#include <cuda_runtime.h>
#include <cuda_fp16.h>
__global__ void add4(int n, const float *x, float *y, const unsigned char *raw, __half *h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 a = reinterpret_cast<const float4 *>(x)[i];
        float4 b = ((const float4 *)raw)[i];
        float4 c;
        c.x = a.x + b.x; c.y = a.y + b.y; c.z = a.z + b.z; c.w = a.w + b.w;
        reinterpret_cast<float4 *>(y)[i] = c;
        __half2 p = reinterpret_cast<__half2 *>(h)[i];
        reinterpret_cast<__half2 *>(h)[i] = __hadd2(p, p);
    }
}""", tmp_path, name="k.cu")["add4"]
    # threads i < floor(n/4) = F.  x, raw (as fp32) read 16 B each, y written 16 B: 48F; h read and
    # written as 2 fp16 lanes: 4 + 4 B: Q = 56F.  W = 4 fp32 adds + __hadd2 (2 fp16 lanes) = 6F.
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.compulsory.expr, S("56*floor(n/4)"))
    assert same(k.total.by_precision["fp32"].expr, S("4*floor(n/4)"))
    assert k.total.arrays["raw"].dtype == "fp32" and k.total.arrays["h"].dtype == "fp16"
    for n, f in ((3, 0), (4, 1), (10, 2)):
        assert k.total.compulsory.expr.subs(S("n"), n) == 56 * f


# ---------------------------------------------------------------------------------------------
# 9. Template kernels: one result per instantiation found in the file

TEMPLATES = CUDA / "templates" / "scale_types.cu"


def test_one_result_per_instantiation():
    ks = kernels_of(TEMPLATES)
    # scale<T> copies y[i] = x[i] for i < n: W = 0, Q = (read + write) * sizeof(T) * n.  n = 65536
    # at the launches (32768 for launch_scale(n / 2, d_f4, ...)); the explicit instantiation has
    # no launch, so n stays a symbol.
    expected = {  # name: (bytes per element, n, dtype)
        "scale<uint8_t>": (1, 65536, "uint8"),  # scale<std::uint8_t><<<...>>>
        "scale<__half>": (2, 65536, "fp16"),  # deduced from `__half *d_h`
        "scale<float>": (4, None, "fp32"),  # template __global__ void scale<float>(...);
        "scale<double>": (8, 65536, "fp64"),  # launch_scale<double>(n, ...)
        "scale<float4>": (16, 32768, "fp32"),  # launch_scale(n / 2, d_f4, ...): T deduced float4
        "scale<double2>": (16, 65536, "fp64"),  # scale<double2><<<...>>>
    }
    assert {n for n in ks if n.startswith("scale")} == set(expected)
    for name, (size, n, dtype) in expected.items():
        k = ks[name]
        assert k.exact, (name, [str(d) for d in k.diagnostics])
        assert k.total.flops.expr == 0
        assert same(k.total.compulsory.expr, S(f"{2 * size}*n")), name
        assert k.total.compulsory.value == (None if n is None else 2 * size * n), name
        assert k.total.arrays["x"].dtype == dtype and k.total.arrays["y"].dtype == dtype
    # axpy<T>: madd(a, x[i], y[i]) = a*x + y, the helper's T deduced from the arguments: 2 FLOPs
    # in T's precision; Q = 3 * sizeof(T) * n (x read, y read and written).
    for name, prec, size in (("axpy<__half>", "fp16", 2), ("axpy<float>", "fp32", 4), ("axpy<double>", "fp64", 8)):
        k = ks[name]
        assert k.exact and list(k.total.by_precision) == [prec], name
        assert same(k.total.by_precision[prec].expr, S("2*n")) and k.total.compulsory.value == 3 * size * 65536


def test_instantiations_are_selected_and_launched_by_name():
    # --kernel scale selects every instantiation; --kernel 'scale<double>' one.
    report = run([TEMPLATES], AnalysisOptions(only={"scale"}))
    assert len(report.kernels) == 6
    report = run([TEMPLATES], AnalysisOptions(only={"scale<double>"}))
    assert [k.name for k in report.kernels] == ["scale<double>"]
    # --grid 'scale<double>=4' --block 'scale<double>=32': 128 threads launched over n = 65536:
    # the numbers count the launched threads: Q = 16 B * 128 = 2048 (SR119 says so).
    k = kernels_of(TEMPLATES, launches={"scale<double>": {"grid": (4,), "block": (32,)}})["scale<double>"]
    assert k.launch["grid"] == (4, 1, 1) and k.total.compulsory.value == 2048
    assert kernels_of(TEMPLATES)["scale<float4>"].launch["block"] == (128, 1, 1)


def test_no_instantiation_is_approximate_and_names_the_type(tmp_path):
    # No launch site, explicit instantiation or launcher call: one result under float, SR114.
    # y[i] = a * x[i] (T = float assumed): W = n (fp32), Q = 8n.
    k = analyze_source("""
template <typename T>
__global__ void scale(int n, T a, const T *x, T *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}""", tmp_path, name="k.cu")["scale"]
    assert not k.exact
    (d,) = [d for d in k.diagnostics if d.code == "SR114"]
    assert "`T`" in d.message and "float" in d.message
    assert same(k.total.by_precision["fp32"].expr, S("n")) and same(k.total.compulsory.expr, S("8*n"))


def test_value_parameters_and_a_single_instantiation_keep_the_name(tmp_path):
    ks = analyze_source("""
#include <cuda_runtime.h>
template <int B>
__global__ void block_sum(int n, const float *x, float *out) {
    float s = 0.0f;
    for (int k = 0; k < B; k++) s += x[blockIdx.x * B + k];
    out[blockIdx.x] = s;
}
template <typename T>
__global__ void fill(int n, T v, T *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
int main() {
    int n = 1024;
    float *x, *out;
    double *y;
    block_sum<4><<<n / 4, 1>>>(n, x, out);
    block_sum<16><<<n / 16, 1>>>(n, x, out);
    fill<<<(n + 255) / 256, 256>>>(n, 1.0, y);
}""", tmp_path, name="k.cu")
    # block_sum<B>: n/B blocks of one thread, each B adds and B reads: W = (n/B) * B = n, reads
    # 4n B, writes 4 (n/B) B.  B = 4: Q = 4096 + 1024 = 5120; B = 16: Q = 4096 + 256 = 4352.
    assert ks["block_sum<4>"].total.flops.value == 1024 and ks["block_sum<4>"].total.compulsory.value == 5120
    assert ks["block_sum<16>"].total.flops.value == 1024 and ks["block_sum<16>"].total.compulsory.value == 4352
    # fill: one instantiation (T = double, deduced from `double *y` and the literal 1.0): the name
    # stays `fill`; 8 B per store: Q = 8n = 8192.
    assert "fill" in ks and ks["fill"].exact and ks["fill"].total.compulsory.value == 8192
    assert ks["fill"].total.arrays["y"].dtype == "fp64"


def test_vector_instantiation_through_an_operator_is_followed(tmp_path):
    # scal<float4>: `a * x[i]` on a float4 calls the file's operator*(float, float4): inlined, 4 lane
    # multiplies, exact (it was SR105, not followed).  scal<float>: one multiply per element, exact.
    # x read and y written, sizeof(T) each: Q = 8n (float), 32n (float4); n = 1000.
    ks = analyze_source("""
#include <cuda_runtime.h>
__device__ float4 operator*(float a, float4 b) { return make_float4(a * b.x, a * b.y, a * b.z, a * b.w); }
template <typename T>
__global__ void scal(int n, float a, const T *x, T *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
int main() {
    int n = 1000;
    float *x, *y;
    float4 *x4, *y4;
    scal<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    scal<<<(n + 255) / 256, 256>>>(n, 2.0f, x4, y4);
}""", tmp_path, name="k.cu")
    assert ks["scal<float>"].exact and ks["scal<float>"].total.flops.value == 1000
    assert ks["scal<float>"].total.compulsory.value == 8000
    k = ks["scal<float4>"]
    assert k.exact and "SR105" not in code_list(k)
    assert k.total.flops.value == 4000 and k.total.compulsory.value == 32000


def test_template_device_function_deduced_from_its_arguments(tmp_path):
    # twice<T>(a) = a + a with T deduced from x[i]: double -> 1 fp64 add, and its result (a T) times
    # the int 3 is a second fp64 operation: W = 2n fp64; x read, y written: Q = 16n.
    k = analyze_source("""
template <typename T>
__device__ T twice(T a) { return a + a; }
__global__ void k(int n, const double *x, double *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = twice(x[i]) * 3;
}""", tmp_path, name="k.cu")["k"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.by_precision["fp64"].expr, S("2*n")) and same(k.total.compulsory.expr, S("16*n"))
