// Vector add C = A + B, fp32, blocks of 256: the A100 console runs (tests/data/ncu/a100-console),
// N = 1024 (grid 4) and N = 2^20 (grid 4096).  The kernel takes no size: N is a macro, given with
// -D N=... as the run was compiled (`nvcc -DN=1048576 vectorAdd.cu`).
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
