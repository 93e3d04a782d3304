/* gemm.cu -- three single-GPU matrix multiplications as they are usually written: a naive
 * 2-D-grid SGEMM with alpha/beta, a shared-memory tiled SGEMM with boundary padding, and a
 * tensor-core GEMM with the wmma API (one warp per 16x16 output tile).
 *
 * sgemm_naive: C = alpha*A*B + beta*C, A M x K, B K x N, row-major.  Launch
 *   dim3 block(16, 16); dim3 grid(ceil((float)N / block.x), ceil((float)M / block.y)).
 *   The guard row < M && col < N bounds the work (the grid covers it):
 *   W per element: K multiply-adds (2K) + alpha*acc, beta*C, + (3): W = M*N*(2*K + 3).
 *   Q: A read M*K, B read K*N, C read and written M*N: Q = 4*M*K + 4*K*N + 8*M*N.
 *
 * sgemm_tiled<<<dim3((N + 15)/16, (M + 15)/16), dim3(16, 16)>>>: TILE = 16.  Every thread of
 *   the grid (16*ceiling(N/16) x 16*ceiling(M/16) threads) runs ceiling(K/16) phases of 16
 *   multiply-adds from shared memory, guarded loads padding with 0.0f; the epilogue
 *   C = alpha*acc + beta*C (3 FLOPs) runs for row < M && col < N only.
 *   W = 2*16*ceiling(K/16) * 256*ceiling(M/16)*ceiling(N/16) + 3*M*N
 *     = 8192*ceiling(K/16)*ceiling(M/16)*ceiling(N/16) + 3*M*N.
 *   Q: the guarded tile loads read exactly A's M*K and B's K*N elements; C read and written
 *   M*N: Q = 4*M*K + 4*K*N + 8*M*N.
 *
 * wmma_gemm<<<dim3(N_TILES, M_TILES), 32>>>: half A (M_GLOBAL x K_GLOBAL, row-major), half B
 *   (K_GLOBAL x N_GLOBAL, column-major), float C; M_GLOBAL = 16*M_TILES etc.  One warp per
 *   block computes one 16x16 tile of C over K_TILES steps: each warp-level mma_sync is
 *   2*16*16*16 = 8192 FLOPs on half inputs (fp16, tensor cores).
 *   W = 8192*M_TILES*N_TILES*K_TILES (fp16).
 *   Q: every element of A and B read once (2 B): 2*256*M_TILES*K_TILES + 2*256*K_TILES*N_TILES;
 *   C written once (4 B): 4*256*M_TILES*N_TILES.
 *   Q = 512*M_TILES*K_TILES + 512*K_TILES*N_TILES + 1024*M_TILES*N_TILES.
 *
 * staticroof:expect sgemm_naive
 *   W    = M*N*(2*K + 3)
 *   Q    = 4*M*K + 4*K*N + 8*M*N
 *   fp32 = M*N*(2*K + 3)
 *
 * staticroof:expect sgemm_tiled
 *   W    = 8192*ceiling(K/16)*ceiling(M/16)*ceiling(N/16) + 3*M*N
 *   Q    = 4*M*K + 4*K*N + 8*M*N
 *   fp32 = 8192*ceiling(K/16)*ceiling(M/16)*ceiling(N/16) + 3*M*N
 *
 * staticroof:expect wmma_gemm
 *   W    = 8192*M_TILES*N_TILES*K_TILES
 *   Q    = 512*M_TILES*K_TILES + 512*K_TILES*N_TILES + 1024*M_TILES*N_TILES
 *   fp16 = 8192*M_TILES*N_TILES*K_TILES
 */

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define TILE 16

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

#define M_TILES 64
#define N_TILES 64
#define K_TILES 64

#define M_GLOBAL (WMMA_M * M_TILES)
#define N_GLOBAL (WMMA_N * N_TILES)
#define K_GLOBAL (WMMA_K * K_TILES)

__global__ void sgemm_naive(int M, int N, int K, float alpha, const float* A, const float* B,
                            float beta, float* C)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

__global__ void sgemm_tiled(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        const int a_col = t * TILE + tx;
        const int b_row = t * TILE + ty;
        As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();

#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    if (row < M && col < N)
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

__global__ void wmma_gemm(const half* __restrict__ a, const half* __restrict__ b, float* __restrict__ c)
{
    const int tile_m = blockIdx.y;
    const int tile_n = blockIdx.x;

    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
    wmma::fill_fragment(acc_frag, 0.0f);

    for (int kt = 0; kt < K_TILES; ++kt) {
        const half* a_tile = a + (tile_m * WMMA_M) * K_GLOBAL + kt * WMMA_K;
        const half* b_tile = b + (tile_n * WMMA_N) * K_GLOBAL + kt * WMMA_K;
        wmma::load_matrix_sync(a_frag, a_tile, K_GLOBAL);
        wmma::load_matrix_sync(b_frag, b_tile, K_GLOBAL);
        wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }

    float* c_tile = c + (tile_m * WMMA_M) * N_GLOBAL + tile_n * WMMA_N;
    wmma::store_matrix_sync(c_tile, acc_frag, N_GLOBAL, wmma::mem_row_major);
}

int main(int argc, char** argv)
{
    const int M = 2048, N = 1536, K = 1000;
    const float alpha = 1.0f, beta = 0.5f;

    float *dA, *dB, *dC;
    cudaMalloc(&dA, (size_t)M * K * sizeof(float));
    cudaMalloc(&dB, (size_t)K * N * sizeof(float));
    cudaMalloc(&dC, (size_t)M * N * sizeof(float));

    dim3 block(16, 16);
    dim3 grid(ceil((float)N / block.x), ceil((float)M / block.y));
    sgemm_naive<<<grid, block>>>(M, N, K, alpha, dA, dB, beta, dC);

    dim3 tgrid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    dim3 tblock(TILE, TILE);
    sgemm_tiled<<<tgrid, tblock>>>(M, N, K, alpha, dA, dB, beta, dC);

    half *ha, *hb;
    float* hc;
    cudaMalloc(&ha, (size_t)M_GLOBAL * K_GLOBAL * sizeof(half));
    cudaMalloc(&hb, (size_t)K_GLOBAL * N_GLOBAL * sizeof(half));
    cudaMalloc(&hc, (size_t)M_GLOBAL * N_GLOBAL * sizeof(float));
    wmma_gemm<<<dim3(N_TILES, M_TILES), 32>>>(ha, hb, hc);

    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
        return 1;
    }

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(ha);
    cudaFree(hb);
    cudaFree(hc);
    return 0;
}
