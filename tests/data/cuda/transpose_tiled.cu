/* transpose_tiled.cu -- a shared-memory tiled transpose-and-scale with no guard: the work is
 * whatever the grid launches, so --grid/--block must change the numbers (and the launch line).
 *
 * Derivation at the launch site (grid width/32 x width/32, block 32 x 32; F = floor(width/32)):
 *   threads  = (32F)^2, one fp32 multiply each       -> W = 1024*F**2
 *   in  read : rows y < 32F, columns x < 32F <= width -> (32F)^2 elements, 4 B -> 4096*F**2
 *   out write: the same tile shape                     -> 4096*F**2
 *   Q = Q_access = 8192*F**2 (each element once); Q_shared = (store + load) * 4 B * (32F)^2.
 *   I = 1024/8192 = 1/8.  At width = 1024 (F = 32): W_value = 1048576, Q_value = 8388608.
 *
 * staticroof:expect transpose_scale
 *   W              = 1024*floor(width/32)**2
 *   Q              = 8192*floor(width/32)**2
 *   Q_access       = 8192*floor(width/32)**2
 *   Q_shared       = 8192*floor(width/32)**2
 *   I              = 1/8
 *   fp32           = 1024*floor(width/32)**2
 *   W_value        = 1048576
 *   Q_value        = 8388608
 */

#include <cuda_runtime.h>
#include <stdio.h>

#define TILE 32

__global__ void transpose_scale(const float *in, float *out, int width, float alpha)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = alpha * tile[threadIdx.x][threadIdx.y];
}

int main(void)
{
    const int width = 1024;
    float *d_in, *d_out;
    cudaMalloc(&d_in, width * width * sizeof(float));
    cudaMalloc(&d_out, width * width * sizeof(float));

    dim3 block(TILE, TILE);
    dim3 grid(width / TILE, width / TILE);
    transpose_scale<<<grid, block>>>(d_in, d_out, width, 2.0f);
    cudaDeviceSynchronize();

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
