/* matmul_naive.cu -- square single-precision matrix product C = A * B on
 * N-by-N row-major matrices (linearised indices), one thread per element
 * of C, the dot product kept in a register accumulator.
 *
 * Derivation: row = blockIdx.y*blockDim.y + threadIdx.y and
 * col = blockIdx.x*blockDim.x + threadIdx.x with the guard
 * row < N && col < N; the grid is assumed to cover the guard, so the
 * N^2 threads (row, col) in [0, N)^2 do work.  Each runs the k loop
 * N times (N^3 k trips in all).
 *   W: per k trip one float multiply and one float add (acc +=) -> 2 fp32.
 *      W = 2*N**3.
 *   Q (compulsory), element size 4 bytes:
 *      A: A[row*N + k] takes every value 0 .. N^2-1 (row, k < N) -> N^2
 *         distinct elements, only read                         -> 4N^2
 *      B: B[k*N + col], likewise N^2 distinct, only read       -> 4N^2
 *      C: C[row*N + col], N^2 distinct, only written           -> 4N^2
 *      acc is a register -> 0.
 *      Q = 12*N**2.
 *   Q_access: A[row*N + k] and B[k*N + col] vary with k (their innermost
 *      loop) -> one load each per k trip -> 2 * 4 * N^3.  The store
 *      C[row*N + col] = acc is outside the k loop: one per thread -> 4N^2.
 *      Q_access = 8N^3 + 4N^2 = 4*(2*N**3 + N**2).
 *   Q_shared = 0.
 *   I = W / Q = 2N^3 / 12N^2 = N/6.
 *   At the launch site N = 1024 (grid 64 x 64 blocks of 16 x 16 threads):
 *      W_value = 2 * 1024^3 = 2147483648, Q_value = 12 * 1024^2 = 12582912.
 *
 * staticroof:expect matmul_naive
 *   W        = 2*N**3
 *   Q        = 12*N**2
 *   Q_access = 4*(2*N**3 + N**2)
 *   Q_shared = 0
 *   I        = N/6
 *   fp32     = 2*N**3
 *   W_value  = 2147483648
 *   Q_value  = 12582912
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void matmul_naive(const float* A, const float* B, float* C, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < N && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < N; ++k)
            acc += A[row * N + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

int main()
{
    const int N = 1024;
    const size_t bytes = (size_t)N * N * sizeof(float);

    float* h_A = (float*)malloc(bytes);
    float* h_B = (float*)malloc(bytes);
    float* h_C = (float*)malloc(bytes);
    for (int i = 0; i < N * N; ++i) {
        h_A[i] = 1.0f;
        h_B[i] = 0.5f;
    }

    float *d_A, *d_B, *d_C;
    cudaMalloc(&d_A, bytes);
    cudaMalloc(&d_B, bytes);
    cudaMalloc(&d_C, bytes);
    cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice);

    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (N + 15) / 16);
    matmul_naive<<<grid, block>>>(d_A, d_B, d_C, N);

    cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost);
    printf("C[0] = %f (expected %f)\n", h_C[0], 0.5f * N);

    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
