/* cast_views.cu -- buffers read through pointers of another element type: every access moves
 * the bytes of the type it is made through (the view's), never the buffer's declared type.
 * Launched over n = 4096 threads, (n + 255)/256 blocks of 256; guards i < n.
 *
 * sum_pairs: ((const double2 *)raw)[i] over an unsigned char buffer: 2 fp64 lanes = 16 B.
 *   W = n (p.x + p.y, fp64); raw (fp64) 2n elements read = 16n; out 8n: Q = 24n.
 * to_double: reinterpret_cast<const double *>(x) over a float buffer: 8 B per element.
 *   W = n (3.0 * xd[i], fp64); x (fp64) 8n, y 8n: Q = 16n.
 * staged: dynamic shared memory declared as bytes, used as floats: 4 B per shared access.
 *   W = n; x read 4n, y written 4n: Q = 8n; Q_shared = (store + load) * 4 B * n = 8n.
 *
 * staticroof:expect sum_pairs
 *   W        = n
 *   Q        = 24*n
 *   Q_access = 24*n
 *   fp64     = n
 *   W_value  = 4096
 *   Q_value  = 98304
 *
 * staticroof:expect to_double
 *   W        = n
 *   Q        = 16*n
 *   fp64     = n
 *   Q_value  = 65536
 *
 * staticroof:expect staged
 *   W        = n
 *   Q        = 8*n
 *   Q_shared = 8*n
 *   fp32     = n
 *   Q_value  = 32768
 */

#include <cuda_runtime.h>

__global__ void sum_pairs(int n, const unsigned char *__restrict__ raw, double *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 p = ((const double2 *)raw)[i];
        out[i] = p.x + p.y;
    }
}

__global__ void to_double(int n, const float *__restrict__ x, double *__restrict__ y)
{
    const double *xd = reinterpret_cast<const double *>(x);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 3.0 * xd[i];
}

__global__ void staged(int n, const float *__restrict__ x, float *__restrict__ y)
{
    extern __shared__ unsigned char smem[];
    float *s = reinterpret_cast<float *>(smem);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        s[threadIdx.x] = x[i];
        y[i] = 2.0f * s[threadIdx.x];
    }
}

int main(void)
{
    const int n = 4096;
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    unsigned char *raw;
    float *x, *y;
    double *out;
    cudaMalloc(&raw, n * 2 * sizeof(double));
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&y, n * sizeof(double));
    cudaMalloc(&out, n * sizeof(double));
    sum_pairs<<<blocks, threads>>>(n, raw, out);
    to_double<<<blocks, threads>>>(n, x, (double *)y);
    staged<<<blocks, threads, threads * sizeof(float)>>>(n, x, y);
    cudaDeviceSynchronize();
    return 0;
}
