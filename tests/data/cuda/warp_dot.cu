/* warp_dot.cu -- dot product: a grid-stride loop accumulates x[i]*y[i] in
 * a register, a warp-shuffle tree (in a __device__ helper) reduces the 32
 * lanes of each warp, and lane 0 of every warp adds the warp's sum into
 * result[0] with atomicAdd (result zeroed by the host first).
 *
 * Only the grid-stride loop is covered exactly once in total; the shuffle
 * tree and the atomics run once per thread / per warp of the launch, so
 * their counts are in gx = gridDim_x and bx = blockDim_x.
 *
 * Derivation:
 *   W: grid-stride loop: every i in [0, n) once, one multiply and one add
 *      -> 2n.  Shuffle tree: offset = 16, 8, 4, 2, 1 (5 trips, constant),
 *      one add per trip per thread (the shuffle itself is free) -> 5*gx*bx.
 *      atomicAdd: threads with threadIdx.x % 32 == 0, ceiling(bx/32) per
 *      block, one float add each -> gx*ceiling(bx/32).
 *      W = 2*n + 5*gx*bx + gx*ceiling(bx/32), all fp32.
 *   Q (compulsory), element size 4 bytes: x, y: n read each -> 8n;
 *      result[0]: first access is the atomic's read -> 4, written -> 4.
 *      Q = 8*n + 8.
 *   Q_access: x[i], y[i] vary with the loop variable: 2n loads.  Each
 *      atomic reads and writes result[0]: 2*gx*ceiling(bx/32) accesses.
 *      Q_access = 8*n + 8*gx*ceiling(bx/32).
 *   Q_shared = 0 (shuffles move registers, not memory).
 *   I = W / Q.
 *   At the launch site n = 1 << 24 = 16777216, gx = 1024, bx = 256
 *   (8 warps per block):
 *      W_value = 33554432 + 1310720 + 8192 = 34873344
 *      Q_value = 134217728 + 8 = 134217736
 *
 * staticroof:expect dot_warp
 *   W        = 2*n + 5*gridDim_x*blockDim_x + gridDim_x*ceiling(blockDim_x/32)
 *   Q        = 8*n + 8
 *   Q_access = 8*n + 8*gridDim_x*ceiling(blockDim_x/32)
 *   Q_shared = 0
 *   I        = (2*n + 5*gridDim_x*blockDim_x + gridDim_x*ceiling(blockDim_x/32))/(8*n + 8)
 *   fp32     = 2*n + 5*gridDim_x*blockDim_x + gridDim_x*ceiling(blockDim_x/32)
 *   W_value  = 34873344
 *   Q_value  = 134217736
 */

#include <cuda_runtime.h>
#include <cstdio>

__inline__ __device__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void dot_warp(const float* __restrict__ x, const float* __restrict__ y,
                         float* __restrict__ result, int n)
{
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        s += x[i] * y[i];

    s = warp_reduce_sum(s);

    if (threadIdx.x % 32 == 0)
        atomicAdd(result, s);
}

int main()
{
    const int n = 1 << 24;
    float *d_x, *d_y, *d_result;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMalloc(&d_result, sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));
    cudaMemset(d_y, 0, n * sizeof(float));
    cudaMemset(d_result, 0, sizeof(float));

    const int blocks = 1024;
    const int threads = 256;
    dot_warp<<<blocks, threads>>>(d_x, d_y, d_result, n);

    float result;
    cudaMemcpy(&result, d_result, sizeof(float), cudaMemcpyDeviceToHost);
    printf("dot = %f\n", result);

    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_result);
    return 0;
}
