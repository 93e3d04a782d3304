/* histogram.cu -- weighted histogram with float atomics: every element x[i]
 * adds its weight w[i] to the bin it falls in.  The bin is computed from
 * the data, so the index of hist is data-dependent: the traffic of hist
 * cannot be counted exactly, and the expected result is APPROXIMATE
 * (exact = false).
 *
 * Derivation: i < n covered by the grid: n threads.
 *   W (exact): (x[i] - lo) one subtract, * inv_width one multiply (the
 *      cast to int and the min/max clamp count 0), atomicAdd one float add
 *      -> 3 fp32 per thread.  W = 3*n.
 *   Q (compulsory), element size 4 bytes:
 *      x: n read -> 4n; w: n read -> 4n (exact).
 *      hist[bin]: non-affine index.  As for any non-affine reference, every
 *      access is counted as a distinct element (an upper bound): the
 *      atomic's read of n elements -> 4n and its write of n -> 4n.
 *      (The true value is 8 bytes per bin actually hit, at most 8*nbins.)
 *      Q = 16*n (upper bound).
 *   Q_access: per thread load x[i], load w[i], atomic read and write of
 *      hist[bin] -> 16*n (every atomic does touch memory: this count does
 *      not depend on the data).
 *   Q_shared = 0.
 *   I = 3n / 16n = 3/16 (a lower bound for the compulsory intensity).
 *   At the launch site n = 1 << 20 = 1048576, nbins = 64:
 *      W_value = 3145728, Q_value = 16777216 (upper bound; the exact value
 *      is 8388608 + 8 * (bins hit) <= 8389120).
 *
 * staticroof:expect weighted_histogram
 *   W        = 3*n
 *   Q        = 16*n
 *   Q_access = 16*n
 *   Q_shared = 0
 *   I        = 3/16
 *   fp32     = 3*n
 *   W_value  = 3145728
 *   Q_value  = 16777216
 *   exact    = false
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void weighted_histogram(const float* __restrict__ x, const float* __restrict__ w,
                                   float* __restrict__ hist, float lo, float inv_width,
                                   int nbins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int bin = static_cast<int>((x[i] - lo) * inv_width);
        bin = min(max(bin, 0), nbins - 1);
        atomicAdd(&hist[bin], w[i]);
    }
}

int main()
{
    const int n = 1 << 20;
    const int nbins = 64;

    float* h_x = (float*)malloc(n * sizeof(float));
    float* h_w = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        h_x[i] = (float)rand() / RAND_MAX;
        h_w[i] = 1.0f;
    }

    float *d_x, *d_w, *d_hist;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_w, n * sizeof(float));
    cudaMalloc(&d_hist, nbins * sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, h_w, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_hist, 0, nbins * sizeof(float));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    weighted_histogram<<<blocks, threads>>>(d_x, d_w, d_hist, 0.0f, (float)nbins, nbins, n);

    float h_hist[64];
    cudaMemcpy(h_hist, d_hist, nbins * sizeof(float), cudaMemcpyDeviceToHost);
    printf("bin 0 holds %f\n", h_hist[0]);

    cudaFree(d_x);
    cudaFree(d_w);
    cudaFree(d_hist);
    free(h_x);
    free(h_w);
    return 0;
}
