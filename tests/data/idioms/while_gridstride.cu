// Grid-stride loops written as `while` (CUDA by Example's style).  Expected: tests/test_while_loops.py.
#include <cuda_runtime.h>

__global__ void saxpy_while(int n, float a, const float *x, float *y)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int stride = blockDim.x * gridDim.x;
    while (i < n) {
        y[i] = a * x[i] + y[i];
        i += stride;
    }
}

int main()
{
    const int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    int blocks = 0;
    cudaDeviceGetAttribute(&blocks, cudaDevAttrMultiProcessorCount, 0);
    saxpy_while<<<blocks * 4, 256>>>(n, 2.0f, x, y);
    cudaDeviceSynchronize();
    return 0;
}
