/* exact_grid_scale.cu -- in-place scaling with NO bounds guard: the kernel
 * relies on the launch having exactly one thread per element (n a multiple
 * of the block size), so its counts are in the launch symbols.
 *
 * Derivation: i = blockIdx.x*blockDim.x + threadIdx.x takes every value in
 * [0, gridDim_x*blockDim_x) exactly once.  T = gridDim_x*blockDim_x threads.
 *   W: one multiply per thread -> W = T, fp32.
 *   Q: x: T distinct elements, read first (right-hand side before the
 *      store) -> 4T, and written -> 4T.  Q = 8*T.
 *   Q_access: one load and one store per thread -> 8*T.
 *   Q_shared = 0.  I = 1/8.
 *   At the launch site n = 1 << 20, 256 threads per block, n / 256 = 4096
 *   blocks (T = 1048576): W_value = 1048576, Q_value = 8388608.
 *
 * staticroof:expect scale_inplace
 *   W        = gridDim_x*blockDim_x
 *   Q        = 8*gridDim_x*blockDim_x
 *   Q_access = 8*gridDim_x*blockDim_x
 *   Q_shared = 0
 *   I        = 1/8
 *   fp32     = gridDim_x*blockDim_x
 *   W_value  = 1048576
 *   Q_value  = 8388608
 */

#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale_inplace(float* x, float a)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = a * x[i];
}

int main()
{
    const int n = 1 << 20;
    float* d_x;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));

    const int threads = 256;
    scale_inplace<<<n / threads, threads>>>(d_x, 0.5f);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_x);
    return 0;
}
