// A 1-D FIR filter whose taps live in constant memory: the host copies them once with
// cudaMemcpyToSymbol, every thread reads all K of them.  Thread i computes
// out[i] = sum_k coeff[k] * in[i + k] for the n - K + 1 outputs whose window fits.
#include <cuda_runtime.h>
#include <stdio.h>

#define K 5
#define BLOCK 128

__constant__ float coeff[K];

__global__ void fir(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - K + 1) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++)
            acc += coeff[k] * in[i + k];
        out[i] = acc;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    const float taps[K] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpyToSymbol(coeff, taps, sizeof taps);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    fir<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    printf("fir: %.3f ms\n", ms);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
