/* half2_fma.cu -- packed fp16 axpy, y = a*x + y on __half2 pairs with
 * __hfma2 (two lanes, one fused multiply-add each).  n2 is the number of
 * __half2 pairs (n/2 halves); each pair is 2 fp16 lanes = 4 bytes.
 *
 * Derivation: i < n2 covered by the grid: n2 threads.
 *   W: one __hfma2 per thread = 2 lanes x 2 -> 4 fp16.  W = 4*n2.
 *   Q (compulsory): x: n2 pairs read -> 4*n2 bytes; y: n2 pairs read first
 *      -> 4*n2, and written -> 4*n2.  Q = 12*n2.
 *   Q_access: load x[i], load y[i], store y[i] (4 bytes each) -> 12*n2.
 *   Q_shared = 0.  I = 4*n2 / 12*n2 = 1/3 (as for scalar haxpy).
 *   At the launch site n = 1 << 20 halves, n2 = n / 2 = 524288:
 *      W_value = 2097152, Q_value = 6291456.
 *
 * staticroof:expect haxpy2
 *   W        = 4*n2
 *   Q        = 12*n2
 *   Q_access = 12*n2
 *   Q_shared = 0
 *   I        = 1/3
 *   fp16     = 4*n2
 *   W_value  = 2097152
 *   Q_value  = 6291456
 */

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

__global__ void haxpy2(int n2, __half2 a, const __half2* __restrict__ x, __half2* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        y[i] = __hfma2(a, x[i], y[i]);
}

int main()
{
    const int n = 1 << 20;
    __half2 *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(__half));
    cudaMalloc(&d_y, n * sizeof(__half));
    cudaMemset(d_x, 0, n * sizeof(__half));
    cudaMemset(d_y, 0, n * sizeof(__half));

    const __half2 a = __floats2half2_rn(2.0f, 2.0f);
    const int threads = 256;
    const int blocks = (n / 2 + threads - 1) / threads;
    haxpy2<<<blocks, threads>>>(n / 2, a, d_x, d_y);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
