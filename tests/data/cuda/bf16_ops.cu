/* bf16_ops.cu -- bfloat16 data (2 bytes per element): native bf16
 * arithmetic and bf16 storage with fp32 arithmetic.
 *
 * bf16_axpy: y[i] = __hfma(a, x[i], y[i]) on __nv_bfloat16 operands (the
 *   bf16 overload of __hfma); i < n covered: n threads.
 *   W: one fused multiply-add per thread -> 2 bf16.  W = 2*n, bf16.
 *   Q: x: n read -> 2n; y: n read first -> 2n, written -> 2n.  Q = 6*n.
 *   Q_access: load x[i], load y[i], store y[i] -> 6*n.
 *   I = 2n / 6n = 1/3.
 *
 * bf16_residual_scale: y[i] = bf16(float(x[i]) * scale + float(r[i])):
 *   conversions __bfloat162float / __float2bfloat16 do no FLOPs; one fp32
 *   multiply and one fp32 add per thread.  W = 2*n, fp32.
 *   Q: x, r: n read each; y: n written -> 2*(3n) = 6*n.
 *   Q_access = 6*n.  I = 1/3.
 * Q_shared = 0 for both.
 *
 * staticroof:expect bf16_axpy
 *   W        = 2*n
 *   Q        = 6*n
 *   Q_access = 6*n
 *   Q_shared = 0
 *   I        = 1/3
 *   bf16     = 2*n
 *
 * staticroof:expect bf16_residual_scale
 *   W        = 2*n
 *   Q        = 6*n
 *   Q_access = 6*n
 *   Q_shared = 0
 *   I        = 1/3
 *   fp32     = 2*n
 */

#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void bf16_axpy(int n, __nv_bfloat16 a, const __nv_bfloat16* __restrict__ x,
                          __nv_bfloat16* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __hfma(a, x[i], y[i]);
}

__global__ void bf16_residual_scale(int n, float scale, const __nv_bfloat16* __restrict__ x,
                                    const __nv_bfloat16* __restrict__ r,
                                    __nv_bfloat16* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = __bfloat162float(x[i]) * scale + __bfloat162float(r[i]);
        y[i] = __float2bfloat16(v);
    }
}
