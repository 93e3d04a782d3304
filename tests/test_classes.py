"""C++ classes in CUDA kernels (classes.py), vector loads through casts (views.py), tensor cores
(wmma.py), surfaces and integer-coordinate texture fetches (textures.py).

Each expected value is derived by hand in the comment above it, at sizes on both sides of each
constant of the kernel (the 4 or 8 lanes of a 128-bit load, the block, the 16x16x16 tile).  Files
that define classes are not traceable (the trace compiles C, which has no member functions): the
trace says so, which is checked once."""

from __future__ import annotations

import pytest

from staticroof.trace import TraceError, run as run_trace

from helpers import S, analyze_source, codes, same


def numbers(k) -> dict:
    t = k.total
    out = {"W": {p: q.value for p, q in t.by_precision.items()},
           "special": {n: q.value for n, q in t.special_by_name.items()}, "Q": t.compulsory.value}
    for name, a in t.arrays.items():
        out[name] = (a.read.value, a.write.value)
    return out


def analyze(src, tmp_path, sizes, name="k.cu"):
    return analyze_source(src, tmp_path, {k: str(v) for k, v in sizes.items()}, name=name)


# The 128-bit vector struct of LLM-training code, written as such code writes it.
PACKED = """
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstring>

template<class ElementType>
struct alignas(16) Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits) {
        static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
        memcpy(&payload, &bits, sizeof(bits));
    }
    __device__ static Packed128 constant(ElementType value) {
        Packed128 result;
        for (int k = 0; k < size; ++k) {
            result.payload[k] = value;
        }
        return result;
    }
    __device__ static Packed128 zeros() { return constant(0.f); }
    __device__ ElementType& operator[](int index) { return payload[index]; }
    __device__ const ElementType& operator[](int index) const { return payload[index]; }
    __device__ int4 get_bits() const {
        int4 bits;
        static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
        memcpy(&bits, &payload, sizeof(bits));
        return bits;
    }
    static constexpr const size_t size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};

template<class ElementType>
__device__ Packed128<ElementType> load128(const ElementType* address) {
    return Packed128<ElementType>{*reinterpret_cast<const int4*>(address)};
}
template<class ElementType>
__device__ void store128(ElementType* target, Packed128<ElementType> value) {
    *reinterpret_cast<int4*>(target) = value.get_bits();
}
"""

RESIDUAL = PACKED + """
typedef FLOAT_X floatX;
typedef Packed128<floatX> x128;

__global__ void residual_forward_kernel(floatX* out, const floatX* inp1, const floatX* inp2, int N) {
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (idx < N) {
        x128 packed_out;
        x128 packed_inp1 = load128(inp1 + idx);
        x128 packed_inp2 = load128(inp2 + idx);
        for (int k = 0; k < packed_inp1.size; ++k) {
            packed_out[k] = (floatX)((float)packed_inp1[k] + (float)packed_inp2[k]);
        }
        store128(out + idx, packed_out);
    }
}

void residual_forward(floatX* out, const floatX* inp1, const floatX* inp2, int N) {
    const int block_size = 256;
    const int grid_size = (N + block_size * x128::size - 1) / (block_size * x128::size);
    residual_forward_kernel<<<grid_size, block_size>>>(out, inp1, inp2, N);
}
"""


@pytest.mark.parametrize("elem, lanes, nbytes", [("float", 4, 4), ("__nv_bfloat16", 8, 2)])
@pytest.mark.parametrize("n", [1000, 1030])
def test_packed128_residual(tmp_path, elem, lanes, nbytes, n):
    # x128 holds 16 B: `lanes` elements (4 floats, 8 bf16).  Thread t works when lanes*t < N: T =
    # ceil(N/lanes) threads.  Each adds its `lanes` pairs in fp32 (the casts are free): W = lanes*T.
    # load128 reads the `lanes` elements from idx (the int4 covers them); store128 writes them:
    # inp1, inp2 read and out written lanes*T elements each.  The packed locals are registers.
    # float:  N = 1000: T = 250, W = 1000, each array 1000 * 4 = 4000 B;
    #         N = 1030: T = 258 (the last thread runs past N, as the kernel does), W = 1032, 4128 B.
    # bf16:   N = 1000: T = 125, W = 1000, 1000 * 2 = 2000 B;  N = 1030: T = 129, W = 1032, 2064 B.
    k = analyze(RESIDUAL.replace("FLOAT_X", elem), tmp_path, {"N": n})["residual_forward_kernel"]
    assert k.exact, [str(d) for d in k.diagnostics]
    t = -(-n // lanes)
    got = numbers(k)
    assert got["W"] == {"fp32": lanes * t}
    per_array = lanes * t * nbytes
    assert got["inp1"] == (per_array, 0) and got["inp2"] == (per_array, 0) and got["out"] == (0, per_array)
    assert got["Q"] == 3 * per_array
    dtype = "fp32" if elem == "float" else "bf16"
    assert {a.dtype for a in k.total.arrays.values()} == {dtype}  # the int4 view keeps the buffer's type


def test_packed128_symbolic_and_static_helpers(tmp_path):
    # zeros() calls the static constant(0.f), which fills a register object: no traffic, 0 FLOPs.
    # The kernel then accumulates x[4t..4t+3] into it (4 fp32 adds per thread) and stores it:
    # threads t < ceil(N/4) (4t < N), so W = 4*ceiling(N/4), Q = 2 arrays * 16 B per thread.
    src = PACKED + """
typedef Packed128<float> f128;
__global__ void accumulate(float* y, const float* x, int N) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
    if (i < N) {
        f128 acc = f128::zeros();
        f128 in = load128(x + i);
        for (int k = 0; k < f128::size; k++) acc[k] += in[k];
        store128(y + i, acc);
    }
}
"""
    k = analyze(src, tmp_path, {})["accumulate"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.by_precision["fp32"].expr, S("4*ceiling(N/4)"))
    assert same(k.total.compulsory.expr, S("32*ceiling(N/4)"))


CASTS = PACKED + """
typedef Packed128<float> x128;

__global__ void scale_cast(float* y, const float* x, int N) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (i < N) {
        x128 p = *reinterpret_cast<const x128*>(x + i);
        for (int k = 0; k < x128::size; k++) p[k] = 2.0f * p[k];
        *reinterpret_cast<x128*>(y + i) = p;
    }
}

__global__ void pair_sum(float* y, const float* x, int N) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
    if (i < N) {
        x128 buf[2];
        buf[0] = load128(x + i);
        buf[1] = load128(x + i + 4);
        for (int k = 0; k < 4; k++) y[i + k] = buf[0][k] + buf[1][k];
    }
}
"""


def test_class_pointer_casts_and_arrays_of_objects(tmp_path):
    # scale_cast: a pointer to x128 over floats covers 4 floats per object (16 B): threads t with
    #   4t < N, ceil(N/4) of them, 4 muls each; x read and y written 16 B per thread.
    # pair_sum: an array of class objects is not modeled: SR123 for its statements, approximate.
    ks = analyze(CASTS, tmp_path, {})
    k = ks["scale_cast"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.by_precision["fp32"].expr, S("4*ceiling(N/4)"))
    assert same(k.total.arrays["x"].read.expr, S("16*ceiling(N/4)"))
    assert same(k.total.arrays["y"].write.expr, S("16*ceiling(N/4)"))
    p = ks["pair_sum"]
    assert not p.exact and not p.failed and "SR123" in codes(p)
    assert any("array of class objects" in d.message for d in p.diagnostics)


LAYERNORM = PACKED + """
typedef float floatX;
typedef Packed128<floatX> x128;

// one thread per row of C channels, the channels 128 bits at a time
__global__ void layernorm_forward_kernel1(floatX* out, float* mean, float* rstd, const floatX* inp,
                                          const floatX* weight, const floatX* bias, int N, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const float eps = 1e-5f;
    if (idx < N) {
        const floatX* x = inp + idx * C;
        float m = 0.0f;
        for (int i = 0; i < C; i += x128::size) {
            x128 packed_x = load128(x + i);
            for (int k = 0; k < x128::size; k++) m += (float)packed_x[k];
        }
        m = m / C;
        float v = 0.0f;
        for (int i = 0; i < C; i += x128::size) {
            x128 packed_x = load128(x + i);
            for (int k = 0; k < x128::size; k++) {
                float shift = (float)packed_x[k] - m;
                v += shift * shift;
            }
        }
        v = v / C;
        float s = rsqrtf(v + eps);
        floatX* o = out + idx * C;
        for (int i = 0; i < C; i += x128::size) {
            x128 packed_x = load128(x + i);
            x128 w = load128(weight + i);
            x128 b = load128(bias + i);
            x128 packed_o;
            for (int k = 0; k < x128::size; k++) {
                float n = s * ((float)packed_x[k] - m);
                packed_o[k] = (floatX)(n * (float)w[k] + (float)b[k]);
            }
            store128(o + i, packed_o);
        }
        mean[idx] = m;
        rstd[idx] = s;
    }
}

int main() {
    int B = 8, T = 1024, C = 768;
    float *out, *mean, *rstd, *inp, *weight, *bias;
    const int block_size = 256;
    const int N = B * T;
    layernorm_forward_kernel1<<<(N + block_size - 1) / block_size, block_size>>>(out, mean, rstd, inp, weight,
                                                                                 bias, N, C);
}
"""


@pytest.mark.parametrize("n, c", [(200, 64), (1000, 64), (1000, 6)])
def test_packed128_layernorm(tmp_path, n, c):
    # Per row, with L = 4*ceil(C/4) elements visited per pass (C rounded up to the 4-lane loads):
    #   pass 1: L adds; m / C: 1 div;  pass 2: L * (sub, mul, add) = 3L; v / C: 1; v + eps: 1;
    #   rsqrtf: 1 special (weight 1, in W);  pass 3: L * (sub, mul, mul, add) = 4L.
    #   W fp32 = N * (8L + 4), rsqrtf N calls.
    # Traffic (N rows, 200 below the block of 256 and 1000 above): mean, rstd 4N B each.  C = 64 (a
    #   multiple of 4): inp read and out written 4*N*C B, weight and bias read 4*C B.  C = 6: each row
    #   reads 8 elements from idx*6, so rows overlap: inp covers [0, 6N + 2) -> 4*(6N + 2) B, out the
    #   same written, weight and bias 8 elements (32 B) each.
    k = analyze(LAYERNORM, tmp_path, {"N": n, "C": c})["layernorm_forward_kernel1"]
    assert k.exact, [str(d) for d in k.diagnostics]
    lanes = 4 * (-(-c // 4))
    got = numbers(k)
    assert got["W"] == {"fp32": n * (8 * lanes + 4)} and got["special"] == {"rsqrtf": n}
    rows = 4 * n * c if c % 4 == 0 else 4 * (c * (n - 1) + lanes)
    assert got["inp"] == (rows, 0) and got["out"] == (0, rows)
    assert got["weight"] == (4 * lanes, 0) and got["bias"] == (4 * lanes, 0)
    assert got["mean"] == (0, 4 * n) and got["rstd"] == (0, 4 * n)


def test_a_class_file_is_refused_by_the_trace_cleanly(tmp_path):
    p = tmp_path / "ln.cu"
    p.write_text(LAYERNORM)
    with pytest.raises(TraceError, match="uses C\\+\\+ classes"):
        run_trace(str(p), "layernorm_forward_kernel1", {"N": 64, "C": 8}, "cuda")


VEC3 = """
#include <cuda_runtime.h>

struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
    __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __device__ Vec3 operator+(const Vec3& o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __device__ Vec3 operator*(float s) const { return Vec3(x * s, y * s, z * s); }
    __device__ float dot(const Vec3& o) const { return x * o.x + y * o.y + z * o.z; }
    __device__ static Vec3 load(const float* p, int i) { return Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]); }
    __device__ void store(float* p, int i) const {
        p[3 * i] = x;
        p[3 * i + 1] = y;
        p[3 * i + 2] = z;
    }
};

__global__ void advect(int n, float dt, const float* pos, const float* vel, float* out, float* energy) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Vec3 p = Vec3::load(pos, i);
        Vec3 v = Vec3::load(vel, i);
        Vec3 q = p + v * dt;
        q.store(out, i);
        energy[i] = 0.5f * v.dot(v);
    }
}

int main() {
    int n = 100000;
    float *pos, *vel, *out, *energy;
    advect<<<(n + 127) / 128, 128>>>(n, 0.01f, pos, vel, out, energy);
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_vector_class_with_operators(tmp_path, n):
    # Per particle: v * dt 3 muls, p + (.) 3 adds, v.dot(v) 3 muls + 2 adds, 0.5f * 1 mul: 12 fp32.
    # pos and vel read 3 floats each (12 B), out written 12 B, energy written 4 B: 40 B per particle.
    k = analyze(VEC3, tmp_path, {"n": n})["advect"]
    assert k.exact, [str(d) for d in k.diagnostics]
    got = numbers(k)
    assert got["W"] == {"fp32": 12 * n}
    assert got["pos"] == (12 * n, 0) and got["vel"] == (12 * n, 0)
    assert got["out"] == (0, 12 * n) and got["energy"] == (0, 4 * n)


FUNCTORS = """#include <cuda_runtime.h>
#include <cmath>

struct Scale {
    float s;
    __device__ float operator()(float v) const { return s * v; }
};

struct Clamp01 {
    __device__ float operator()(float v) const { return fminf(fmaxf(v, 0.0f), 1.0f); }
};

template <typename Op>
__global__ void apply(int n, const float* __restrict__ in, float* __restrict__ out, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = op(in[i]) + 1.0f;
}

template <typename Op>
void launch_apply(int n, const float* in, float* out, Op op) {
    apply<<<(n + 127) / 128, 128>>>(n, in, out, op);
}

template <int N>
struct Window {
    float v[N];
    __device__ void load(const float* p, int i) {
        for (int k = 0; k < N; k++) v[k] = p[i + k];
    }
    __device__ float sum() const {
        float s = 0.0f;
        for (int k = 0; k < N; k++) s += v[k];
        return s;
    }
};

__global__ void moving_sum(int n, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Window<5> w;
        w.load(x, i);
        y[i] = w.sum();
    }
}

int main() {
    int n = 4096;
    float *in, *out;
    launch_apply(n, in, out, Scale{3.0f});
    launch_apply(n, in, out, Clamp01());
    moving_sum<<<(n + 127) / 128, 128>>>(n, in, out);
    return 0;
}
"""


@pytest.mark.parametrize("n", [100, 1000])  # below and above the block of 128
def test_function_objects_and_value_template_classes(tmp_path, n):
    # apply<Scale>: op(in[i]) is Scale::operator(), s * v: 1 mul, then + 1.0f: W = 2n.
    # apply<Clamp01>: fminf/fmaxf are comparisons (0 FLOPs), + 1.0f: W = n.  Both: in read 4n B,
    #   out written 4n B.  The launcher's `Scale{3.0f}` / `Clamp01()` arguments decide Op.
    # moving_sum: Window<5> holds 5 registers; load reads x[i..i+4], sum adds 5 (from 0.0f):
    #   W = 5n; x read at 0 .. n + 3: 4*(n + 4) B; y written 4n B.
    ks = analyze(FUNCTORS, tmp_path, {"n": n})
    assert all(k.exact for k in ks.values()), {k.name: [str(d) for d in k.diagnostics] for k in ks.values()}
    s, c, m = (numbers(ks[name]) for name in ("apply<Scale>", "apply<Clamp01>", "moving_sum"))
    assert s["W"] == {"fp32": 2 * n} and c["W"] == {"fp32": n}
    assert s["in"] == c["in"] == (4 * n, 0) and s["out"] == c["out"] == (0, 4 * n)
    assert m["W"] == {"fp32": 5 * n} and m["x"] == (4 * (n + 4), 0) and m["y"] == (0, 4 * n)


OUTSIDE = """#include <cuda_runtime.h>
struct Vec3 {
    float x, y, z;
    __device__ Vec3(float a, float b, float c);
    __device__ float norm2() const;
    __device__ Vec3 scaled(float s) const;
};
__device__ Vec3::Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
__device__ float Vec3::norm2() const { return x * x + y * y + z * z; }
__device__ Vec3 Vec3::scaled(float s) const { return Vec3(s * x, s * y, s * z); }

__global__ void norms(int n, const float* p, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Vec3 v(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        out[i] = v.scaled(0.5f).norm2();
    }
}
"""


@pytest.mark.parametrize("n", [100, 1000])
def test_members_defined_outside_the_class(tmp_path, n):
    # Vec3's constructor and members are defined after the class (Vec3::norm2); the call chains on
    # a temporary: scaled(0.5f) 3 muls, norm2() 3 muls + 2 adds: W = 8n; p read 12 B, out 4 B each.
    k = analyze(OUTSIDE, tmp_path, {"n": n})["norms"]
    assert k.exact, [str(d) for d in k.diagnostics]
    got = numbers(k)
    assert got["W"] == {"fp32": 8 * n} and got["p"] == (12 * n, 0) and got["out"] == (0, 4 * n)


INHERIT = """
#include <cuda_runtime.h>

struct Affine {
    float s, t;
    __device__ float f(float v) const { return s * v + t; }
    __device__ float twice(float v) const { return f(f(v)); }
};

struct Quadratic : public Affine {
    __device__ float f(float v) const { return s * v * v + t; }  // hides Affine::f
    __device__ float g(float v) const { return twice(v) + f(v); }
};

__global__ void transform(int n, const float* x, float* y, Quadratic q) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = q.g(x[i]);
}
"""


@pytest.mark.parametrize("n", [100, 1000])
def test_derived_class_members_and_overrides(tmp_path, n):
    # q.g(x): twice() is Affine's, whose f is Affine::f (C++ binds it statically, no virtual):
    # 2 * (mul, add) = 4; Quadratic::f: 2 muls, 1 add = 3; + : 1.  W = 8n; x read, y written,
    # 4n B each.
    k = analyze(INHERIT, tmp_path, {"n": n})["transform"]
    assert k.exact, [str(d) for d in k.diagnostics]
    got = numbers(k)
    assert got["W"] == {"fp32": 8 * n} and got["x"] == (4 * n, 0) and got["y"] == (0, 4 * n)


FLOAT4 = """
#include <cuda_runtime.h>
#include <cuda_bf16.h>
__global__ void scale4(int n, const float* __restrict__ x, float* __restrict__ y, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        reinterpret_cast<float4*>(y)[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    }
}
__global__ void pairs(int n, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = *reinterpret_cast<const float4*>(&x[4 * i]);
        float4 w = ((const float4*)x)[i];
        y[i] = v.x + v.y + v.z + w.w;
    }
}
__global__ void gelu_bf16x2(int n, const __nv_bfloat162* x, __nv_bfloat162* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat162 v = x[i];
        float a = __low2float(v), b = __high2float(v);
        y[i] = __floats2bfloat162_rn(0.5f * a, 0.5f * b);
        y[i] = __hmul2(y[i], v);
    }
}
__global__ void halves(int n, const __half2* a, const __half2* b, __half2* c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = __hadd2(a[i], b[i]);
}
"""


@pytest.mark.parametrize("n", [1000, 1002])  # a multiple of 4 and not
def test_float4_and_half2_loads(tmp_path, n):
    # scale4: threads i < floor(n/4); each reads x[4i..4i+3] (16 B), 4 muls, writes y's 4 floats.
    # pairs: threads i < n; v and w both cover x[4i..4i+3] (16 B distinct), 3 adds, y[i] written.
    # halves: a __half2 is 2 fp16 lanes (4 B); __hadd2 is 2 fp16 adds.
    ks = analyze(FLOAT4, tmp_path, {"n": n})
    f = n // 4
    s = numbers(ks["scale4"])
    assert s["W"] == {"fp32": 4 * f} and s["x"] == (16 * f, 0) and s["y"] == (0, 16 * f)
    p = numbers(ks["pairs"])
    assert p["W"] == {"fp32": 3 * n} and p["x"] == (16 * n, 0) and p["y"] == (0, 4 * n)
    # gelu_bf16x2: a __nv_bfloat162 is 2 bf16 lanes (4 B); two fp32 muls, then __hmul2 on bf16
    #   pairs (2 bf16 muls); x read 4n B, y written 4n B (and read back: no compulsory read).
    g = numbers(ks["gelu_bf16x2"])
    assert g["W"] == {"fp32": 2 * n, "bf16": 2 * n} and g["x"] == (4 * n, 0) and g["y"] == (0, 4 * n)
    h = numbers(ks["halves"])
    assert h["W"] == {"fp16": 2 * n} and h["a"] == (4 * n, 0) and h["c"] == (0, 4 * n)
    assert all(k.exact for k in ks.values())


WMMA = """
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

// C (M x N, fp32) = alpha * A (M x K, row-major half) * B (K x N, col-major half); one warp per
// 16 x 16 tile of C, BLOCK_X / 32 warps across x and 4 across y per block
__global__ void wmma_gemm(const half* a, const half* b, float* c, int M, int N, int K, float alpha) {
    int lda = K, ldb = K, ldc = N;
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;

    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
    wmma::fill_fragment(acc_frag, 0.0f);

    int aRow = warpM * WMMA_M;
    int bCol = warpN * WMMA_N;
    if (aRow < M && bCol < N) {
        for (int i = 0; i < K; i += WMMA_K) {
            wmma::load_matrix_sync(a_frag, a + aRow * lda + i, lda);
            wmma::load_matrix_sync(b_frag, b + bCol * ldb + i, ldb);
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
        for (int t = 0; t < acc_frag.num_elements; t++) acc_frag.x[t] = alpha * acc_frag.x[t];
        wmma::store_matrix_sync(c + aRow * ldc + bCol, acc_frag, ldc, wmma::mem_row_major);
    }
}

int main() {
    int M = 512, N = 512, K = 512;
    half *a, *b;
    float *c;
    dim3 block(BLOCK_X, 4);
    dim3 grid((M + WMMA_M * BLOCK_X / 32 - 1) / (WMMA_M * BLOCK_X / 32), (N + WMMA_N * 4 - 1) / (WMMA_N * 4));
    wmma_gemm<<<grid, block>>>(a, b, c, M, N, K, 2.0f);
    return 0;
}
"""


@pytest.mark.parametrize("block_x, m, n, kk", [(32, 48, 80, 32), (32, 64, 48, 64)])
def test_wmma_gemm(tmp_path, block_x, m, n, kk):
    # M, N multiples of the 16 x 16 tile, K of 16; the grid covers them (block_x / 32 warps in x
    # per block: 16 rows of C per block; 4 warps, 64 columns, in y): N below and above those 64.
    # Tiles (M/16) * (N/16), each K/16 mma_sync of 2*16*16*16 FLOPs on fp16
    # inputs: W fp16 = 2*M*N*K.  The epilogue scales the 8 accumulator elements each thread holds:
    # 32 threads * 8 = 256 = one fp32 mul per element of C: W fp32 = M*N.
    # Each tile row reads its A rows (16 x K, every K/16 step a 16 x 16 tile), so A is read once
    # overall: 2*M*K B; B likewise 2*K*N B; C written once, 4*M*N B.
    # (48, 80, 32): W 245760 + 3840, Q 3072 + 5120 + 15360; (64, 48, 64): 393216 + 3072,
    # Q 8192 + 6144 + 12288.  (With 128-wide blocks the counts are the same; the symbolic
    # formulas take the piece machinery tens of seconds, too slow for this suite.)
    k = analyze(WMMA.replace("BLOCK_X", str(block_x)), tmp_path, {"M": m, "N": n, "K": kk})["wmma_gemm"]
    assert k.exact, [str(d) for d in k.diagnostics]
    got = numbers(k)
    assert got["W"] == {"fp16": 2 * m * n * kk, "fp32": m * n}
    assert got["a"] == (2 * m * kk, 0) and got["b"] == (2 * kk * n, 0) and got["c"] == (0, 4 * m * n)


TF32 = """#include <mma.h>
using namespace nvcuda;
// one warp per block; C (16 x 16 tiles) = A (row-major fp32 as tf32) x B (row-major)
__global__ void tf32_tile(const float* a, const float* b, float* c, int K) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    int t = blockIdx.x;
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(fa, a + t * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + k * 16, 16);
        for (int e = 0; e < fa.num_elements; e++) fa.x[e] = wmma::__float_to_tf32(fa.x[e]);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + t * 256, fc, 16, wmma::mem_col_major);
}
int main() { int K = 64; float *a, *b, *c; tf32_tile<<<4, 32>>>(a, b, c, K); }
"""


@pytest.mark.parametrize("kk", [64, 20])  # a multiple of the 8-deep step and not
def test_wmma_tf32_col_major_store(tmp_path, kk):
    # 4 blocks of one warp; ceil(K/8) steps of a 16 x 16 x 8 mma: 2*16*16*8 = 4096 FLOPs each, in
    # fp32 (tf32 inputs); __float_to_tf32 is a conversion (0).  K = 64: 8 steps, W = 4*8*4096.
    #   a: rows 16t + r (64 rows) at stride K, columns k + c < 8*ceil(K/8): K = 64, all 64*64 floats
    #   (16384 B); K = 20: row R covers 20R + [0, 24), the rows overlap: [0, 20*63 + 24) = 1284
    #   floats (5136 B).  b: rows k + r < 8*ceil(K/8) of 16 floats: 64*16*4 = 4096 B; 24*16*4 = 1536 B.
    #   c: 4 tiles of 256 floats stored column-major at t*256: 4096 B.
    k = analyze(TF32, tmp_path, {"K": kk})["tf32_tile"]
    assert k.exact, [str(d) for d in k.diagnostics]
    steps = -(-kk // 8)
    got = numbers(k)
    assert got["W"] == {"fp32": 4 * steps * 4096}
    assert got["a"] == ((16384 if kk == 64 else 5136), 0) and got["b"] == (steps * 8 * 16 * 4, 0)
    assert got["c"] == (0, 4096)


def test_wmma_ptx_builtin_is_a_diagnostic(tmp_path):
    src = """
#include <mma.h>
__global__ void raw(const half* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = 2.0f * c[i];
    __hmma_m16n16k16_mma_f32f32(0, 0, 0, 0, 0, 0);
}
"""
    k = analyze(src, tmp_path, {"n": 100})["raw"]
    assert "SR140" in codes(k) and not k.exact
    assert numbers(k)["W"] == {"fp32": 100}  # the rest of the kernel is counted


SURFACES = """
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texRef;

__global__ void copy_tex(int n, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch(texRef, i);
}

__global__ void to_surface(int w, int h, const float* in, cudaSurfaceObject_t surf) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(2.0f * in[y * w + x], surf, x * sizeof(float), y);
}

__global__ void box(int w, int h, cudaTextureObject_t img, cudaSurfaceObject_t dst) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float s = tex2D<float>(img, x, y) + tex2D<float>(img, x + 1, y);
        float prev;
        surf2Dread(&prev, dst, x * 4, y);
        surf2Dwrite(0.5f * s + prev, dst, x * 4, y);
    }
}

__global__ void odd(int n, cudaSurfaceObject_t s) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < n) surf1Dwrite(1.0f, s, x * 2);
}
"""


@pytest.mark.parametrize("w, h", [(30, 20), (70, 40)])  # below and above a 32 x 32 block
def test_textures_and_surfaces(tmp_path, w, h):
    # copy_tex: texRef read n elements (4n B), out written 4n B, 0 FLOPs.
    # to_surface: per pixel one mul; in read 4wh B; surf[y][x] written (x*4 bytes = element x): 4wh B.
    # box: texels (x, y) and (x + 1, y): img [y][x] for x in [0, w], distinct (w + 1)*h texels;
    #   per pixel an add, a mul and an add (3 fp32); dst read and written at [y][x]: 4wh B each.
    # odd: x * 2 bytes is not a whole number of 4-byte elements: SR101, approximate.
    n = w * h
    ks = analyze(SURFACES, tmp_path, {"n": n, "w": w, "h": h})
    c = numbers(ks["copy_tex"])
    assert c["texRef"] == (4 * n, 0) and c["out"] == (0, 4 * n) and not c["W"]
    s = numbers(ks["to_surface"])
    assert s["W"] == {"fp32": w * h} and s["in"] == (4 * w * h, 0) and s["surf"] == (0, 4 * w * h)
    b = numbers(ks["box"])
    assert b["W"] == {"fp32": 3 * w * h} and b["img"] == (4 * (w + 1) * h, 0) and b["dst"] == (4 * w * h, 4 * w * h)
    assert all(ks[name].exact for name in ("copy_tex", "to_surface", "box"))
    assert "SR101" in codes(ks["odd"]) and not ks["odd"].exact
