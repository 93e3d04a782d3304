/* daxpy_extern_c.cu -- double-precision y = a*x + y exported with C
 * linkage (extern "C"), as a kernel loaded by name from a module would be.
 *
 * Derivation: i < n covered by the grid: n threads.
 *   W: one double multiply and one double add per thread -> 2*n, fp64.
 *   Q (compulsory), element size 8 bytes: x: n read -> 8n; y: n read first
 *      -> 8n, and written -> 8n.  Q = 24*n.
 *   Q_access: load x[i], load y[i], store y[i] per thread -> 24*n.
 *   Q_shared = 0.  I = 2n / 24n = 1/12.
 *
 * staticroof:expect daxpy_kernel
 *   W        = 2*n
 *   Q        = 24*n
 *   Q_access = 24*n
 *   Q_shared = 0
 *   I        = 1/12
 *   fp64     = 2*n
 */

#include <cuda_runtime.h>

extern "C" __global__ void daxpy_kernel(int n, double a, const double* __restrict__ x,
                                        double* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
