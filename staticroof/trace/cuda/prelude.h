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
typedef unsigned long long cudaTextureObject_t;  /* the trace's region holding the texture's memory */
#define __SR_DYN_SHARED_BYTES 262144             /* extern __shared__: more than any GPU's per block */
/* the scalar typedefs of staticroof's stub headers (identical redefinitions are allowed) */
typedef unsigned long size_t;
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef unsigned short ushort; typedef unsigned int uint; typedef unsigned long ulong;
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
static inline __half2 make_half2(__half a, __half b) { __half2 v = {a, b}; return v; }
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
/* device code calls the math library without including it: every prototype, so that each call
 * has its real type (an implicit `int` would hide its precision) */
#define __SR_MATH1(f) double f(double); float f##f(float);
#define __SR_MATH2(f) double f(double, double); float f##f(float, float);
__SR_MATH1(sqrt) __SR_MATH1(cbrt) __SR_MATH1(exp) __SR_MATH1(exp2) __SR_MATH1(exp10) __SR_MATH1(expm1)
__SR_MATH1(log) __SR_MATH1(log2) __SR_MATH1(log10) __SR_MATH1(log1p) __SR_MATH1(sin) __SR_MATH1(cos)
__SR_MATH1(tan) __SR_MATH1(asin) __SR_MATH1(acos) __SR_MATH1(atan) __SR_MATH1(sinh) __SR_MATH1(cosh)
__SR_MATH1(tanh) __SR_MATH1(asinh) __SR_MATH1(acosh) __SR_MATH1(atanh) __SR_MATH1(erf) __SR_MATH1(erfc)
__SR_MATH1(tgamma) __SR_MATH1(lgamma) __SR_MATH1(fabs) __SR_MATH1(floor) __SR_MATH1(ceil)
__SR_MATH1(round) __SR_MATH1(trunc) __SR_MATH1(rint) __SR_MATH1(nearbyint) __SR_MATH1(logb)
__SR_MATH2(pow) __SR_MATH2(atan2) __SR_MATH2(hypot) __SR_MATH2(fmod) __SR_MATH2(remainder)
__SR_MATH2(fmin) __SR_MATH2(fmax) __SR_MATH2(copysign) __SR_MATH2(fdim) __SR_MATH2(nextafter)
float fmaf(float, float, float); double fma(double, double, double);
double ldexp(double, int); float ldexpf(float, int);
void sincos(double, double *, double *); void sincosf(float, float *, float *);
static inline void __sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinf(3.14159265f * x); *c = cosf(3.14159265f * x); }
static inline void sincospi(double x, double *s, double *c) { *s = sin(3.141592653589793 * x); *c = cos(3.141592653589793 * x); }
/* the clock: a counter that only moves forward (timing code runs; its values mean nothing) */
static long long __sr_clock;
static inline long long __sr_clock64(void) { return __sr_clock += 1000; }
static inline long __sr_clock32(void) { return (long)(__sr_clock += 1000); }
#define clock64 __sr_clock64
#define clock __sr_clock32
#define __globaltimer __sr_clock64
/* integer intrinsics */
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x) { unsigned r = 0; for (int k = 0; k < 32; k++) r |= ((x >> k) & 1u) << (31 - k); return r; }
static inline int __mul24(int a, int b) { return a * b; }
static inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline int __float_as_int(float x) { union { float f; int i; } u = {x}; return u.i; }
static inline float __int_as_float(int x) { union { int i; float f; } u = {x}; return u.f; }
static inline unsigned __float_as_uint(float x) { union { float f; unsigned i; } u = {x}; return u.i; }
static inline float __uint_as_float(unsigned x) { union { unsigned i; float f; } u = {x}; return u.f; }
static inline long long __double_as_longlong(double x) { union { double d; long long i; } u = {x}; return u.i; }
static inline double __longlong_as_double(long long x) { union { long long i; double d; } u = {x}; return u.d; }
/* <climits> and <cfloat>, which device code often uses without including them */
#ifndef CHAR_BIT
#define CHAR_BIT 8
#endif
#ifndef INT_MAX
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define FLT_EPSILON 1.19209290e-07F
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#endif
#ifndef INFINITY
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#endif
#ifndef CUDART_INF_F
#define CUDART_INF_F (__builtin_inff())
#define CUDART_INF (__builtin_inf())
#define CUDART_NAN_F (__builtin_nanf(""))
#define CUDART_PI_F 3.141592654f
#endif
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
/* a kernel launched from a kernel (the front end's `__sr_device_launch(child, g, b, args...)`): its
 * g x b threads run there, one after another, then the launching thread's indices are restored */
#define __sr_device_launch(k, g, b, ...) do { \
    __sr_uint3 __sr_dl_t = threadIdx, __sr_dl_b = blockIdx, __sr_dl_bd = blockDim, __sr_dl_gd = gridDim; \
    gridDim.x = (g); gridDim.y = gridDim.z = 1; blockDim.x = (b); blockDim.y = blockDim.z = 1; \
    for (unsigned __sr_dl_i = 0; __sr_dl_i < gridDim.x; __sr_dl_i++) \
        for (unsigned __sr_dl_j = 0; __sr_dl_j < blockDim.x; __sr_dl_j++) { \
            blockIdx.x = __sr_dl_i; blockIdx.y = blockIdx.z = 0; \
            threadIdx.x = __sr_dl_j; threadIdx.y = threadIdx.z = 0; \
            k(__VA_ARGS__); \
        } \
    threadIdx = __sr_dl_t; blockIdx = __sr_dl_b; blockDim = __sr_dl_bd; gridDim = __sr_dl_gd; \
} while (0)
#define __syncwarp(...) ((void)0)
#define __threadfence() ((void)0)
#define __threadfence_block() ((void)0)
#define __activemask() (0xffffffffu)
#define __ballot_sync(m, p) ((unsigned)(p))
#define __any_sync(m, p) (p)
#define __all_sync(m, p) (p)
/* What the front end's C++ rewrites leave (frontends/coop.py, cxx.py): a cooperative-groups
 * reduction charges its N - 1 operations to lane 0 of each tile, as the analysis does; cuRAND draws
 * return fixed values (the state is not modeled; the counts are the special calls). */
#define __sr_cg_reduce(v, lane, n, flops) \
    ((lane) == 0 && (flops) > 0 ? (__sr_flop(__SR_PREC(v), (long)((n) - 1) * (flops)), (v)) : (v))
#define __sr_cg_opaque(what) 0
#define __sr_auto __auto_type /* `auto x = e;` */
typedef int __sr_opaque; /* a type no header defines (frontends/opaque.py) */
#define __sr_grid_sync() ((void)0)
#define curand_init(seed, seq, off, state) ((void)(seed), (void)(seq), (void)(off), (void)(state))
#define curand(state) (12345u)
#define curand_poisson(state, lambda) (1u)
#define curand_uniform(state) (0.5f)
#define curand_normal(state) (0.25f)
#define curand_log_normal(state, m, s) (1.5f)
#define curand_uniform_double(state) (0.5)
#define curand_normal_double(state) (0.25)
#define curand_log_normal_double(state, m, s) (1.5)
#define __float_as_int(x) (*(int *)&(float){(x)})
#define __int_as_float(x) (*(float *)&(int){(x)})
#define __float_as_uint(x) (*(unsigned *)&(float){(x)})
#define __uint_as_float(x) (*(float *)&(unsigned){(x)})
/* a range-for over an array that is not a local one (frontends/cuda/statements.range_for) */
#define __sr_extent(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* inline PTX cannot run on the CPU: a kernel that reaches an asm statement stops with a message */
long write(int, const void *, unsigned long);
void _exit(int);
#define __SR_ASM_MSG "staticroof-trace-error: inline PTX (`asm`) cannot run on the CPU: this kernel cannot be traced\n"
#define __sr_asm(...) (write(2, __SR_ASM_MSG, sizeof(__SR_ASM_MSG) - 1), _exit(3), 0)
#define __sr_asm_out() 0
#endif
