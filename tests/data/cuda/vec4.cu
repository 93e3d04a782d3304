/* vec4.cu -- vectorised float4 copy and scale: each thread moves four
 * consecutive floats with one 16-byte load and one 16-byte store.  n4 is
 * the number of float4 vectors (n/4 floats rounded down; the caller handles
 * any tail).  reinterpret_cast<const float4*>(x)[i] reads x[4i .. 4i+3]:
 * four float elements, 16 bytes.
 *
 * copy_vec4: i < n4 covered: n4 threads.
 *   W = 0.
 *   Q: x: 4*n4 distinct floats read -> 16*n4; y: 4*n4 written -> 16*n4.
 *      Q = 32*n4.
 *   Q_access: one float4 load and one float4 store per thread -> 32*n4.
 *   I = 0.
 * scale_vec4: the same traffic, plus 4 float multiplies per thread (one per
 *   lane: v.x *= a, ..., v.w *= a) -> W = 4*n4, fp32.
 *   Q = 32*n4, Q_access = 32*n4, I = 4*n4 / 32*n4 = 1/8.
 * Q_shared = 0 for both.
 * At the launch sites n = 1 << 22 floats, n4 = n / 4 = 1048576:
 *   copy_vec4  W_value = 0,       Q_value = 33554432
 *   scale_vec4 W_value = 4194304, Q_value = 33554432
 *
 * staticroof:expect copy_vec4
 *   W        = 0
 *   Q        = 32*n4
 *   Q_access = 32*n4
 *   Q_shared = 0
 *   I        = 0
 *   W_value  = 0
 *   Q_value  = 33554432
 *
 * staticroof:expect scale_vec4
 *   W        = 4*n4
 *   Q        = 32*n4
 *   Q_access = 32*n4
 *   Q_shared = 0
 *   I        = 1/8
 *   fp32     = 4*n4
 *   W_value  = 4194304
 *   Q_value  = 33554432
 */

#include <cuda_runtime.h>
#include <cstdio>

__global__ void copy_vec4(const float* __restrict__ x, float* __restrict__ y, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x)[i];
}

__global__ void scale_vec4(const float* __restrict__ x, float* __restrict__ y, float a, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        v.x *= a;
        v.y *= a;
        v.z *= a;
        v.w *= a;
        reinterpret_cast<float4*>(y)[i] = v;
    }
}

int main()
{
    const int n = 1 << 22;
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));

    const int threads = 256;
    const int blocks = (n / 4 + threads - 1) / threads;
    copy_vec4<<<blocks, threads>>>(d_x, d_y, n / 4);
    scale_vec4<<<blocks, threads>>>(d_y, d_x, 3.0f, n / 4);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
