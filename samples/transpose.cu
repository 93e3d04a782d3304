/* transpose.cu -- out = in^T for a rows-by-cols row-major float matrix
 * (out is cols-by-rows), written two ways: a naive kernel that reads
 * coalesced and writes strided, and the shared-memory version that stages a
 * 32 x 32 tile (padded to 33 columns against bank conflicts) so that both
 * the read and the write are coalesced.  Neither does any floating-point
 * arithmetic: W = 0 and I = 0 for both; they only differ in how the bytes
 * move, which is exactly what Q cannot see (it counts bytes, not
 * transactions) and Q_shared shows.
 *
 * transpose_naive: col = blockIdx.x*blockDim.x + threadIdx.x,
 *   row = blockIdx.y*blockDim.y + threadIdx.y, guard row < rows &&
 *   col < cols; the grid is assumed to cover the guard, so rows*cols
 *   threads work, one element each.
 *   W = 0.
 *   Q (compulsory), element size 4 bytes:
 *      in[row*cols + col]: rows*cols distinct elements, only read -> 4*rows*cols
 *      out[col*rows + row]: rows*cols distinct elements, only written
 *                                                      -> 4*rows*cols
 *      Q = 8*rows*cols.
 *   Q_access: one load and one store per thread -> 8*rows*cols.
 *   Q_shared = 0.
 *   At the launch site rows = 1000, cols = 1500: Q_value = 8*1500000 = 12000000.
 *
 * transpose_shared: TILE_DIM = 32, launched with 32 x 32 threads per block
 *   (blockDim = TILE_DIM in both directions; the grid is assumed to cover
 *   both guards).  Load phase: x = blockIdx.x*32 + threadIdx.x (a column of
 *   in), y = blockIdx.y*32 + threadIdx.y (a row of in), guard x < cols &&
 *   y < rows: rows*cols threads each load in[y*cols + x] and store
 *   tile[ty][tx].  Store phase: the block swaps its block indices,
 *   ox = blockIdx.y*32 + threadIdx.x (a column of out, a row of in),
 *   oy = blockIdx.x*32 + threadIdx.y (a row of out), guard ox < rows &&
 *   oy < cols: again rows*cols threads, each loading tile[tx][ty] and
 *   storing out[oy*rows + ox].
 *   W = 0.
 *   Q (compulsory): in: rows*cols distinct elements read -> 4*rows*cols;
 *      out: rows*cols distinct elements written -> 4*rows*cols;
 *      the tile is shared (on chip) -> 0.  Q = 8*rows*cols.
 *   Q_access: one load of in and one store of out per working thread
 *      -> 8*rows*cols (no loops, nothing kept in registers).
 *   Q_shared: rows*cols stores of tile[ty][tx] and rows*cols loads of
 *      tile[tx][ty] -> 4*(rows*cols + rows*cols) = 8*rows*cols.
 *   At the launch site rows = 1000, cols = 1500: Q_value = 12000000.
 *
 * staticroof:expect transpose_naive
 *   W        = 0
 *   Q        = 8*rows*cols
 *   Q_access = 8*rows*cols
 *   Q_shared = 0
 *   I        = 0
 *   W_value  = 0
 *   Q_value  = 12000000
 *
 * staticroof:expect transpose_shared
 *   W        = 0
 *   Q        = 8*rows*cols
 *   Q_access = 8*rows*cols
 *   Q_shared = 8*rows*cols
 *   I        = 0
 *   W_value  = 0
 *   Q_value  = 12000000
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define TILE_DIM 32

__global__ void transpose_naive(const float* in, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (row < rows && col < cols)
        out[col * rows + row] = in[row * cols + col];
}

__global__ void transpose_shared(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];

    __syncthreads();

    int ox = blockIdx.y * TILE_DIM + threadIdx.x;
    int oy = blockIdx.x * TILE_DIM + threadIdx.y;
    if (ox < rows && oy < cols)
        out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    const int rows = 1000;
    const int cols = 1500;
    const size_t bytes = (size_t)rows * cols * sizeof(float);

    float* h_in = (float*)malloc(bytes);
    float* h_out = (float*)malloc(bytes);
    for (int i = 0; i < rows * cols; ++i)
        h_in[i] = (float)i;

    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);

    dim3 block_naive(32, 8);
    dim3 grid_naive((cols + 31) / 32, (rows + 7) / 8);
    transpose_naive<<<grid_naive, block_naive>>>(d_in, d_out, rows, cols);

    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_shared<<<grid, block>>>(d_in, d_out, rows, cols);

    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("out[1] = %f (expected %f)\n", h_out[1], h_in[cols]);

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
