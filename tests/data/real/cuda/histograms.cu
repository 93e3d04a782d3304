/* histograms.cu -- histograms with atomics: a 256-bin byte histogram privatized per block in
 * shared memory (grid-stride over the input), and a float intensity histogram of an image
 * with global float atomics.  The bins come from the data, so neither kernel's atomic
 * traffic has an affine index.  In shared memory that changes no count (SR130: Q shared counts
 * accesses, whatever their element): histogram256_shared is exact; intensity_histogram's global
 * bins are APPROXIMATE (SR101).
 *
 * histogram256_shared<<<240, 256>>>(data, hist, n): W = 0 (integer atomics only).
 *   (The DRAM traffic itself does not depend on the data: data read n bytes, and each block
 *   adds its 256 private bins to hist with one atomic each, so hist's 256 elements are read and
 *   written: 2048 B; Q = n + 2048.  Only the shared-memory bins are data-indexed.)  Q_access: data
 *   n bytes, hist 256 loads and stores per block: n + 2048*gridDim_x.  Q_shared: the 256 bins
 *   zeroed (1024 B) and read at the end (1024 B) per block, a load and a store per element
 *   (8*n): 2048*gridDim_x + 8*n.
 *
 * intensity_histogram (2-D grid, guard x < width && y < height): per pixel
 *   bin = (int)(img * (NBINS - 1)): 1 fp32 multiply (the int constant converts to float);
 *   atomicAdd(&hist[bin], 1.0f): 1 fp32 add.  W = 2*width*height.
 *
 * staticroof:expect histogram256_shared
 *   W        = 0
 *   Q        = n + 2048
 *   Q_access = n + 2048*gridDim_x
 *   Q_shared = 2048*gridDim_x + 8*n
 *
 * staticroof:expect intensity_histogram
 *   W     = 2*width*height
 *   fp32  = 2*width*height
 *   exact = false
 */

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define NBINS 64

__global__ void histogram256_shared(const uint8_t* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    __shared__ unsigned int local[256];

    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&hist[b], local[b]);
}

__global__ void intensity_histogram(const float* __restrict__ img, float* __restrict__ hist,
                                    int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        const int bin = (int)(img[y * width + x] * (NBINS - 1));
        atomicAdd(&hist[bin], 1.0f);
    }
}

int main(void)
{
    const int n = 64 << 20;
    const int width = 4096, height = 2160;

    uint8_t* d_data;
    unsigned int* d_hist;
    float *d_img, *d_fhist;
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_hist, 256 * sizeof(unsigned int));
    cudaMalloc(&d_img, (size_t)width * height * sizeof(float));
    cudaMalloc(&d_fhist, NBINS * sizeof(float));
    cudaMemset(d_hist, 0, 256 * sizeof(unsigned int));
    cudaMemset(d_fhist, 0, NBINS * sizeof(float));

    histogram256_shared<<<240, 256>>>(d_data, d_hist, n);

    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    intensity_histogram<<<grid, block>>>(d_img, d_fhist, width, height);
    cudaDeviceSynchronize();

    cudaFree(d_data);
    cudaFree(d_hist);
    cudaFree(d_img);
    cudaFree(d_fhist);
    return 0;
}
