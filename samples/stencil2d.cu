/* stencil2d.cu -- one Jacobi sweep for the 2-D Poisson equation
 * lap(u) = f on an n-by-n double grid (5-point Laplacian, grid spacing h,
 * h2 = h*h): every interior point of u_new becomes
 *   0.25 * (north + south + west + east - h2 * f)
 * of the old iterate u.  One thread per grid point, row i from the y
 * dimension and column j from the x dimension, guarded to the interior.
 * Assumes n >= 4 (so that every interior point of u is some thread's
 * neighbour).
 *
 * Derivation: the guard i > 0 && i < n-1 && j > 0 && j < n-1 is assumed
 * covered by the grid, so exactly the (n-2)^2 interior threads work.
 *   W: per thread three double adds (four neighbours summed), one
 *      multiply h2 * f[..], one subtract, one multiply by the double
 *      literal 0.25 -> 6 fp64.  W = 6*(n-2)**2.
 *   Q (compulsory), element size 8 bytes:
 *      u: the north and south references u[(i-1)*n + j], u[(i+1)*n + j]
 *         cover rows 0 .. n-1 at columns 1 .. n-2; west and east
 *         u[i*n + j-1], u[i*n + j+1] cover columns 0 .. n-1 at rows
 *         1 .. n-2.  Every element but the four corners is read (the centre
 *         u[i*n + j] itself is not a term, but for n >= 4 every interior
 *         point is a neighbour of another interior point):
 *         n^2 - 4 distinct elements -> 8(n^2 - 4).
 *      f: f[i*n + j], the (n-2)^2 interior elements, only read -> 8(n-2)^2.
 *      u_new: the (n-2)^2 interior elements, only written     -> 8(n-2)^2.
 *      h2: scalar by value -> 0.
 *      Q = 8(n^2 - 4) + 16(n-2)^2 = 24n^2 - 64n + 32 = 8*(3*n - 2)*(n - 2).
 *   Q_access: per thread four loads of u, one load of f and one store of
 *      u_new (six different references, no loop) -> 6 * 8 = 48 bytes.
 *      Q_access = 48*(n-2)**2.
 *   Q_shared = 0.
 *   I = W / Q = 6(n-2)^2 / (8(3n-2)(n-2)) = 3*(n-2)/(4*(3*n-2)).
 *   At the launch site n = 2048:
 *      W_value = 6 * 2046^2 = 25116696
 *      Q_value = 8 * 6142 * 2046 = 100532256
 *
 * staticroof:expect jacobi_step
 *   W        = 6*(n-2)**2
 *   Q        = 8*(3*n-2)*(n-2)
 *   Q_access = 48*(n-2)**2
 *   Q_shared = 0
 *   I        = 3*(n-2)/(4*(3*n-2))
 *   fp64     = 6*(n-2)**2
 *   W_value  = 25116696
 *   Q_value  = 100532256
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void jacobi_step(const double* __restrict__ u, const double* __restrict__ f,
                            double* __restrict__ u_new, double h2, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if (i > 0 && i < n - 1 && j > 0 && j < n - 1) {
        u_new[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j]
                                   + u[i * n + j - 1] + u[i * n + j + 1]
                                   - h2 * f[i * n + j]);
    }
}

int main()
{
    const int n = 2048;
    const size_t bytes = (size_t)n * n * sizeof(double);
    const double h = 1.0 / (n - 1);

    double* h_u = (double*)calloc((size_t)n * n, sizeof(double));
    double* h_f = (double*)malloc(bytes);
    for (int k = 0; k < n * n; ++k)
        h_f[k] = 1.0;

    double *d_u, *d_f, *d_u_new;
    cudaMalloc(&d_u, bytes);
    cudaMalloc(&d_f, bytes);
    cudaMalloc(&d_u_new, bytes);
    cudaMemcpy(d_u, h_u, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_u_new, h_u, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_f, h_f, bytes, cudaMemcpyHostToDevice);

    dim3 block(32, 8);
    dim3 grid((n + 31) / 32, (n + 7) / 8);
    jacobi_step<<<grid, block>>>(d_u, d_f, d_u_new, h * h, n);

    cudaMemcpy(h_u, d_u_new, bytes, cudaMemcpyDeviceToHost);
    printf("u_new[centre] = %g\n", h_u[(n / 2) * n + n / 2]);

    cudaFree(d_u);
    cudaFree(d_f);
    cudaFree(d_u_new);
    free(h_u);
    free(h_f);
    return 0;
}
