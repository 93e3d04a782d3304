/* idioms.cu -- small elementwise kernels written with the C++ idioms real CUDA code uses:
 * a lambda, inline PTX (asm volatile) for a timer, size_t grid-stride loops, a switch on a template parameter, reinterpret_cast float4 vector accesses,
 * __half2 intrinsics, __ldg/__stcs with an unrolled per-thread loop, and host launches with
 * dim3 and ceil-division.  All guards i < n are covered by the launch grids.
 *
 * affine_product_lambda: grid-stride over [0, n): y[i] = affine(x[i]) * affine(y[i]) with
 *   affine(v) = a*v + b (2): 2 + 2 + 1 = 5.  W = 5*n.  Q: x read, y read and written: 12*n.
 * square_plus_one_timed: y[i] = x[i]*x[i] + 1.0f (2) for i < n: W = 2*n (fp32).  The timer is
 *   inline PTX (asm volatile): a statement the analysis does not model: APPROXIMATE.
 * relu_inplace: size_t grid-stride over [0, n): x[i] = fmaxf(x[i], 0) (0 FLOPs).  W = 0,
 *   Q = 8*n (read and written).
 * vector_add: c[i] = a[i] + b[i]: W = n, Q = 12*n.
 * scale_half2: x[i] = __hmul2(x[i], s): 2 fp16 lanes: W = 2*n2 (fp16); __half2 is 4 B, read and
 *   written: Q = 8*n2.
 * bias_act<0> (ReLU): v = x + bias (1), fmaxf (0): W = rows*C.
 * bias_act<1> (GELU, tanh form): 1 (bias) + 0.5f*v (1) * (...) (1), 1.0f + (1), tanhf (1, special),
 *   0.7978845608f*(...) (1), v + (1), 0.044715f*v*v*v (3) = 10: W = 10*rows*C, special rows*C.
 *   Both: col < C (grid.x = ceil_div(C, 256)), row = blockIdx.y < rows (grid.y = rows);
 *   Q: x read rows*C, y written rows*C, bias read C: Q = 8*rows*C + 4*C.
 * scale_vec4: float4 views of x and y, i < n4: 4 multiplies per thread: W = 4*n4;
 *   16 B read and 16 B written per i: Q = 32*n4.
 * axpy_items<4>: each thread handles ITEMS = 4 consecutive elements, guarded i < n:
 *   W = 2*n, Q = 12*n (x read, y read and written).
 *
 * staticroof:expect affine_product_lambda
 *   W    = 5*n
 *   Q    = 12*n
 *   fp32 = 5*n
 *
 * staticroof:expect square_plus_one_timed
 *   W     = 2*n
 *   fp32  = 2*n
 *   exact = false
 *
 * staticroof:expect relu_inplace
 *   W = 0
 *   Q = 8*n
 *
 * staticroof:expect vector_add
 *   W    = n
 *   Q    = 12*n
 *   fp32 = n
 *
 * staticroof:expect scale_half2
 *   W    = 2*n2
 *   Q    = 8*n2
 *   fp16 = 2*n2
 *
 * staticroof:expect bias_act<0>
 *   W    = rows*C
 *   Q    = 8*rows*C + 4*C
 *   fp32 = rows*C
 *
 * staticroof:expect bias_act<1>
 *   W       = 10*rows*C
 *   Q       = 8*rows*C + 4*C
 *   fp32    = 10*rows*C
 *   special = rows*C
 *
 * staticroof:expect scale_vec4
 *   W    = 4*n4
 *   Q    = 32*n4
 *   fp32 = 4*n4
 *
 * staticroof:expect axpy_items
 *   W    = 2*n
 *   Q    = 12*n
 *   fp32 = 2*n
 */

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define N (1 << 24)

template <typename T>
inline T ceil_div(T a, T b)
{
    return (a + b - 1) / b;
}

__device__ __forceinline__ unsigned long long global_timer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void affine_product_lambda(float* __restrict__ y, const float* __restrict__ x, float a, float b, int n)
{
    auto affine = [=](float v) { return a * v + b; };
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = affine(x[i]) * affine(y[i]);
}

__global__ void __launch_bounds__(256) square_plus_one_timed(const float* __restrict__ x, float* __restrict__ y,
                                                             unsigned long long* __restrict__ cycles, int n)
{
    const unsigned long long t0 = global_timer();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * x[i] + 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = global_timer() - t0;
}

__global__ void relu_inplace(float* x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
        x[i] = fmaxf(x[i], 0.0f);
}

__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void scale_half2(__half2* __restrict__ x, const __half2 s, int n2)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        x[i] = __hmul2(x[i], s);
}

template <int ACT>
__global__ void bias_act(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                         int rows, int C)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y;
    if (col >= C || row >= rows)
        return;

    float v = x[row * C + col] + bias[col];
    switch (ACT) {
    case 0:
        v = fmaxf(v, 0.0f);
        break;
    case 1:
        v = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
        break;
    default:
        break;
    }
    y[row * C + col] = v;
}

__global__ void scale_vec4(float* __restrict__ y, const float* __restrict__ x, float a, int n4)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        v.x *= a;
        v.y *= a;
        v.z *= a;
        v.w *= a;
        reinterpret_cast<float4*>(y)[i] = v;
    }
}

template <int ITEMS>
__global__ void axpy_items(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int i = base + k;
        if (i < n)
            __stcs(&y[i], a * __ldg(&x[i]) + y[i]);
    }
}

int main(int argc, char** argv)
{
    const int n = N;
    const size_t nbig = (size_t)1 << 28;
    const int rows = 4096, C = 3072;

    float *d_x, *d_y, *d_z, *d_bias;
    unsigned long long* d_cycles;
    cudaMalloc(&d_x, nbig * sizeof(float));
    cudaMalloc(&d_y, nbig * sizeof(float));
    cudaMalloc(&d_z, nbig * sizeof(float));
    cudaMalloc(&d_bias, C * sizeof(float));

    dim3 block(256);
    dim3 grid((N + 255) / 256);
    cudaMalloc(&d_cycles, grid.x * sizeof(unsigned long long));

    affine_product_lambda<<<grid, block>>>(d_y, d_x, 2.0f, 1.0f, n);
    square_plus_one_timed<<<grid, block>>>(d_x, d_y, d_cycles, n);
    relu_inplace<<<std::min<size_t>((nbig + 255) / 256, 65535), 256>>>(d_x, nbig);
    vector_add<<<grid, block>>>(d_x, d_y, d_z, N);
    scale_half2<<<ceil((float)(n / 2) / block.x), block>>>((__half2*)d_x, __float2half2_rn(0.5f), n / 2);

    dim3 agrid(ceil_div(C, 256), rows);
    bias_act<0><<<agrid, 256>>>(d_x, d_bias, d_y, rows, C);
    bias_act<1><<<agrid, 256>>>(d_x, d_bias, d_y, rows, C);

    scale_vec4<<<ceil_div(n / 4, 256), 256>>>(d_y, d_x, 3.0f, n / 4);
    axpy_items<4><<<ceil_div(n, 256 * 4), 256>>>(n, 2.0f, d_x, d_y);

    cudaDeviceSynchronize();
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_z);
    cudaFree(d_bias);
    cudaFree(d_cycles);
    return 0;
}
