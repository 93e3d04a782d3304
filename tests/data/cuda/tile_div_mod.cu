/* tile_div_mod.cu -- 1-D thread blocks of 256 threads mapped onto 2-D tiles
 * with `/` and `%` by constants: r = threadIdx.x / 32 (0 .. 7) and
 * c = threadIdx.x % 32 (0 .. 31).  Tile sizes are literal constants
 * (32 x 32 tiles, 8 rows per pass), so no size symbol stands for them.
 *
 * transpose_scale: out = alpha * in^T for an n-by-n float matrix through a
 *   shared 32 x 33 tile; each thread moves 4 rows of the tile
 *   (k = 0, 8, 16, 24).  NO bounds guard (written for n a multiple of 32 and
 *   a grid of (n/32) x (n/32) blocks), so the counts depend on the launch.
 *   T = gridDim_x*gridDim_y*blockDim_x threads.  Assumed, as the kernel
 *   requires: blockDim_x <= 256 (so r < 8 and the rows r + k of a tile are
 *   distinct) and 32*gridDim_x <= n, 32*gridDim_y <= n (column indices below
 *   n, so the linearised indices are injective).
 *   W: per thread 4 multiplies by alpha -> W = 4*T, fp32.
 *   Q (compulsory), element size 4 bytes: the 4 elements of in a thread
 *      reads, in[(by + r + k)*n + bx + c], differ from those of every other
 *      thread (distinct (r, c) per block, distinct k, distinct blocks) ->
 *      4T elements read; likewise out receives 4T distinct elements.
 *      Q = 4*(4T + 4T) = 32*T.
 *   Q_access: the k loops have 4 trips and every reference varies with k:
 *      4 loads of in and 4 stores of out per thread -> 32*T.
 *   Q_shared: 4 stores tile[r + k][c] and 4 loads tile[c][r + k] per
 *      thread (both vary with k) -> 32*T.
 *   I = 4T / 32T = 1/8.
 *   At the launch site n = 2048, grid 64 x 64, 256 threads per block
 *   (T = 1048576 = n^2/4): W_value = 4194304, Q_value = 33554432.
 *
 * scale_rows_patch: out[r][c] = s[r] * in[r][c] for a rows-by-cols matrix,
 *   each block of 256 threads covering an 8 x 32 patch: r = blockIdx.y*8 +
 *   threadIdx.x/32, c = blockIdx.x*32 + threadIdx.x%32, guard r < rows &&
 *   c < cols.  With 256 threads per block the map (block, thread) ->
 *   (r, c) is one-to-one, and the grid is assumed to cover the guard:
 *   rows*cols threads work.
 *   W: one multiply per thread -> rows*cols, fp32.
 *   Q: in: rows*cols read; s: s[r], rows elements read; out: rows*cols
 *      written.  Q = 8*rows*cols + 4*rows.
 *   Q_access: per thread load s[r], load in, store out -> 12*rows*cols.
 *   Q_shared = 0.
 *   I = rows*cols / (8*rows*cols + 4*rows) = cols/(4*(2*cols + 1)).
 *   At the launch site rows = 1000, cols = 2000:
 *      W_value = 2000000, Q_value = 16000000 + 4000 = 16004000.
 *
 * staticroof:expect transpose_scale
 *   W        = 4*gridDim_x*gridDim_y*blockDim_x
 *   Q        = 32*gridDim_x*gridDim_y*blockDim_x
 *   Q_access = 32*gridDim_x*gridDim_y*blockDim_x
 *   Q_shared = 32*gridDim_x*gridDim_y*blockDim_x
 *   I        = 1/8
 *   fp32     = 4*gridDim_x*gridDim_y*blockDim_x
 *   W_value  = 4194304
 *   Q_value  = 33554432
 *
 * staticroof:expect scale_rows_patch
 *   W        = rows*cols
 *   Q        = 8*rows*cols + 4*rows
 *   Q_access = 12*rows*cols
 *   Q_shared = 0
 *   I        = cols/(4*(2*cols + 1))
 *   fp32     = rows*cols
 *   W_value  = 2000000
 *   Q_value  = 16004000
 */

#include <cuda_runtime.h>
#include <cstdio>

__global__ void __launch_bounds__(256)
transpose_scale(const float* __restrict__ in, float* __restrict__ out, float alpha, int n)
{
    __shared__ float tile[32][33];

    const int r = threadIdx.x / 32;
    const int c = threadIdx.x % 32;
    const int bx = blockIdx.x * 32;
    const int by = blockIdx.y * 32;

#pragma unroll
    for (int k = 0; k < 32; k += 8)
        tile[r + k][c] = in[(by + r + k) * n + bx + c];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < 32; k += 8)
        out[(bx + r + k) * n + by + c] = alpha * tile[c][r + k];
}

__global__ void __launch_bounds__(256)
scale_rows_patch(const float* __restrict__ in, const float* __restrict__ s,
                 float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.y * 8 + threadIdx.x / 32;
    const int c = blockIdx.x * 32 + threadIdx.x % 32;
    if (r < rows && c < cols)
        out[r * cols + c] = s[r] * in[r * cols + c];
}

int main()
{
    const int n = 2048;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * n * sizeof(float));
    cudaMalloc(&d_out, n * n * sizeof(float));
    cudaMemset(d_in, 0, n * n * sizeof(float));

    dim3 grid(n / 32, n / 32);
    transpose_scale<<<grid, 256>>>(d_in, d_out, 0.5f, n);

    const int rows = 1000;
    const int cols = 2000;
    float* d_s;
    cudaMalloc(&d_s, rows * sizeof(float));
    cudaMemset(d_s, 0, rows * sizeof(float));
    dim3 patch_grid((cols + 31) / 32, (rows + 7) / 8);
    scale_rows_patch<<<patch_grid, 256>>>(d_in, d_s, d_out, rows, cols);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_s);
    return 0;
}
