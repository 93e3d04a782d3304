/* softmax.cu -- numerically stable softmax of every row of a rows-by-cols
 * float matrix, one thread per row, in three passes over the row:
 *   1. m = max_j x[row][j]                       (fmaxf: no FLOPs)
 *   2. e_j = expf(x[row][j] - m), y[row][j] = e_j, sum += e_j
 *   3. y[row][j] /= sum
 *
 * Derivation: row = blockIdx.x*blockDim.x + threadIdx.x with the guard
 * row < rows, covered by the grid: rows threads, each running three
 * j loops of cols trips.
 *   W: pass 1: fmaxf counts 0.  Pass 2: one subtract, one expf (a special
 *      function, weight 1, fp32) and one add (sum +=) per element -> 3.
 *      Pass 3: one divide per element -> 1.  W = 4*rows*cols, all fp32
 *      (the expf calls included); special = rows*cols.
 *   Q (compulsory), element size 4 bytes:
 *      x: x[row*cols + j] over row < rows, j < cols: rows*cols distinct
 *         elements, read (in passes 1 and 2, counted once)  -> 4*rows*cols
 *      y: rows*cols distinct elements; the first access of each is the
 *         store in pass 2, so the read-modify-write of pass 3 adds no read
 *         (y is a temporary for its own elements)           -> 4*rows*cols
 *      m, sum, e are registers -> 0.
 *      Q = 8*rows*cols.
 *   Q_access: every reference varies with j: pass 1 loads x (rc), pass 2
 *      loads x and stores y (2rc), pass 3 loads and stores y (2rc)
 *      -> 5*rows*cols accesses = 20*rows*cols bytes.
 *   Q_shared = 0.
 *   I = W / Q = 4rc / 8rc = 1/2.
 *   At the launch site rows = 8192, cols = 1024 (rows*cols = 8388608):
 *      W_value = 33554432, Q_value = 67108864.
 *
 * staticroof:expect softmax_rows
 *   W        = 4*rows*cols
 *   Q        = 8*rows*cols
 *   Q_access = 20*rows*cols
 *   Q_shared = 0
 *   I        = 1/2
 *   fp32     = 4*rows*cols
 *   special  = rows*cols
 *   W_value  = 33554432
 *   Q_value  = 67108864
 */

#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float m = -INFINITY;
        for (int j = 0; j < cols; ++j)
            m = fmaxf(m, x[row * cols + j]);

        float sum = 0.0f;
        for (int j = 0; j < cols; ++j) {
            float e = expf(x[row * cols + j] - m);
            y[row * cols + j] = e;
            sum += e;
        }

        for (int j = 0; j < cols; ++j)
            y[row * cols + j] /= sum;
    }
}

int main()
{
    const int rows = 8192;
    const int cols = 1024;
    const size_t bytes = (size_t)rows * cols * sizeof(float);

    float* h_x = (float*)malloc(bytes);
    float* h_y = (float*)malloc(bytes);
    for (size_t i = 0; i < (size_t)rows * cols; ++i)
        h_x[i] = (float)(i % 7) * 0.1f;

    float *d_x, *d_y;
    cudaMalloc(&d_x, bytes);
    cudaMalloc(&d_y, bytes);
    cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);

    const int threads = 128;
    const int blocks = (rows + threads - 1) / threads;
    softmax_rows<<<blocks, threads>>>(d_x, d_y, rows, cols);

    cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost);
    float total = 0.0f;
    for (int j = 0; j < cols; ++j)
        total += h_y[j];
    printf("row 0 sums to %f (expected 1)\n", total);

    cudaFree(d_x);
    cudaFree(d_y);
    free(h_x);
    free(h_y);
    return 0;
}
