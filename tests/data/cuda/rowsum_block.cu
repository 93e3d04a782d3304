/* rowsum_block.cu -- row sums of a rows-by-cols float matrix, one block
 * per row (template parameter BLOCK_SIZE threads): a block-stride loop
 * accumulates in a register, then a shared-memory tree (unrolled over the
 * template constant BLOCK_SIZE) adds the BLOCK_SIZE partial sums and
 * thread 0 writes out[row].
 *
 * Launch: row_sum<256><<<rows, 256>>>: BLOCK_SIZE = 256 = blockDim_x, and
 * the halving loop is unrolled for it (stride = 128, 64, ..., 1); 256 is
 * substituted for BLOCK_SIZE and blockDim_x throughout.  row = blockIdx.x
 * with the early return row >= rows: the grid is assumed to cover it, so
 * rows blocks of 256 threads work.
 *
 * Derivation, per row (tid = threadIdx.x = 0 .. 255):
 *   W: the loop j = tid, tid + blockDim.x, ... < cols visits every column
 *      of the row exactly once over the block's threads (for any block
 *      size): cols adds.  The tree: 128 +
 *      64 + ... + 1 = 255 adds.  W = rows*cols + 255*rows, fp32.
 *   Q (compulsory), element size 4 bytes:
 *      A: A[row*cols + j]: rows*cols distinct elements, read -> 4*rows*cols
 *      out: out[row], rows elements written (by tid 0)     -> 4*rows
 *      Q = 4*rows*cols + 4*rows.
 *   Q_access: A[row*cols + j] varies with j: rows*cols loads; out: one
 *      store per row.  Q_access = 4*rows*cols + 4*rows.
 *   Q_shared per row: sdata[tid] = s: 256 stores; sdata[tid + stride]:
 *      255 loads; sdata[tid] in the += does not depend on stride (its
 *      innermost loop): by the register rule one load and one store per
 *      thread that runs it (tid < 128): 256; sdata[0]: 1 load.
 *      768 accesses * 4 B = 3072 B by the register rule; staticroof counts every
 *      shared access (256 + 3*255 + 1 = 1022 -> 4088 B per row).  Q_shared = 4088*rows.
 *   I = (rows*cols + 255*rows) / (4*rows*cols + 4*rows)
 *     = (cols + 255)/(4*(cols + 1)).
 *   At the launch site rows = 4096, cols = 1000:
 *      W_value = 4096*1255 = 5140480, Q_value = 4*4096*1001 = 16400384.
 *
 * staticroof:expect row_sum
 *   W        = rows*cols + 255*rows
 *   Q        = 4*rows*cols + 4*rows
 *   Q_access = 4*rows*cols + 4*rows
 *   Q_shared = 4088*rows
 *   I        = (cols + 255)/(4*(cols + 1))
 *   fp32     = rows*cols + 255*rows
 *   W_value  = 5140480
 *   Q_value  = 16400384
 */

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

template <int BLOCK_SIZE>
__global__ void row_sum(const float* __restrict__ A, float* __restrict__ out, int rows, int cols)
{
    __shared__ float sdata[BLOCK_SIZE];

    const int row = blockIdx.x;
    if (row >= rows)
        return;

    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x)
        s += A[row * cols + j];
    sdata[threadIdx.x] = s;
    __syncthreads();

#pragma unroll
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            sdata[threadIdx.x] += sdata[threadIdx.x + stride];
        __syncthreads();
    }

    if (threadIdx.x == 0)
        out[row] = sdata[0];
}

int main()
{
    const int rows = 4096;
    const int cols = 1000;

    float* h_A = (float*)malloc((size_t)rows * cols * sizeof(float));
    for (int i = 0; i < rows * cols; ++i)
        h_A[i] = 1.0f;

    float *d_A, *d_out;
    cudaMalloc(&d_A, (size_t)rows * cols * sizeof(float));
    cudaMalloc(&d_out, rows * sizeof(float));
    cudaMemcpy(d_A, h_A, (size_t)rows * cols * sizeof(float), cudaMemcpyHostToDevice);

    row_sum<256><<<rows, 256>>>(d_A, d_out, rows, cols);

    float first;
    cudaMemcpy(&first, d_out, sizeof(float), cudaMemcpyDeviceToHost);
    printf("out[0] = %f (expected %d)\n", first, cols);

    cudaFree(d_A);
    cudaFree(d_out);
    free(h_A);
    return 0;
}
