// Kernels on float3/float4 values using the operators of a helper header (the CUDA samples'
// helper_math.h style).  Expected values: tests/test_vector_operators.py.
#include "helper_math_lite.h"

__global__ void axpy3(int n, float s, const float3 *x, float3 *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 v = x[i] * s + y[i];
        y[i] = v;
    }
}

__global__ void acc3(int n, const float3 *x, float3 *y, float *d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 a = y[i];
        a += x[i];
        y[i] = a;
        d[i] = dot(a, x[i]);
    }
}

// a scalar on the left, a difference, and float4 sums
__global__ void mixed(int n, const float3 *x, const float3 *y, float3 *z, const float4 *p, float4 *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[i] = 0.5f * (x[i] - y[i]);
        q[i] = p[i] + p[i];
    }
}

// int3 has no operator in the header: the sum is not followed (SR105, approximate)
__global__ void no_operator(int n, const int3 *a, int3 *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i] + a[i];
}
