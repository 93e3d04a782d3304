/* laplace3d.cu -- 7-point Laplacian of a float field on an nx x ny x nz
 * grid (x fastest: idx = (z*ny + y)*nx + x), interior points only, on a
 * 3-D grid of 3-D blocks (blockIdx.z / threadIdx.z for the slowest axis).
 * Assumes nx, ny, nz >= 4.
 *
 * Derivation: the guard 0 < x < nx-1, 0 < y < ny-1, 0 < z < nz-1 is covered
 * by the grid: P = (nx-2)*(ny-2)*(nz-2) threads work.
 *   W: six neighbours summed (5 adds), 6.0f * u[idx] (1 multiply), one
 *      subtract, one multiply by inv_h2 -> 8 fp32.  W = 8*P.
 *   Q (compulsory), element size 4 bytes:
 *      u: the seven references together touch every point of the grid
 *         except those with at least two coordinates on the boundary (the
 *         12 edges and 8 corners of the box, which no interior point
 *         neighbours): 4(nx-2) + 4(ny-2) + 4(nz-2) edge points + 8 corners,
 *         so nx*ny*nz - 4*(nx + ny + nz) + 16 elements, only read.
 *      out: the P interior points, only written.
 *      Q = 4*(nx*ny*nz - 4*(nx + ny + nz) + 16) + 4*P.
 *   Q_access: per thread 7 loads of u and 1 store of out -> 32*P.
 *   Q_shared = 0.
 *   I = 8P / Q.
 *   At the launch site nx = ny = nz = 256 (P = 254^3 = 16387064):
 *      W_value = 131096512
 *      Q_value = 4*(16777216 - 3072 + 16) + 4*16387064 = 132644896
 *
 * staticroof:expect laplace3d
 *   W        = 8*(nx-2)*(ny-2)*(nz-2)
 *   Q        = 4*(nx*ny*nz - 4*(nx + ny + nz) + 16) + 4*(nx-2)*(ny-2)*(nz-2)
 *   Q_access = 32*(nx-2)*(ny-2)*(nz-2)
 *   Q_shared = 0
 *   I        = 2*(nx-2)*(ny-2)*(nz-2)/(nx*ny*nz - 4*(nx + ny + nz) + 16 + (nx-2)*(ny-2)*(nz-2))
 *   fp32     = 8*(nx-2)*(ny-2)*(nz-2)
 *   W_value  = 131096512
 *   Q_value  = 132644896
 */

#include <cuda_runtime.h>
#include <cstdio>

__global__ void laplace3d(const float* __restrict__ u, float* __restrict__ out,
                          int nx, int ny, int nz, float inv_h2)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;

    if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
        const int idx = (z * ny + y) * nx + x;
        out[idx] = inv_h2 * (u[idx - 1] + u[idx + 1]
                             + u[idx - nx] + u[idx + nx]
                             + u[idx - nx * ny] + u[idx + nx * ny]
                             - 6.0f * u[idx]);
    }
}

int main()
{
    const int nx = 256, ny = 256, nz = 256;
    const size_t bytes = (size_t)nx * ny * nz * sizeof(float);

    float *d_u, *d_out;
    cudaMalloc(&d_u, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMemset(d_u, 0, bytes);

    dim3 block(32, 4, 4);
    dim3 grid((nx + 31) / 32, (ny + 3) / 4, (nz + 3) / 4);
    laplace3d<<<grid, block>>>(d_u, d_out, nx, ny, nz, 1.0f);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_u);
    cudaFree(d_out);
    return 0;
}
