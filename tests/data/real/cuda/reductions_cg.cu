/* reductions_cg.cu -- block and warp reductions written with cooperative groups, the way the
 * CUDA samples and production code do it: a grid-stride accumulation in a register, a warp-level
 * cg::reduce or shuffle tree, warp partials through shared memory, one atomic per block.
 *
 * reduce_sum_cg<<<256, 256>>>(d_in, d_out, n) (blocks = 256 and threads = 256 are constants in
 * main, so gridDim.x = 256, blockDim.x = 256, 8 warps per block):
 *   W: the grid-stride loop visits every i in [0, n) once: n adds.
 *      cg::reduce over a tile of 32 lanes is 31 adds per tile: 8 tiles per block -> 248.
 *      Warp 0 reduces the 8 warp sums (lanes >= 8 contribute 0.0f) with a second cg::reduce:
 *      31 adds per block.  Thread 0's atomicAdd on a float: 1 add per block.
 *      W = n + 256*(248 + 31 + 1) = n + 71680, fp32.
 *   Q: in read n (4n); out[0]: the atomic reads and writes one element (4 + 4).  Q = 4*n + 8.
 *
 * gemv_warp_rows<<<(rows + 3) / 4, 128>>> (WARPS_PER_BLOCK = 4, one warp per row, guard
 * row < rows covered by the grid):
 *   W per row: lane-strided j loop covers j < cols once: 2*cols (multiply-add);
 *      the xor-shuffle tree (offsets 16, 8, 4, 2, 1) runs in all 32 lanes: 5*32 = 160 adds.
 *      W = 2*rows*cols + 160*rows.
 *   Q: A read rows*cols, x read cols, y written rows: Q = 4*rows*cols + 4*cols + 4*rows.
 *
 * row_norms_tile<<<ceil_div(rows, 8), 256>>>: a tile of 32 per row (meta_group_size() = 8 tiles
 * per block), tile.shfl_down tree with i = tile.size()/2 = 16, 8, 4, 2, 1; guard row < rows.
 *   W per row: v += x*x over cols: 2*cols; 5 shuffle adds in each of 32 lanes: 160; lane 0:
 *      sqrtf (special, 1).  W = 2*rows*cols + 161*rows; special = rows.
 *   Q = 4*rows*cols + 4*rows.
 *
 * scale_add_grid_sync (cooperative launch, grid.thread_rank() and grid.size() strided loops):
 *   phase 1: y[i] = a * x[i] (1 per i); grid.sync(); phase 2: z[i] = y[i] + x[i] (1 per i).
 *   W = 2*n.  Q: x read n, y written n (its phase-2 reads follow the writes), z written n: 12*n.
 *
 * staticroof:expect reduce_sum_cg
 *   W    = n + 71680
 *   Q    = 4*n + 8
 *   fp32 = n + 71680
 *
 * staticroof:expect gemv_warp_rows
 *   W    = 2*rows*cols + 160*rows
 *   Q    = 4*rows*cols + 4*cols + 4*rows
 *   fp32 = 2*rows*cols + 160*rows
 *
 * staticroof:expect row_norms_tile
 *   W       = 2*rows*cols + 161*rows
 *   Q       = 4*rows*cols + 4*rows
 *   fp32    = 2*rows*cols + 161*rows
 *   special = rows
 *
 * staticroof:expect scale_add_grid_sync
 *   W    = 2*n
 *   Q    = 12*n
 *   fp32 = 2*n
 */

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define WARPS_PER_BLOCK 4

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(EXIT_FAILURE);                                                       \
        }                                                                             \
    } while (0)

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

__global__ void reduce_sum_cg(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];

    sum = cg::reduce(warp, sum, cg::plus<float>());
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = sum;
    block.sync();

    if (warp.meta_group_rank() == 0) {
        float v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (block.thread_rank() == 0)
            atomicAdd(out, v);
    }
}

__global__ void gemv_warp_rows(const float* __restrict__ A, const float* __restrict__ x,
                               float* __restrict__ y, int rows, int cols)
{
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    if (row >= rows)
        return;

    float acc = 0.0f;
    for (int j = lane; j < cols; j += 32)
        acc += A[row * cols + j] * x[j];

#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        acc += __shfl_xor_sync(0xffffffff, acc, offset);

    if (lane == 0)
        y[row] = acc;
}

__global__ void row_norms_tile(const float* __restrict__ x, float* __restrict__ norms, int rows, int cols)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    const int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
    if (row >= rows)
        return;

    float v = 0.0f;
    for (int j = tile.thread_rank(); j < cols; j += tile.size()) {
        const float e = x[row * cols + j];
        v += e * e;
    }
    for (int i = tile.size() / 2; i > 0; i /= 2)
        v += tile.shfl_down(v, i);

    if (tile.thread_rank() == 0)
        norms[row] = sqrtf(v);
}

__global__ void scale_add_grid_sync(const float* __restrict__ x, float* __restrict__ y,
                                    float* __restrict__ z, float a, int n)
{
    cg::grid_group grid = cg::this_grid();

    for (int i = grid.thread_rank(); i < n; i += grid.size())
        y[i] = a * x[i];

    grid.sync();

    for (int i = grid.thread_rank(); i < n; i += grid.size())
        z[i] = y[i] + x[i];
}

int main(int argc, char** argv)
{
    const int n = 1 << 24;
    const int rows = 4096;
    const int cols = 1000;

    float *d_in, *d_out, *d_A, *d_x, *d_y, *d_z;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_A, (size_t)rows * cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_z, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof(float)));

    const int blocks = 256;
    const int threads = 256;
    reduce_sum_cg<<<blocks, threads>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());

    gemv_warp_rows<<<(rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, WARPS_PER_BLOCK * 32>>>(d_A, d_x, d_y, rows, cols);
    row_norms_tile<<<ceil_div(rows, 8), 256>>>(d_A, d_y, rows, cols);

    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    float a = 2.0f;
    int nn = n;
    void* args[] = {&d_x, &d_y, &d_z, &a, &nn};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void*)scale_add_grid_sync, dim3(sms * 2), dim3(256), args));
    CUDA_CHECK(cudaDeviceSynchronize());

    float h_out = 0.0f;
    CUDA_CHECK(cudaMemcpy(&h_out, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    printf("sum = %f\n", h_out);

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_A);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_z);
    return 0;
}
