/* gemv_half.cu -- half-precision matrix-vector products, the shape of LLM
 * decoding: a weight matrix W (M x K, row-major, fp16) times one input
 * vector (batch 1), or times B input vectors at once (batched decode).  One
 * thread per output row; products are accumulated in fp32 registers
 * (__half2float / __float2half conversions do no FLOPs).
 *
 * gemv_half: y[row] = sum_j W[row*K + j] * x[j], guard row < M (the grid is
 *   assumed to cover it: M threads, each running the j loop K times).
 *   W: per j trip one fp32 multiply and one fp32 add (acc +=), conversions
 *      free -> 2 fp32.  W = 2*M*K.
 *   Q (compulsory), element size 2 bytes (fp16):
 *      W: row*K + j over row < M, j < K takes every value 0 .. M*K-1:
 *         M*K distinct elements, only read            -> 2MK
 *      x: x[0 .. K-1], only read                       -> 2K
 *      y: y[0 .. M-1], only written                    -> 2M
 *      Q = 2*M*K + 2*K + 2*M.
 *   Q_access: W[row*K + j] and x[j] vary with j: M*K loads each -> 4MK;
 *      one store of y[row] per thread -> 2M.  Q_access = 4*M*K + 2*M.
 *   Q_shared = 0.
 *   I = W / Q = M*K/(M*K + M + K), about 1 FLOP/byte for large M, K: every
 *      weight byte is used for one multiply-add, so decoding at batch 1 is
 *      bound by memory bandwidth.
 *   At the launch site M = K = 4096:
 *      W_value = 2*4096^2 = 33554432
 *      Q_value = 2*4096^2 + 2*4096 + 2*4096 = 33570816
 *
 * gemv_half_batched<B>: Y[b*M + row] = sum_j W[row*K + j] * X[b*K + j] for
 *   b = 0 .. B-1 (B a template parameter, B = 8 at the launch site).  Each
 *   thread loads a weight once into a register (w) and uses it for all B
 *   vectors; the B accumulators acc[b] are a fixed-size local array, i.e.
 *   registers (0 bytes).  Guard row < M, covered: M threads.
 *   W: per (j, b) trip one fp32 multiply and one add -> 2; M*K*B trips.
 *      The initialisation acc[b] = 0.0f is no arithmetic.  W = 2*B*M*K.
 *   Q (compulsory), element size 2 bytes:
 *      W: M*K distinct elements, only read                    -> 2MK
 *      X: b*K + j over b < B, j < K: B*K distinct, only read   -> 2BK
 *      Y: b*M + row over b < B, row < M: B*M distinct, written -> 2BM
 *      Q = 2*M*K + 2*B*K + 2*B*M.
 *   Q_access: W[row*K + j] is in the j loop and varies with j: M*K loads
 *      -> 2MK.  X[b*K + j] is in the b loop and varies with b: M*K*B loads
 *      -> 2BMK.  Y[b*M + row] in the last b loop: B*M stores -> 2BM.
 *      Q_access = 2*M*K + 2*B*M*K + 2*B*M.
 *   Q_shared = 0.
 *   I = W / Q = B*M*K/(M*K + B*K + B*M), about B FLOP/byte for large M, K:
 *      the weights are read once for all B vectors.
 *   At the launch site M = K = 4096, B = 8:
 *      W_value = 2*8*4096^2 = 268435456
 *      Q_value = 2*4096^2 + 2*8*4096 + 2*8*4096 = 33685504
 *
 * staticroof:expect gemv_half
 *   W        = 2*M*K
 *   Q        = 2*M*K + 2*K + 2*M
 *   Q_access = 4*M*K + 2*M
 *   Q_shared = 0
 *   I        = M*K/(M*K + M + K)
 *   fp32     = 2*M*K
 *   W_value  = 33554432
 *   Q_value  = 33570816
 *
 * staticroof:expect gemv_half_batched
 *   W        = 2*B*M*K
 *   Q        = 2*M*K + 2*B*K + 2*B*M
 *   Q_access = 2*M*K + 2*B*M*K + 2*B*M
 *   Q_shared = 0
 *   I        = B*M*K/(M*K + B*K + B*M)
 *   fp32     = 2*B*M*K
 *   W_value  = 268435456
 *   Q_value  = 33685504
 */

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>

__global__ void gemv_half(const __half* __restrict__ W, const __half* __restrict__ x,
                          __half* __restrict__ y, int M, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M) {
        float acc = 0.0f;
        for (int j = 0; j < K; ++j)
            acc += __half2float(W[row * K + j]) * __half2float(x[j]);
        y[row] = __float2half(acc);
    }
}

template <int B>
__global__ void gemv_half_batched(const __half* __restrict__ W, const __half* __restrict__ X,
                                  __half* __restrict__ Y, int M, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M) {
        float acc[B];
#pragma unroll
        for (int b = 0; b < B; ++b)
            acc[b] = 0.0f;

        for (int j = 0; j < K; ++j) {
            const float w = __half2float(W[row * K + j]);
#pragma unroll
            for (int b = 0; b < B; ++b)
                acc[b] += w * __half2float(X[b * K + j]);
        }

#pragma unroll
        for (int b = 0; b < B; ++b)
            Y[b * M + row] = __float2half(acc[b]);
    }
}

int main()
{
    const int M = 4096;
    const int K = 4096;
    const int batch = 8;

    __half* h_W = (__half*)malloc((size_t)M * K * sizeof(__half));
    __half* h_X = (__half*)malloc((size_t)batch * K * sizeof(__half));
    for (size_t i = 0; i < (size_t)M * K; ++i)
        h_W[i] = __float2half(0.01f);
    for (int i = 0; i < batch * K; ++i)
        h_X[i] = __float2half(1.0f);

    __half *d_W, *d_X, *d_y, *d_Y;
    cudaMalloc(&d_W, (size_t)M * K * sizeof(__half));
    cudaMalloc(&d_X, (size_t)batch * K * sizeof(__half));
    cudaMalloc(&d_y, M * sizeof(__half));
    cudaMalloc(&d_Y, (size_t)batch * M * sizeof(__half));
    cudaMemcpy(d_W, h_W, (size_t)M * K * sizeof(__half), cudaMemcpyHostToDevice);
    cudaMemcpy(d_X, h_X, (size_t)batch * K * sizeof(__half), cudaMemcpyHostToDevice);

    const int threads = 256;
    const int blocks = (M + threads - 1) / threads;
    gemv_half<<<blocks, threads>>>(d_W, d_X, d_y, M, K);
    gemv_half_batched<8><<<blocks, threads>>>(d_W, d_X, d_Y, M, K);
    cudaDeviceSynchronize();

    __half h_y0;
    cudaMemcpy(&h_y0, d_y, sizeof(__half), cudaMemcpyDeviceToHost);
    printf("y[0] = %f (expected about %f)\n", __half2float(h_y0), 0.01f * K);

    cudaFree(d_W);
    cudaFree(d_X);
    cudaFree(d_y);
    cudaFree(d_Y);
    free(h_W);
    free(h_X);
    return 0;
}
