/* reduce.cu -- sum of a float vector: each block of 256 threads reduces
 * 256 elements in shared memory with a tree (sequential addressing) and
 * writes one partial sum per block; the host adds the partial sums.
 *
 * The launch site uses blockDim_x = 256 (BLOCK_SIZE) and
 * gridDim_x = (n + 255)/256 blocks; the halving loop is unrolled for that
 * block size: s = 128, 64, 32, 16, 8, 4, 2, 1 (8 trips).  Formulas are in
 * n and gridDim_x (with blockDim_x = 256 substituted); the grid is assumed
 * to cover the index i = blockIdx.x*256 + threadIdx.x < n, i.e.
 * 256*gridDim_x >= n.
 *
 * Derivation (per block, 256 threads tid = 0 .. 255):
 *   W: the load sdata[tid] = (i < n) ? x[i] : 0.0f does no arithmetic.
 *      At halving step s the threads tid < s each do one float add:
 *      128 + 64 + ... + 1 = 255 adds per block (the zero padding of the
 *      last block is added like any other value).  W = 255*gridDim_x, fp32.
 *   Q (compulsory), element size 4 bytes:
 *      x: x[i] is read only by the threads with i < n (the ?: condition is
 *         affine in the thread index, not data): n distinct elements -> 4n
 *      out: out[blockIdx.x], written by tid 0 of each block: gridDim_x
 *         distinct elements -> 4*gridDim_x
 *      sdata is shared (on chip) -> 0.
 *      Q = 4*n + 4*gridDim_x.
 *   Q_access: n loads of x (one per thread with i < n) and gridDim_x stores
 *      of out -> 4*n + 4*gridDim_x.
 *   Q_shared (per block, then times gridDim_x; same register rule):
 *      sdata[tid] = ...            256 stores (every thread, i < n or not)
 *      sdata[tid + s] (load)       varies with s: 128 + 64 + ... + 1 = 255
 *      sdata[tid] (load and store in +=) does not depend on s, its
 *         innermost loop: by the register rule each is counted once per
 *         execution of the s loop in which it runs, i.e. once per thread
 *         with tid < 128 (the threads that pass tid < s at least once):
 *         128 loads + 128 stores
 *      sdata[0] (load by tid 0)    1
 *      -> 256 + 255 + 128 + 128 + 1 = 768 accesses * 4 B = 3072 B per block.
 *      That would be the register rule; staticroof counts every dynamic
 *      shared access instead (shared memory is written for other threads to
 *      read, so no register can hold it across __syncthreads()):
 *      256 + 3*255 + 1 = 1022 accesses -> Q_shared = 4088*gridDim_x.
 *   I = W / Q = 255*gridDim_x / (4*(n + gridDim_x)).
 *   At the launch site n = 1 << 20 = 1048576, gridDim_x = 4096:
 *      W_value = 255*4096 = 1044480
 *      Q_value = 4*(1048576 + 4096) = 4210688
 *      Q_shared = 4088*4096 = 16744448 B
 *
 * staticroof:expect reduce_sum
 *   W        = 255*gridDim_x
 *   Q        = 4*n + 4*gridDim_x
 *   Q_access = 4*n + 4*gridDim_x
 *   Q_shared = 4088*gridDim_x
 *   I        = 255*gridDim_x/(4*(n + gridDim_x))
 *   fp32     = 255*gridDim_x
 *   W_value  = 1044480
 *   Q_value  = 4210688
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define BLOCK_SIZE 256

__global__ void reduce_sum(const float* __restrict__ x, float* __restrict__ out, unsigned int n)
{
    __shared__ float sdata[BLOCK_SIZE];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

int main()
{
    const unsigned int n = 1 << 20;
    const int threads = BLOCK_SIZE;
    const int blocks = (n + threads - 1) / threads;

    float* h_x = (float*)malloc(n * sizeof(float));
    float* h_partial = (float*)malloc(blocks * sizeof(float));
    for (unsigned int i = 0; i < n; ++i)
        h_x[i] = 1.0f;

    float *d_x, *d_partial;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_partial, blocks * sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);

    reduce_sum<<<blocks, threads>>>(d_x, d_partial, n);

    cudaMemcpy(h_partial, d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0.0;
    for (int b = 0; b < blocks; ++b)
        total += h_partial[b];
    printf("sum = %.1f (expected %u)\n", total, n);

    cudaFree(d_x);
    cudaFree(d_partial);
    free(h_x);
    free(h_partial);
    return 0;
}
