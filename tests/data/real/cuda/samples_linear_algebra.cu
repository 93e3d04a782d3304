/* samples_linear_algebra.cu -- dense and sparse linear-algebra kernels of the CUDA samples and of
 * GPU courses: three matrix transposes (naive, shared-memory tile, tile padded against bank
 * conflicts, the last a template instantiated for double), the sample's tiled matrixMul
 * (template BLOCK_SIZE, flat sub-matrix addresses), a row-per-thread SGEMV, CSR SpMV (scalar and
 * warp-per-row vector kernels), and the sample's separable convolution (rows and columns kernels
 * with halo steps and the taps in __constant__ memory).
 *
 * Transposes: idata is width x height row-major (height rows of width), odata its transpose.
 *   Launch dim3((width + 31)/32, (height + 31)/32), dim3(32, 8): each thread moves the rows
 *   y, y + 8, y + 16, y + 24 of its 32 x 32 tile; the guards x < width && y + j < height (and
 *   the transposed ones on the store side) keep exactly the matrix: every element is read once
 *   and written once.  W = 0.
 * transposeNaive: Q = 8*width*height (= Q_access).
 * transposeCoalesced: Q = 8*width*height; the tile is stored width*height times and loaded
 *   width*height times: Q_shared = 8*width*height.
 * transposeNoBankConflicts<double> (its only instance, reported as transposeNoBankConflicts): 8-byte elements: Q = 16*width*height,
 *   Q_shared = 16*width*height.
 *
 * MatrixMulCUDA<16><<<dim3(wB / 16, hA / 16), dim3(16, 16)>>>(C, A, B, wA, wB) (reported as
 *   MatrixMulCUDA, its only instance): hA is no kernel
 *   argument, it only sets gridDim_y = hA/16 (10 in main; hA = wA = 160, wB = 320).  Every
 *   thread runs the `a <= aEnd` loop ceiling(wA/16) times (a steps by 16 from aBegin to
 *   aBegin + wA - 1), 16 multiply-adds from shared memory each:
 *   W = 2*16*ceiling(wA/16) * 256*floor(wB/16)*gridDim_y = 8192*ceiling(wA/16)*floor(wB/16)*gridDim_y.
 *   Q: block row by reads A[a + wA*ty + tx] with a = 16*wA*by + 16*k: for each ty the flat range
 *   [16*wA*by + wA*ty, ... + 16*ceiling(wA/16)); 16*ceiling(wA/16) >= wA, so the ranges touch and
 *   their union over ty and by is [0, 16*wA*gridDim_y - wA + 16*ceiling(wA/16)) (16*wA*gridDim_y
 *   when 16 divides wA, as the host asserts).  B[b + wB*ty + tx], b = 16*bx + 16*wB*k: rows
 *   < 16*ceiling(wA/16), columns < 16*floor(wB/16): 256*ceiling(wA/16)*floor(wB/16) elements.
 *   C written 256*gridDim_y*floor(wB/16).
 *   Q = 4*(16*wA*gridDim_y - wA + 16*ceiling(wA/16)) + 1024*ceiling(wA/16)*floor(wB/16)
 *       + 1024*gridDim_y*floor(wB/16).
 *   At main's sizes: W = 2*160*320*160 = 16384000, Q = 4*(160*160 + 160*320 + 160*320) = 512000.
 *
 * sgemv_rowwise<<<(m + 127)/128, 128>>>: row < m: n multiply-adds, alpha*sum + beta*y (3):
 *   W = m*(2*n + 3).  Q: A read m*n, x read n, y read and written m: Q = 4*m*n + 4*n + 8*m.
 *   x[j] is reloaded by every row: Q_access = 4*(2*m*n + 2*m) = 8*m*n + 8*m.
 *
 * spmv_csr_scalar (one thread per row): W = 2*nnz + num_rows with nnz = row_ptr[num_rows] -
 *   row_ptr[0] from the data, and x[col_idx[jj]] an indirect index: data-dependent, APPROXIMATE.
 * spmv_csr_vector (one warp per row, 32 lanes stride the row, 5 shuffle steps in 32 lanes, lane 0
 *   adds to y): W = 2*nnz + 161*num_rows: data-dependent, APPROXIMATE.
 *
 * convolutionRowsKernel<<<dim3(imageW / 128, imageH / 4), dim3(16, 4)>>>(dst, src, imageW, imageH,
 *   pitch = imageW): fw = floor(imageW/128), fh = floor(imageH/4) blocks of 64 threads; each
 *   thread computes 8 outputs of 17 multiply-adds from shared memory: 272 FLOPs.
 *   W = 17408*floor(imageW/128)*floor(imageH/4).
 *   Q: rows < 4*fh.  Each thread loads 8 main points (columns < 128*fw), the left halo (16
 *   columns before its block, skipped for block 0: already main points of the previous block)
 *   and the right halo (16 columns after it, guarded by x < imageW: new points only after the
 *   last block, min(16, imageW - 128*fw) columns).  Read 4*fh*min(128*fw + 16, imageW) elements
 *   of src, write 512*fw*fh of dst, read the 17 taps once (68 B):
 *   Q = 16*fh*Min(128*fw + 16, imageW) + 2048*fw*fh + 68.
 *   Q_access: per thread 8 src loads, 8 dst stores and 8*17 tap loads (152), plus the left halo
 *   in the blocks with blockIdx.x >= 1 (64*(fw - 1)*fh) and the right halo where it is in range
 *   (64*(fw - 1)*fh + 4*fh*min(16, imageW - 128*fw)):
 *   Q_access = 4*fh*(9856*fw - 128 + 4*Min(16, imageW - 128*fw)).
 *   Shared: 10 stores and 136 loads per thread: Q_shared = 584*64*fw*fh = 37376*fw*fh.
 *   (imageW = 136, imageH = 70: W = 295936, Q = 71876, Q_access = 663680.)
 * convolutionColumnsKernel<<<dim3(imageW / 16, imageH / 64), dim3(16, 8)>>>(dst, src, imageW,
 *   imageH, pitch = imageW): the kernel reads its row length only from pitch, so its formulas are
 *   in pitch (= imageW at the launch).  gw = floor(pitch/16), gh = floor(imageH/64) blocks of 128
 *   threads, 8 outputs of 17 multiply-adds each: W = 34816*gw*gh.
 *   Q: columns < 16*gw, rows < min(64*gh + 8, imageH) (the lower halo after the last block row),
 *   dst written 1024*gw*gh, taps 68 B: Q = 64*gw*Min(64*gh + 8, imageH) + 4096*gw*gh + 68.
 *   Q_access = 4*(152*128*gw*gh + 128*gw*(gh - 1) + 128*gw*(gh - 1) + 16*gw*min(8, imageH - 64*gh))
 *            = 4*gw*(19712*gh - 256 + 16*Min(8, imageH - 64*gh)).
 *   Q_shared = 584*128*gw*gh = 74752*gw*gh.
 *   (imageW = pitch = 136, imageH = 70: W = 278528, Q = 68676, Q_access = 625664.)
 *   Both convolution formulas hold for imageW >= 128 and imageH >= 64 (at least one block).
 *
 * staticroof:expect transposeNaive
 *   W        = 0
 *   Q        = 8*width*height
 *   Q_access = 8*width*height
 *
 * staticroof:expect transposeCoalesced
 *   W        = 0
 *   Q        = 8*width*height
 *   Q_access = 8*width*height
 *   Q_shared = 8*width*height
 *
 * staticroof:expect transposeNoBankConflicts
 *   W        = 0
 *   Q        = 16*width*height
 *   Q_access = 16*width*height
 *   Q_shared = 16*width*height
 *
 * staticroof:expect MatrixMulCUDA
 *   W       = 8192*ceiling(wA/16)*floor(wB/16)*gridDim_y
 *   Q       = 4*(16*wA*gridDim_y - wA + 16*ceiling(wA/16)) + 1024*ceiling(wA/16)*floor(wB/16) + 1024*gridDim_y*floor(wB/16)
 *   fp32    = 8192*ceiling(wA/16)*floor(wB/16)*gridDim_y
 *   W_value = 16384000
 *   Q_value = 512000
 *
 * staticroof:expect sgemv_rowwise
 *   W        = m*(2*n + 3)
 *   Q        = 4*m*n + 4*n + 8*m
 *   Q_access = 8*m*n + 8*m
 *   fp32     = m*(2*n + 3)
 *
 * staticroof:expect spmv_csr_scalar
 *   exact = false
 *
 * staticroof:expect spmv_csr_vector
 *   exact = false
 *
 * staticroof:expect convolutionRowsKernel
 *   W        = 17408*floor(imageW/128)*floor(imageH/4)
 *   Q        = 16*floor(imageH/4)*Min(128*floor(imageW/128) + 16, imageW) + 2048*floor(imageW/128)*floor(imageH/4) + 68
 *   Q_access = 4*floor(imageH/4)*(9856*floor(imageW/128) - 128 + 4*Min(16, imageW - 128*floor(imageW/128)))
 *   Q_shared = 37376*floor(imageW/128)*floor(imageH/4)
 *   fp32     = 17408*floor(imageW/128)*floor(imageH/4)
 *
 * staticroof:expect convolutionColumnsKernel
 *   W        = 34816*floor(pitch/16)*floor(imageH/64)
 *   Q        = 64*floor(pitch/16)*Min(64*floor(imageH/64) + 8, imageH) + 4096*floor(pitch/16)*floor(imageH/64) + 68
 *   Q_access = 4*floor(pitch/16)*(19712*floor(imageH/64) - 256 + 16*Min(8, imageH - 64*floor(imageH/64)))
 *   Q_shared = 74752*floor(pitch/16)*floor(imageH/64)
 *   fp32     = 34816*floor(pitch/16)*floor(imageH/64)
 */

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s(%d): %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            exit(EXIT_FAILURE);                                                            \
        }                                                                                  \
    } while (0)

// matrix transpose
#define TILE_DIM 32
#define BLOCK_ROWS 8

// matrixMul
#define MM_BLOCK_SIZE 16

// separable convolution
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1
#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__constant__ float c_Kernel[KERNEL_LENGTH];

// ---------------------------------------------------------------------------------------------
// Matrix transpose: width x height row-major in, height x width row-major out
// ---------------------------------------------------------------------------------------------

__global__ void transposeNaive(float* odata, const float* idata, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeCoalesced(float* odata, const float* idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;  // transpose block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Same as transposeCoalesced, with the tile padded by one column against bank conflicts.
template <typename T>
__global__ void transposeNoBankConflicts(T* __restrict__ odata, const T* __restrict__ idata, int width, int height)
{
    __shared__ T tile[TILE_DIM][TILE_DIM + 1];

    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        if (xIndex < width && yIndex + i < height)
            tile[threadIdx.y + i][threadIdx.x] = idata[(yIndex + i) * width + xIndex];
    }

    __syncthreads();

    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        if (xIndex < height && yIndex + i < width)
            odata[(yIndex + i) * height + xIndex] = tile[threadIdx.x][threadIdx.y + i];
    }
}

// ---------------------------------------------------------------------------------------------
// Dense matrix products
// ---------------------------------------------------------------------------------------------

// C = A * B, A hA x wA, B wA x wB: the CUDA sample's shared-memory tiles (sizes multiples of
// BLOCK_SIZE, asserted by the host).
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float* C, float* A, float* B, int wA, int wB)
{
    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // Index of the first sub-matrix of A processed by the block
    int aBegin = wA * BLOCK_SIZE * by;
    // Index of the last sub-matrix of A processed by the block
    int aEnd = aBegin + wA - 1;
    // Step size used to iterate through the sub-matrices of A
    int aStep = BLOCK_SIZE;
    // Index of the first sub-matrix of B processed by the block
    int bBegin = BLOCK_SIZE * bx;
    // Step size used to iterate through the sub-matrices of B
    int bStep = BLOCK_SIZE * wB;

    float Csub = 0;

    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];

        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

// y = alpha * A * x + beta * y, A m x n row-major, one thread per row.
__global__ void sgemv_rowwise(int m, int n, float alpha, const float* __restrict__ A, const float* __restrict__ x,
                              float beta, float* __restrict__ y)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float sum = 0.0f;
        for (int j = 0; j < n; ++j)
            sum += A[row * n + j] * x[j];
        y[row] = alpha * sum + beta * y[row];
    }
}

// ---------------------------------------------------------------------------------------------
// Sparse matrix-vector product, CSR
// ---------------------------------------------------------------------------------------------

__global__ void spmv_csr_scalar(int num_rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y)
{
    int row = blockDim.x * blockIdx.x + threadIdx.x;
    if (row < num_rows) {
        float dot = 0.0f;
        const int row_start = row_ptr[row];
        const int row_end = row_ptr[row + 1];
        for (int jj = row_start; jj < row_end; jj++)
            dot += vals[jj] * x[col_idx[jj]];
        y[row] += dot;
    }
}

// One warp per row; the lanes stride the row and reduce with shuffles.
__global__ void spmv_csr_vector(int num_rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y)
{
    const int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
    const int warp_id = thread_id / 32;
    const int lane = thread_id & 31;
    const int row = warp_id;

    if (row < num_rows) {
        const int row_start = row_ptr[row];
        const int row_end = row_ptr[row + 1];
        float sum = 0.0f;
        for (int jj = row_start + lane; jj < row_end; jj += 32)
            sum += vals[jj] * x[col_idx[jj]];
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffff, sum, offset);
        if (lane == 0)
            y[row] += sum;
    }
}

// ---------------------------------------------------------------------------------------------
// Separable convolution (rows, then columns), filter taps in constant memory
// ---------------------------------------------------------------------------------------------

__global__ void convolutionRowsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];

    // Offset to the left halo edge
    const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
    const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;

    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;

    // Main data
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[i * ROWS_BLOCKDIM_X];

    // Left halo
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;

    // Right halo
#pragma unroll
    for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;

    __syncthreads();

#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
        d_Dst[i * ROWS_BLOCKDIM_X] = sum;
    }
}

__global__ void convolutionColumnsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[COLUMNS_BLOCKDIM_X][(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];

    // Offset to the upper halo edge
    const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
    const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;

    // Main data
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = d_Src[i * COLUMNS_BLOCKDIM_Y * pitch];

    // Upper halo
#pragma unroll
    for (int i = 0; i < COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;

    // Lower halo
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
         i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;

    __syncthreads();

#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
        d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
    }
}

// ---------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------

static float* device_alloc(size_t count)
{
    float* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(float)));
    return p;
}

int main(int argc, char** argv)
{
    // transpose
    const int width = 2048, height = 1024;
    float* d_idata = device_alloc((size_t)width * height);
    float* d_odata = device_alloc((size_t)width * height);
    double *d_didata, *d_dodata;
    CUDA_CHECK(cudaMalloc(&d_didata, (size_t)width * height * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_dodata, (size_t)width * height * sizeof(double)));

    dim3 dimGrid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM, 1);
    dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);
    transposeNaive<<<dimGrid, dimBlock>>>(d_odata, d_idata, width, height);
    transposeCoalesced<<<dimGrid, dimBlock>>>(d_odata, d_idata, width, height);
    transposeNoBankConflicts<double><<<dimGrid, dimBlock>>>(d_dodata, d_didata, width, height);

    // matrixMul: the sample's default sizes
    const int block_size = MM_BLOCK_SIZE;
    const int wA = 5 * 2 * block_size, hA = 5 * 2 * block_size;
    const int wB = 5 * 4 * block_size;
    assert(wA % block_size == 0 && hA % block_size == 0 && wB % block_size == 0);
    float* d_A = device_alloc((size_t)hA * wA);
    float* d_B = device_alloc((size_t)wA * wB);
    float* d_C = device_alloc((size_t)hA * wB);
    dim3 threads(block_size, block_size);
    dim3 grid(wB / threads.x, hA / threads.y);
    MatrixMulCUDA<MM_BLOCK_SIZE><<<grid, threads>>>(d_C, d_A, d_B, wA, wB);

    // gemv
    const int m = 4096, n = 4096;
    float* d_x = device_alloc(n);
    float* d_y = device_alloc(m);
    sgemv_rowwise<<<(m + 127) / 128, 128>>>(m, n, 1.0f, d_idata, d_x, 0.0f, d_y);

    // CSR SpMV
    const int num_rows = 1 << 20;
    const int nnz = 16 * num_rows;
    int *d_row_ptr, *d_col_idx;
    float* d_vals = device_alloc(nnz);
    float* d_xs = device_alloc(num_rows);
    float* d_ys = device_alloc(num_rows);
    CUDA_CHECK(cudaMalloc(&d_row_ptr, (num_rows + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_col_idx, nnz * sizeof(int)));
    spmv_csr_scalar<<<(num_rows + 255) / 256, 256>>>(num_rows, d_row_ptr, d_col_idx, d_vals, d_xs, d_ys);
    spmv_csr_vector<<<(num_rows * 32 + 255) / 256, 256>>>(num_rows, d_row_ptr, d_col_idx, d_vals, d_xs, d_ys);

    // separable convolution
    const int imageW = 3072, imageH = 3072;
    assert(imageW % (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X) == 0 && imageH % ROWS_BLOCKDIM_Y == 0);
    assert(imageW % COLUMNS_BLOCKDIM_X == 0 && imageH % (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y) == 0);
    float h_Kernel[KERNEL_LENGTH];
    for (int k = 0; k < KERNEL_LENGTH; k++)
        h_Kernel[k] = (float)(rand() % 16);
    CUDA_CHECK(cudaMemcpyToSymbol(c_Kernel, h_Kernel, KERNEL_LENGTH * sizeof(float)));
    float* d_Input = device_alloc((size_t)imageW * imageH);
    float* d_Buffer = device_alloc((size_t)imageW * imageH);
    float* d_Output = device_alloc((size_t)imageW * imageH);

    dim3 blocksR(imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y);
    dim3 threadsR(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);
    convolutionRowsKernel<<<blocksR, threadsR>>>(d_Buffer, d_Input, imageW, imageH, imageW);

    dim3 blocksC(imageW / COLUMNS_BLOCKDIM_X, imageH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y));
    dim3 threadsC(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y);
    convolutionColumnsKernel<<<blocksC, threadsC>>>(d_Output, d_Buffer, imageW, imageH, imageW);

    CUDA_CHECK(cudaDeviceSynchronize());

    cudaFree(d_idata);
    cudaFree(d_odata);
    cudaFree(d_didata);
    cudaFree(d_dodata);
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_row_ptr);
    cudaFree(d_col_idx);
    cudaFree(d_vals);
    cudaFree(d_xs);
    cudaFree(d_ys);
    cudaFree(d_Input);
    cudaFree(d_Buffer);
    cudaFree(d_Output);
    return 0;
}
