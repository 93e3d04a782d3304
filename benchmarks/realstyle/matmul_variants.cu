// matmul_variants.cu -- eight SGEMM variants as a transformer-kernels collection writes them:
// naive, coalesced, shared-memory tiled, 1-D and 2-D register blocking, float4 vector loads,
// warp tiling and split-K with an atomic reduction.  C = alpha * A * B + beta * C, row major,
// A is M x K, B is K x N, C is M x N.  Written for staticroof's speed benchmark (issue #33):
// every variant launched from a main with run-time sizes and CUDA_CHECK macros.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      exit(EXIT_FAILURE);                                                                  \
    }                                                                                      \
  } while (0)

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                            float *C) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i)
      tmp += A[x * K + i] * B[i * N + y];
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}

template <const int BLOCKSIZE>
__global__ void sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                float *C) {
  const int cRow = blockIdx.x * BLOCKSIZE + (threadIdx.x / BLOCKSIZE);
  const int cCol = blockIdx.y * BLOCKSIZE + (threadIdx.x % BLOCKSIZE);
  if (cRow < M && cCol < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i)
      tmp += A[cRow * K + i] * B[i * N + cCol];
    C[cRow * N + cCol] = alpha * tmp + beta * C[cRow * N + cCol];
  }
}

template <const int BLOCKSIZE>
__global__ void sgemm_smem(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                           float *C) {
  __shared__ float As[BLOCKSIZE * BLOCKSIZE];
  __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];
  const int threadCol = threadIdx.x % BLOCKSIZE;
  const int threadRow = threadIdx.x / BLOCKSIZE;
  const int cRow = blockIdx.x, cCol = blockIdx.y;
  float tmp = 0.0f;
  for (int bk = 0; bk < K; bk += BLOCKSIZE) {
    As[threadRow * BLOCKSIZE + threadCol] = A[(cRow * BLOCKSIZE + threadRow) * K + bk + threadCol];
    Bs[threadRow * BLOCKSIZE + threadCol] = B[(bk + threadRow) * N + cCol * BLOCKSIZE + threadCol];
    __syncthreads();
    for (int dot = 0; dot < BLOCKSIZE; ++dot)
      tmp += As[threadRow * BLOCKSIZE + dot] * Bs[dot * BLOCKSIZE + threadCol];
    __syncthreads();
  }
  const int r = cRow * BLOCKSIZE + threadRow, c = cCol * BLOCKSIZE + threadCol;
  C[r * N + c] = alpha * tmp + beta * C[r * N + c];
}

template <const int BM, const int BN, const int BK, const int TM>
__global__ void sgemm_blocktile_1d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                   float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  float threadResults[TM] = {0.0f};
  for (int bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[(cRow * BM + innerRowA) * K + bk + innerColA];
    Bs[innerRowB * BN + innerColB] = B[(bk + innerRowB) * N + cCol * BN + innerColB];
    __syncthreads();
    for (int dot = 0; dot < BK; ++dot) {
      const float tmpB = Bs[dot * BN + threadCol];
      for (int resIdx = 0; resIdx < TM; ++resIdx)
        threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dot] * tmpB;
    }
    __syncthreads();
  }
  for (int resIdx = 0; resIdx < TM; ++resIdx) {
    const int r = cRow * BM + threadRow * TM + resIdx, c = cCol * BN + threadCol;
    C[r * N + c] = alpha * threadResults[resIdx] + beta * C[r * N + c];
  }
}

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemm_blocktile_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                   float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  const int strideA = (BM * BN) / (TM * TN) / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  const int strideB = (BM * BN) / (TM * TN) / BN;
  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};
  for (int bk = 0; bk < K; bk += BK) {
    for (int off = 0; off < BM; off += strideA)
      As[(innerRowA + off) * BK + innerColA] = A[(cRow * BM + innerRowA + off) * K + bk + innerColA];
    for (int off = 0; off < BK; off += strideB)
      Bs[(innerRowB + off) * BN + innerColB] = B[(bk + innerRowB + off) * N + cCol * BN + innerColB];
    __syncthreads();
    for (int dot = 0; dot < BK; ++dot) {
      for (int i = 0; i < TM; ++i)
        regM[i] = As[(threadRow * TM + i) * BK + dot];
      for (int i = 0; i < TN; ++i)
        regN[i] = Bs[dot * BN + threadCol * TN + i];
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
          threadResults[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n) {
      const int r = cRow * BM + threadRow * TM + m, c = cCol * BN + threadCol * TN + n;
      C[r * N + c] = alpha * threadResults[m * TN + n] + beta * C[r * N + c];
    }
}

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemm_vectorized(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  float threadResults[TM * TN] = {0.0f};
  for (int bk = 0; bk < K; bk += BK) {
    float4 tmp = reinterpret_cast<float4 *>(&A[(cRow * BM + innerRowA) * K + bk + innerColA * 4])[0];
    As[(innerColA * 4 + 0) * BM + innerRowA] = tmp.x;
    As[(innerColA * 4 + 1) * BM + innerRowA] = tmp.y;
    As[(innerColA * 4 + 2) * BM + innerRowA] = tmp.z;
    As[(innerColA * 4 + 3) * BM + innerRowA] = tmp.w;
    reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4])[0] =
        reinterpret_cast<float4 *>(&B[(bk + innerRowB) * N + cCol * BN + innerColB * 4])[0];
    __syncthreads();
    for (int dot = 0; dot < BK; ++dot)
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
          threadResults[m * TN + n] += As[dot * BM + threadRow * TM + m] * Bs[dot * BN + threadCol * TN + n];
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; n += 4) {
      const int r = cRow * BM + threadRow * TM + m, c = cCol * BN + threadCol * TN + n;
      float4 tmp = reinterpret_cast<float4 *>(&C[r * N + c])[0];
      tmp.x = alpha * threadResults[m * TN + n] + beta * tmp.x;
      tmp.y = alpha * threadResults[m * TN + n + 1] + beta * tmp.y;
      tmp.z = alpha * threadResults[m * TN + n + 2] + beta * tmp.z;
      tmp.w = alpha * threadResults[m * TN + n + 3] + beta * tmp.w;
      reinterpret_cast<float4 *>(&C[r * N + c])[0] = tmp;
    }
}

__global__ void sgemm_splitk(int M, int N, int K, int splits, const float *A, const float *B, float *C) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int chunk = K / splits;
  const int k0 = blockIdx.z * chunk;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = k0; k < k0 + chunk; ++k)
      acc += A[row * K + k] * B[k * N + col];
    atomicAdd(&C[row * N + col], acc);
  }
}

__global__ void scale_bias(int M, int N, float alpha, const float *bias, float *C) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < M * N)
    C[idx] = alpha * C[idx] + bias[idx % N];
}

int main(int argc, char **argv) {
  const int M = argc > 1 ? atoi(argv[1]) : 4096;
  const int N = M, K = M;
  const float alpha = 1.0f, beta = 0.0f;
  float *A, *B, *C, *bias;
  CUDA_CHECK(cudaMalloc(&A, sizeof(float) * M * K));
  CUDA_CHECK(cudaMalloc(&B, sizeof(float) * K * N));
  CUDA_CHECK(cudaMalloc(&C, sizeof(float) * M * N));
  CUDA_CHECK(cudaMalloc(&bias, sizeof(float) * N));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  {
    dim3 grid(CEIL_DIV(M, 32), CEIL_DIV(N, 32)), block(32, 32);
    sgemm_naive<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  }
  {
    dim3 grid(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    sgemm_coalesced<32><<<grid, 32 * 32>>>(M, N, K, alpha, A, B, beta, C);
    sgemm_smem<32><<<grid, 32 * 32>>>(M, N, K, alpha, A, B, beta, C);
  }
  {
    const int BM = 64, BN = 64, BK = 8, TM = 8;
    dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    sgemm_blocktile_1d<BM, BN, BK, TM><<<grid, (BM * BN) / TM>>>(M, N, K, alpha, A, B, beta, C);
  }
  {
    const int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    sgemm_blocktile_2d<BM, BN, BK, TM, TN><<<grid, (BM * BN) / (TM * TN)>>>(M, N, K, alpha, A, B, beta, C);
    sgemm_vectorized<BM, BN, BK, TM, TN><<<grid, (BM * BN) / (TM * TN)>>>(M, N, K, alpha, A, B, beta, C);
  }
  {
    const int splits = 4;
    dim3 grid(CEIL_DIV(N, 16), CEIL_DIV(M, 16), splits), block(16, 16);
    CUDA_CHECK(cudaMemset(C, 0, sizeof(float) * M * N));
    sgemm_splitk<<<grid, block>>>(M, N, K, splits, A, B, C);
    scale_bias<<<CEIL_DIV(M * N, 256), 256>>>(M, N, alpha, bias, C);
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%d x %d x %d: %.3f ms\n", M, N, K, ms);
  CUDA_CHECK(cudaFree(A));
  CUDA_CHECK(cudaFree(B));
  CUDA_CHECK(cudaFree(C));
  CUDA_CHECK(cudaFree(bias));
  return 0;
}
