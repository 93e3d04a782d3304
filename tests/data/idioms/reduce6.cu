// The CUDA samples' reduce6 shape: a template block size, __launch_bounds__, a grid-stride while loop
// that takes two elements a trip (i and i + blockSize), a shared tree and warp shuffles.
// Expected values: tests/test_thread_idioms.py.
#include <cuda_runtime.h>
#include <cstdint>

template <unsigned int blockSize, bool nIsPow2>
__global__ void __launch_bounds__(blockSize) reduce6(const float *__restrict__ g_idata, float *__restrict__ g_odata, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    float mySum = 0.f;
    if (nIsPow2) {
        unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
        while (i < n) {
            mySum += g_idata[i];
            if (i + blockSize < n)
                mySum += g_idata[i + blockSize];
            i += gridSize;
        }
    } else {
        unsigned int i = blockIdx.x * blockSize + threadIdx.x;
        while (i < n) {
            mySum += g_idata[i];
            i += blockSize * gridDim.x;
        }
    }
    sdata[tid] = mySum;
    __syncthreads();
    if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
    __syncthreads();
    if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
    __syncthreads();
    if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

int main()
{
    unsigned int n = 1 << 20;
    float *in, *out;
    reduce6<256, true><<<64, 256, 256 * sizeof(float)>>>(in, out, n);
    reduce6<256, false><<<64, 256, 256 * sizeof(float)>>>(in, out, n);
    return 0;
}
