/* vector_add_a100.cu -- vector add C = A + B, fp32, blocks of 256: our own code of the kernel the
 * shared ncu runs a100-console/ncu_full_N1024_ncu2025style.txt (N = 1024, grid 4) and
 * a100-console/ncu_full_N1048576_olderstyle.txt (N = 2^20, grid 4096) measured (`ncu --set full`
 * console output on an A100, copied in tests/data/ncu/).  The kernel takes no size: N is a macro,
 * given with -D N=... as the run was compiled (`nvcc -DN=1048576 vectorAdd.cu`); `staticroof
 * validate samples/vector_add_a100.cu -D N=1048576 --ncu tests/data/ncu/a100-console/...` compares.
 *
 * vectorAdd: i = blockIdx.x*blockDim.x + threadIdx.x with the guard i < N; the grid
 *   (N + 255) / 256 blocks of 256 covers the guard, so the threads i = 0 .. N-1 do work.
 *   W: per thread one float add (A[i] + B[i]) -> 1 fp32.  W = N.
 *   Q (compulsory), element size 4 bytes:
 *      A: N distinct elements, only read     -> 4N
 *      B: N distinct elements, only read     -> 4N
 *      C: N distinct elements, only written  -> 4N         Q = 12*N.
 *   Q_access: per thread two loads and one store of 4 bytes -> 12*N.
 *   Q_shared: no shared memory -> 0.
 *   I = W / Q = N / 12N = 1/12.
 *   With no -D, the macro's default N = 1024: W_value = 1024, Q_value = 12 * 1024 = 12288.
 *   (At N = 2^20 the DRAM reads are 8N = 8,388,608 B; the run's 826.98 GB/s x 10.14 us is
 *   8,385,577 B: 0.99964.)
 *
 * staticroof:expect vectorAdd
 *   W        = N
 *   Q        = 12*N
 *   Q_access = 12*N
 *   Q_shared = 0
 *   I        = 1/12
 *   fp32     = N
 *   W_value  = 1024
 *   Q_value  = 12288
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1024
#endif
#define THREADS 256

__global__ void vectorAdd(float *A, float *B, float *C)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        C[i] = A[i] + B[i];
}

int main(void)
{
    size_t bytes = N * sizeof(float);
    float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
    for (int i = 0; i < N; i++) {
        h_a[i] = 1.0f;
        h_b[i] = 2.0f;
    }
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMalloc(&d_c, bytes);
    cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);
    vectorAdd<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_a, d_b, d_c);
    cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost);
    printf("C[0] = %f\n", h_c[0]);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    free(h_a); free(h_b); free(h_c);
    return 0;
}
