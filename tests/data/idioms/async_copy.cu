// The asynchronous copy API as CUDA code writes it: cooperative groups, cuda::pipeline and
// cuda::barrier, and the pipeline primitives.  Expected values: tests/test_async_copy.py.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

#define TILE 256

// each block stages its tile of x in shared memory with a block-wide async copy, then scales it
__global__ void stage_scale(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{
    __shared__ float tile[TILE];
    cg::thread_block block = cg::this_thread_block();
    const int base = blockIdx.x * TILE;
    cg::memcpy_async(block, tile, x + base, sizeof(float) * TILE);
    cg::wait(block);
    int i = base + threadIdx.x;
    y[i] = a * tile[threadIdx.x];
}

// a per-thread copy through a pipeline
__global__ void pipe_copy(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float buf[TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[threadIdx.x], &x[i], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    y[i] = buf[threadIdx.x] + 1.0f;
    pipe.consumer_release();
}

// the primitives API: 16-byte copies (4 floats per thread)
__global__ void prim_copy(const float* __restrict__ x, float* __restrict__ y)
{
    __shared__ float buf[4 * TILE];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    __pipeline_memcpy_async(&buf[4 * t], &x[4 * i], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    y[i] = buf[4 * t] + buf[4 * t + 1] + buf[4 * t + 2] + buf[4 * t + 3];
}

// a block-wide copy completed through a barrier, read back reversed
__global__ void barrier_copy(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float tile[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    __syncthreads();
    cuda::memcpy_async(block, tile, x + blockIdx.x * TILE, cuda::aligned_size_t<16>(sizeof(float) * TILE), bar);
    bar.arrive_and_wait();
    y[blockIdx.x * TILE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

// each warp stages its own 32 elements
__global__ void warp_stage(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float buf[TILE];
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int w = threadIdx.x / 32;
    cg::memcpy_async(warp, buf + w * 32, x + blockIdx.x * TILE + w * 32, sizeof(float) * 32);
    cg::wait(warp);
    y[blockIdx.x * TILE + threadIdx.x] = 2.0f * buf[threadIdx.x];
}

int main()
{
    int n = 1 << 20;
    float *x, *y;
    stage_scale<<<n / TILE, TILE>>>(x, y, 2.0f, n);
    pipe_copy<<<n / TILE, TILE>>>(x, y, n);
    prim_copy<<<n / TILE, TILE>>>(x, y);
    barrier_copy<<<n / TILE, TILE>>>(x, y, n);
    warp_stage<<<n / TILE, TILE>>>(x, y, n);
    return 0;
}
