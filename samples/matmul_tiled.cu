/* matmul_tiled.cu -- square single-precision matrix product C = A * B
 * through shared-memory tiles (the classic TILE x TILE blocking).  There is
 * NO bounds guard: the kernel is written for N a multiple of TILE and a grid
 * of exactly (N/TILE) x (N/TILE) blocks of TILE x TILE threads, which the
 * launch site sets up (TILE = 32, N = 1024, grid 32 x 32, block 32 x 32).
 * Its counts therefore depend on the launch; the formulas below are in the
 * symbols the counts truly depend on.
 *
 * Notation: f = floor(N/TILE) (the trip count of the t loop; f = N/TILE
 * when N is a multiple of TILE), gx = gridDim_x, gy = gridDim_y,
 * bx = blockDim_x, by = blockDim_y, and T = gx*gy*bx*by threads.
 * Thread (blockIdx, threadIdx) has row = blockIdx.y*TILE + threadIdx.y and
 * col = blockIdx.x*TILE + threadIdx.x.  Assumed, as the kernel itself
 * requires: bx <= TILE and by <= TILE (As[ty][tx] stays in the tile), and
 * gx*TILE <= N, gy*TILE <= N (every row and column index is below N, so
 * the linearised indices row*N + col are injective).
 *
 * Derivation:
 *   W: every thread runs the t loop f times and the k loop TILE times per
 *      t trip; each k trip is one float multiply and one float add
 *      (acc +=) -> 2 fp32.  W = 2*TILE*f*T.
 *   Q (compulsory), element size 4 bytes:
 *      A[row*N + t*TILE + tx]: rows blockIdx.y*TILE + ty give gy*by
 *         distinct rows (by <= TILE, no overlap between blocks); columns
 *         t*TILE + tx give f*bx distinct values, all < f*TILE <= N.
 *         gy*by*f*bx distinct elements, only read (gridDim_x does not
 *         matter: every column of blocks re-reads the same rows of A).
 *      B[(t*TILE + ty)*N + col]: f*by distinct rows times gx*bx distinct
 *         columns, only read -> f*by*gx*bx elements.
 *      C[row*N + col]: gy*by*gx*bx distinct elements, only written.
 *      acc is a register; As, Bs are shared (on chip) -> 0.
 *      Q = 4*bx*by*(f*gy + f*gx + gx*gy).
 *   Q_access: A[...] and B[...] vary with t (their innermost loop): f
 *      loads each per thread; C is stored once per thread (outside every
 *      loop).  Q_access = 4*T*(2*f + 1).
 *   Q_shared (same register rule as DRAM): As[ty][k] and Bs[k][tx] vary
 *      with k: TILE*f loads each per thread.  The stores As[ty][tx] and
 *      Bs[ty][tx] sit in the t loop and do not depend on t, so by the
 *      register rule each counts once per execution of the t loop, i.e.
 *      once per thread (a literal application of the rule: the hardware
 *      re-stores the tile on every t trip, because __syncthreads() forbids
 *      keeping it in a register; that would give 4*T*(2*f + 2*TILE*f)).
 *      Q_shared = 4*T*(2 + 2*TILE*f) = 8*T*(TILE*f + 1).
 *   I = W / Q = TILE*f*gx*gy / (2*(f*gx + f*gy + gx*gy)).
 *
 * At the launch site N = 1024, TILE = 32 (f = 32), gx = gy = 32,
 * bx = by = 32, T = 1024^2 = 1048576 threads:
 *   W_value        = 2*32*32*1048576 = 2*1024**3 = 2147483648
 *   Q_value        = 4*1024*(1024 + 1024 + 1024) = 12*1024**2 = 12582912
 *                    (A and B read once in full, C written once)
 *   Q_access_value = 4*1048576*65 = 4*(2*1024**3/32 + 1024**2) = 272629760
 *   Q_shared       = 8*1048576*1025 = 8598323200 B
 *   I              = 1024/6 = 170.67 FLOP/B, as for the naive kernel: tiling
 *                    changes Q_access (by a factor TILE), not Q.
 *
 * staticroof models the grid as the launch site sets it, in the kernel's own N:
 * dim3 grid(N / TILE, N / TILE) with TILE = 32 gives F x F blocks, F = floor(N/32),
 * so (32F)^2 threads (TILE is folded to 32 where it scales an index).  Per
 * thread: F tiles x 32 k-steps x 2 FLOPs; two global loads per tile and one
 * store; two shared stores and 2*32 shared loads per tile (every shared access
 * counts: shared memory is written for other threads to read).
 *   W        = 2 * (32F)^2 * 32F              = 65536*F**3
 *   Q        = 4 * 3 * (32F)^2                = 12288*F**2   (A, B read, C written once)
 *   Q_access = 4 * (32F)^2 * (2F + 1)         = 8192*F**3 + 4096*F**2
 *   Q_shared = 4 * (32F)^2 * 66F              = 270336*F**3
 *   I        = 65536F^3 / 12288F^2            = 16*F/3  (N/6 when 32 divides N)
 *
 * staticroof:expect matmul_tiled
 *   W              = 65536*floor(N/32)**3
 *   Q              = 12288*floor(N/32)**2
 *   Q_access       = 8192*floor(N/32)**3 + 4096*floor(N/32)**2
 *   Q_shared       = 270336*floor(N/32)**3
 *   I              = 16*floor(N/32)/3
 *   fp32           = 65536*floor(N/32)**3
 *   W_value        = 2147483648
 *   Q_value        = 12582912
 *   Q_access_value = 272629760
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

template <int TILE>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int N)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < N / TILE; ++t) {
        As[ty][tx] = A[row * N + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

int main()
{
    const int N = 1024;
    const size_t bytes = (size_t)N * N * sizeof(float);

    float* h_A = (float*)malloc(bytes);
    float* h_B = (float*)malloc(bytes);
    float* h_C = (float*)malloc(bytes);
    for (int i = 0; i < N * N; ++i) {
        h_A[i] = 1.0f;
        h_B[i] = 2.0f;
    }

    float *d_A, *d_B, *d_C;
    cudaMalloc(&d_A, bytes);
    cudaMalloc(&d_B, bytes);
    cudaMalloc(&d_C, bytes);
    cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice);

    dim3 block(32, 32);
    dim3 grid(N / 32, N / 32);
    matmul_tiled<32><<<grid, block>>>(d_A, d_B, d_C, N);
    cudaDeviceSynchronize();

    cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost);
    printf("C[0] = %f (expected %f)\n", h_C[0], 2.0f * N);

    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
