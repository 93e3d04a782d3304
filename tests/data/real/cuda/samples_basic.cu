/* samples_basic.cu -- the classic CUDA-sample and HPC-course kernels: vector add and a*x + y with
 * the grid computed on the host in the usual ways ((n + b - 1) / b, n / b + (n % b ? 1 : 0),
 * ceil((float)n / b), std::min(maxBlocks, ...), a dim3 returned by a helper), reductions (CUDA by
 * Example's dot with imin(32, ...) blocks, a two-loads-per-thread tree instantiated per block size
 * in a switch, a warp-shuffle block reduction with one atomic per block), a weighted histogram,
 * Black-Scholes (the sample's polynomial CND in fp32, and an erfc-based fp64 one), two
 * block-level prefix scans (Hillis-Steele, Blelloch with bank-conflict padding), and two
 * stencils (a 2-D Jacobi step with a shared-memory tile and halo, a 3-D 7-point stencil that
 * marches in z with the z-neighbours in registers).
 * Every guard is covered by its launch unless said otherwise.  G denotes a kernel's block count.
 *
 * vectorAdd<<<(numElements + 255) / 256, 256>>>: C[i] = A[i] + B[i] for i < numElements:
 *   1 add per element.  W = numElements.  Q: A, B read, C written: 12*numElements.
 * saxpy<<<n / 256 + (n % 256 ? 1 : 0), 256>>>: y[i] = a*x[i] + y[i] for i < n: 2 per element.
 *   W = 2*n.  Q: x read, y read and written: 12*n.
 * saxpy_by_ref<<<DIV_UP(n, 256), 256>>>: the same update through a __device__ helper whose output
 *   `float& yi` is bound to y[i]: yi = a*xi + yi reads and writes y[i].  W = 2*n, Q = 12*n
 *   (Q_access = 12*n too: x loaded, y loaded and stored once per i).
 * daxpy_ceil<<<ceil((float)n / 128), 128>>>: y[tid] += a*x[tid] (fp64) for tid < n: W = 2*n,
 *   Q = 24*n.
 * saxpby_grid_stride<<<std::min(1024, (n + 255) / 256), 256>>>: the grid-stride loop visits every
 *   i < n once whatever the grid: z[i] = a*x[i] + b*y[i]: 3 per element.  W = 3*n, Q = 12*n.
 * sumMatrixOnGPU2D<<<make_grid_2d(nx, ny, dim3(32, 16)), dim3(32, 16)>>>(..., cols = nx, rows = ny):
 *   the helper returns dim3(ceil(nx/32), ceil(ny/16)); MatC[idx] = MatA[idx] + MatB[idx] for
 *   ix < cols, iy < rows: W = cols*rows, Q = 12*cols*rows.  At main's sizes (4096 x 4096):
 *   W = 16777216, Q = 201326592.
 *
 * dot<<<G, 256>>>, G = imin(32, (n + 255) / 256) = Min(32, ceiling(n/256)):
 *   `while (tid < n)` strides by the grid, so every i < n is visited once: temp += a*b, 2 each;
 *   the `while (i != 0)` tree halves i = 128, 64, ..., 1 with i adds each: 255 per block.
 *   W = 2*n + 255*Min(32, ceiling(n/256)).  Q: a and b read (8*n), one partial per block
 *   written: Q = 8*n + 4*Min(32, ceiling(n/256)).
 *
 * reduceTwoLoads<B> (B = 256, 128), launched from `switch (threads)` with dim3 dimBlock(threads),
 *   dimGrid(blocks), blocks = (n + 2*threads - 1) / (2*threads): G = ceiling(n/(2*B)).
 *   Block b covers [2*B*b, 2*B*(b + 1)): each thread loads its first element (no FLOP) and, when
 *   i + B < n, adds its second.  The second halves hold B*(G - 1) elements in the full blocks and
 *   max(n - 2*B*(G - 1) - B, 0) in the last one: Max(n - B*G, B*(G - 1)) adds.
 *   Tree in shared memory for s = B/2 .. 64 (s > 32): s adds each: B - 64; then the 32 threads of
 *   warp 0 add sdata[tid + 32] (32) and run 5 shuffle steps (160): B + 128 per block.
 *   W = Max(n - B*G, B*(G - 1)) + (B + 128)*G.  Q: g_idata read n, g_odata written G:
 *   Q = 4*n + 4*G.
 *   B = 256: G = ceiling(n/512); B = 128: G = ceiling(n/256).
 *   (n = 1000: <256> W = 488 + 768 = 1256, Q = 4008; <128> W = 1512, Q = 4016.)
 *
 * deviceReduceBlockAtomicKernel<<<G, 256>>>, G = std::min((n + 255) / 256, 64):
 *   grid-stride sum: n adds; blockReduceSum: warpReduceSum in all 256 threads (5 adds each: 1280),
 *   warp 0 reduces the 8 warp sums (160), thread 0's atomicAdd (1): 1441 per block.
 *   W = n + 1441*Min(64, ceiling(n/256)).  Q: in read n, out[0] read and written: Q = 4*n + 8.
 *
 * weighted_histogram<<<2 * multiProcessorCount, 256>>>: a `while (i < n) { ...; i += stride; }`
 *   grid-stride loop; per element (x[i] - lo)*inv_width (2) and atomicAdd(&hist[bin], w[i]) (1):
 *   W = 3*n (fp32).  The bin comes from the data: APPROXIMATE (the traffic would be x and w read,
 *   and the touched bins of hist read and written).
 *
 * BlackScholesGPU<<<480, 128>>> (the sample's grid-stride loop over opt < optN; each option goes
 *   through BlackScholesBodyGPU with CallResult, PutResult bound by reference to
 *   d_CallResult[opt], d_PutResult[opt]):
 *   sqrtT = __fdividef(1, rsqrtf(T)): 1 + rsqrtf;  d1: S/X, 0.5f*V, *V, R +, *T, __logf(..) +,
 *   V*sqrtT, __fdividef: 8 + __logf;  d2 = d1 - V*sqrtT: 2;  cndGPU (twice): K =
 *   __fdividef(1, 1 + 0.2316419f*fabsf(d)): 3, -0.5f*d*d: 2, RSQRT2PI*__expf(..)*(..): 2,
 *   the Horner polynomial: 9 -> 16 + __expf, plus `cnd = 1.0f - cnd` when d > 0 (data);
 *   expRT = __expf(-R*T): 1 + __expf;  Call: 4;  Put: 6.
 *   W = (59 + number of the 2*optN CND arguments that are positive) FLOPs, 59*optN .. 61*optN:
 *   data-dependent, APPROXIMATE.  special = 5*optN (3 __expf, __logf, rsqrtf per option).
 *   Q = 20*optN (3 inputs read, the 2 results written through the references; staticroof
 *   counts those two as reads, see saxpy_by_ref: the same total here, as each is touched once).
 * blackScholesDP<<<DIV_UP(optN, 128), 128>>> (fp64, normcdf as 0.5*erfc(-x*M_SQRT1_2)):
 *   sqrt (special); d1: 8 + log; d2: 2; exp(-r*t): 1 + exp; each CND: -x*M_SQRT1_2 and 0.5*: 2
 *   + erfc; call: 4; put: 6.  25 FLOPs and 5 special calls per option:
 *   W = 30*optN (fp64), special = 5*optN.  Q: S, X, T read, call, put written: 40*optN.
 *
 * scan_hillis_steele<<<DIV_UP(n, 256), 256>>>: G = ceiling(n/256) blocks of 256 threads, every
 *   thread takes part (elements past n are 0.0f).  Levels offset = 1, 2, ..., 128: 256 - offset
 *   adds each: 8*256 - 255 = 1793 per block.  W = 1793*ceiling(n/256).
 *   Q: g_idata read n, g_odata written n, one block sum per block: Q = 8*n + 4*ceiling(n/256).
 *   Shared: 256 stores; per level 2 loads + 1 store for thid >= offset, 1 load + 1 store
 *   otherwise: 768 - offset, 5889 over the levels; the final loads: n (i < n) + 1 per block:
 *   Q_shared = 4*(256 + 5889 + 1)*ceiling(n/256) + 4*n = 24584*ceiling(n/256) + 4*n.
 * prescan_blelloch<<<DIV_UP(n, 256), 128>>>: 256 elements per block of 128 threads.  Up-sweep
 *   d = 128, 64, ..., 1 threads one add each (255), down-sweep d = 1, ..., 128 one add each (255):
 *   W = 510*ceiling(n/256).  Q: 8*n + 4*ceiling(n/256) as above (the shared indices shifted by
 *   CONFLICT_FREE_OFFSET, `>> LOG_NUM_BANKS`, are floor divisions by 32).  Q_shared per block: the
 *   256 stores 1024 B; up-sweep 255 active thread-levels of 2 loads and a store (3060 B); the last
 *   element read and zeroed (8 B); down-sweep 255 of 3 loads and 2 stores (5100 B); the final loads
 *   of the n elements 4*n in all: Q_shared = 9192*ceiling(n/256) + 4*n.
 *
 * jacobi2d_shared<<<dim3(ceil(nx/16), ceil(ny/16)), dim3(16, 16)>>> (nx, ny >= 2): the interior
 *   (nx-2)*(ny-2) points, 3 adds and a multiply each: W = 4*(nx-2)*(ny-2).
 *   Q: every point of u is loaded by its own thread (the halo loads re-read points of the
 *   neighbouring tiles), unew written at the interior: Q = 4*nx*ny + 4*(nx-2)*(ny-2).
 *   Q_access: the own loads (nx*ny); the left halo by threadIdx.x == 0 with i > 0, the columns
 *   i = 16, 32, ... < nx: ceiling(nx/16) - 1 of them; the right halo by threadIdx.x == 15 with
 *   i < nx - 1, the columns i = 15, 31, ... <= nx - 2: ceiling(nx/16) - 1 too; each ny rows;
 *   the same for the rows (2*nx*(ceiling(ny/16) - 1)); the stores (nx-2)*(ny-2):
 *   Q_access = 4*(nx*ny + 2*ny*(ceiling(nx/16) - 1) + 2*nx*(ceiling(ny/16) - 1) + (nx-2)*(ny-2)).
 *   Shared: the same nx*ny + 2*ny*(ceiling(nx/16) - 1) + 2*nx*(ceiling(ny/16) - 1) stores, and
 *   4 loads per interior point: Q_shared = 4*(nx*ny + 2*ny*(ceiling(nx/16) - 1)
 *   + 2*nx*(ceiling(ny/16) - 1)) + 16*(nx-2)*(ny-2).
 *   (nx = 37, ny = 9: W = 980, Q = 2312, Q_access = 2456.)
 * stencil3d_zmarch<<<dim3(ceil(nx/32), ceil(ny/4)), dim3(32, 4)>>> (nz >= 2): one thread per
 *   interior column (i, j), k = 1 .. nz-2: c0*current + c1*(4 in-plane neighbours + behind +
 *   infront): 2 multiplies, 6 adds.  W = 8*(nx-2)*(ny-2)*(nz-2).
 *   Q: in is read over the interior columns at every k (current and infront walk k = 0 .. nz-1)
 *   and at the x- and y-face points next to the interior (k interior); out written at the
 *   interior: Q = 4*((nx-2)*(ny-2)*nz + 2*(ny-2)*(nz-2) + 2*(nx-2)*(nz-2) + (nx-2)*(ny-2)*(nz-2)).
 *   Q_access: 2 loads before the loop, then per k 1 (infront) + 4 loads and 1 store; behind and
 *   current are registers: Q_access = 4*(nx-2)*(ny-2)*(6*(nz-2) + 2).
 *   (nx = 37, ny = 9, nz = 5: W = 5880, Q = 8848, Q_access = 19600; main's 512 x 512 x 256:
 *   Q = 532676640.)
 *
 * staticroof:expect vectorAdd
 *   W    = numElements
 *   Q    = 12*numElements
 *   fp32 = numElements
 *
 * staticroof:expect saxpy
 *   W    = 2*n
 *   Q    = 12*n
 *   fp32 = 2*n
 *
 * staticroof:expect saxpy_by_ref
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   fp32     = 2*n
 *
 * staticroof:expect daxpy_ceil
 *   W    = 2*n
 *   Q    = 24*n
 *   fp64 = 2*n
 *
 * staticroof:expect saxpby_grid_stride
 *   W    = 3*n
 *   Q    = 12*n
 *   fp32 = 3*n
 *
 * staticroof:expect sumMatrixOnGPU2D
 *   W       = cols*rows
 *   Q       = 12*cols*rows
 *   fp32    = cols*rows
 *   W_value = 16777216
 *   Q_value = 201326592
 *
 * staticroof:expect dot
 *   W    = 2*n + 255*Min(32, ceiling(n/256))
 *   Q    = 8*n + 4*Min(32, ceiling(n/256))
 *   fp32 = 2*n + 255*Min(32, ceiling(n/256))
 *
 * staticroof:expect reduceTwoLoads<256>
 *   W    = Max(n - 256*ceiling(n/512), 256*ceiling(n/512) - 256) + 384*ceiling(n/512)
 *   Q    = 4*n + 4*ceiling(n/512)
 *   fp32 = Max(n - 256*ceiling(n/512), 256*ceiling(n/512) - 256) + 384*ceiling(n/512)
 *
 * staticroof:expect reduceTwoLoads<128>
 *   W    = Max(n - 128*ceiling(n/256), 128*ceiling(n/256) - 128) + 256*ceiling(n/256)
 *   Q    = 4*n + 4*ceiling(n/256)
 *   fp32 = Max(n - 128*ceiling(n/256), 128*ceiling(n/256) - 128) + 256*ceiling(n/256)
 *
 * staticroof:expect deviceReduceBlockAtomicKernel
 *   W    = n + 1441*Min(64, ceiling(n/256))
 *   Q    = 4*n + 8
 *   fp32 = n + 1441*Min(64, ceiling(n/256))
 *
 * staticroof:expect weighted_histogram
 *   W     = 3*n
 *   fp32  = 3*n
 *   exact = false
 *
 * staticroof:expect BlackScholesGPU
 *   special = 5*optN
 *   exact   = false
 *
 * staticroof:expect blackScholesDP
 *   W       = 30*optN
 *   Q       = 40*optN
 *   fp64    = 30*optN
 *   special = 5*optN
 *
 * staticroof:expect scan_hillis_steele
 *   W        = 1793*ceiling(n/256)
 *   Q        = 8*n + 4*ceiling(n/256)
 *   Q_access = 8*n + 4*ceiling(n/256)
 *   Q_shared = 24584*ceiling(n/256) + 4*n
 *   fp32     = 1793*ceiling(n/256)
 *
 * staticroof:expect prescan_blelloch
 *   W        = 510*ceiling(n/256)
 *   Q        = 8*n + 4*ceiling(n/256)
 *   Q_shared = 9192*ceiling(n/256) + 4*n
 *   fp32     = 510*ceiling(n/256)
 *
 * staticroof:expect jacobi2d_shared
 *   W        = 4*(nx - 2)*(ny - 2)
 *   Q        = 4*nx*ny + 4*(nx - 2)*(ny - 2)
 *   Q_access = 4*(nx*ny + 2*ny*(ceiling(nx/16) - 1) + 2*nx*(ceiling(ny/16) - 1) + (nx - 2)*(ny - 2))
 *   Q_shared = 4*(nx*ny + 2*ny*(ceiling(nx/16) - 1) + 2*nx*(ceiling(ny/16) - 1)) + 16*(nx - 2)*(ny - 2)
 *   fp32     = 4*(nx - 2)*(ny - 2)
 *
 * staticroof:expect stencil3d_zmarch
 *   W        = 8*(nx - 2)*(ny - 2)*(nz - 2)
 *   Q        = 4*((nx - 2)*(ny - 2)*nz + 2*(ny - 2)*(nz - 2) + 2*(nx - 2)*(nz - 2) + (nx - 2)*(ny - 2)*(nz - 2))
 *   Q_access = 4*(nx - 2)*(ny - 2)*(6*(nz - 2) + 2)
 *   fp32     = 8*(nx - 2)*(ny - 2)*(nz - 2)
 *   Q_value  = 532676640
 */

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check_cuda((val), #val, __FILE__, __LINE__)

static void check_cuda(cudaError_t result, const char* func, const char* file, int line)
{
    if (result != cudaSuccess) {
        fprintf(stderr, "CUDA error at %s:%d code=%d (%s) \"%s\"\n", file, line, (int)result,
                cudaGetErrorString(result), func);
        exit(EXIT_FAILURE);
    }
}

#define BLOCK 256
#define DOT_THREADS 256
#define DOT_MAX_BLOCKS 32
#define RED_THREADS 256
#define RED_MAX_BLOCKS 64
#define SCAN_BLOCK 256
#define PRESCAN_THREADS 128
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
#define HIST_BINS 64
#define BDIM 16
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

#define imin(a, b) ((a) < (b) ? (a) : (b))

// ---------------------------------------------------------------------------------------------
// Element-wise kernels
// ---------------------------------------------------------------------------------------------

__global__ void vectorAdd(const float* A, const float* B, float* C, int numElements)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;

    if (i < numElements) {
        C[i] = A[i] + B[i];
    }
}

__global__ void saxpy(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// A per-element update shared by several kernels, its output element passed by reference.
__device__ __forceinline__ void axpy_update(float& yi, float a, float xi)
{
    yi = a * xi + yi;
}

__global__ void saxpy_by_ref(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        axpy_update(y[i], a, x[i]);
}

__global__ void daxpy_ceil(int n, double a, const double* __restrict__ x, double* __restrict__ y)
{
    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        y[tid] += a * x[tid];
}

__global__ void saxpby_grid_stride(int n, float a, const float* __restrict__ x, float b,
                                   const float* __restrict__ y, float* __restrict__ z)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        z[i] = a * x[i] + b * y[i];
    }
}

__global__ void sumMatrixOnGPU2D(const float* MatA, const float* MatB, float* MatC, int cols, int rows)
{
    unsigned int ix = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned int iy = threadIdx.y + blockIdx.y * blockDim.y;
    unsigned int idx = iy * cols + ix;

    if (ix < cols && iy < rows)
        MatC[idx] = MatA[idx] + MatB[idx];
}

// ---------------------------------------------------------------------------------------------
// Reductions
// ---------------------------------------------------------------------------------------------

__global__ void dot(const float* a, const float* b, float* c, int n)
{
    __shared__ float cache[DOT_THREADS];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;

    float temp = 0;
    while (tid < n) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }

    // set the cache values
    cache[cacheIndex] = temp;

    // synchronize threads in this block
    __syncthreads();

    // for reductions, threadsPerBlock must be a power of 2
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }

    if (cacheIndex == 0)
        c[blockIdx.x] = cache[0];
}

// Each thread adds two elements while loading, then a shared-memory tree down to one warp and
// a shuffle tree within the last warp.  blockSize is a template parameter so the tree unrolls.
template <unsigned int blockSize>
__global__ void reduceTwoLoads(const float* g_idata, float* g_odata, unsigned int n)
{
    __shared__ float sdata[blockSize];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;

    float mySum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockSize < n)
        mySum += g_idata[i + blockSize];

    sdata[tid] = mySum;
    __syncthreads();

#pragma unroll
    for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }

    if (tid < 32) {
        if (blockSize >= 64)
            mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }

    if (tid == 0)
        g_odata[blockIdx.x] = mySum;
}

__inline__ __device__ float warpReduceSum(float val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__inline__ __device__ float blockReduceSum(float val)
{
    static __shared__ float shared[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;

    val = warpReduceSum(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();

    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
    if (wid == 0)
        val = warpReduceSum(val);
    return val;
}

__global__ void deviceReduceBlockAtomicKernel(const float* in, float* out, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0)
        atomicAdd(out, sum);
}

// ---------------------------------------------------------------------------------------------
// Histogram (data-dependent bins)
// ---------------------------------------------------------------------------------------------

__global__ void weighted_histogram(const float* __restrict__ x, const float* __restrict__ w,
                                   float* __restrict__ hist, float lo, float inv_width, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int stride = blockDim.x * gridDim.x;
    while (i < n) {
        int bin = (int)((x[i] - lo) * inv_width);
        bin = min(max(bin, 0), HIST_BINS - 1);
        atomicAdd(&hist[bin], w[i]);
        i += stride;
    }
}

// ---------------------------------------------------------------------------------------------
// Black-Scholes
// ---------------------------------------------------------------------------------------------

__device__ inline float cndGPU(float d)
{
    const float A1 = 0.31938153f;
    const float A2 = -0.356563782f;
    const float A3 = 1.781477937f;
    const float A4 = -1.821255978f;
    const float A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;

    float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
    float cnd = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));

    if (d > 0)
        cnd = 1.0f - cnd;

    return cnd;
}

__device__ inline void BlackScholesBodyGPU(float& CallResult, float& PutResult, float S, float X, float T,
                                           float R, float V)
{
    float sqrtT, expRT;
    float d1, d2, CNDD1, CNDD2;

    sqrtT = __fdividef(1.0F, rsqrtf(T));
    d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    d2 = d1 - V * sqrtT;

    CNDD1 = cndGPU(d1);
    CNDD2 = cndGPU(d2);

    expRT = __expf(-R * T);
    CallResult = S * CNDD1 - X * expRT * CNDD2;
    PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

__global__ void BlackScholesGPU(float* d_CallResult, float* d_PutResult, const float* d_StockPrice,
                                const float* d_OptionStrike, const float* d_OptionYears, float Riskfree,
                                float Volatility, int optN)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    const int THREAD_N = blockDim.x * gridDim.x;

    for (int opt = tid; opt < optN; opt += THREAD_N)
        BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt], d_OptionStrike[opt],
                            d_OptionYears[opt], Riskfree, Volatility);
}

__device__ __forceinline__ double normcdf_erfc(double x)
{
    return 0.5 * erfc(-x * M_SQRT1_2);
}

__global__ void blackScholesDP(double* __restrict__ call, double* __restrict__ put, const double* __restrict__ S,
                               const double* __restrict__ X, const double* __restrict__ T, double r, double v,
                               int optN)
{
    const int opt = blockIdx.x * blockDim.x + threadIdx.x;
    if (opt >= optN)
        return;

    const double s = S[opt];
    const double x = X[opt];
    const double t = T[opt];
    const double sqrtT = sqrt(t);
    const double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT);
    const double d2 = d1 - v * sqrtT;
    const double expRT = exp(-r * t);
    const double cndd1 = normcdf_erfc(d1);
    const double cndd2 = normcdf_erfc(d2);

    call[opt] = s * cndd1 - x * expRT * cndd2;
    put[opt] = x * expRT * (1.0 - cndd2) - s * (1.0 - cndd1);
}

// ---------------------------------------------------------------------------------------------
// Block-level prefix scans
// ---------------------------------------------------------------------------------------------

// Hillis-Steele inclusive scan of each SCAN_BLOCK-element segment, double-buffered in shared memory.
__global__ void scan_hillis_steele(float* g_odata, const float* g_idata, float* g_blockSums, int n)
{
    __shared__ float temp[2 * SCAN_BLOCK];
    const int thid = threadIdx.x;
    const int i = blockIdx.x * SCAN_BLOCK + thid;
    int pout = 0, pin = 1;

    temp[pout * SCAN_BLOCK + thid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (int offset = 1; offset < SCAN_BLOCK; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (thid >= offset)
            temp[pout * SCAN_BLOCK + thid] = temp[pin * SCAN_BLOCK + thid] + temp[pin * SCAN_BLOCK + thid - offset];
        else
            temp[pout * SCAN_BLOCK + thid] = temp[pin * SCAN_BLOCK + thid];
        __syncthreads();
    }

    if (i < n)
        g_odata[i] = temp[pout * SCAN_BLOCK + thid];
    if (thid == SCAN_BLOCK - 1)
        g_blockSums[blockIdx.x] = temp[pout * SCAN_BLOCK + thid];
}

// Blelloch work-efficient exclusive scan of 2 * PRESCAN_THREADS elements per block, with the
// bank-conflict-avoiding padding of the shared array.
__global__ void prescan_blelloch(float* g_odata, const float* g_idata, float* g_blockSums, int n)
{
    __shared__ float temp[2 * PRESCAN_THREADS + CONFLICT_FREE_OFFSET(2 * PRESCAN_THREADS)];
    const int thid = threadIdx.x;
    const int base = blockIdx.x * (2 * PRESCAN_THREADS);

    const int ai = thid;
    const int bi = thid + PRESCAN_THREADS;
    const int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    const int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = (base + ai < n) ? g_idata[base + ai] : 0.0f;
    temp[bi + bankOffsetB] = (base + bi < n) ? g_idata[base + bi] : 0.0f;

    int offset = 1;
    for (int d = PRESCAN_THREADS; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }

    if (thid == 0) {
        const int last = 2 * PRESCAN_THREADS - 1 + CONFLICT_FREE_OFFSET(2 * PRESCAN_THREADS - 1);
        g_blockSums[blockIdx.x] = temp[last];
        temp[last] = 0.0f;
    }

    for (int d = 1; d < 2 * PRESCAN_THREADS; d *= 2) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();

    if (base + ai < n)
        g_odata[base + ai] = temp[ai + bankOffsetA];
    if (base + bi < n)
        g_odata[base + bi] = temp[bi + bankOffsetB];
}

// ---------------------------------------------------------------------------------------------
// Stencils
// ---------------------------------------------------------------------------------------------

// Jacobi step of the 2-D Laplace equation with a shared-memory tile and a one-point halo.
__global__ void jacobi2d_shared(const float* __restrict__ u, float* __restrict__ unew, int nx, int ny)
{
    __shared__ float s[BDIM + 2][BDIM + 2];

    const int i = blockIdx.x * BDIM + threadIdx.x;
    const int j = blockIdx.y * BDIM + threadIdx.y;
    const int tx = threadIdx.x + 1;
    const int ty = threadIdx.y + 1;

    if (i < nx && j < ny) {
        s[ty][tx] = u[j * nx + i];
        if (threadIdx.x == 0 && i > 0)
            s[ty][0] = u[j * nx + i - 1];
        if (threadIdx.x == BDIM - 1 && i < nx - 1)
            s[ty][BDIM + 1] = u[j * nx + i + 1];
        if (threadIdx.y == 0 && j > 0)
            s[0][tx] = u[(j - 1) * nx + i];
        if (threadIdx.y == BDIM - 1 && j < ny - 1)
            s[BDIM + 1][tx] = u[(j + 1) * nx + i];
    }
    __syncthreads();

    if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1)
        unew[j * nx + i] = 0.25f * (s[ty][tx - 1] + s[ty][tx + 1] + s[ty - 1][tx] + s[ty + 1][tx]);
}

// 3-D 7-point stencil marching in z: the z-neighbours stay in registers (behind, current, infront).
__global__ void stencil3d_zmarch(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                                 float c0, float c1)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || i >= nx - 1 || j < 1 || j >= ny - 1)
        return;

    const int stride = nx * ny;
    float behind;
    float current = in[j * nx + i];
    float infront = in[stride + j * nx + i];

    for (int k = 1; k < nz - 1; ++k) {
        behind = current;
        current = infront;
        infront = in[(k + 1) * stride + j * nx + i];
        const int c = k * stride + j * nx + i;
        out[c] = c0 * current + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + behind + infront);
    }
}

// ---------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------

static dim3 make_grid_2d(int nx, int ny, const dim3& block)
{
    return dim3((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
}

static void reduce_sum(int size, int threads, int blocks, float* d_idata, float* d_odata)
{
    dim3 dimBlock(threads, 1, 1);
    dim3 dimGrid(blocks, 1, 1);

    switch (threads) {
    case 256:
        reduceTwoLoads<256><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
    case 128:
        reduceTwoLoads<128><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
    default:
        fprintf(stderr, "unsupported block size %d\n", threads);
        exit(EXIT_FAILURE);
    }
}

int main(int argc, char** argv)
{
    const int n = 1 << 22;
    const int numElements = 50000;
    const int nx = 1 << 12, ny = 1 << 12;
    const int optN = 4000000;
    const float RISKFREE = 0.02f, VOLATILITY = 0.30f;

    float *d_A, *d_B, *d_C, *d_partial, *d_out, *d_hist;
    double *d_x, *d_y;
    checkCudaErrors(cudaMalloc(&d_A, (size_t)nx * ny * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_B, (size_t)nx * ny * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_C, (size_t)nx * ny * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_partial, DIV_UP(n, DOT_THREADS) * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_out, sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_hist, HIST_BINS * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_x, n * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_y, n * sizeof(double)));

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start));

    // vectorAdd: the CUDA sample's blocksPerGrid
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    printf("CUDA kernel launch with %d blocks of %d threads\n", blocksPerGrid, threadsPerBlock);
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    checkCudaErrors(cudaGetLastError());

    // saxpy: a quotient plus one when there is a remainder
    int nblocks = n / BLOCK + (n % BLOCK ? 1 : 0);
    saxpy<<<nblocks, BLOCK>>>(n, 2.0f, d_A, d_B);

    saxpy_by_ref<<<DIV_UP(n, BLOCK), BLOCK>>>(n, 2.0f, d_A, d_B);

    // daxpy: a float ceiling
    const int threads = 128;
    dim3 grid_ceil(ceil((float)n / threads));
    daxpy_ceil<<<grid_ceil, threads>>>(n, 0.5, d_x, d_y);

    // saxpby: capped grid, the grid-stride loop covers the rest
    const int maxBlocks = 1024;
    int numBlocks = std::min(maxBlocks, (n + BLOCK - 1) / BLOCK);
    saxpby_grid_stride<<<numBlocks, BLOCK>>>(n, 2.0f, d_A, 3.0f, d_B, d_C);

    // matrix sum: the grid built by a helper
    dim3 block2d(32, 16);
    dim3 grid2d = make_grid_2d(nx, ny, block2d);
    sumMatrixOnGPU2D<<<grid2d, block2d>>>(d_A, d_B, d_C, nx, ny);

    // dot: CUDA by Example's imin(32, ...) blocks
    const int blocksPerGridDot = imin(DOT_MAX_BLOCKS, (n + DOT_THREADS - 1) / DOT_THREADS);
    dot<<<blocksPerGridDot, DOT_THREADS>>>(d_A, d_B, d_partial, n);

    // two-load reduction: block size from the command line, one template instance per case
    int redThreads = (argc > 1) ? atoi(argv[1]) : 256;
    int redBlocks = (n + (redThreads * 2 - 1)) / (redThreads * 2);
    reduce_sum(n, redThreads, redBlocks, d_A, d_partial);

    // shuffle reduction with one atomic per block
    int blocksAtomic = std::min((n + RED_THREADS - 1) / RED_THREADS, RED_MAX_BLOCKS);
    checkCudaErrors(cudaMemset(d_out, 0, sizeof(float)));
    deviceReduceBlockAtomicKernel<<<blocksAtomic, RED_THREADS>>>(d_A, d_out, n);

    // histogram: two blocks per multiprocessor
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, 0));
    checkCudaErrors(cudaMemset(d_hist, 0, HIST_BINS * sizeof(float)));
    weighted_histogram<<<prop.multiProcessorCount * 2, 256>>>(d_A, d_B, d_hist, 0.0f, 64.0f, n);

    // Black-Scholes, single precision (the sample's fixed grid) and double precision
    BlackScholesGPU<<<480, 128>>>(d_A, d_B, d_C, d_A, d_B, RISKFREE, VOLATILITY, optN);
    double *d_call, *d_put, *d_S, *d_X, *d_T;
    checkCudaErrors(cudaMalloc(&d_call, optN * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_put, optN * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_S, optN * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_X, optN * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_T, optN * sizeof(double)));
    blackScholesDP<<<DIV_UP(optN, 128), 128>>>(d_call, d_put, d_S, d_X, d_T, 0.02, 0.30, optN);

    // scans of each block's segment
    scan_hillis_steele<<<DIV_UP(n, SCAN_BLOCK), SCAN_BLOCK>>>(d_C, d_A, d_partial, n);
    prescan_blelloch<<<DIV_UP(n, 2 * PRESCAN_THREADS), PRESCAN_THREADS>>>(d_C, d_A, d_partial, n);

    // stencils on a 512 x 512 (x 256) grid
    {
        const int nx = 512, ny = 512, nz = 256;
        float *d_u, *d_v;
        checkCudaErrors(cudaMalloc(&d_u, (size_t)nx * ny * nz * sizeof(float)));
        checkCudaErrors(cudaMalloc(&d_v, (size_t)nx * ny * nz * sizeof(float)));
        dim3 sblock(BDIM, BDIM);
        dim3 sgrid((nx + BDIM - 1) / BDIM, (ny + BDIM - 1) / BDIM);
        const int iters = 100;
        for (int it = 0; it < iters; ++it) {
            jacobi2d_shared<<<sgrid, sblock>>>(d_u, d_v, nx, ny);
            jacobi2d_shared<<<sgrid, sblock>>>(d_v, d_u, nx, ny);
        }
        dim3 zblock(32, 4);
        dim3 zgrid((nx + zblock.x - 1) / zblock.x, (ny + zblock.y - 1) / zblock.y);
        stencil3d_zmarch<<<zgrid, zblock>>>(d_u, d_v, nx, ny, nz, -6.0f, 1.0f);
        checkCudaErrors(cudaFree(d_u));
        checkCudaErrors(cudaFree(d_v));
    }

    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    printf("Time: %.3f ms\n", ms);

    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    cudaFree(d_partial);
    cudaFree(d_out);
    cudaFree(d_hist);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_call);
    cudaFree(d_put);
    cudaFree(d_S);
    cudaFree(d_X);
    cudaFree(d_T);
    return 0;
}
