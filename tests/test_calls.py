"""Calls the counting rules follow: overloaded CUDA `__device__` functions (the definition C++
overload resolution picks), texture fetches (reads of the texture object's memory), and math
functions that return results through pointer arguments (stores of what they point to), and
unnamed parameters (each argument binds the parameter at its own position).

Each expected value is derived by hand in the comment above it; the CUDA kernels are launched with
blocks of 128 or 256 threads and checked at n below and above the block (the last block partly
idle), the C kernels at two sizes.  Where the trace can run the kernel, it must agree."""

from __future__ import annotations

import pytest

from staticroof.trace import run as run_trace

from helpers import analyze_source, codes, skip_without_cc, trace_agrees


def numbers(k) -> dict:
    """W by precision, special calls by name, and per array (read, write, loads, stores) in bytes."""
    t = k.total
    out = {"W": {p: q.value for p, q in t.by_precision.items()},
           "special": {n: q.value for n, q in t.special_by_name.items()}}
    for name, a in t.arrays.items():
        out[name] = (a.read.value, a.write.value, a.access_read.value, a.access_write.value)
    return out


def analyze(src, tmp_path, name, sizes):
    return analyze_source(src, tmp_path, {k: str(v) for k, v in sizes.items()}, name=name)


# ---------------------------------------------------------------------------------------------
# Overloads

OVERLOAD_RANKS = """
// Promotion beats conversion: float -> double is a promotion, float -> int a conversion; short ->
// int a promotion, short -> double a conversion.
__device__ double twice(double v) { return v + v; }
__device__ int twice(int v) { return v + v; }
__device__ float half_of(float v) { return 0.5f * v; }
__device__ double half_of(double v) { return 0.5 * v; }

__global__ void mix(int n, const float *x, const short *k, double *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = twice(x[i]) + twice(k[i]) + half_of(2.0f) * half_of(x[i]);
}

int main()
{
  int n = 1000;
  float *x; short *k; double *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&k, n * sizeof(short));
  cudaMalloc(&out, n * sizeof(double));
  mix<<<(n + 255) / 256, 256>>>(n, x, k, out);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 256
def test_overloads_rank_promotion_above_conversion(tmp_path, n):
    k = analyze(OVERLOAD_RANKS, tmp_path, "mix.cu", {"n": n})["mix"]
    assert k.exact and "SR122" not in codes(k), [str(d) for d in k.diagnostics]
    # per thread: twice(x[i]) is twice(double) (v + v, 1 fp64); twice(k[i]) twice(int) (0 FLOPs);
    # half_of(2.0f) and half_of(x[i]) are half_of(float) (1 fp32 each), their product 1 fp32;
    # double + int and that + float are 2 fp64: fp64 3n, fp32 3n
    got = numbers(k)
    assert got["W"] == {"fp64": 3 * n, "fp32": 3 * n}
    # x[i] twice in one statement: one load; k[i] one load; out[i] one store
    assert got["x"] == (4 * n, 0, 4 * n, 0) and got["k"] == (2 * n, 0, 2 * n, 0)
    assert got["out"] == (0, 8 * n, 0, 8 * n)
    trace_agrees(tmp_path / "mix.cu", "mix", {"n": n}, k, "cuda")


AMBIGUOUS = """
__device__ float sq(float v) { return v * v; }
__device__ double sq(double v) { return v * v; }

__global__ void ints(int n, const int *a, float *f, double *d)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f[i] = sq(a[i]);            // int -> float and int -> double are both conversions: ambiguous
    d[i] = sq((double)a[i]);    // a cast decides it: sq(double)
  }
}

int main()
{
  int n = 1000;
  int *a; float *f; double *d;
  ints<<<(n + 127) / 128, 128>>>(n, a, f, d);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_an_ambiguous_overload_is_said_and_approximate(tmp_path, n):
    k = analyze(AMBIGUOUS, tmp_path, "ints.cu", {"n": n})["ints"]
    assert not k.failed and not k.exact
    (d,) = [d for d in k.diagnostics if d.code == "SR122"]
    assert "sq(int)" in d.message and "ambiguous" in d.message and d.location.line == 9
    # the ambiguous call counts the first definition, sq(float): 1 fp32; sq((double)a[i]): 1 fp64
    assert numbers(k)["W"] == {"fp32": n, "fp64": n}
    skip_without_cc()  # nvcc rejects the call; the trace does not pick one either
    from staticroof.trace import TraceError

    with pytest.raises(TraceError, match="overloaded `sq` cannot be resolved"):
        run_trace(str(tmp_path / "ints.cu"), "ints", {"n": n}, "cuda")


UNSIGNED = """
// Integer overloads: the argument's C++ type decides (threadIdx.x is unsigned, so is i * 2u).
__device__ float pick(int v) { return 1.0f * v; }
__device__ double pick(unsigned v) { return 1.0 * v; }

__global__ void which(int n, float *f, double *d)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f[i] = pick(i) + pick(i * 2u);
    d[i] = pick(threadIdx.x);
  }
}

int main()
{
  int n = 1000;
  float *f; double *d;
  which<<<(n + 127) / 128, 128>>>(n, f, d);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_integer_overloads_follow_the_expressions_cxx_type(tmp_path, n):
    k = analyze(UNSIGNED, tmp_path, "which.cu", {"n": n})["which"]
    assert k.exact and "SR122" not in codes(k), [str(d) for d in k.diagnostics]
    # pick(i): pick(int), 1 fp32; pick(i * 2u) and pick(threadIdx.x): pick(unsigned), 1 fp64 each;
    # float + double: 1 fp64.  Per thread fp32 1, fp64 3
    got = numbers(k)
    assert got["W"] == {"fp32": n, "fp64": 3 * n}
    assert got["f"] == (0, 4 * n, 0, 4 * n) and got["d"] == (0, 8 * n, 0, 8 * n)
    trace_agrees(tmp_path / "which.cu", "which", {"n": n}, k, "cuda")


OVERLOAD_CHAIN = """
// An overload that calls another of the same name is not recursion; arity and vector types decide.
__device__ float norm2(float a, float b) { return a * a + b * b; }
__device__ float norm2(float2 v) { return norm2(v.x, v.y); }

__global__ void lengths(int n, const float2 *p, float *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = norm2(p[i]);
}

int main()
{
  int n = 1000;
  float2 *p; float *out;
  lengths<<<(n + 255) / 256, 256>>>(n, p, out);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])
def test_an_overload_calling_its_sibling_is_followed(tmp_path, n):
    k = analyze(OVERLOAD_CHAIN, tmp_path, "lengths.cu", {"n": n})["lengths"]
    assert k.exact and not codes(k) & {"SR106", "SR122"}, [str(d) for d in k.diagnostics]
    # norm2(float2) -> norm2(float, float): a*a + b*b is 3 fp32; p[i] moves its two lanes (8 B)
    got = numbers(k)
    assert got["W"] == {"fp32": 3 * n}
    assert got["p"] == (8 * n, 0, 8 * n, 0) and got["out"] == (0, 4 * n, 0, 4 * n)
    trace_agrees(tmp_path / "lengths.cu", "lengths", {"n": n}, k, "cuda")


def test_a_template_beside_a_plain_overload_is_said(tmp_path):
    src = """
template <typename T> __device__ T scale(T v) { return v * 2; }
__device__ float scale(float v) { return v * 3.0f; }

__global__ void grow(int n, float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = scale(x[i]);
}
int main() { int n = 1000; float *x; grow<<<(n + 255) / 256, 256>>>(n, x); return 0; }
"""
    k = analyze(src, tmp_path, "grow.cu", {"n": 1000})["grow"]
    # C++ takes the non-template for a float (an exact match either way); the analysis does not rank
    # templates against plain definitions: SR122, approximate, never a silent pick
    assert not k.failed and not k.exact
    (d,) = [d for d in k.diagnostics if d.code == "SR122"]
    assert "template" in d.message and d.location.line == 9


def test_overload_ranks():
    from staticroof.frontends.c.types import FLOAT, INT, CType
    from staticroof.frontends.cuda.overloads import CONVERSION, EXACT, PROMOTION, USER, rank

    f, d, h = FLOAT["fp32"], FLOAT["fp64"], FLOAT["fp16"]
    short, uint = CType("int", "int16"), CType("int", "uint32")
    ptr = lambda t: CType("ptr", base=t)  # noqa: E731
    assert rank(f, f) == EXACT and rank(f, d) == PROMOTION and rank(d, f) == CONVERSION
    assert rank(short, INT) == PROMOTION and rank(uint, INT) == CONVERSION and rank(INT, f) == CONVERSION
    assert rank(ptr(f), ptr(f)) == EXACT and rank(CType("array", base=f, dims=(None,)), ptr(f)) == EXACT
    assert rank(ptr(f), ptr(d)) is None and rank(ptr(f), ptr(CType("void"))) == CONVERSION
    assert rank(INT, ptr(f), null=True) == CONVERSION and rank(INT, ptr(f)) is None
    assert rank(CType("vector", "fp32", lanes=2), f) is None
    # __half is a class: to it a constructor; from it operator float(), then float -> parameter
    assert rank(f, h) == USER and rank(h, f) < rank(h, d) < rank(h, INT) and rank(h, f) >= USER
    assert rank(CType("struct"), f) == "unknown"


# ---------------------------------------------------------------------------------------------
# Texture objects

TEXTURE4 = """
// A texture of float4 read through a helper; the texture object is a read-only DRAM array.
__device__ float4 load4(cudaTextureObject_t t, int i) { return tex1Dfetch<float4>(t, i); }

__global__ void scale4(int n, cudaTextureObject_t src, float4 *dst, float s)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = load4(src, i);
    dst[i] = make_float4(s * v.x, s * v.y, s * v.z, s * v.w);
  }
}

int main()
{
  int n = 1000;
  float4 *buf, *dst;
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buf;
  res.res.linear.desc = cudaCreateChannelDesc<float4>();
  res.res.linear.sizeInBytes = n * sizeof(float4);
  cudaTextureDesc td = {};
  cudaTextureObject_t src = 0;
  cudaCreateTextureObject(&src, &res, &td, nullptr);
  scale4<<<(n + 127) / 128, 128>>>(n, src, dst, 2.0f);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_a_float4_texture_fetch_moves_its_lanes(tmp_path, n):
    k = analyze(TEXTURE4, tmp_path, "scale4.cu", {"n": n})["scale4"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # one fetch of src[i] per thread: 16 B (4 fp32 lanes); four fp32 multiplies; dst[i] 16 B
    got = numbers(k)
    assert got["W"] == {"fp32": 4 * n}
    assert got["src"] == (16 * n, 0, 16 * n, 0) and got["dst"] == (0, 16 * n, 0, 16 * n)
    assert k.total.arrays["src"].dtype == "fp32" and k.total.arrays["src"].space == "global"
    trace_agrees(tmp_path / "scale4.cu", "scale4", {"n": n}, k, "cuda")


TEXTURE_FILTERED = """
// A bilinear sample at normalized coordinates: which texels it reads depends on the texture.
__global__ void sample(int w, int h, cudaTextureObject_t img, const float *gain, float *out)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float u = (x + 0.5f) / w;
    float v = (y + 0.5f) / h;
    out[y * w + x] = tex2D<float>(img, u, v) * gain[x];
  }
}

int main()
{
  int w = 640, h = 480;
  float *gain, *out;
  cudaTextureObject_t img = 0;
  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  sample<<<grid, block>>>(w, h, img, gain, out);
  return 0;
}
"""


@pytest.mark.parametrize("w,h", [(10, 7), (100, 50)])  # below and above the block's 16 x 16
def test_a_filtered_fetch_costs_only_its_statement(tmp_path, w, h):
    k = analyze(TEXTURE_FILTERED, tmp_path, "sample.cu", {"w": w, "h": h})["sample"]
    assert not k.failed and not k.exact
    (d,) = [d for d in k.diagnostics if d.code == "SR101"]
    assert "`img`" in d.message and "tex2D" in d.message and "filtered" in d.message and d.location.line == 10
    p = w * h  # threads with work
    # u and v: an add and a divide each (4 fp32), the product 1: 5 fp32 a thread
    got = numbers(k)
    assert got["W"] == {"fp32": 5 * p}
    # img: one new fp32 element per fetch (the data-dependent upper bound); gain[x]: w distinct
    # floats, one load a thread; out: every (y, x) once
    assert got["img"] == (4 * p, 0, 4 * p, 0)
    assert got["gain"] == (4 * w, 0, 4 * p, 0) and got["out"] == (0, 4 * p, 0, 4 * p)


TEXTURE_LEGACY = """
// The legacy texture reference (removed in CUDA 12, still in older code).
texture<float, 1, cudaReadModeElementType> texRef;

__global__ void copy_ref(int n, float *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch(texRef, i);
}

int main()
{
  int n = 1000;
  float *out;
  copy_ref<<<(n + 255) / 256, 256>>>(n, out);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])
def test_a_legacy_texture_reference_reads_its_element_type(tmp_path, n):
    k = analyze(TEXTURE_LEGACY, tmp_path, "copy_ref.cu", {"n": n})["copy_ref"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # texRef[i] read as a float (its declared type), out[i] written: 4n each, no FLOPs
    got = numbers(k)
    assert got["W"] == {} and got["texRef"] == (4 * n, 0, 4 * n, 0) and got["out"] == (0, 4 * n, 0, 4 * n)


def test_a_texture_read_as_two_types_is_said(tmp_path):
    src = """
__global__ void both(int n, cudaTextureObject_t t, float *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(t, i) + (float)tex1Dfetch<int>(t, i);
}
int main() { int n = 1000; float *out; cudaTextureObject_t t = 0; both<<<(n + 255) / 256, 256>>>(n, t, out); return 0; }
"""
    k = analyze(src, tmp_path, "both.cu", {"n": 1000})["both"]
    # the same memory as fp32 and as int32: the views alias (SR110), each counted as its own array
    assert not k.failed and not k.exact and "SR110" in codes(k)
    assert numbers(k)["W"] == {"fp32": 1000}


# ---------------------------------------------------------------------------------------------
# Math functions with output pointers

POLAR_C = """
#include <math.h>

void polar(int n, const float *angle, float *s, float *c)
{
  for (int i = 0; i < n; i++)
    sincosf(angle[i], &s[i], &c[i]);
}

void polar_split(int n, const float *angle, float *s, float *c)
{
  for (int i = 0; i < n; i++) {
    s[i] = sinf(angle[i]);
    c[i] = cosf(angle[i]);
  }
}
"""


@pytest.mark.parametrize("n", [5, 37])
def test_sincosf_costs_what_sinf_and_cosf_cost(tmp_path, n):
    ks = analyze(POLAR_C, tmp_path, "polar.c", {"n": n})
    one, two = numbers(ks["polar"]), numbers(ks["polar_split"])
    assert ks["polar"].exact and ks["polar_split"].exact
    # sincosf counts as one sinf and one cosf (1 FLOP each): 2n fp32 either way
    for got in (one, two):
        assert got["W"] == {"fp32": 2 * n} and got["special"] == {"sinf": n, "cosf": n}
        assert got["s"] == (0, 4 * n, 0, 4 * n) and got["c"] == (0, 4 * n, 0, 4 * n)
    # angle[i]: one load in the single call, one in each of the two statements
    assert one["angle"] == (4 * n, 0, 4 * n, 0) and two["angle"] == (4 * n, 0, 8 * n, 0)
    skip_without_cc()
    for kernel in ("polar", "polar_split"):
        t = trace_agrees(tmp_path / "polar.c", kernel, {"n": n}, ks[kernel], "c")
        assert t.special == {"sinf": n, "cosf": n}


LOCALS_C = """
#include <math.h>

void rotate(int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++) {
    double s, c;
    sincos(x[i], &s, &c);
    y[i] = s * c + s;
  }
}
"""


@pytest.mark.parametrize("n", [5, 37])
def test_outputs_into_locals_are_registers(tmp_path, n):
    k = analyze(LOCALS_C, tmp_path, "rotate.c", {"n": n})["rotate"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # sin and cos (fp64, 1 each) and s * c + s (2 fp64): 4n fp64; s and c move no bytes
    got = numbers(k)
    assert got["W"] == {"fp64": 4 * n} and got["special"] == {"sin": n, "cos": n}
    assert set(k.total.arrays) == {"x", "y"}
    assert got["x"] == (8 * n, 0, 8 * n, 0) and got["y"] == (0, 8 * n, 0, 8 * n)
    trace_agrees(tmp_path / "rotate.c", "rotate", {"n": n}, k, "c")


PARTS_C = """
#include <math.h>

void parts(int n, const double *x, const double *y, double *frac, double *whole, double *mant,
           int *ex, double *rem, int *quo)
{
  for (int i = 0; i < n; i++) {
    frac[i] = modf(x[i], &whole[i]);
    mant[i] = frexp(x[i], &ex[i]);
    rem[i] = remquo(x[i], y[i], &quo[i]);
  }
}
"""


@pytest.mark.parametrize("n", [5, 37])
def test_modf_frexp_remquo_store_through_their_outputs(tmp_path, n):
    k = analyze(PARTS_C, tmp_path, "parts.c", {"n": n})["parts"]
    assert k.exact, [str(d) for d in k.diagnostics]
    got = numbers(k)
    # modf and frexp are free (splitting a number is exact); remquo counts as one remainder (fp64)
    assert got["W"] == {"fp64": n} and got["special"] == {"remainder": n}
    # x[i] in three statements: 3 loads; each output written once: whole, frac, mant, rem 8 B,
    # ex and quo 4 B (int)
    assert got["x"] == (8 * n, 0, 24 * n, 0) and got["y"] == (8 * n, 0, 8 * n, 0)
    for name in ("frac", "whole", "mant", "rem"):
        assert got[name] == (0, 8 * n, 0, 8 * n), name
    assert got["ex"] == (0, 4 * n, 0, 4 * n) and got["quo"] == (0, 4 * n, 0, 4 * n)
    trace_agrees(tmp_path / "parts.c", "parts", {"n": n}, k, "c")


def test_an_exponent_stored_in_a_local_is_data(tmp_path):
    src = """
#include <math.h>
void histogram(int n, const double *x, double *hist)
{
  for (int i = 0; i < n; i++) {
    int e;
    frexp(x[i], &e);
    hist[e + 1074] += 1.0;
  }
}
"""
    k = analyze(src, tmp_path, "hist.c", {"n": 10})["histogram"]
    # e is set by frexp: hist[e + 1074] is a data-dependent index (SR101), one new element each
    assert not k.failed and not k.exact and "SR101" in codes(k)
    got = numbers(k)
    assert got["W"] == {"fp64": 10} and got["hist"] == (80, 80, 80, 80)


SINCOSPI_CU = """
__global__ void turn(int n, const float *t, float *s, float *c)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sincospif(t[i], s + i, c + i);
}

int main()
{
  int n = 1000;
  float *t, *s, *c;
  turn<<<(n + 127) / 128, 128>>>(n, t, s, c);
  return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_sincospif_through_pointer_arithmetic(tmp_path, n):
    k = analyze(SINCOSPI_CU, tmp_path, "turn.cu", {"n": n})["turn"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # one sinpif and one cospif (fp32) per thread; s + i and c + i are s[i] and c[i]
    got = numbers(k)
    assert got["W"] == {"fp32": 2 * n} and got["special"] == {"sinpif": n, "cospif": n}
    assert got["t"] == (4 * n, 0, 4 * n, 0)
    assert got["s"] == (0, 4 * n, 0, 4 * n) and got["c"] == (0, 4 * n, 0, 4 * n)
    t = trace_agrees(tmp_path / "turn.cu", "turn", {"n": n}, k, "cuda")
    assert t.special == {"sinpif": n, "cospif": n}


def test_outputs_into_an_array_of_structs_are_member_stores(tmp_path):
    src = """
#include <math.h>
struct pair { float s, c; };
void pairs(int n, const float *x, struct pair *p, float *y)
{
  for (int i = 0; i < n; i++) {
    sincosf(x[i], &p[i].s, &p[i].c);
    y[i] = 2.0f * x[i];
  }
}
"""
    k = analyze(src, tmp_path, "pairs.c", {"n": 10})["pairs"]
    # sincosf stores through &p[i].s and &p[i].c: the members s and c of the 8-byte structs, 4 B
    # each per i (structs.py); W = sinf + cosf + the product = 3 per i
    assert k.exact, [str(d) for d in k.diagnostics]
    got = numbers(k)
    assert got["W"] == {"fp32": 30} and got["special"] == {"sinf": 10, "cosf": 10}
    assert got["y"] == (0, 40, 0, 40)
    assert got["p[].s"] == (0, 40, 0, 40) and got["p[].c"] == (0, 40, 0, 40)


def test_every_output_function_counts_as_special_functions():
    """The tables agree with themselves: every `counts_as` name is a special function, and every
    output position is an argument the prototype declares as a pointer."""
    import re

    from staticroof import costs
    from staticroof.frontends.cuda.grammar import table
    from staticroof.resources import grammars_dir

    math_h = (grammars_dir() / "include" / "math.h").read_text()
    entries = {n: e for n, e in costs.table().items() if e["kind"] == "outputs"}
    entries.update({n: e for n, e in table()["intrinsics"].items() if e["kind"] == "outputs"})
    assert {"sincos", "sincosf", "__sincosf", "sincospif", "modf", "frexp", "remquo"} <= set(entries)
    for name, e in entries.items():
        for f in e["counts_as"]:
            spec = table()["intrinsics"].get(f) or costs.classify(f)
            assert spec is not None and spec["kind"] == "special", (name, f)
        m = re.search(rf"\b{name}\(([^)]*)\);", math_h)
        if m:
            params = [p.strip() for p in m.group(1).split(",")]
            assert all(params[k].endswith("*") for k in e["outputs"]), (name, params)


# ---------------------------------------------------------------------------------------------
# Unnamed parameters: an argument binds the parameter at its position, named or not

UNNAMED_C = """
#include <stdio.h>
#include <time.h>

/* element functions share one signature; not every one uses every argument */
static float load(const float *x, int /* stride */, int i) { return x[i]; }
static float scaled(int /* lane */, const float *x, float a, int i) { return a * x[i]; }

void smooth(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = load(x, 1, i) + scaled(0, x, 0.5f, i);
}

int main(void)
{
    static float x[4096], y[4096];
    clock_t t0 = clock();
    smooth(4096, x, y);
    printf("%.3f s\\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return 0;
}
"""


@pytest.mark.parametrize("n", [1, 300])  # the stride argument 1, and a size past it
def test_unnamed_parameters_keep_the_arguments_in_place(tmp_path, n):
    k = analyze(UNNAMED_C, tmp_path, "smooth.c", {"n": n})["smooth"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # per i: load(x, 1, i) reads x[i] (i binds `i`, not the stride 1); scaled(0, x, 0.5f, i) is
    # 0.5f * x[i] (1 fp32 multiply), the sum 1 fp32 add: W = 2n.  x[i] is one element read by
    # both calls: 4n B compulsory; y[i] written once: 4n B
    got = numbers(k)
    assert got["W"] == {"fp32": 2 * n}
    assert got["x"][:2] == (4 * n, 0) and got["y"][:2] == (0, 4 * n)


UNNAMED_LAUNCH = """
#include <cuda_runtime.h>

#define FLAGS_NONE 7

__global__ void scale(float *y, int /* flags */, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = y[i] * 2.0f;
}

int main()
{
    const int n = N_ELEMS;
    float *y;
    cudaMalloc(&y, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(y, FLAGS_NONE, n);
    cudaDeviceSynchronize();
    cudaFree(y);
    return 0;
}
"""


@pytest.mark.parametrize("n", [200, 1000])  # below and above the block of 256 (and not the flags' 7)
def test_a_launch_binds_the_size_past_an_unnamed_parameter(tmp_path, n):
    src = UNNAMED_LAUNCH.replace("N_ELEMS", str(n))
    k = analyze(src, tmp_path, "scale.cu", {})["scale"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # the launch passes (y, 7, n): its third argument is `n` (the second, 7, goes to the unnamed
    # parameter).  Threads i < n: one fp32 multiply, y[i] read and written: W = n, 4n B each way
    assert k.sizes["n"] == n
    got = numbers(k)
    assert got["W"] == {"fp32": n} and got["y"][:2] == (4 * n, 4 * n)


UNNAMED_LAUNCHER = """
#include <cuda_runtime.h>

template <typename T>
__global__ void scale(T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = y[i] * 2;
}

// a launcher with the signature of its siblings: the stream id is not used here
template <typename T>
void launch(T *y, int /* stream id */, int n)
{
    scale<T><<<(n + 255) / 256, 256>>>(y, n);
}

int main()
{
    const int n = N_ELEMS;
    float *y;
    cudaMalloc(&y, n * sizeof(float));
    launch(y, 3, n);
    cudaFree(y);
    return 0;
}
"""


@pytest.mark.parametrize("n", [200, 1000])  # below and above the block of 256 (and not the stream id's 3)
def test_a_template_launcher_binds_the_size_past_an_unnamed_parameter(tmp_path, n):
    src = UNNAMED_LAUNCHER.replace("N_ELEMS", str(n))
    k = analyze(src, tmp_path, "launch.cu", {})["scale"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # launch(y, 3, n): its third argument is the launcher's `n` (3 goes to the unnamed stream id), and
    # scale gets (y, n).  Threads i < n: one fp32 multiply (T = float), y[i] read and written
    assert k.sizes["n"] == n and k.launch["grid"] == ((n + 255) // 256, 1, 1)
    got = numbers(k)
    assert got["W"] == {"fp32": n} and got["y"][:2] == (4 * n, 4 * n)


UNNAMED_OVERLOADS = """
// overloads with the signature of a callback table: the lane is not used
__device__ float pick(float v, int /* lane */) { return 2.0f * v; }
__device__ double pick(double v, int /* lane */) { return 2.0 * v; }

__global__ void twice(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = pick(x[i], 0);
}

int main()
{
    int n = 1000;
    float *x, *y;
    twice<<<(n + 127) / 128, 128>>>(n, x, y);
    return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_overloads_with_an_unnamed_parameter_are_ranked(tmp_path, n):
    k = analyze(UNNAMED_OVERLOADS, tmp_path, "pick.cu", {"n": n})["twice"]
    # both take two arguments (the unnamed int counts): pick(float, int) is the exact match, one fp32
    # multiply per thread i < n; x read, y written (4 B each)
    assert k.exact and "SR122" not in codes(k), [str(d) for d in k.diagnostics]
    got = numbers(k)
    assert got["W"] == {"fp32": n} and got["x"][:2] == (4 * n, 0) and got["y"][:2] == (0, 4 * n)
