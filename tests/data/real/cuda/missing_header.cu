/* missing_header.cu -- a solver file whose scalar types come from a project header that is not
 * in this tree ("solver_types.h" defines real_t and index_t).  Only the kernel that uses those
 * types depends on the header: its element size is unknown, so its traffic cannot be exact,
 * while its operation count is (3 per element).  The other kernel uses built-in types only.
 *
 * The header is read as empty (SR131, naming the -I to pass), so both kernels are reported:
 * axpby_real: y[i] = a*x[i] + b*y[i] for i < n: 2 multiplies + 1 add if real_t is a floating type,
 *   of a size the missing header alone says: the analysis guesses an opaque 4-byte scalar (SR141),
 *   so its W (0 under the guess) and Q (12*n) are guesses: APPROXIMATE.
 * fill_ones: v[i] = 1.0f for i < n: W = 0, Q = 4*n (written): it uses nothing of the header, exact.
 *
 * staticroof:expect axpby_real
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
