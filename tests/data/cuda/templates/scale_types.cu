/* scale_types.cu -- one template kernel, instantiated for six element types in one file:
 * 1 byte (uint8_t), 2 (__half), 4 (float), 8 (double) and 16 (float4, double2).
 * Each instantiation is its own result, named scale<T>.
 *
 * scale<T>: y[i] = x[i] for i < n, copying through a template type (no arithmetic: W = 0), so
 * Q = (x read + y written) * sizeof(T) * n = 2 * sizeof(T) * n:
 *   uint8_t  -> 2n      (launch site, explicit argument)
 *   __half   -> 4n      (launch site, deduced from `__half *d_h`)
 *   float    -> 8n      (explicit instantiation)
 *   double   -> 16n     (template launcher launch_scale<double>)
 *   float4   -> 32n     (launcher, deduced from `float4 *d_f4`)
 *   double2  -> 32n     (launch site, explicit argument)
 *
 * axpy<T>: y[i] = madd(a, x[i], y[i]) through a template __device__ helper whose T is deduced
 * from the call's arguments: a*x + y is 2 FLOPs in T's precision; x read, y read and written:
 * Q = 3 * sizeof(T) * n.
 *   __half -> W 2n fp16, Q 6n;  float -> W 2n fp32, Q 12n;  double -> W 2n fp64, Q 24n
 */

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

template <typename T>
__global__ void scale(int n, const T *__restrict__ x, T *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i];
}

template __global__ void scale<float>(int, const float *, float *);

template <typename T>
__device__ T madd(T a, T b, T c)
{
    return a * b + c;
}

template <typename T>
__global__ void axpy(int n, T a, const T *__restrict__ x, T *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = madd(a, x[i], y[i]);
}

template <typename T>
void launch_scale(int n, const T *x, T *y)
{
    const int threads = 128;
    scale<T><<<(n + threads - 1) / threads, threads>>>(n, x, y);
}

int main(void)
{
    const int n = 1 << 16;
    std::uint8_t *d_u8;
    __half *d_h, *d_h2;
    double *d_d;
    float4 *d_f4;
    double2 *d_d2;
    cudaMalloc(&d_u8, 2 * n);
    cudaMalloc(&d_h, 2 * n * sizeof(__half));
    d_h2 = d_h + n;
    cudaMalloc(&d_d, 2 * n * sizeof(double));
    cudaMalloc(&d_f4, 2 * n * sizeof(float4));
    cudaMalloc(&d_d2, 2 * n * sizeof(double2));

    scale<std::uint8_t><<<(n + 255) / 256, 256>>>(n, d_u8, d_u8 + n);
    scale<<<(n + 255) / 256, 256>>>(n, d_h, d_h2);
    launch_scale<double>(n, d_d, d_d + n);
    launch_scale(n / 2, d_f4, d_f4 + n);
    scale<double2><<<(n + 255) / 256, 256>>>(n, d_d2, d_d2 + n);

    float *d_f;
    cudaMalloc(&d_f, 2 * n * sizeof(float));
    axpy<__half><<<(n + 255) / 256, 256>>>(n, __float2half(2.0f), d_h, d_h2);
    axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, d_f, d_f + n);
    axpy<double><<<(n + 255) / 256, 256>>>(n, 2.0, d_d, d_d + n);
    cudaDeviceSynchronize();
    return 0;
}
