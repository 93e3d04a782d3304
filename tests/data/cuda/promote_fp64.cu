/* promote_fp64.cu -- the classic CUDA precision pitfall: an unsuffixed
 * literal (2.0) is a double, so 2.0 * x[i] with float x is evaluated in
 * fp64, and the + 1.0f that follows is a double + float -> fp64 as well.
 * The fixed version uses 2.0f and stays in fp32.
 *
 * scale_promoted: i < n covered: n threads.
 *   W: 2.0 * x[i] (fp64 multiply) and (...) + 1.0f (fp64 add) -> 2 fp64
 *      per thread (the conversions are free).  W = 2*n, fp64.
 *   Q: x: n floats read -> 4n; y: n floats written -> 4n.  Q = 8*n.
 *   Q_access = 8*n.  I = 1/4.
 * scale_single: the same with 2.0f: W = 2*n, fp32; Q = 8*n, Q_access = 8*n,
 *   I = 1/4.
 * Q_shared = 0 for both.
 *
 * staticroof:expect scale_promoted
 *   W        = 2*n
 *   Q        = 8*n
 *   Q_access = 8*n
 *   Q_shared = 0
 *   I        = 1/4
 *   fp64     = 2*n
 *
 * staticroof:expect scale_single
 *   W        = 2*n
 *   Q        = 8*n
 *   Q_access = 8*n
 *   Q_shared = 0
 *   I        = 1/4
 *   fp32     = 2*n
 */

#include <cuda_runtime.h>

__global__ void scale_promoted(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0 * x[i] + 1.0f;
}

__global__ void scale_single(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i] + 1.0f;
}
