"""Compile-time constant subexpressions are the compiler's work, not the kernel's (issue #10 item 5).

`sqrtf(2.0f / M_PI)`, `1.0f / 3.0f`, `0.5 * M_PI`, `(float)(1.0 / 6.0)` and `const`/`constexpr`
locals initialized from constants cost 0 FLOPs, no special call, no fp64 and no SR107; only the
operations that run per element count.  Each expected value is derived by hand in the comment
above it, checked at sizes on both sides of every constant, and against the trace where a C
compiler is present."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import S, analyze_source, codes, needs_cc, same, trace_agrees

GELU = """
#include <math.h>
#include <stdio.h>

#define BLOCK 64

typedef struct { int n; } shape_t;

/* tanh-approximated GELU, as activation code writes it */
void gelu(int n, const float *x, float *y)
{
    const float k0 = sqrtf(2.0f / M_PI);
    const float k1 = 0.044715f;
    for (int i = 0; i < n; i++) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
    }
}

void affine(int n, const float *x, float *y)
{
    for (int b = 0; b < n; b += BLOCK)
        for (int i = b; i < b + BLOCK && i < n; i++)
            y[i] = sqrtf(2.0f / M_PI) * x[i] + 1.0f / 3.0f;
}
"""


@pytest.mark.parametrize("n", [1, 63, 64, 65, 200])
def test_constant_factors_cost_nothing(tmp_path, n):
    ks = analyze_source(GELU, tmp_path, {"n": n}, name="gelu.c")
    g, a = ks["gelu"], ks["affine"]
    # gelu, per element: 0.5f*v, *(...), 1.0f + tanh, k0*(...), v + ..., k1*v, *v, *v: 8 fp32 FLOPs and
    # one tanhf; k0 = sqrtf(2/pi) is folded (no sqrtf counted, no fp64 for 2.0f / M_PI, no SR107)
    assert g.exact, [str(d) for d in g.diagnostics]
    assert "SR107" not in codes(g)
    assert same(g.total.flops.expr, S("9*n"))  # 8 FLOPs + 1 special call at weight 1
    # (W by precision includes the special call's weight, in its precision)
    assert set(g.total.by_precision) == {"fp32"} and same(g.total.by_precision["fp32"].expr, S("9*n"))
    assert {name for name, q in g.total.special_by_name.items() if q.value} == {"tanhf"}
    # affine: `sqrtf(2.0f / M_PI) * x[i] + 1.0f / 3.0f` is a multiply and an add: 2 fp32 per element,
    # over the n elements the blocked loop covers (BLOCK = 64; n on both sides of it)
    assert a.exact and "SR107" not in codes(a)
    assert set(a.total.by_precision) == {"fp32"} and a.total.by_precision["fp32"].value == 2 * n
    assert not any(q.value for q in a.total.special_by_name.values())


PROMOTE = """
#define M_PI 3.14159265358979323846
void promote(int n, const float *x, float *y, double *z)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * 2.0;                  /* float * double: 1 fp64 (SR107) */
        y[i] = 2.0f * 3.0f * x[i];          /* (2*3) folded, then * x: 1 fp32 */
        y[i] = x[i] * 2.0f * 3.0f;          /* (x*2)*3: 2 fp32, nothing folds */
        y[i] = (float)(1.0 / 6.0) * x[i];   /* the cast of a constant is a constant: 1 fp32 */
        z[i] = 0.5 * M_PI * z[i];           /* 0.5*M_PI folded; its product with z: 1 fp64 */
    }
}
"""


@pytest.mark.parametrize("n", [3, 40])
def test_left_to_right_and_promotion(tmp_path, n):
    k = analyze_source(PROMOTE, tmp_path, {"n": n}, name="promote.c")["promote"]
    # per element: fp64 1 (x*2.0) + 1 (0.5*M_PI*z) = 2; fp32 1 + 2 + 1 = 4
    assert same(k.total.by_precision["fp64"].expr, S("2*n"))
    assert same(k.total.by_precision["fp32"].expr, S("4*n"))
    # SR107 only where a float variable meets a double: the first line, not the folded constants
    sr107 = [d for d in k.diagnostics if d.code == "SR107"]
    assert [d.location.line for d in sr107] == [6], [str(d) for d in sr107]


CONSTS = """
#define N 96
static const float third = 1.0f / 3.0f;     /* a file-scope constant: not per element */
void smooth(const float *in, float *out)
{
    const float w = 1.0f / 3.0f;            /* const local from constants: folded */
    float scale = 2.0f * 0.5f;              /* not const, but its initializer is folded */
    for (int i = 1; i < N - 1; i++)
        out[i] = w * third * 3.0f * (in[i - 1] + in[i] + in[i + 1]) * scale;
}
"""


def test_const_locals_and_initializers(tmp_path):
    k = analyze_source(CONSTS, tmp_path, name="smooth.c")["smooth"]
    # i = 1 .. N-2: N - 2 = 94 iterations; each: (w*third)*3.0f is folded (three constants, left to
    # right), then two adds, *(...), *scale = 4 fp32 FLOPs.
    # `scale` is a variable (not const): its use is a multiply; its initializer 2.0f*0.5f costs nothing
    # (outside the loop it would be 1 FLOP in total).  in read at 0..N-1 (96 elements), out written
    # at 1..N-2 (94 elements): Q = 4*96 + 4*94 = 760 B
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.total.flops.value == 4 * 94
    assert k.total.compulsory.value == 760


@needs_cc
@pytest.mark.parametrize("n", [1, 64, 65])
def test_folding_agrees_with_the_trace(tmp_path, n):
    path = Path(tmp_path) / "gelu.c"
    ks = analyze_source(GELU, tmp_path, {"n": n}, name="gelu.c")
    for name in ("gelu", "affine"):
        trace_agrees(path, name, {"n": n}, ks[name])


@needs_cc
def test_const_locals_agree_with_the_trace(tmp_path):
    k = analyze_source(CONSTS, tmp_path, name="smooth.c")["smooth"]
    trace_agrees(Path(tmp_path) / "smooth.c", "smooth", {}, k)


@needs_cc
def test_promotion_agrees_with_the_trace(tmp_path):
    path = Path(tmp_path) / "promote.c"
    k = analyze_source(PROMOTE, tmp_path, {"n": 5}, name="promote.c")["promote"]
    trace_agrees(path, "promote", {"n": 5}, k)


def test_cuda_constexpr_is_folded(tmp_path):
    k = analyze_source("""
#include <cuda_runtime.h>
template <typename T>
__global__ void scale_bias(const T* __restrict__ x, T* __restrict__ y, int n) {
    constexpr float kInvSqrt2 = 0.70710678f;
    constexpr float kHalf = 0.5f * kInvSqrt2;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * kHalf + (T)(1.0 / 3.0);
}
int main() {
    int n = 1000;
    float *x, *y;
    scale_bias<float><<<(n + 127) / 128, 128>>>(x, y, n);
}""", tmp_path, name="k.cu")["scale_bias"]
    # kHalf is constexpr from constants (folded); (T)(1.0/3.0) a constant cast to float: per element
    # one multiply and one add, fp32, no fp64, no SR107
    assert k.exact and "SR107" not in codes(k), [str(d) for d in k.diagnostics]
    assert set(k.total.by_precision) == {"fp32"} and same(k.total.by_precision["fp32"].expr, S("2*n"))
