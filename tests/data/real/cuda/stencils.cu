/* stencils.cu -- finite-difference stencils: a 1-D convolution with weights in __constant__
 * memory and an unrolled tap loop in a grid-stride loop, a 3-D 7-point heat stencil (2-D grid,
 * loop over z), and a 2-D 5-point step whose coefficients come in a struct passed by value.
 *
 * conv1d_const (RADIUS = 4, 9 taps): the grid-stride loop starting at RADIUS visits every
 *   i in [4, n-4) once.  Per point 9 multiply-adds: 18 FLOPs.  W = 18*(n - 8) (n >= 9).
 *   Q: in read over [0, n): 4n; c_weights read once (9 x 4 = 36 B); out written n - 8:
 *   Q = 4*n + 36 + 4*(n - 8) = 8*n + 4.
 *
 * heat3d_7pt: interior i in [1, nx-1), j in [1, ny-1) by the guard, k in [1, nz-1) by the loop;
 *   P = (nx-2)*(ny-2)*(nz-2) points, each c0*in[c] + c1*(six neighbours) + ...: 2 multiplies,
 *   6 adds = 8.  W = 8*P.
 *   Q: in is read at the interior and at the face points next to it (points with exactly one
 *   coordinate on the boundary and the others interior): P + 2*(ny-2)*(nz-2) +
 *   2*(nx-2)*(nz-2) + 2*(nx-2)*(ny-2); out written P.
 *   Q = 4*(2*P + 2*(ny-2)*(nz-2) + 2*(nx-2)*(nz-2) + 2*(nx-2)*(ny-2)).
 *   The plane stride nx*ny is a product of sizes: counted at the launch's sizes (256^3):
 *   W = 8*254^3 = 131096512, Q = 4*(2*254^3 + 6*254^2) = 132644896.
 *
 * heat2d_step: interior (nx-2)*(ny-2) points, center*u + neighbor*(4 neighbours): 2 multiplies,
 *   3 + 1 adds = 6.  W = 6*(nx-2)*(ny-2).  Q: u read at every point but the 4 corners
 *   (nx*ny - 4), u_new written at the interior: Q = 4*(nx*ny - 4) + 4*(nx-2)*(ny-2).
 *
 * staticroof:expect conv1d_const
 *   W    = 18*(n - 8)
 *   Q    = 8*n + 4
 *   fp32 = 18*(n - 8)
 *
 * staticroof:expect heat3d_7pt
 *   W       = 8*(nx - 2)*(ny - 2)*(nz - 2)
 *   Q       = 4*(2*(nx - 2)*(ny - 2)*(nz - 2) + 2*(ny - 2)*(nz - 2) + 2*(nx - 2)*(nz - 2) + 2*(nx - 2)*(ny - 2))
 *   fp32    = 8*(nx - 2)*(ny - 2)*(nz - 2)
 *   W_value = 131096512
 *   Q_value = 132644896
 *
 * staticroof:expect heat2d_step
 *   W    = 6*(nx - 2)*(ny - 2)
 *   Q    = 4*(nx*ny - 4) + 4*(nx - 2)*(ny - 2)
 *   fp32 = 6*(nx - 2)*(ny - 2)
 */

#include <cstdio>
#include <cstdlib>
#include <utility>
#include <cuda_runtime.h>

#define RADIUS 4
#define ceil_div(a, b) (((a) + (b) - 1) / (b))

__constant__ float c_weights[2 * RADIUS + 1];

struct StencilCoeffs {
    float center;
    float neighbor;
};

__global__ void conv1d_const(const float* __restrict__ in, float* __restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x + RADIUS; i < n - RADIUS; i += blockDim.x * gridDim.x) {
        float acc = 0.0f;
#pragma unroll
        for (int k = -RADIUS; k <= RADIUS; ++k)
            acc += c_weights[k + RADIUS] * in[i + k];
        out[i] = acc;
    }
}

__global__ void heat3d_7pt(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                           float c0, float c1)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
        return;

    const int plane = nx * ny;
    for (int k = 1; k < nz - 1; ++k) {
        const int c = k * plane + j * nx + i;
        out[c] = c0 * in[c] + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - plane] + in[c + plane]);
    }
}

__global__ void heat2d_step(const float* __restrict__ u, float* __restrict__ u_new, int nx, int ny,
                            StencilCoeffs cf)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
        const int c = j * nx + i;
        u_new[c] = cf.center * u[c] + cf.neighbor * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx]);
    }
}

int main(int argc, char** argv)
{
    const int n = 1 << 22;
    const int nx = 256, ny = 256, nz = 256;
    const int steps = 100;

    float h_w[2 * RADIUS + 1] = {0.01f, 0.05f, 0.1f, 0.2f, 0.28f, 0.2f, 0.1f, 0.05f, 0.01f};
    cudaMemcpyToSymbol(c_weights, h_w, sizeof(h_w));

    float *d_in, *d_out, *d_a, *d_b;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMalloc(&d_a, (size_t)nx * ny * nz * sizeof(float));
    cudaMalloc(&d_b, (size_t)nx * ny * nz * sizeof(float));

    conv1d_const<<<1024, 256>>>(d_in, d_out, n);

    dim3 block3(32, 8);
    dim3 grid3(ceil_div(nx, block3.x), ceil_div(ny, block3.y));
    heat3d_7pt<<<grid3, block3>>>(d_a, d_b, nx, ny, nz, 0.4f, 0.1f);

    const float alpha = 0.1f;
    StencilCoeffs cf = {1.0f - 4.0f * alpha, alpha};
    dim3 block2(32, 8);
    dim3 grid2(ceil_div(nx, 32), ceil_div(ny, 8));
    for (int s = 0; s < steps; ++s) {
        heat2d_step<<<grid2, block2>>>(d_a, d_b, nx, ny, cf);
        std::swap(d_a, d_b);
    }
    cudaDeviceSynchronize();

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_a);
    cudaFree(d_b);
    return 0;
}
