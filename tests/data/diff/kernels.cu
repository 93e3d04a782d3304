#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void row_sum(const float *in, float *out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += in[row * cols + c];
        out[row] = s;
    }
}

__global__ void scale(const float *__restrict__ x, float *__restrict__ y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

__global__ void halve(const float *__restrict__ x, float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * 0.5f;
}

__global__ void smooth(const float *__restrict__ x, float *__restrict__ y, float c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (i < n - 1)
        y[i] = c * x[i - 1] + c * x[i + 1] + x[i];
}

int main()
{
    const int n = 1 << 20, rows = 4096, cols = 256, threads = 256;
    float *x, *y;
    CUDA_CHECK(cudaMalloc(&x, 2 * n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
    row_sum<<<(rows + threads - 1) / threads, threads>>>(x, y, rows, cols);
    scale<<<(n + threads - 1) / threads, threads>>>(x, y, 2.0f, n);
    halve<<<(n + threads - 1) / threads, threads>>>(x, y, n);
    smooth<<<(n + threads - 1) / threads, threads>>>(x, y, 0.25f, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}
