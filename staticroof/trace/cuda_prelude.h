/* staticroof trace: CUDA run serially on the CPU.  Every block and thread of the launch runs the
 * kernel one after another; __syncthreads() does nothing.  The counts are those of the real launch
 * for kernels whose control flow and addresses do not depend on other threads' values (the kernels
 * staticroof analyzes exactly); the values computed are not. */
#ifndef STATICROOF_CUDA_PRELUDE_H
#define STATICROOF_CUDA_PRELUDE_H
typedef struct { unsigned x, y, z; } __sr_uint3;
extern __sr_uint3 threadIdx, blockIdx, blockDim, gridDim;
#define warpSize 32
typedef _Float16 __half;
typedef _Float16 half;
typedef struct { _Float16 x, y; } __half2;
typedef __half2 half2;
typedef struct { float x, y; } float2;
typedef struct { float x, y, z; } float3;
typedef struct { float x, y, z, w; } float4;
typedef struct { double x, y; } double2;
typedef struct { double x, y, z, w; } double4;
typedef struct { int x, y; } int2;
typedef struct { int x, y, z, w; } int4;
typedef __sr_uint3 uint3;
typedef __sr_uint3 dim3;
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
static inline __half2 __floats2half2_rn(float a, float b) { __half2 v = {(_Float16)a, (_Float16)b}; return v; }
static inline __half2 __half2half2(__half a) { __half2 v = {a, a}; return v; }
static inline __half __float2half(float x) { return (__half)x; }
static inline __half __float2half_rn(float x) { return (__half)x; }
static inline float __half2float(__half x) { return (float)x; }
static inline float __low2float(__half2 v) { return (float)v.x; }
static inline float __high2float(__half2 v) { return (float)v.y; }
static inline float __int2float_rn(int x) { return (float)x; }
static inline int __float2int_rn(float x) { return (int)x; }
static inline float __saturatef(float x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }
#endif

/* intrinsics: their costs are counted by the instrumentation from grammars/cuda.toml; here only
 * their values */
#ifndef STATICROOF_CUDA_INTRINSICS
#define STATICROOF_CUDA_INTRINSICS
float fmaf(float, float, float); double fma(double, double, double);
float expf(float); float logf(float); float log2f(float); float sinf(float); float cosf(float);
float tanf(float); float powf(float, float); float sqrtf(float); double sqrt(double); float tanhf(float);
#define __fmaf_rn(a, b, c) fmaf(a, b, c)
#define __fmaf_rz(a, b, c) fmaf(a, b, c)
#define __fmaf_ru(a, b, c) fmaf(a, b, c)
#define __fmaf_rd(a, b, c) fmaf(a, b, c)
#define __fma_rn(a, b, c) fma(a, b, c)
#define __fmul_rn(a, b) ((a) * (b))
#define __fadd_rn(a, b) ((a) + (b))
#define __fsub_rn(a, b) ((a) - (b))
#define __fdiv_rn(a, b) ((a) / (b))
#define __fdividef(a, b) ((a) / (b))
#define __frcp_rn(a) (1.0f / (a))
#define __dmul_rn(a, b) ((a) * (b))
#define __dadd_rn(a, b) ((a) + (b))
#define __hadd(a, b) ((__half)((a) + (b)))
#define __hsub(a, b) ((__half)((a) - (b)))
#define __hmul(a, b) ((__half)((a) * (b)))
#define __hdiv(a, b) ((__half)((a) / (b)))
#define __hfma(a, b, c) ((__half)((a) * (b) + (c)))
#define __hneg(a) ((__half)(-(a)))
#define __habs(a) ((__half)((a) < 0 ? -(a) : (a)))
#define __hmax(a, b) ((a) > (b) ? (a) : (b))
#define __hmin(a, b) ((a) < (b) ? (a) : (b))
static inline __half2 __hadd2(__half2 a, __half2 b) { __half2 v = {a.x + b.x, a.y + b.y}; return v; }
static inline __half2 __hsub2(__half2 a, __half2 b) { __half2 v = {a.x - b.x, a.y - b.y}; return v; }
static inline __half2 __hmul2(__half2 a, __half2 b) { __half2 v = {a.x * b.x, a.y * b.y}; return v; }
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { __half2 v = {a.x * b.x + c.x, a.y * b.y + c.y}; return v; }
#define hexp(a) ((__half)expf((float)(a)))
#define hsqrt(a) ((__half)sqrtf((float)(a)))
#define hrsqrt(a) ((__half)(1.0f / sqrtf((float)(a))))
#define __expf(a) expf(a)
#define __logf(a) logf(a)
#define __log2f(a) log2f(a)
#define __sinf(a) sinf(a)
#define __cosf(a) cosf(a)
#define __tanf(a) tanf(a)
#define __powf(a, b) powf(a, b)
#define __exp10f(a) powf(10.0f, a)
#define __fsqrt_rn(a) sqrtf(a)
#define rsqrtf(a) (1.0f / sqrtf(a))
#define rsqrt(a) (1.0 / sqrt(a))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define __shfl_sync(m, v, ...) (v)
#define __shfl_down_sync(m, v, ...) (v)
#define __shfl_up_sync(m, v, ...) (v)
#define __shfl_xor_sync(m, v, ...) (v)
#define __shfl_down(v, ...) (v)
#define __shfl_xor(v, ...) (v)
#define __syncthreads() ((void)0)
#define __syncwarp(...) ((void)0)
#define __threadfence() ((void)0)
#define __threadfence_block() ((void)0)
#define __activemask() (0xffffffffu)
#define __ballot_sync(m, p) ((unsigned)(p))
#define __any_sync(m, p) (p)
#define __all_sync(m, p) (p)
#endif
