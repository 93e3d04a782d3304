/* header_sizes.cu -- the 3-point smoothing on the GPU, its size N from header_sizes.cuh
 * (`#ifndef N` there, so `nvcc -DN=64` and `staticroof -D N=64` both rebind it).
 *
 * Derivation: the threads 1 <= i < N-1 (the grid (N + 255)/256 x 256 covers them):
 *   W        = 3*(N-2): 2 adds and a multiply each, fp32
 *   Q        = in[0..N-1] read (4N) + out[1..N-2] written (4(N-2)) = 8*N - 8
 *   Q_access = (3 loads + 1 store) * 4 B * (N-2) = 16*N - 32
 *   I        = 3(N-2)/(8(N-1)).  At N = 1024: W_value = 3066, Q_value = 8184.
 *
 * staticroof:expect smooth
 *   W              = 3*N - 6
 *   Q              = 8*N - 8
 *   Q_access       = 16*N - 32
 *   Q_shared       = 0
 *   fp32           = 3*N - 6
 *   W_value        = 3066
 *   Q_value        = 8184
 */

#include <cuda_runtime.h>
#include "header_sizes.cuh"

__global__ void smooth(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) * 0.333333f;
}

int main(void)
{
    float *in, *out;
    cudaMalloc(&in, N * sizeof(float));
    cudaMalloc(&out, N * sizeof(float));
    smooth<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
