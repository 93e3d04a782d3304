// Block-wise mirror sums staged through shared memory declared at file scope (statically
// allocated `__shared__`, and `extern __shared__` sized at the launch), as older CUDA code does.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 32
#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                            \
        }                                                                        \
    } while (0)

__shared__ float tile[TILE];
extern __shared__ float dyn[];
__shared__ float block_total;  // a scalar: one per block

// out[i] = (x[i] + x[mirror of i in its tile]) / 2; the tile is padded with zeros past n
__global__ void mirror_static(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * TILE + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = 0.5f * (tile[threadIdx.x] + tile[TILE - 1 - threadIdx.x]);
}

__global__ void mirror_dynamic(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dyn[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = 0.5f * (dyn[threadIdx.x] + dyn[blockDim.x - 1 - threadIdx.x]);
}

// one partial sum per block of 128, accumulated in a file-scope shared scalar
__global__ void block_sums(const float *__restrict__ in, float *__restrict__ sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        block_total = 0.0f;
    __syncthreads();
    if (i < n)
        atomicAdd(&block_total, in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        sums[blockIdx.x] = block_total;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    float *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    mirror_static<<<(n + TILE - 1) / TILE, TILE>>>(in, out, n);
    mirror_dynamic<<<(n + TILE - 1) / TILE, TILE, TILE * sizeof(float)>>>(in, out, n);
    block_sums<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    printf("%d elements: %.3f ms\n", n, ms);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
