/* saxpy_rtx5070.cu -- SAXPY in place, y[i] = a*x[i] + y[i], fp32, grid-stride, in an anonymous
 * namespace (ncu prints it as `unnamed>::saxpy_kernel(...)`): our own code of the kernel the shared
 * ncu run rtx5070-details-csv/saxpy.csv measured (copied in tests/data/ncu/; RTX 5070, n = 2^24,
 * 65,536 blocks of 256 threads).  `staticroof validate samples/saxpy_rtx5070.cu --ncu
 * tests/data/ncu/rtx5070-details-csv/saxpy.csv` compares it with that run.
 *
 * saxpy_kernel: for (i = blockIdx.x*blockDim.x + threadIdx.x; i < n; i += blockDim.x*gridDim.x).
 *   Over all threads of the grid the loop visits every i in [0, n) exactly once, whatever the
 *   launch (here 65,536 x 256 = 2^24 threads, one element each at n = 2^24).
 *   W: per element one float multiply (a*x[i]) and one float add (+ y[i]) -> 2 fp32.  W = 2*n.
 *   Q (compulsory), element size 4 bytes:
 *      x: n distinct elements, only read                                  -> 4n
 *      y: n distinct elements, read (the right-hand side first)           -> 4n
 *         and the same n elements written                                 -> 4n
 *      a: scalar by value -> 0.                                   Q = 12*n.
 *   Q_access: per element a load of x[i], a load of y[i] and a store of y[i], nothing kept in a
 *      register (each reference varies with i): 3 * 4 * n = 12*n.
 *   Q_shared: no shared memory -> 0.
 *   I = W / Q = 2n / 12n = 1/6.
 *   At the launch site n = 1 << 24 = 16,777,216:
 *      W_value = 2 * 16777216 = 33554432, Q_value = 12 * 16777216 = 201326592
 *      (the DRAM reads are 8n = 134,217,728 B of it; the run measured 134,221,568 B).
 *
 * staticroof:expect saxpy_kernel
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = 1/6
 *   fp32     = 2*n
 *   W_value  = 33554432
 *   Q_value  = 201326592
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t err_ = (call);                                                  \
        if (err_ != cudaSuccess) {                                                  \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_));                                 \
            std::exit(1);                                                           \
        }                                                                           \
    } while (0)

namespace {

// y = a*x + y, in place, grid-stride
__global__ void saxpy_kernel(float a, const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

}  // namespace

int main()
{
    const int n_saxpy = 1 << 24;
    float *x, *y;
    CUDA_CHECK(cudaMalloc(&x, n_saxpy * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, n_saxpy * sizeof(float)));
    saxpy_kernel<<<65536, 256>>>(2.0f, x, y, n_saxpy);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    cudaFree(x); cudaFree(y);
    return 0;
}
