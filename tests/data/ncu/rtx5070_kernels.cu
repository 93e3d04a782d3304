// The kernels of the RTX 5070 sample run (tests/data/ncu/rtx5070-details-csv): naive and
// shared-memory-tiled GEMM, naive and tiled transpose, fp32, row-major, in an anonymous namespace
// (ncu prints them as `unnamed>::NAME(...)`).  Our own code of the same algorithms, sizes and
// launches as the run's README describes them; its SAXPY is samples/saxpy_rtx5070.cu.
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

// one thread per element of C (m x n) = A (m x k) * B (k x n)
__global__ void gemm_naive_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int i = 0; i < k; ++i)
            acc += a[row * k + i] * b[i * n + col];
        c[row * n + col] = acc;
    }
}

// the same product through TILE x TILE shared-memory tiles (padded to TILE + 1 columns)
template <int TILE>
__global__ void gemm_tiled_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
        int ac = t * TILE + threadIdx.x;
        int br = t * TILE + threadIdx.y;
        as[threadIdx.y][threadIdx.x] = (row < m && ac < k) ? a[row * k + ac] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (br < k && col < n) ? b[br * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = acc;
}

__global__ void transpose_naive_kernel(const float *in, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[col * rows + row] = in[row * cols + col];
}

template <int TILE>
__global__ void transpose_tiled_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    if (row < rows && col < cols)
        tile[threadIdx.y][threadIdx.x] = in[row * cols + col];
    __syncthreads();
    int ocol = blockIdx.y * TILE + threadIdx.x;  // the transposed block
    int orow = blockIdx.x * TILE + threadIdx.y;
    if (orow < cols && ocol < rows)
        out[orow * rows + ocol] = tile[threadIdx.x][threadIdx.y];
}

}  // namespace

int main()
{
    const int dim = 2048;
    float *a, *b, *c;
    CUDA_CHECK(cudaMalloc(&a, dim * dim * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b, dim * dim * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&c, dim * dim * sizeof(float)));
    dim3 block(32, 32), grid((dim + 31) / 32, (dim + 31) / 32);
    gemm_naive_kernel<<<grid, block>>>(a, b, c, dim, dim, dim);
    gemm_tiled_kernel<32><<<grid, block>>>(a, b, c, dim, dim, dim);
    transpose_naive_kernel<<<grid, block>>>(a, c, dim, dim);
    transpose_tiled_kernel<32><<<grid, block>>>(a, c, dim, dim);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    cudaFree(a); cudaFree(b); cudaFree(c);
    return 0;
}
