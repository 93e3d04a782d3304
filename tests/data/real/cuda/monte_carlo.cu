/* monte_carlo.cu -- Monte-Carlo kernels with the cuRAND device API: estimating pi by counting
 * uniform points inside the unit quarter circle, and pricing European call options by
 * simulating geometric Brownian motion with a block reduction in shared memory.
 * cuRAND draws are special functions of weight 1 (grammars/cuda.toml, kind "rng"): each
 * curand_uniform / curand_normal call is 1 fp32 special FLOP; curand_init is free; the generator
 * state lives in registers.
 *
 * estimate_pi<<<1024, 256>>>(hits, seed, samples_per_thread): no guard, every one of the
 *   1024*256 = 262144 threads runs samples_per_thread iterations of: two curand_uniform
 *   (2 special), x*x + y*y (3); the comparison adds to an int (0 FLOPs, no branch).
 *   W = 5*262144*samples_per_thread = 1310720*samples_per_thread,
 *   special = 524288*samples_per_thread.
 *   Q: one integer atomicAdd per thread on hits[0]: one unsigned long long (8 B) read and
 *   written: 16 B.
 *
 * mc_european_call<<<n_options, 256>>>: one block per option (early return on opt >= n_options),
 *   256 threads per block.  Per thread before the loop: drift = (r - 0.5f*sigma*sigma)*T (4),
 *   vol = sigma*sqrtf(T) (2, sqrtf special).  Per path: curand_normal (1 special),
 *   s0*expf(drift + vol*z) (4: multiply, add, expf special, multiply), sum += fmaxf(st - k, 0)
 *   (2): 7 per path (2 special).  Tree over the 256 partial sums: 255 adds per block.
 *   Thread 0: expf(-r*T) * partial[0] / (paths * blockDim.x) (multiply, expf, multiply, divide
 *   = 4; the integer product in the denominator is free).
 *   W = n_options*(256*(6 + 7*paths_per_thread) + 255 + 4) = n_options*(1792*paths_per_thread + 1795)
 *   special = n_options*(256*(1 + 2*paths_per_thread) + 1) = n_options*(512*paths_per_thread + 257)
 *   Q: S0 and K read (one element per option), price written: 12*n_options.
 *
 * staticroof:expect estimate_pi
 *   W       = 1310720*samples_per_thread
 *   Q       = 16
 *   fp32    = 1310720*samples_per_thread
 *   special = 524288*samples_per_thread
 *
 * staticroof:expect mc_european_call
 *   W       = n_options*(1792*paths_per_thread + 1795)
 *   Q       = 12*n_options
 *   fp32    = n_options*(1792*paths_per_thread + 1795)
 *   special = n_options*(512*paths_per_thread + 257)
 */

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define THREADS 256

__global__ void estimate_pi(unsigned long long* hits, unsigned long long seed, int samples_per_thread)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    curandState state;
    curand_init(seed, tid, 0, &state);

    unsigned long long inside = 0;
    for (int s = 0; s < samples_per_thread; ++s) {
        const float x = curand_uniform(&state);
        const float y = curand_uniform(&state);
        inside += (x * x + y * y <= 1.0f);
    }
    atomicAdd(hits, inside);
}

__global__ void mc_european_call(const float* __restrict__ S0, const float* __restrict__ K,
                                 float* __restrict__ price, float r, float sigma, float T,
                                 int n_options, int paths_per_thread, unsigned long long seed)
{
    __shared__ float partial[THREADS];

    const int opt = blockIdx.x;
    const int tid = threadIdx.x;
    if (opt >= n_options)
        return;

    curandStatePhilox4_32_10_t state;
    curand_init(seed, opt * blockDim.x + tid, 0, &state);

    const float drift = (r - 0.5f * sigma * sigma) * T;
    const float vol = sigma * sqrtf(T);
    const float s0 = S0[opt];
    const float k = K[opt];

    float sum = 0.0f;
    for (int p = 0; p < paths_per_thread; ++p) {
        const float z = curand_normal(&state);
        const float st = s0 * expf(drift + vol * z);
        sum += fmaxf(st - k, 0.0f);
    }

    partial[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        price[opt] = expf(-r * T) * partial[0] / (paths_per_thread * blockDim.x);
}

int main(int argc, char** argv)
{
    const int n_options = 1024;
    const int paths_per_thread = 64;
    const int samples_per_thread = 4096;

    unsigned long long* d_hits;
    float *d_S0, *d_K, *d_price;
    cudaMalloc(&d_hits, sizeof(unsigned long long));
    cudaMalloc(&d_S0, n_options * sizeof(float));
    cudaMalloc(&d_K, n_options * sizeof(float));
    cudaMalloc(&d_price, n_options * sizeof(float));
    cudaMemset(d_hits, 0, sizeof(unsigned long long));

    estimate_pi<<<1024, THREADS>>>(d_hits, 1234ULL, samples_per_thread);
    mc_european_call<<<n_options, THREADS>>>(d_S0, d_K, d_price, 0.05f, 0.2f, 1.0f, n_options,
                                             paths_per_thread, 42ULL);

    unsigned long long h_hits = 0;
    cudaMemcpy(&h_hits, d_hits, sizeof(h_hits), cudaMemcpyDeviceToHost);
    const double total = 1024.0 * THREADS * samples_per_thread;
    printf("pi ~ %f\n", 4.0 * (double)h_hits / total);

    cudaFree(d_hits);
    cudaFree(d_S0);
    cudaFree(d_K);
    cudaFree(d_price);
    return 0;
}
