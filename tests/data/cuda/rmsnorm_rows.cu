/* rmsnorm_rows.cu -- RMS normalisation of each row of a rows-by-cols float
 * matrix with a gain vector g, one thread per row, written with CUDA math
 * intrinsics: fmaf, __fdividef, rsqrtf, __fmul_rn.
 *   y[row][j] = x[row][j] * rsqrt(mean_j x[row][j]^2 + eps) * g[j]
 *
 * Derivation: row < rows covered by the grid: rows threads, each running
 * two j loops of cols trips.
 *   W: loop 1: fmaf(v, v, ss) = 2 per element -> 2*rows*cols.
 *      Per row: __fdividef(ss, (float)cols) 1, + eps 1, rsqrtf 1 special
 *      (the int-to-float cast is free) -> 3*rows.
 *      Loop 2: __fmul_rn 1 and * g[j] 1 per element -> 2*rows*cols.
 *      W = 4*rows*cols + 3*rows, all fp32; special = rows.
 *   Q (compulsory), element size 4 bytes:
 *      x: rows*cols distinct elements read (twice, counted once)
 *      g: g[0 .. cols-1] read
 *      y: rows*cols written
 *      Q = 8*rows*cols + 4*cols.
 *   Q_access: all references vary with j: loop 1 loads x (rc), loop 2 loads
 *      x and g and stores y (3rc) -> 16*rows*cols.
 *   Q_shared = 0.
 *   I = (4*rows*cols + 3*rows) / (8*rows*cols + 4*cols).
 *
 * staticroof:expect rmsnorm_rows
 *   W        = 4*rows*cols + 3*rows
 *   Q        = 8*rows*cols + 4*cols
 *   Q_access = 16*rows*cols
 *   Q_shared = 0
 *   I        = (4*rows*cols + 3*rows)/(8*rows*cols + 4*cols)
 *   fp32     = 4*rows*cols + 3*rows
 *   special  = rows
 */

#include <cuda_runtime.h>

__global__ void rmsnorm_rows(const float* __restrict__ x, const float* __restrict__ g,
                             float* __restrict__ y, int rows, int cols, float eps)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float ss = 0.0f;
        for (int j = 0; j < cols; ++j) {
            const float v = x[row * cols + j];
            ss = fmaf(v, v, ss);
        }
        const float scale = rsqrtf(__fdividef(ss, static_cast<float>(cols)) + eps);
        for (int j = 0; j < cols; ++j)
            y[row * cols + j] = __fmul_rn(x[row * cols + j], scale) * g[j];
    }
}
