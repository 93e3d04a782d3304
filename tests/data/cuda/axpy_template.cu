/* axpy_template.cu -- y = a*x + y written once as a template over the
 * element type and instantiated for double at the launch site
 * (axpy<double><<<...>>>), so T = double: 8-byte elements, fp64 work.
 *
 * Derivation: i < n covered by the grid: n threads.
 *   W: one multiply and one add of doubles -> 2*n, fp64.
 *   Q: x: n read -> 8n; y: n read first -> 8n, written -> 8n.  Q = 24*n.
 *   Q_access: load x[i], load y[i], store y[i] -> 24*n.
 *   Q_shared = 0.  I = 1/12.
 *   At the launch site n = 1 << 20 = 1048576:
 *      W_value = 2097152, Q_value = 25165824.
 *
 * staticroof:expect axpy
 *   W        = 2*n
 *   Q        = 24*n
 *   Q_access = 24*n
 *   Q_shared = 0
 *   I        = 1/12
 *   fp64     = 2*n
 *   W_value  = 2097152
 *   Q_value  = 25165824
 */

#include <cuda_runtime.h>
#include <cstdio>

template <typename T>
__global__ void axpy(int n, T a, const T* __restrict__ x, T* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1 << 20;
    double *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(double));
    cudaMalloc(&d_y, n * sizeof(double));
    cudaMemset(d_x, 0, n * sizeof(double));
    cudaMemset(d_y, 0, n * sizeof(double));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    axpy<double><<<blocks, threads>>>(n, 2.0, d_x, d_y);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
