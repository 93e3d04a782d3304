/* l2norm.cu -- normalise a float vector by its Euclidean norm,
 * y = x / ||x||_2, written two ways:
 *
 *   separate: three kernels, each its own launch over n threads --
 *     l2norm_square   sq[i] = x[i]*x[i]              (a temporary in DRAM)
 *     l2norm_sum      atomicAdd(sum, sq[i])          (sum: one float, zeroed
 *                                                      by the host first)
 *     l2norm_scale    y[i] = x[i] / sqrtf(*sum)
 *   fused: one kernel, one block of 256 threads: block-stride sum of squares
 *     into registers, a shared-memory tree reduction, one rsqrtf, then a
 *     block-stride scale.
 *
 * Conventions: the guarded kernels (i = blockIdx.x*blockDim.x +
 * threadIdx.x, i < n) have exactly n working threads.  A reference outside
 * every loop of the kernel body is one access per thread (each thread has
 * its own registers: the grid dimensions are not loops for the register
 * rule); *sum is the element sum[0]; atomicAdd(sum, v) on a float is one
 * fp32 add plus one read and one write of sum[0].
 *
 * l2norm_square (n threads):
 *   W: one multiply per thread -> n fp32.
 *   Q: x: n elements read -> 4n; sq: n elements written -> 4n.  Q = 8*n.
 *   Q_access: x[i]*x[i] is the same reference twice in one statement: one
 *      load; plus one store of sq[i] -> 8*n.
 *   I = 1/8.
 * l2norm_sum (n threads):
 *   W: one atomic float add per thread -> n fp32.
 *   Q: sq: n elements read -> 4n.  sum[0]: its first access is the read of
 *      an atomicAdd -> 4 bytes read, and it is written -> 4 bytes.
 *      Q = 4*n + 8.
 *   Q_access: per thread one load of sq[i], one read and one write of
 *      sum[0] -> 3 * 4 * n = 12*n.
 *   I = n / (4n + 8) = n/(4*(n + 2)).
 * l2norm_scale (n threads):
 *   W: per thread one sqrtf (special, fp32) and one divide -> 2n fp32,
 *      special = n (every thread evaluates sqrtf(*sum) itself).
 *   Q: x: 4n read; y: 4n written; sum[0]: 4 bytes read.  Q = 8*n + 4.
 *   Q_access: per thread load x[i], load sum[0], store y[i] -> 12*n.
 *   I = 2n / (8n + 4) = n/(2*(2*n + 1)).
 * The separate pipeline as a whole (three launches, so sq crosses DRAM
 * twice: written by the first kernel, read back by the second):
 *   W = n + n + 2n = 4n;  Q = 8n + (4n + 8) + (8n + 4) = 20n + 12;
 *   Q_access = 8n + 12n + 12n = 32n;  I = 4n / (20n + 12) = n/(5n + 3),
 *   about 0.2 FLOP/B.
 *
 * l2norm_fused: launched as <<<1, 256>>>: blockDim_x = 256 (the value the
 *   halving loop is unrolled with; it is substituted throughout), one block
 *   (the kernel does not use blockIdx).  tid = threadIdx.x = 0 .. 255.
 *   The two block-stride loops i = tid, tid + 256, ... < n visit every
 *   i in [0, n) exactly once over the 256 threads.
 *   W: loop 1: one multiply + one add per element -> 2n.  Tree: at
 *      stride s the threads tid < s add once: 128 + 64 + ... + 1 = 255.
 *      rsqrtf(partial[0]): once per thread -> 256 specials.  Loop 2: one
 *      multiply per element -> n.  W = 3*n + 511, all fp32; special = 256.
 *   Q: x: n distinct elements, read (twice, counted once) -> 4n; y: n
 *      written -> 4n; partial is shared.  Q = 8*n.
 *   Q_access: loop 1 one load of x[i] per element (x[i]*x[i]: one load),
 *      loop 2 one load of x[i] and one store of y[i] -> 3n * 4 = 12*n.
 *   Q_shared: partial[tid] = s: 256 stores; partial[tid + stride]: 255
 *      loads; partial[tid] in the += does not depend on stride (its
 *      innermost loop), so by the register rule its load and store count
 *      once per thread that runs it (tid < 128): 128 + 128; partial[0]:
 *      one load per thread, 256.  That register-rule count would be 1023
 *      accesses; staticroof counts every shared access (no register holds
 *      shared data across __syncthreads()): 256 + 3*255 + 256 = 1277 accesses
 *      -> Q_shared = 5108 bytes per block (the launch has one block).
 *   I = (3n + 511) / (8n), about 3/8 FLOP/B.
 *
 * Fusion removes the 8n bytes of the temporary sq (written and read back)
 * and the per-element sum[0] traffic; I_fused ~ 0.375 > 0.25 > 0.2, higher
 * than every separate kernel (1/8, ~1/4, ~1/4) and than the pipeline.
 *
 * At the launch sites n = 1 << 20 = 1048576:
 *   l2norm_square  W_value = 1048576, Q_value = 8388608
 *   l2norm_sum     W_value = 1048576, Q_value = 4194312
 *   l2norm_scale   W_value = 2097152, Q_value = 8388612
 *   l2norm_fused   W_value = 3146239, Q_value = 8388608
 *
 * staticroof:expect l2norm_square
 *   W        = n
 *   Q        = 8*n
 *   Q_access = 8*n
 *   Q_shared = 0
 *   I        = 1/8
 *   fp32     = n
 *   W_value  = 1048576
 *   Q_value  = 8388608
 *
 * staticroof:expect l2norm_sum
 *   W        = n
 *   Q        = 4*n + 8
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = n/(4*(n + 2))
 *   fp32     = n
 *   W_value  = 1048576
 *   Q_value  = 4194312
 *
 * staticroof:expect l2norm_scale
 *   W        = 2*n
 *   Q        = 8*n + 4
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = n/(2*(2*n + 1))
 *   fp32     = 2*n
 *   special  = n
 *   W_value  = 2097152
 *   Q_value  = 8388612
 *
 * staticroof:expect l2norm_fused
 *   W        = 3*n + 511
 *   Q        = 8*n
 *   Q_access = 12*n
 *   Q_shared = 5108*gridDim_x
 *   I        = (3*n + 511)/(8*n)
 *   fp32     = 3*n + 511
 *   special  = 256
 *   W_value  = 3146239
 *   Q_value  = 8388608
 */

#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define BLOCK_SIZE 256

__global__ void l2norm_square(const float* __restrict__ x, float* __restrict__ sq, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        sq[i] = x[i] * x[i];
}

__global__ void l2norm_sum(const float* __restrict__ sq, float* __restrict__ sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, sq[i]);
}

__global__ void l2norm_scale(const float* __restrict__ x, const float* __restrict__ sum,
                             float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] / sqrtf(*sum);
}

__global__ void l2norm_fused(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float partial[BLOCK_SIZE];
    const int tid = threadIdx.x;

    float s = 0.0f;
    for (int i = tid; i < n; i += blockDim.x)
        s += x[i] * x[i];
    partial[tid] = s;
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            partial[tid] += partial[tid + stride];
        __syncthreads();
    }

    const float inv_norm = rsqrtf(partial[0]);
    for (int i = tid; i < n; i += blockDim.x)
        y[i] = x[i] * inv_norm;
}

int main()
{
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);

    float* h_x = (float*)malloc(bytes);
    float* h_y = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i)
        h_x[i] = 1.0f;

    float *d_x, *d_sq, *d_sum, *d_y, *d_y_fused;
    cudaMalloc(&d_x, bytes);
    cudaMalloc(&d_sq, bytes);
    cudaMalloc(&d_sum, sizeof(float));
    cudaMalloc(&d_y, bytes);
    cudaMalloc(&d_y_fused, bytes);
    cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);
    cudaMemset(d_sum, 0, sizeof(float));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    l2norm_square<<<blocks, threads>>>(d_x, d_sq, n);
    l2norm_sum<<<blocks, threads>>>(d_sq, d_sum, n);
    l2norm_scale<<<blocks, threads>>>(d_x, d_sum, d_y, n);

    l2norm_fused<<<1, BLOCK_SIZE>>>(d_x, d_y_fused, n);

    cudaMemcpy(h_y, d_y_fused, bytes, cudaMemcpyDeviceToHost);
    printf("y[0] = %f (expected %f)\n", h_y[0], 1.0f / sqrtf((float)n));

    cudaFree(d_x);
    cudaFree(d_sq);
    cudaFree(d_sum);
    cudaFree(d_y);
    cudaFree(d_y_fused);
    free(h_x);
    free(h_y);
    return 0;
}
