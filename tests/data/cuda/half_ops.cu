/* half_ops.cu -- native fp16 arithmetic through the cuda_fp16.h
 * intrinsics.  Element size 2 bytes.
 *
 * half_axpby: y[i] = alpha*x[i] + beta*y[i] as __hadd(__hmul(alpha, x[i]),
 *   __hmul(beta, y[i])); i < n covered: n threads.
 *   W: two __hmul and one __hadd -> 3 fp16 per thread.  W = 3*n, fp16.
 *   Q: x: n read -> 2n; y: n read first -> 2n, written -> 2n.  Q = 6*n.
 *   Q_access: load x[i], load y[i], store y[i] -> 6*n.
 *   I = 3n / 6n = 1/2.
 *
 * half_sqdiff: out[i] = (a[i] - b[i])^2 as d = __hsub(a[i], b[i]);
 *   out[i] = __hmul(d, d); n threads.
 *   W: one __hsub, one __hmul -> 2*n, fp16.
 *   Q: a, b: n read each; out: n written -> 2*(n + n + n) = 6*n.
 *   Q_access = 6*n.  I = 2n / 6n = 1/3.
 * Q_shared = 0 for both.
 *
 * staticroof:expect half_axpby
 *   W        = 3*n
 *   Q        = 6*n
 *   Q_access = 6*n
 *   Q_shared = 0
 *   I        = 1/2
 *   fp16     = 3*n
 *
 * staticroof:expect half_sqdiff
 *   W        = 2*n
 *   Q        = 6*n
 *   Q_access = 6*n
 *   Q_shared = 0
 *   I        = 1/3
 *   fp16     = 2*n
 */

#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void half_axpby(int n, __half alpha, const __half* __restrict__ x, __half beta,
                           __half* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __hadd(__hmul(alpha, x[i]), __hmul(beta, y[i]));
}

__global__ void half_sqdiff(int n, const __half* __restrict__ a, const __half* __restrict__ b,
                            __half* __restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const __half d = __hsub(a[i], b[i]);
        out[i] = __hmul(d, d);
    }
}
