// C++ reference parameters of __device__ helpers, as CUDA code writes them: the callee's stores
// through a `T&` reach the caller's element (or register).  Expected values: tests/test_references.py.
#include <cuda_runtime.h>

__device__ __forceinline__ void axpy_update(float& yi, float a, float xi)
{
    yi = a * xi + yi;
}

// a write-only output reference: the element is written, never read
__device__ inline void store_scaled(float &out, float s, float v)
{
    out = s * v;
}

// an accumulator in the caller's register
__device__ void accumulate(float &sum, float v)
{
    sum += v * v;
}

// a const reference is a read of the argument, like a copy
__device__ float twice(const float &v)
{
    return v + v;
}

// an integer the callee changes: the caller's index is unknown afterwards
__device__ void advance(int &k, int step)
{
    k += step;
}

// a double reference updated twice through compound operators
__device__ void relax(double &u, double w, double v)
{
    u *= 1.0 - w;
    u += w * v;
}

__global__ void saxpy_ref(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        axpy_update(y[i], a, x[i]);
}

__global__ void scale_out(int n, float s, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        store_scaled(y[i], s, x[i]);
}

__global__ void row_norms(int n, int m, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        for (int j = 0; j < m; ++j)
            accumulate(s, x[i * m + j]);
        out[i] = s;
    }
}

__global__ void double_it(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = twice(x[i]);
}

__global__ void relax_ref(int n, double w, const double *v, double *u)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        relax(u[i], w, v[i]);
}

__global__ void shifted(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = i;
        advance(k, 1);
        y[i] = x[k];
    }
}

int main()
{
    const int n = 1 << 20, m = 64;
    float *x, *y;
    double *u, *v;
    cudaMalloc(&x, n * m * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&u, n * sizeof(double));
    cudaMalloc(&v, n * sizeof(double));
    saxpy_ref<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    scale_out<<<(n + 255) / 256, 256>>>(n, 3.0f, x, y);
    row_norms<<<(n + 127) / 128, 128>>>(n, m, x, y);
    double_it<<<(n + 255) / 256, 256>>>(n, x, y);
    relax_ref<<<(n + 255) / 256, 256>>>(n, 0.8, v, u);
    shifted<<<(n + 255) / 256, 256>>>(n - 1, x, y);
    cudaDeviceSynchronize();
    return 0;
}
