/* unused_block_y.cu -- a 1-D kernel launched with a 2-D block, as the GPU ports of PolyBench
 * do (DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y = 32 x 8 for every kernel): threadIdx.y is never
 * read, so each of the 8 threads along y runs the body again for the same i (SR120).
 *
 * Derivation: grid.x = (n + 31) / 32 blocks of 32 x 8 threads; the guard i < n admits the
 * threads with i = blockIdx.x*32 + threadIdx.x < n, each 8 times (threadIdx.y = 0..7).
 *   W        = 8 * n * 1 (alpha * x[i])                 = 8*n, fp32
 *   Q        = x: n reads, y: n writes, 4 B each        = 8*n (the same elements, whatever y)
 *   Q_access = 8 * n * (load x[i] + store y[i]) * 4 B   = 64*n
 *   I        = 8n / 8n = 1
 *   At the launch site's n = 100: W_value = 800, Q_value = 800, Q_access_value = 6400.
 *
 * staticroof:expect scale_kernel
 *   W              = 8*n
 *   Q              = 8*n
 *   Q_access       = 64*n
 *   Q_shared       = 0
 *   I              = 1
 *   fp32           = 8*n
 *   W_value        = 800
 *   Q_value        = 800
 *   Q_access_value = 6400
 */

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

__global__ void scale_kernel(int n, float alpha, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = alpha * x[i];
}

int main(int argc, char **argv)
{
    int n = 100;
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));

    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid((n + block.x - 1) / block.x, 1);
    scale_kernel<<<grid, block>>>(n, 2.0f, d_x, d_y);
    cudaDeviceSynchronize();

    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
