/* conv1d_const.cu -- 1-D convolution with a (2*RADIUS + 1)-tap filter held
 * in __constant__ memory, the tap loop fully unrolled (#pragma unroll; its
 * trip count 2*RADIUS + 1 is a compile-time constant, 9 for the default
 * RADIUS = 4).  RADIUS is a #define, so it is a size symbol (default 4) and
 * the formulas are written in it.  Only outputs with a full window are
 * computed: RADIUS <= i < n - RADIUS.  Assumes n > 2*RADIUS.
 *
 * Derivation (R = RADIUS): the guard i >= R && i < n - R is covered by the
 * grid: n - 2R threads, each running the k loop 2R + 1 times (k = -R .. R).
 *   W: per tap one multiply and one add (acc +=) -> 2 fp32; 2R + 1 taps.
 *      W = 2*(2R + 1)*(n - 2R)  (= 18*(n - 8) for R = 4).
 *   Q (compulsory), element size 4 bytes:
 *      in: in[i + k] over R <= i < n-R, -R <= k <= R covers in[0 .. n-1]:
 *          n elements read -> 4n
 *      c_filter: __constant__ is DRAM; c_filter[k + R] covers its 2R + 1
 *          elements, read once -> 4(2R + 1)
 *      out: out[R .. n-R-1], n - 2R elements written -> 4(n - 2R)
 *      Q = 4n + 8R + 4 + 4n - 8R = 8*n + 4 (independent of R).
 *   Q_access: c_filter[k + R] and in[i + k] vary with k: 2R + 1 loads each
 *      per thread; out[i]: 1 store per thread -> (4R + 3) accesses per
 *      thread.  Q_access = 4*(4R + 3)*(n - 2R)  (= 76*(n - 8) for R = 4).
 *      (The constant-memory loads are counted like any other DRAM
 *      reference at this level.)
 *   Q_shared = 0.
 *   I = 2(2R + 1)(n - 2R) / (8n + 4) = (2R + 1)*(n - 2R)/(2*(2*n + 1)).
 *   At the launch site n = 1 << 20 = 1048576 and RADIUS = 4:
 *      W_value = 18*1048568 = 18874224, Q_value = 8388612.
 *
 * staticroof:expect conv1d
 *   W        = 2*(2*RADIUS + 1)*(n - 2*RADIUS)
 *   Q        = 8*n + 4
 *   Q_access = 4*(4*RADIUS + 3)*(n - 2*RADIUS)
 *   Q_shared = 0
 *   I        = (2*RADIUS + 1)*(n - 2*RADIUS)/(2*(2*n + 1))
 *   fp32     = 2*(2*RADIUS + 1)*(n - 2*RADIUS)
 *   W_value  = 18874224
 *   Q_value  = 8388612
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define RADIUS 4
#define FILTER_WIDTH (2 * RADIUS + 1)

__constant__ float c_filter[FILTER_WIDTH];

__global__ void conv1d(const float* __restrict__ in, float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= RADIUS && i < n - RADIUS) {
        float acc = 0.0f;
#pragma unroll
        for (int k = -RADIUS; k <= RADIUS; ++k)
            acc += c_filter[k + RADIUS] * in[i + k];
        out[i] = acc;
    }
}

int main()
{
    const int n = 1 << 20;
    float h_filter[FILTER_WIDTH];
    for (int k = 0; k < FILTER_WIDTH; ++k)
        h_filter[k] = 1.0f / FILTER_WIDTH;
    cudaMemcpyToSymbol(c_filter, h_filter, sizeof(h_filter));

    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemset(d_in, 0, n * sizeof(float));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    conv1d<<<blocks, threads>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    printf("done\n");

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
