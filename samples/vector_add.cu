/* vector_add.cu -- element-wise sum of two float vectors, c[i] = a[i] + b[i],
 * one element per thread.
 *
 * Derivation: i = blockIdx.x*blockDim.x + threadIdx.x with the guard
 * i < n; the grid is assumed to cover the guard, so the threads
 * i = 0 .. n-1 each do one element (n threads of work).
 *   W: one float add per thread -> W = n, fp32.
 *   Q (compulsory), element size 4 bytes:
 *      a: n distinct elements, only read       -> 4n
 *      b: n distinct elements, only read       -> 4n
 *      c: n distinct elements, only written    -> 4n
 *      Q = 12*n.
 *   Q_access: per thread load a[i], load b[i], store c[i] -> 12 bytes:
 *      Q_access = 12*n.
 *   Q_shared = 0 (no shared memory).
 *   I = W / Q = n / 12n = 1/12.
 *   At the launch site n = 50000 (blocks = (50000 + 255)/256 = 196, i.e.
 *   50176 threads, of which the 176 with i >= n do nothing):
 *      W_value = 50000, Q_value = 12 * 50000 = 600000.
 *
 * staticroof:expect vector_add
 *   W        = n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = 1/12
 *   fp32     = n
 *   W_value  = 50000
 *   Q_value  = 600000
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

int main(void)
{
    const int n = 50000;
    size_t size = n * sizeof(float);

    float* h_a = (float*)malloc(size);
    float* h_b = (float*)malloc(size);
    float* h_c = (float*)malloc(size);
    for (int i = 0; i < n; ++i) {
        h_a[i] = rand() / (float)RAND_MAX;
        h_b[i] = rand() / (float)RAND_MAX;
    }

    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    cudaMalloc((void**)&d_a, size);
    cudaMalloc((void**)&d_b, size);
    cudaMalloc((void**)&d_c, size);
    cudaMemcpy(d_a, h_a, size, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, size, cudaMemcpyHostToDevice);

    int threadsPerBlock = 256;
    int blocksPerGrid = (n + threadsPerBlock - 1) / threadsPerBlock;
    vector_add<<<blocksPerGrid, threadsPerBlock>>>(d_a, d_b, d_c, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
        return EXIT_FAILURE;
    }

    cudaMemcpy(h_c, d_c, size, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        if (fabsf(h_a[i] + h_b[i] - h_c[i]) > 1e-5f) {
            fprintf(stderr, "mismatch at %d\n", i);
            return EXIT_FAILURE;
        }
    }
    printf("PASSED\n");

    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    free(h_a);
    free(h_b);
    free(h_c);
    return 0;
}
