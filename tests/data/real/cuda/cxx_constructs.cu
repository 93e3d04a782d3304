/* cxx_constructs.cu -- C++ constructs real CUDA files use around otherwise plain kernels.
 *
 * The CUDA samples' SharedMemory<T>: a class template whose conversion operator `operator T *()`
 * hands out the dynamic shared buffer, with an explicit specialization for double (the generic one
 * would declare `extern __shared__ int __smem[]` twice with different types).  A templated
 * reduction takes its shared buffer as `T *sdata = SharedMemory<T>();` and is launched for double
 * and for float with 256 threads and (n + 255) / 256 blocks.
 *
 * reduce<double>: each thread stores one element (g_idata[i] when i < n, else 0) to shared memory;
 *   the tree halves s = 128, 64, ..., 1 and adds sdata[tid + s] for tid < s: 128 + 64 + ... + 1 =
 *   255 adds per block, whatever n: W = 255*ceiling(n/256) (fp64).  Q: g_idata read once (8*n),
 *   one partial sum written per block (8*ceiling(n/256)).
 *   n = 37: 1 block, W = 255, Q = 296 + 8 = 304.  n = 1000: 4 blocks, W = 1020, Q = 8000 + 32 = 8032.
 *   Shared: per block 256 stores, per level 2*s loads and s stores (3*255), and thread 0's final load
 *   of sdata[0]: 256 + 765 + 1 = 1022 accesses of 8 B: Q_shared = 8176*ceiling(n/256).
 * reduce<float>: the same in fp32 through the generic SharedMemory: W = 255*ceiling(n/256),
 *   Q = 4*n + 4*ceiling(n/256), Q_shared = 4088*ceiling(n/256).
 * daxpy: after the specialization on double, plain `double` is still double:
 *   y[i] = a*x[i] + y[i] for i < n: W = 2*n (fp64), Q = 24*n.  n = 37: 74, 888; n = 1000: 2000, 24000.
 *
 *
 * Constructor syntax on non-class types (functional casts, constructor-style locals):
 * lerp_index: `uint i = uint(blockIdx.x) * blockDim.x + threadIdx.x` (uint: glibc's <sys/types.h>,
 *   which <stdlib.h> includes), y[i] = x[i] + float(i) / float(n) for i < n: 2 FLOPs (the casts are
 *   conversions, 0): W = 2*n, Q = 8*n.  n = 37: 74, 296; n = 1000: 2000, 8000.
 * scale_shift2: `float2 ab(a, b);` then y[i] = float2(v.x*ab.x + ab.y, v.y*ab.x + ab.y): 4 FLOPs
 *   per i < n, float2 is 8 B read and 8 B written: W = 4*n, Q = 16*n.  n = 37: 148, 592;
 *   n = 1000: 4000, 16000.
 * sum_pairs_h2: `half2 acc(0.f, 0.f);` then two __hadd2 of x[2*i] and x[2*i + 1] (2 lanes each):
 *   W = 4*n (fp16); x read 2*n half2 (8*n B), y written n half2 (4*n B): Q = 12*n.
 *   n = 37: 148, 444; n = 1000: 4000, 12000.
 *
 * Alignment specifiers (nvcc's `__align__(n)` macro, C++11 `alignas(n)`) on structs, shared and
 * local arrays: they change no count.
 * drift: p[i].x += dt * p[i].w on 16-byte `__align__(16)` Particle structs, i < n: W = 2*n; x read
 *   and written, w read: Q = 12*n.  n = 37: 74, 444; n = 1000: 2000, 12000.
 * pair_product: y[i] = p[i].a * p[i].b on `alignas(8)` Pair structs: W = n, Q = 8*n + 4*n = 12*n.
 *   n = 37: 37, 444; n = 1000: 1000, 12000.
 * stage_scale: every thread of a block stores x[i] (or 0) in an `alignas(16)` shared tile; for
 *   i < n, r[0] = tile[tid] * s in an `alignas(16)` local array, stored to y[i]: W = n, Q = 8*n;
 *   shared: 256 stores per block and n loads of 4 B: Q_shared = 1024*ceiling(n/256) + 4*n.
 *   n = 37: W = 37, Q = 296, Q_shared = 1172; n = 1000: 1000, 8000, 8096.
 *
 * 24-bit integer multiplies (the CUDA samples' index arithmetic): 0 FLOPs, their value the product.
 * scale_umul24: i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x; y[i] = 2.0f * x[i] for i < n:
 *   W = n, Q = 8*n.  n = 37: 37, 296; n = 1000: 1000, 8000.
 * offset_mul24: i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x; y[i] = x[i] - x[__mul24(i, 0)]
 *   (that is x[0]) for i < n: W = n; x read n elements (x[0] among them), y written: Q = 8*n.
 *   n = 37: 37, 296; n = 1000: 1000, 8000.
 *
 * Alias declarations: `using Packed4f = Packed<float, 4>;` (a class template's), `using real_t =
 * float;`, and an alias template `template <typename T> using dev_ptr = T *;`.
 * packed_rowsum: a Packed4f loaded from x[4*i .. 4*i + 3], y[i] = its sum() (s = 0, then 4 adds)
 *   for i < n: W = 4*n; x read 4*n elements, y written: Q = 20*n.  n = 37: 148, 740;
 *   n = 1000: 4000, 20000.
 * scale_alias: y[i] = s * x[i] with dev_ptr<const real_t> x, dev_ptr<real_t> y, i < n: W = n,
 *   Q = 8*n.  n = 37: 37, 296; n = 1000: 1000, 8000.
 *
 * staticroof:expect packed_rowsum
 *   W    = 4*n
 *   Q    = 20*n
 *   fp32 = 4*n
 *
 * staticroof:expect scale_alias
 *   W    = n
 *   Q    = 8*n
 *   fp32 = n
 *
 * Brace initialization: a call's brace-initialized arguments built as its parameters' type, and
 * brace-initialized locals.
 * twiddle: out[i] = cmul({re[i], 0.0f}, {c, s}) for i < n, cmul a complex product (4 multiplies,
 *   a subtraction, an addition): W = 6*n; re read (4 B), out written (8 B): Q = 12*n.
 *   n = 37: 222, 444; n = 1000: 6000, 12000.
 * twiddle_local: the same with `float2 w{c, s};` and `float2 v = {re[i], 0.0f};` (the list's
 *   elements are read: re[i] counts): W = 6*n, Q = 12*n.
 *
 * staticroof:expect twiddle
 *   W    = 6*n
 *   Q    = 12*n
 *   fp32 = 6*n
 *
 * staticroof:expect twiddle_local
 *   W    = 6*n
 *   Q    = 12*n
 *   fp32 = 6*n
 *
 * staticroof:expect scale_umul24
 *   W    = n
 *   Q    = 8*n
 *   fp32 = n
 *
 * staticroof:expect offset_mul24
 *   W    = n
 *   Q    = 8*n
 *   fp32 = n
 *
 * staticroof:expect drift
 *   W    = 2*n
 *   Q    = 12*n
 *   fp32 = 2*n
 *
 * staticroof:expect pair_product
 *   W    = n
 *   Q    = 12*n
 *   fp32 = n
 *
 * staticroof:expect stage_scale
 *   W        = n
 *   Q        = 8*n
 *   Q_shared = 1024*ceiling(n/256) + 4*n
 *   fp32     = n
 *
 * staticroof:expect lerp_index
 *   W    = 2*n
 *   Q    = 8*n
 *   fp32 = 2*n
 *
 * staticroof:expect scale_shift2
 *   W    = 4*n
 *   Q    = 16*n
 *   fp32 = 4*n
 *
 * staticroof:expect sum_pairs_h2
 *   W    = 4*n
 *   Q    = 12*n
 *   fp16 = 4*n
 *
 * staticroof:expect reduce<double>
 *   W        = 255*ceiling(n/256)
 *   Q        = 8*n + 8*ceiling(n/256)
 *   Q_shared = 8176*ceiling(n/256)
 *   fp64     = 255*ceiling(n/256)
 *
 * staticroof:expect reduce<float>
 *   W        = 255*ceiling(n/256)
 *   Q        = 4*n + 4*ceiling(n/256)
 *   Q_shared = 4088*ceiling(n/256)
 *   fp32     = 255*ceiling(n/256)
 *
 * staticroof:expect daxpy
 *   W    = 2*n
 *   Q    = 24*n
 *   fp64 = 2*n
 */

#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// Utility class used to avoid linker errors with extern unsized shared arrays with templated type
template <class T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }

  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

// specialize for double to avoid unaligned memory access compile errors
template <>
struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }

  __device__ inline operator const double *() const {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
};

template <class T>
__global__ void reduce(const T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void lerp_index(const float *x, float *y, uint n) {
  uint i = uint(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + float(i) / float(n);
}

__global__ void scale_shift2(const float2 *x, float2 *y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 ab(a, b);
    float2 v = x[i];
    y[i] = float2(v.x * ab.x + ab.y, v.y * ab.x + ab.y);
  }
}

__global__ void sum_pairs_h2(const half2 *x, half2 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    half2 acc(0.f, 0.f);
    acc = __hadd2(acc, x[2 * i]);
    acc = __hadd2(acc, x[2 * i + 1]);
    y[i] = acc;
  }
}

template <typename T, int N>
struct alignas(sizeof(T) * N) Packed {
  T v[N];
  __device__ T sum() const {
    T s = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) s += v[k];
    return s;
  }
};

using Packed4f = Packed<float, 4>;
using real_t = float;
template <typename T>
using dev_ptr = T *;

__global__ void packed_rowsum(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Packed4f p;
    for (int k = 0; k < 4; ++k) p.v[k] = x[4 * i + k];
    y[i] = p.sum();
  }
}

__global__ void scale_alias(dev_ptr<const real_t> x, dev_ptr<real_t> y, real_t s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = s * x[i];
}

__device__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__global__ void twiddle(const float *re, float2 *out, float c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = cmul({re[i], 0.0f}, {c, s});
}

__global__ void twiddle_local(const float *re, float2 *out, float c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 w{c, s};
  if (i < n) {
    float2 v = {re[i], 0.0f};
    out[i] = cmul(v, w);
  }
}

__global__ void scale_umul24(const float *x, float *y, unsigned int n) {
  const unsigned int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

__global__ void offset_mul24(const float *x, float *y, int n) {
  int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i] - x[__mul24(i, 0)];
}

struct __align__(16) Particle {
  float x, y, z, w;
};

struct alignas(8) Pair {
  float a, b;
};

__global__ void drift(Particle *p, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x += dt * p[i].w;
  }
}

__global__ void pair_product(const Pair *p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = p[i].a * p[i].b;
}

__global__ void stage_scale(const float *x, float *y, float s, int n) {
  __shared__ alignas(16) float tile[256];
  alignas(16) float r[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = (i < n) ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) {
    r[0] = tile[threadIdx.x] * s;
    y[i] = r[0];
  }
}

int main() {
  const int n = 1 << 20;
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  double *d_in, *d_out, *d_y;
  float *f_in, *f_out;
  cudaMalloc(&d_in, n * sizeof(double));
  cudaMalloc(&d_out, blocks * sizeof(double));
  cudaMalloc(&d_y, n * sizeof(double));
  cudaMalloc(&f_in, n * sizeof(float));
  cudaMalloc(&f_out, blocks * sizeof(float));
  reduce<double><<<blocks, threads, threads * sizeof(double)>>>(d_in, d_out, n);
  reduce<float><<<blocks, threads, threads * sizeof(float)>>>(f_in, f_out, n);
  daxpy<<<blocks, threads>>>(n, 2.0, d_in, d_y);
  float2 *v_in, *v_out;
  half2 *h_in, *h_out;
  cudaMalloc(&v_in, n * sizeof(float2));
  cudaMalloc(&v_out, n * sizeof(float2));
  cudaMalloc(&h_in, 2 * n * sizeof(half2));
  cudaMalloc(&h_out, n * sizeof(half2));
  lerp_index<<<blocks, threads>>>(f_in, f_out, n);
  scale_shift2<<<blocks, threads>>>(v_in, v_out, 2.0f, 1.0f, n);
  sum_pairs_h2<<<blocks, threads>>>(h_in, h_out, n);
  Particle *parts;
  Pair *pairs;
  cudaMalloc(&parts, n * sizeof(Particle));
  cudaMalloc(&pairs, n * sizeof(Pair));
  packed_rowsum<<<blocks, threads>>>(f_in, f_out, n);
  scale_alias<<<blocks, threads>>>(f_in, f_out, 0.5f, n);
  twiddle<<<blocks, threads>>>(f_in, v_out, 0.6f, 0.8f, n);
  twiddle_local<<<blocks, threads>>>(f_in, v_out, 0.6f, 0.8f, n);
  scale_umul24<<<blocks, threads>>>(f_in, f_out, n);
  offset_mul24<<<blocks, threads>>>(f_in, f_out, n);
  drift<<<blocks, threads>>>(parts, 0.01f, n);
  pair_product<<<blocks, threads>>>(pairs, f_out, n);
  stage_scale<<<blocks, threads>>>(f_in, f_out, 0.5f, n);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
