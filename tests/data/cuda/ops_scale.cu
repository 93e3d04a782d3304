/* ops_scale.cu -- an affine map y = alpha*x + beta inside a namespace, with
 * the index computed through static_cast<int> (unsigned arithmetic of the
 * builtins converted once).
 *
 * Derivation: i < n covered by the grid: n threads.
 *   W: one float multiply and one float add per thread -> W = 2*n, fp32.
 *   Q: x: n elements read -> 4n; y: n elements written -> 4n.  Q = 8*n.
 *   Q_access: one load of x[i], one store of y[i] per thread -> 8*n.
 *   Q_shared = 0.  I = 2n / 8n = 1/4.
 *   At the launch site n = 1 << 22 = 4194304:
 *      W_value = 8388608, Q_value = 33554432.
 *
 * staticroof:expect scale_shift
 *   W        = 2*n
 *   Q        = 8*n
 *   Q_access = 8*n
 *   Q_shared = 0
 *   I        = 1/4
 *   fp32     = 2*n
 *   W_value  = 8388608
 *   Q_value  = 33554432
 */

#include <cuda_runtime.h>
#include <cstdio>

namespace ops {

__global__ void scale_shift(const float* __restrict__ x, float* __restrict__ y,
                            float alpha, float beta, int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        y[i] = alpha * x[i] + beta;
}

}  // namespace ops

int main()
{
    const int n = 1 << 22;
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    ops::scale_shift<<<blocks, threads>>>(d_x, d_y, 2.0f, 1.0f, n);
    cudaDeviceSynchronize();

    float y0;
    cudaMemcpy(&y0, d_y, sizeof(float), cudaMemcpyDeviceToHost);
    printf("y[0] = %f (expected 1)\n", y0);

    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
