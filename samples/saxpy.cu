/* saxpy.cu -- single-precision "a times x plus y", y[i] = a*x[i] + y[i],
 * written the two usual CUDA ways: one element per thread, and a
 * grid-stride loop.
 *
 * saxpy: i = blockIdx.x*blockDim.x + threadIdx.x with the guard i < n.
 *   The grid is assumed to cover the guard, so exactly the threads
 *   i = 0 .. n-1 do work (n threads, one element each).
 *   W: per thread one float multiply (a*x[i]) and one float add (+ y[i])
 *      -> 2 fp32.  W = 2*n.
 *   Q (compulsory), element size 4 bytes:
 *      x: n distinct elements, only read                 -> 4n
 *      y: n distinct elements, read first (the right-hand
 *         side is evaluated before the store)            -> 4n
 *         and the same n elements written                -> 4n
 *      a: scalar by value -> 0.
 *      Q = 12*n.
 *   Q_access: per thread one load of x[i], one load of y[i], one store of
 *      y[i] -> 3 * 4 bytes * n threads = 12*n.
 *   Q_shared: no shared memory -> 0.
 *   I = W / Q = 2n / 12n = 1/6.
 *   At the launch site n = 1 << 20 = 1048576:
 *      W_value = 2 * 1048576 = 2097152, Q_value = 12 * 1048576 = 12582912.
 *
 * saxpy_grid_stride: for (i = blockIdx.x*blockDim.x + threadIdx.x; i < n;
 *   i += blockDim.x*gridDim.x).  Taken over all threads of the grid the
 *   loop visits every i in [0, n) exactly once, whatever the launch
 *   (here 1024 blocks of 256 threads, fewer threads than elements), so the
 *   counts are those of saxpy: every reference varies with the loop
 *   variable i, so none is kept in a register.
 *   W = 2*n, Q = 12*n, Q_access = 12*n, I = 1/6, at n = 1048576 the same
 *   values 2097152 and 12582912.
 *
 * staticroof:expect saxpy
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = 1/6
 *   fp32     = 2*n
 *   W_value  = 2097152
 *   Q_value  = 12582912
 *
 * staticroof:expect saxpy_grid_stride
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = 1/6
 *   fp32     = 2*n
 *   W_value  = 2097152
 *   Q_value  = 12582912
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void saxpy_grid_stride(int n, float a, const float* __restrict__ x,
                                  float* __restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);

    float* h_x = (float*)malloc(bytes);
    float* h_y = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        h_x[i] = 1.0f;
        h_y[i] = 2.0f;
    }

    float *d_x, *d_y;
    cudaMalloc(&d_x, bytes);
    cudaMalloc(&d_y, bytes);
    cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, h_y, bytes, cudaMemcpyHostToDevice);

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    saxpy<<<blocks, threads>>>(n, 2.0f, d_x, d_y);

    const int stride_blocks = 1024;
    saxpy_grid_stride<<<stride_blocks, threads>>>(n, 2.0f, d_x, d_y);

    cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost);
    printf("y[0] = %f (expected 6.0)\n", h_y[0]);

    cudaFree(d_x);
    cudaFree(d_y);
    free(h_x);
    free(h_y);
    return 0;
}
