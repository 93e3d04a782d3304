/* missing_header.cu -- a solver file whose scalar types come from a project header that is not
 * in this tree ("solver_types.h" defines real_t and index_t).  Only the kernel that uses those
 * types depends on the header: its element size is unknown, so its traffic cannot be exact,
 * while its operation count is (3 per element).  The other kernel uses built-in types only.
 *
 * axpby_real: y[i] = a*x[i] + b*y[i] for i < n: 2 multiplies + 1 add: W = 3*n; element size
 *   unknown (an opaque type): APPROXIMATE.
 * fill_ones: v[i] = 1.0f for i < n: W = 0, Q = 4*n (written).
 *
 * staticroof:expect axpby_real
 *   W     = 3*n
 *   exact = false
 *
 * staticroof:expect fill_ones
 *   W = 0
 *   Q = 4*n
 */

#include <cuda_runtime.h>
#include "solver_types.h"

__global__ void axpby_real(index_t n, real_t a, const real_t* __restrict__ x, real_t b, real_t* __restrict__ y)
{
    const index_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + b * y[i];
}

__global__ void fill_ones(float* v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = 1.0f;
}

void solver_fill(float* d_v, int n)
{
    fill_ones<<<(n + 127) / 128, 128>>>(d_v, n);
}
