/* functor_map.cu -- a generic elementwise map: a template kernel takes the operation as a
 * functor object (a struct with a __device__ operator()), the way Thrust-style helper code is
 * written, instantiated by the launch with a brace-initialized functor.
 *
 * map_kernel<float, Square>: out[i] = op(in[i]) for i < n, Square::operator()(v) = v*v:
 *   1 fp32 multiply per element: W = n.  Q: in read n, out written n: Q = 8*n.
 * map_kernel<float, AxpbOp>: op(v) = a*v + b with the functor's members a, b (registers): 2 per
 *   element: W = 2*n, Q = 8*n.
 *
 * staticroof:expect map_kernel<float, Square>
 *   W    = n
 *   Q    = 8*n
 *   fp32 = n
 *
 * staticroof:expect map_kernel<float, AxpbOp>
 *   W    = 2*n
 *   Q    = 8*n
 *   fp32 = 2*n
 */

#include <cstdio>
#include <cuda_runtime.h>

struct Square {
    __device__ float operator()(float v) const { return v * v; }
};

struct AxpbOp {
    float a, b;
    __device__ float operator()(float v) const { return a * v + b; }
};

template <typename T, typename Op>
__global__ void map_kernel(T* __restrict__ out, const T* __restrict__ in, int n, Op op)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op(in[i]);
}

template <typename T, typename Op>
void map(T* out, const T* in, int n, Op op, cudaStream_t stream = 0)
{
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    map_kernel<<<blocks, threads, 0, stream>>>(out, in, n, op);
}

int main()
{
    const int n = 1 << 20;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));

    map(d_out, d_in, n, Square{});
    map(d_out, d_out, n, AxpbOp{2.0f, 1.0f});
    cudaDeviceSynchronize();

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
