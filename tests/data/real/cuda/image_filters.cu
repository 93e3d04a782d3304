/* image_filters.cu -- image processing kernels: a 3x3 box blur through a texture object with
 * filtered (float) coordinates, and a Sobel edge detector reading global memory through the
 * read-only cache (__ldg).  2-D grids of 16x16 blocks, launched with ceil-division in main.
 *
 * box_blur_tex: x < width && y < height bounds the work (width*height threads).
 *   Per pixel: u = x + 0.5f, v = y + 0.5f (2 fp32 adds); 9 fetches, each at (u + dx, v + dy)
 *   (2 adds) and summed (1 add): 27; the result times (1.0f / 9.0f), a constant the compiler
 *   folds: 1 multiply.  W = 30*width*height (fp32).
 *   tex2D<float> at float coordinates is a filtered fetch: which texels it reads depends on the
 *   texture's extent and filter mode, so the texture's traffic is data-dependent: APPROXIMATE
 *   (SR101).  out is written width*height times 4 B.
 *
 * sobel_ldg: interior pixels 1 <= x < width-1, 1 <= y < height-1 ((width-2)*(height-2)).
 *   gx = (p[-w+1] + 2*p[1] + p[w+1]) - (p[-w-1] + 2*p[-1] + p[w-1]): 2 multiplies, 4 adds,
 *   1 subtract = 7; gy likewise 7; sqrtf(gx*gx + gy*gy): 3 + sqrtf (special) = 4.
 *   W = 18*(width-2)*(height-2), special = (width-2)*(height-2).
 *   Q: the eight neighbours of every interior pixel (the centre is not used) cover the whole
 *   image once width, height >= 4 (each interior pixel is a neighbour of another, corners are
 *   diagonal neighbours of (1,1) etc.): width*height reads; out written (width-2)*(height-2).
 *   Q = 4*width*height + 4*(width-2)*(height-2)   (width, height >= 4; here 1920 x 1080).
 *
 * staticroof:expect box_blur_tex
 *   W     = 30*width*height
 *   fp32  = 30*width*height
 *   exact = false
 *
 * staticroof:expect sobel_ldg
 *   W       = 18*(width - 2)*(height - 2)
 *   Q       = 4*width*height + 4*(width - 2)*(height - 2)
 *   fp32    = 18*(width - 2)*(height - 2)
 *   special = (width - 2)*(height - 2)
 */

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

__global__ void box_blur_tex(cudaTextureObject_t tex, float* __restrict__ out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;

    const float u = x + 0.5f;
    const float v = y + 0.5f;
    float sum = 0.0f;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
            sum += tex2D<float>(tex, u + dx, v + dy);
    }
    out[y * width + x] = sum * (1.0f / 9.0f);
}

__global__ void sobel_ldg(const float* __restrict__ in, float* __restrict__ out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
        return;

    const int c = y * width + x;
    const float gx = (__ldg(&in[c - width + 1]) + 2.0f * __ldg(&in[c + 1]) + __ldg(&in[c + width + 1]))
                   - (__ldg(&in[c - width - 1]) + 2.0f * __ldg(&in[c - 1]) + __ldg(&in[c + width - 1]));
    const float gy = (__ldg(&in[c + width - 1]) + 2.0f * __ldg(&in[c + width]) + __ldg(&in[c + width + 1]))
                   - (__ldg(&in[c - width - 1]) + 2.0f * __ldg(&in[c - width]) + __ldg(&in[c - width + 1]));
    out[c] = sqrtf(gx * gx + gy * gy);
}

int main(int argc, char** argv)
{
    const int width = 1920, height = 1080;
    const size_t bytes = (size_t)width * height * sizeof(float);

    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &desc, width, height);

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &td, nullptr);

    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);

    dim3 block(16, 16);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    box_blur_tex<<<grid, block>>>(tex, d_out, width, height);
    sobel_ldg<<<grid, block>>>(d_in, d_out, width, height);
    cudaDeviceSynchronize();

    cudaDestroyTextureObject(tex);
    cudaFreeArray(arr);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
