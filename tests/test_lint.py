"""`staticroof lint` (issue #12 item 1): every rule fires on a kernel written the way real code has
the problem and stays quiet on the same kernel fixed; the numbers in each message are derived by
hand in the comments.  Suppression comments, size pragmas and the exit status are tested in
test_lint_config.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import AOS_HEADER, BODIES, GEMM, HOT_HEADER, IN_MEMORY, SAMPLES, lint, lint_codes


@pytest.fixture(autouse=True)
def _no_project_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no pyproject.toml above: only what a test writes


# ---------------------------------------------------------------------------------------------
# RF101: precision promotion

GELU = """\
/* GELU activation (tanh approximation), as in GPT-2 training code */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define N 4096
#define GELU_SCALE sqrtf(2.0f / M_PI)

static double wall(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

void gelu_forward(int n, const float *inp, float *out)
{
    for (int i = 0; i < n; i++) {
        float x = inp[i];
        float cube = 0.044715f * x * x * x;
        out[i] = HALF * x * (1.0f + tanhf(GELU_SCALE * (x + cube)));
    }
}

int main(void)
{
    float *inp = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        inp[i] = (float)i / N;
    double t0 = wall();
    gelu_forward(N, inp, out);
    printf("%f s, out[1] = %f\\n", wall() - t0, out[1]);
    free(inp);
    free(out);
    return 0;
}
"""


def test_rf101_fires_on_a_double_literal_in_a_float_kernel(tmp_path):
    # n = 4096 from the call in main.  Per element: cube 0.044715f*x*x*x is 3 fp32 multiplies;
    # GELU_SCALE * (x + cube): sqrtf(2.0f / M_PI) is folded by the compiler (no FLOP, no RF101),
    # then 1 add and 1 multiply; 1.0f + tanhf(...) is 1 add and 1 special (weight 1): fp32 7.
    # 0.5 * x runs in fp64 (1), and its double result times the float (1.0f + ...) again (1):
    # fp64 2, so W = 9 per element: fp64 2 * 4096 = 8,192 of 9 * 4096 = 36,864 FLOP.
    # The timer in main does double arithmetic: main is a driver, never linted.
    status, found, _ = lint(tmp_path, {"gelu.c": GELU.replace("HALF", "0.5")})
    assert status == 1
    assert lint_codes(found) == ["RF101", "RF101"]
    assert all(line == 22 for _, line, _, _ in found)
    assert "`*` on fp32 and a double literal runs in fp64" in found[0][3]
    assert "`*` on fp32 and a double operand runs in fp64" in found[1][3]
    assert "(8,192 of the kernel's 36,864 FLOP run in fp64)" in found[0][3]


def test_rf101_quiet_with_float_literals(tmp_path):
    status, found, _ = lint(tmp_path, {"gelu.c": GELU.replace("HALF", "0.5f")})
    assert (status, found) == (0, [])


def test_rf101_double_math_function_on_a_float(tmp_path):
    src = """\
#include <math.h>
void rms(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = SQRT(x[i] * x[i] + 1e-5f);
}
"""
    status, found, _ = lint(tmp_path, {"rms.c": src.replace("SQRT", "sqrt")}, "--machine", "a100",
                            "--select", "RF1")
    # sqrt of a float converts it to double: the fp64 function.  A100: fp32 19.5e12, fp64 9.7e12
    # FLOP/s in machines.toml: 19.5 / 9.7 = 2.01 times.
    assert status == 1 and lint_codes(found) == ["RF101"]
    assert "`sqrt` of fp32 runs in fp64 (`sqrtf` is the fp32 function)" in found[0][3]
    assert "on a100-80gb-sxm the fp64 roof is 2.01x below fp32's" in found[0][3]
    assert lint(tmp_path, {"rms.c": src.replace("SQRT", "sqrtf")})[:2] == (0, [])


def test_rf101_a_double_kernel_is_not_promoted(tmp_path):
    src = "void daxpy(int n, double a, const double *x, double *y)\n{\n    for (int i = 0; i < n; i++)\n" \
          "        y[i] = 2.0 * a * x[i] + y[i];\n}\n"
    assert lint(tmp_path, {"daxpy.c": src})[:2] == (0, [])


def test_rf101_cuda_overloads_float_math(tmp_path):
    # CUDA is C++: sqrt(x) and std::sqrt(x) of a float call `float sqrt(float)`, so nothing is
    # promoted.  Per thread: sqrt, expf, std::sqrt (3 specials, fp32) and 2 adds: W = 5n, all fp32.
    # sqrt(n) of an int is the double function (1 fp64 special per thread): the float x[i] it
    # multiplies and the float sum it is added to are promoted: RF101 on that `*` and that `+`.
    src = """\
#include <cmath>
__global__ void act(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = sqrt(x[i]) + expf(x[i]) + std::sqrt(x[i]);
}
"""
    from helpers import analyze_source

    k = analyze_source(src, tmp_path, name="act.cu")["act"]
    assert set(k.total.by_precision) == {"fp32"} and str(k.total.flops.expr) == "5*n"
    assert lint(tmp_path, {"act.cu": src})[:2] == (0, [])
    bad = src.replace("std::sqrt(x[i])", "sqrt(n) * x[i]")
    k = analyze_source(bad, tmp_path, name="act.cu")["act"]
    # sqrt(n): 1 fp64 special; (double) * x[i]: fp64 multiply; the fp32 sum + that double: fp64 add
    assert {p: str(q.expr) for p, q in k.total.by_precision.items()} == {"fp32": "3*n", "fp64": "3*n"}
    status, found, _ = lint(tmp_path, {"act.cu": bad}, "--select", "RF101")
    assert status == 1 and lint_codes(found) == ["RF101", "RF101"]
    assert {msg.split(": ")[1].split(" runs")[0] for _, _, _, msg in found} == {
        "`*` on fp32 and a double operand", "`+` on fp32 and a double operand"}


NUMBA_SCALE = """\
import numpy as np
from numba import njit


@njit("void(float32[:], float32[:], float32[:])")
def bias_gelu(x, b, y):
    for i in range(x.shape[0]):
        v = x[i] + b[i]
        y[i] = HALF * v * (np.float32(1.0) + np.tanh(np.float32(0.7978846) * v))
"""


def test_rf101_python_float_in_a_float32_numba_kernel(tmp_path):
    # Numba types the Python float 0.5 as float64: 0.5 * v and its product with the float32
    # parenthesis run in fp64 (2 per element); v = x + b, 1 + tanh(...), 0.797 * v are fp32 (3
    # FLOP and 1 special).  The front end notes each promotion (SR107) at its operator, so the
    # rule reports both: the `*` at column 20 (0.5 * v) and the one at 24 (its product with the
    # parenthesis).  W = 6 per element, fp64 2.
    status, found, _ = lint(tmp_path, {"act.py": NUMBA_SCALE.replace("HALF", "0.5")}, "--select", "RF1")
    assert status == 1 and lint_codes(found) == ["RF101", "RF101"]
    assert [line for _, line, _, _ in found] == [9, 9]
    first, second = (msg for *_, msg in found)
    assert first.startswith("`bias_gelu`: `*` on fp32 and a Python float literal (float64 in Numba) `0.5` runs in fp64")
    assert second.startswith("`bias_gelu`: `*` on fp32 and a float64 operand `0.5 * v` runs in fp64")
    assert "(fp64 W = 2*x_shape0 of 6*x_shape0)" in first
    assert lint(tmp_path, {"act.py": NUMBA_SCALE.replace("HALF", "np.float32(0.5)")}, "--select", "RF1")[:2] == (0, [])
    silenced = NUMBA_SCALE.replace("HALF", "0.5").replace("* v))\n", "* v))  # staticroof: ignore[RF101]\n")
    assert lint(tmp_path, {"act.py": silenced}, "--select", "RF1")[:2] == (0, [])


# ---------------------------------------------------------------------------------------------
# RF201: array of structures


def test_rf201_fires_on_partially_used_structs(tmp_path):
    # body_t is 7 floats = 28 B; drift uses x (byte 0), y (4), vx (12), vy (16): 16 B, all in the
    # first 64-byte line, so each struct brings its 28 B: 28/16 = 1.75x.  n = NBODY = 10000.
    # Compulsory as a structure of arrays: x and y read and written (4 + 4 B each), vx and vy
    # read (4 B each): 24 B per body = 240,000 B; as laid out 24 * 1.75 = 42 B: 420,000 B.
    status, found, _ = lint(tmp_path, {"nbody.h": AOS_HEADER, "bodies.c": BODIES})
    assert status == 1 and lint_codes(found) == ["RF201"]
    name, line, _, msg = found[0]
    assert (name, line) == ("bodies.c", 7)
    assert "`b` is an array of 28-byte structs" in msg
    assert "`x` (4 B at byte 0), `y` (4 B at byte 4), `vx` (4 B at byte 12), `vy` (4 B at byte 16)" in msg
    assert "16 of every 28 bytes" in msg and "1.75x" in msg
    assert "24*n = 240,000 B as a structure of arrays, 42*n = 420,000 B as laid out" in msg


def test_rf201_quiet_when_the_struct_holds_only_what_the_loop_uses(tmp_path):
    assert lint(tmp_path, {"nbody.h": HOT_HEADER, "bodies.c": BODIES})[:2] == (0, [])


# ---------------------------------------------------------------------------------------------
# RF202: accumulator in memory

IN_REGISTER = """\
            float acc = C[i * n + j];
            for (int k = 0; k < n; k++)
                acc += A[i * n + k] * B[k * n + j];
            C[i * n + j] = acc;"""


def test_rf202_fires_on_c_accumulated_in_the_k_loop(tmp_path):
    # n = MAT_N = 512.  The statement runs n^3 times; in memory each trip loads and stores C[i*n+j]:
    # 2 * 4 B * n^3 = 8*n**3 = 1,073,741,824 B.  With a register the element is loaded once
    # before and stored once after each of the n^2 runs of the k loop: 8*n**2 = 2,097,152 B.
    files = {"sizes.h": "#define MAT_N 512\n", "gemm.c": GEMM.replace("BODY", IN_MEMORY)}
    status, found, _ = lint(tmp_path, files)
    assert status == 1 and lint_codes(found) == ["RF202"]
    _, line, _, msg = found[0]
    assert line == 10
    assert "`C` is accumulated in memory inside the `k` loop; as it may alias `A`, `B`" in msg
    assert "the access level counts 8*n**3 = 1,073,741,824 B for it, against 8*n**2 = 2,097,152 B" in msg


def test_rf202_quiet_with_a_register_accumulator_or_restrict(tmp_path):
    files = {"sizes.h": "#define MAT_N 512\n", "gemm.c": GEMM.replace("BODY", IN_REGISTER)}
    assert lint(tmp_path, files)[:2] == (0, [])
    restrict = GEMM.replace("BODY", IN_MEMORY).replace("float *C)", "float *restrict C)")
    assert lint(tmp_path, {"sizes.h": "#define MAT_N 512\n", "gemm.c": restrict})[:2] == (0, [])


def test_rf202_cuda_kernel(tmp_path):
    src = (SAMPLES / "matmul_naive.cu").read_text()
    bad = src.replace("acc += A[row * N + k] * B[k * N + col];", "C[row * N + col] += A[row * N + k] * B[k * N + col];")
    assert bad != src
    # N = 1024 at the launch: N^2 threads each run N trips of the k loop: 8*N**3 B in memory
    # (8,589,934,592) against one load and one store per thread, 8*N**2 = 8,388,608 B.
    status, found, _ = lint(tmp_path, {"mm.cu": bad}, "--select", "RF202")
    assert status == 1 and lint_codes(found) == ["RF202"]
    assert "the access level counts 8*N**3 = 8,589,934,592 B for it, against 8*N**2 = 8,388,608 B" in found[0][3]
    assert lint(tmp_path, {"mm.cu": src}, "--select", "RF202")[:2] == (0, [])


# ---------------------------------------------------------------------------------------------
# RF203: uncoalesced access


def test_rf203_fires_on_the_naive_transpose_only(tmp_path):
    # transpose.cu: rows = 1000, cols = 1500 at the launch, blocks of 32 x 8.  The naive kernel
    # writes out[col * rows + row] with col from threadIdx.x: consecutive threads are rows = 1000
    # floats apart, so a warp's 32 stores touch 32 sectors (1024 B) for 128 B of data (4 sectors):
    # 8x.  Its writes of out are rows*cols stores of 4 B = 6,000,000 B at the access level, about
    # 48,000,000 B in sectors.  The reads in[row * cols + col] are consecutive; the shared-memory
    # kernel's global accesses are all consecutive in threadIdx.x.
    status, found, _ = lint(tmp_path, {"transpose.cu": (SAMPLES / "transpose.cu").read_text()}, "--select", "RF2")
    assert status == 1 and lint_codes(found) == ["RF203"]
    _, line, _, msg = found[0]
    assert line == 75 and "`transpose_naive`" in msg
    assert "access `out` rows = 1000 elements apart (4-byte elements)" in msg
    assert "a warp of 32 touches 32 sectors of 32 B for 128 B of data, 8x" in msg
    assert "(4*cols*rows = 6,000,000 B at the access level) move about 32*cols*rows = 48,000,000 B" in msg


DEINTERLEAVE = """\
#include <cuda_runtime.h>
#include <cuComplex.h>

__global__ void split_iq(const float* __restrict__ iq, float* __restrict__ re, float* __restrict__ im, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        re[i] = iq[2 * i];
        im[i] = iq[2 * i + 1];
    }
}

__global__ void split_iq_planar(const float* __restrict__ iq, float* __restrict__ re, float* __restrict__ im,
                                int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        re[i] = iq[i];
        im[i] = iq[n + i];
    }
}

int main()
{
    const int n = 1 << 20;
    float *iq, *re, *im;
    cudaMalloc(&iq, 2 * n * sizeof(float));
    cudaMalloc(&re, n * sizeof(float));
    cudaMalloc(&im, n * sizeof(float));
    split_iq<<<(n + 255) / 256, 256>>>(iq, re, im, n);
    split_iq_planar<<<(n + 255) / 256, 256>>>(iq, re, im, n);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_rf203_stride_two(tmp_path):
    # iq[2*i]: 32 threads 8 B apart span 31*8 + 4 = 252 B: 8 sectors for 128 B of data (4): 2x,
    # for each of the two reads (re and im halves); the planar kernel reads iq[i] and iq[n + i].
    # n = 1 << 20 = 1,048,576: each read statement loads 4*n = 4,194,304 B; iq's access-level
    # reads are both statements together, 8*n = 8,388,608 B, about 16*n = 16,777,216 B in sectors.
    status, found, _ = lint(tmp_path, {"iq.cu": DEINTERLEAVE}, "--select", "RF203")
    assert status == 1 and lint_codes(found) == ["RF203", "RF203"]
    assert [line for _, line, _, _ in found] == [8, 9]
    for _, _, _, msg in found:
        assert "`split_iq`" in msg and "access `iq` 2 elements apart" in msg
        assert "touches 8 sectors of 32 B for 128 B of data, 2x" in msg
        assert "(8*n = 8,388,608 B at the access level) move about 16*n = 16,777,216 B in sectors" in msg


# ---------------------------------------------------------------------------------------------
# RF301 / RF302: roofline position


def test_rf301_threshold_and_rf302_ridge(tmp_path):
    (Path(tmp_path) / "pyproject.toml").write_text("[tool.staticroof.thresholds]\nmin-intensity = 0.5\n")
    saxpy = (SAMPLES / "saxpy.c").read_text()
    # saxpy: W = 2n, Q = 12n: I = 1/6 = 0.1667 < 0.5.  With n = 1000000: 2,000,000 FLOP over
    # 12,000,000 B.
    status, found, _ = lint(tmp_path, {"saxpy.c": saxpy}, "-D", "n=1000000")
    assert status == 1 and lint_codes(found) == ["RF301"]
    assert ("I = 0.1667 FLOP/B (W 2*n = 2,000,000 FLOP over Q 12*n = 12,000,000 B) is below the threshold "
            "0.5 FLOP/B") in found[0][3]
    # On the A100 (fp32 19.5e12 FLOP/s, 2039e9 B/s): ridge 19.5e12 / 2.039e12 = 9.5635 FLOP/B,
    # 9.5635 / (1/6) = 57.38 > 10; attainable 2.039e12 / 6 = 339.8 GFLOP/s = 1.743% of peak.
    status, found, _ = lint(tmp_path, {"saxpy.c": saxpy}, "-D", "n=1000000", "--machine", "a100")
    assert lint_codes(found) == ["RF301", "RF302"]
    assert ("memory-bound on a100-80gb-sxm (fp32): I = 0.1667 FLOP/B is 57.4x below the ridge 9.56 FLOP/B "
            "(thresholds.ridge-factor = 10); attainable 339.8 GFLOP/s = 1.74% of peak") in found[1][3]
    # a ridge factor above 57.4 accepts it
    (Path(tmp_path) / "pyproject.toml").write_text("[tool.staticroof.thresholds]\nridge-factor = 60\n")
    assert lint(tmp_path, {"saxpy.c": saxpy}, "-D", "n=1000000", "--machine", "a100")[:2] == (0, [])


def test_rf30x_quiet_on_a_blocked_gemm(tmp_path):
    # gemm.c: N = 1024, I = N/6 = 170.7 FLOP/B compulsory; its 12 MiB of matrices fit the A100's
    # 40 MiB L2, so the DRAM level keeps that intensity, above the ridge (9.56): compute-bound.
    (Path(tmp_path) / "pyproject.toml").write_text("[tool.staticroof.thresholds]\nmin-intensity = 0.5\n")
    status, found, _ = lint(tmp_path, {"gemm.c": (SAMPLES / "gemm.c").read_text()}, "--machine", "a100")
    assert (status, found) == (0, [])


def test_rf301_needs_numbers(tmp_path):
    # gemm_accum with N unknown would be symbolic: here N has its #define, so I = N/8 = 128 > 0.5;
    # a kernel whose I depends on an unbound size is not judged (no number to compare).
    (Path(tmp_path) / "pyproject.toml").write_text("[tool.staticroof.thresholds]\nmin-intensity = 0.5\n")
    src = "void dot(int n, const float *x, const float *y, float *out)\n{\n    float s = 0;\n" \
          "    for (int i = 0; i < n; i++)\n        s += x[i] * y[i];\n    out[0] = s + n;\n}\n"
    _, found, _ = lint(tmp_path, {"dot.c": src})
    # W = 2n + 1 (the + n is a float add), Q = 8n + 4: I = (2n + 1)/(8n + 4) = 1/4 at every n
    assert lint_codes(found) == ["RF301"] and "I = 0.25 FLOP/B" in found[0][3]


# ---------------------------------------------------------------------------------------------
# RF401: fusion


def test_rf401_c_nests(tmp_path):
    # l2norm.c, l2norm_separate: nest 1 (line 68) W = n, Q = 8n (x read, sq written); nest 2
    # (line 72) W = n, Q = 4n (sq read); nest 3 shares no array written before (r is a register).
    # Fusing 1 and 2 keeps sq (4n written + 4n read back) out of DRAM: 8n; I = 2n/12n = 1/6 before,
    # 2n/(12n - 8n) = 1/2 after.  l2norm_fused has no intermediate array: quiet.
    status, found, _ = lint(tmp_path, {"l2norm.c": (SAMPLES / "l2norm.c").read_text()})
    assert status == 1 and lint_codes(found) == ["RF401"]
    _, line, _, msg = found[0]
    assert line == 68
    assert msg == ("`l2norm_separate`: the loop nests at lines 68 and 72 could be fused: `sq` (4*n B written by the "
                   "nest at line 68, 4*n B read back by the nest at line 72) would not cross DRAM if only needed "
                   "between them, saving 8*n B; W 2*n FLOP over Q 12*n B: I 1/6 -> 1/2 FLOP/B")


def test_rf401_cuda_kernels(tmp_path):
    # l2norm.cu at n = 1 << 20: square (W n, Q 8n) writes d_sq, sum (W n, Q 4n + 8) reads it and
    # writes d_sum, scale (W 2n, Q 8n + 4) reads d_sum: one chain of three launches.  The round
    # trips: d_sq 4n + 4n, d_sum 4 + 4: 8n + 8 = 8,388,616 B.  W = 4n = 4,194,304 over
    # Q = 20n + 12 = 20,971,532: I = n/(5n + 3) = 0.2 before, 4n/(12n + 4) = n/(3n + 1) = 0.3333
    # after.  l2norm_fused is launched on d_x (read only) and d_y_fused: no edge.
    status, found, _ = lint(tmp_path, {"l2norm.cu": (SAMPLES / "l2norm.cu").read_text()}, "--select", "RF4")
    assert status == 1 and lint_codes(found) == ["RF401"]
    msg = found[0][3]
    assert msg.startswith("kernels `l2norm_square`, `l2norm_sum` and `l2norm_scale` could be fused: ")
    assert "`d_sq` (4*n = 4,194,304 B written by `l2norm_square`, 4*n = 4,194,304 B read back by `l2norm_sum`)" in msg
    assert "`d_sum` (4 B written by `l2norm_sum`, 4 B read back by `l2norm_scale`)" in msg
    assert "saving 8*n + 8 = 8,388,616 B; W 4*n = 4,194,304 FLOP over Q 20*n + 12 = 20,971,532 B" in msg
    assert "I n/(5*n + 3) = 0.2 -> n/(3*n + 1) = 0.3333 FLOP/B" in msg


def test_rf401_quiet_on_the_fused_versions(tmp_path):
    c = (SAMPLES / "l2norm.c").read_text()
    fused_c = c[:c.index("void l2norm_separate")] + c[c.index("void l2norm_fused"):]
    assert lint(tmp_path, {"l2norm.c": fused_c})[:2] == (0, [])
    cu = (SAMPLES / "l2norm.cu").read_text()
    launches = ("    l2norm_square<<<blocks, threads>>>(d_x, d_sq, n);\n"
                "    l2norm_sum<<<blocks, threads>>>(d_sq, d_sum, n);\n"
                "    l2norm_scale<<<blocks, threads>>>(d_x, d_sum, d_y, n);\n")
    assert launches in cu
    fused_cu = cu.replace(launches, "")
    assert lint(tmp_path, {"l2norm.cu": fused_cu}, "--select", "RF4")[:2] == (0, [])


def test_rf401_buffers_are_matched_by_launch_arguments_not_names(tmp_path):
    # two kernels whose parameters are both called y, on different buffers: no chain
    cu = (SAMPLES / "l2norm.cu").read_text().replace("l2norm_sum<<<blocks, threads>>>(d_sq, d_sum, n);",
                                                     "l2norm_sum<<<blocks, threads>>>(d_x, d_sum, n);")
    _, found, _ = lint(tmp_path, {"l2norm.cu": cu}, "--select", "RF401")
    assert lint_codes(found) == ["RF401"]
    assert "`d_sq`" not in found[0][3] and "kernels `l2norm_sum` and `l2norm_scale`" in found[0][3]


# ---------------------------------------------------------------------------------------------
# RF901 / RF902: analysis coverage

SPMV = """\
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

struct csr { int rows; int *ptr; int *col; float *val; };

void spmv(int rows, const int *ptr, const int *col, const float *val, const float *x, float *y)
{
    for (int r = 0; r < rows; r++) {
        float s = 0.0f;
        for (int j = ptr[r]; j < ptr[r + 1]; j++)
            s += val[j] * x[col[j]];
        y[r] = s;
    }
}

int main(int argc, char **argv)
{
    struct timeval t0, t1;
    struct csr a;
    FILE *f = fopen(argv[1], "r");
    if (!f || fscanf(f, "%d", &a.rows) != 1)
        return 1;
    gettimeofday(&t0, NULL);
    spmv(a.rows, a.ptr, a.col, a.val, NULL, NULL);
    gettimeofday(&t1, NULL);
    printf("%ld us\\n", (t1.tv_sec - t0.tv_sec) * 1000000L + t1.tv_usec - t0.tv_usec);
    return 0;
}
"""


def test_rf901_data_dependent_kernel_and_main_is_never_reported(tmp_path):
    status, found, _ = lint(tmp_path, {"spmv.c": SPMV})
    assert status == 1 and set(lint_codes(found)) == {"RF901"}
    assert all("`spmv` is approximate: SR10" in msg for _, _, _, msg in found)
    assert not any("main" in msg for _, _, _, msg in found)
    # ignoring RF9 leaves a benchmark file with a `main` the analysis cannot model passing
    assert lint(tmp_path, {"spmv.c": SPMV}, "--ignore", "RF9")[:2] == (0, [])


def test_rf902_a_kernel_that_cannot_be_modelled(tmp_path):
    src = """\
void ok(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] *= 2.0f;
}

void broken(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] @ 2;
}
"""
    status, found, _ = lint(tmp_path, {"k.c": src})
    assert status == 1 and lint_codes(found) == ["RF902"]
    assert "`broken` could not be analyzed: SR001" in found[0][3]
    fixed = src.replace("x[i] @ 2", "x[i] * 2.0f")
    assert lint(tmp_path, {"k.c": fixed})[:2] == (0, [])


# ---------------------------------------------------------------------------------------------
# The command


def test_text_format_and_statistics(tmp_path):
    p = Path(tmp_path) / "gemm_accum.c"
    p.write_text((SAMPLES / "gemm_accum.c").read_text())
    r = CliRunner().invoke(main, ["lint", str(p)])
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{p}:41:17: RF202 `gemm_accum`: `C` is accumulated in memory")
    assert lines[-1] == "Found 1 finding."
    r = CliRunner().invoke(main, ["lint", str(p), "--statistics"])
    assert r.exit_code == 1 and r.output == "    1  RF202  memory-accumulator\n"


def test_usage_errors_exit_2(tmp_path):
    r = CliRunner().invoke(main, ["lint", str(Path(tmp_path) / "missing.c")])
    assert r.exit_code == 2 and "no such file" in r.output
    p = Path(tmp_path) / "a.c"
    p.write_text("void f(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 1.0f; }\n")
    r = CliRunner().invoke(main, ["lint", str(p), "--select", "E501"])
    assert r.exit_code == 2 and "`E501` is not a lint code" in r.output
    r = CliRunner().invoke(main, ["lint", str(p), "-D", "n=abc"])
    assert r.exit_code == 2 and "SR007" in r.output
    r = CliRunner().invoke(main, ["lint"])
    assert r.exit_code == 2
    (Path(tmp_path) / "blob.c").write_bytes(b"\x7fELF\x00\x00\x01" * 20)  # a binary file: unreadable input
    r = CliRunner().invoke(main, ["lint", str(Path(tmp_path) / "blob.c")])
    assert r.exit_code == 2 and "SR003" in r.output and "RF902" not in r.output


def test_unsupported_files_are_skipped(tmp_path):
    # a hook passes headers, C++ and Python files too: skipped until a front end reads them
    (Path(tmp_path) / "model.py").write_text("x = 1\n")
    (Path(tmp_path) / "k.h").write_text("#define N 4\n")
    r = CliRunner().invoke(main, ["lint", str(Path(tmp_path) / "model.py"), str(Path(tmp_path) / "k.h")])
    assert (r.exit_code, r.output) == (0, "")


def test_explain_and_docs_pages_in_sync():
    from staticroof.lint.docs import pages

    r = CliRunner().invoke(main, ["lint", "--explain", "RF202"])
    assert r.exit_code == 0 and r.output.startswith("# RF202 memory-accumulator")
    assert "## Why it matters on the roofline" in r.output and "## Fix" in r.output
    assert CliRunner().invoke(main, ["lint", "--explain", "RF999"]).exit_code == 2
    docs = Path(__file__).resolve().parent.parent / "docs" / "rules"
    for name, text in pages().items():
        assert (docs / name).read_text() == text, f"docs/rules/{name} is stale: python -m staticroof.lint.docs"


def test_rules_lists_the_lint_rules():
    out = CliRunner().invoke(main, ["rules"]).output
    for code in ("RF101", "RF201", "RF202", "RF203", "RF301", "RF302", "RF401", "RF901", "RF902"):
        assert code in out
    assert ("RF302  far-below-ridge: memory-bound far below the ridge point on the configured machine "
            "(needs a machine)") in out


def test_networkx_only_when_the_fusion_rule_runs(tmp_path):
    import subprocess
    import sys

    p = Path(tmp_path) / "s.c"
    p.write_text((SAMPLES / "saxpy.c").read_text())
    code = ("import sys\nfrom staticroof.cli import main\n"
            "try:\n    main(['lint', sys.argv[1], '--select', 'RF2,RF9'])\n"
            "except SystemExit:\n    pass\nprint('networkx' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_rf203_stride_in_an_unknown_size(tmp_path):
    # no launch site: rows is unknown.  From rows >= 32/4 = 8 floats apart every lane has its own
    # sector: 32 sectors for 4, 8x; the writes of out, 4*cols*rows B, move 32*cols*rows B.
    src = (SAMPLES / "transpose.cu").read_text()
    src = src[:src.index("__global__ void transpose_shared")]
    status, found, _ = lint(tmp_path, {"t.cu": src}, "--select", "RF203")
    assert status == 1 and lint_codes(found) == ["RF203"]
    assert ("access `out` `rows` elements apart (4-byte elements): for rows >= 8, a warp of 32 touches 32 sectors "
            "of 32 B for 128 B of data, 8x") in found[0][3]
    assert "(4*cols*rows B at the access level) move about 32*cols*rows B in sectors" in found[0][3]


TWO_READERS = """\
#include <cuda_runtime.h>

__global__ void square(const float* __restrict__ x, float* __restrict__ sq, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        sq[i] = x[i] * x[i];
}

__global__ void sum_squares(const float* __restrict__ sq, float* __restrict__ sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, sq[i]);
}

__global__ void twice(const float* __restrict__ sq, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * sq[i];
}

int main()
{
    const int n = 1 << 20;
    float *d_x, *d_sq, *d_sum, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_sq, n * sizeof(float));
    cudaMalloc(&d_sum, sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    square<<<(n + 255) / 256, 256>>>(d_x, d_sq, n);
    sum_squares<<<(n + 255) / 256, 256>>>(d_sq, d_sum, n);
    twice<<<(n + 255) / 256, 256>>>(d_sq, d_y, n);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_rf401_one_producer_two_consumers_counts_its_write_once(tmp_path):
    # n = 1 << 20.  square (W n, Q 8n) writes d_sq; sum_squares (W n, Q 4n + 8) and twice (W n,
    # Q 8n) both read it back.  Saved: the write once and both reads, 4n + 4n + 4n = 12n =
    # 12,582,912 B.  W = 3n = 3,145,728 over Q = 20n + 8 = 20,971,528: I = 3n/(4(5n + 2)) = 0.15
    # before, 3n/(20n + 8 - 12n) = 3n/(8(n + 1)) = 0.375 after.
    status, found, _ = lint(tmp_path, {"sq.cu": TWO_READERS}, "--select", "RF401")
    assert status == 1 and lint_codes(found) == ["RF401"]
    msg = found[0][3]
    assert ("`d_sq` (4*n = 4,194,304 B written by `square`, 4*n = 4,194,304 B read back by `sum_squares` and "
            "4*n = 4,194,304 B read back by `twice`)") in msg
    assert "saving 12*n = 12,582,912 B; W 3*n = 3,145,728 FLOP over Q 20*n + 8 = 20,971,528 B" in msg
    assert "I 3*n/(4*(5*n + 2)) = 0.15 -> 3*n/(8*(n + 1)) = 0.375 FLOP/B" in msg


def test_sarif_and_github_formats(tmp_path):
    import jsonschema

    p = Path(tmp_path) / "gemm_accum.c"
    p.write_text((SAMPLES / "gemm_accum.c").read_text())
    r = CliRunner().invoke(main, ["lint", "gemm_accum.c", "--format", "sarif"])  # relative, as a hook passes it
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    schema = json.loads((Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft7Validator(schema).validate(doc)
    (result,) = doc["runs"][0]["results"]
    assert result["ruleId"] == "RF202" and result["message"]["text"].startswith("`gemm_accum`: `C` is accumulated")
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "gemm_accum.c", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 41, "startColumn": 17}}
    rules = {d["id"]: d for d in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["RF202"]["name"] == "memory-accumulator" and {"RF101", "RF401", "RF902"} <= set(rules)
    r = CliRunner().invoke(main, ["lint", "gemm_accum.c", "--format", "github"])
    assert r.exit_code == 1
    assert r.stdout.startswith("::warning file=gemm_accum.c,line=41,col=17,title=staticroof RF202 memory-accumulator"
                               "::`gemm_accum`: `C` is accumulated in memory")
    assert CliRunner().invoke(main, ["lint", "gemm_accum.c", "--format", "sarif", "--statistics"]).exit_code == 2
