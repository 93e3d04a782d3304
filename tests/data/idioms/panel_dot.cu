// Dynamic shared memory staged by block-wide async copies; the grid m / tile divides by a kernel parameter.
// Expected values: tests/test_async_copy.py.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// each block stages a row panel of a (tile x n) and a panel of b into dynamic shared memory
__global__ void panel_dot(int n, int tile, const float *a, const float *b, float *c)
{
    auto cta = cg::this_thread_block();
    extern __shared__ float smem[];
    float *a_s = smem;
    float *b_s = &smem[tile * n];
    int row0 = blockIdx.x * tile;
    cg::memcpy_async(cta, a_s, &a[row0 * n], sizeof(float) * tile * n);
    cg::memcpy_async(cta, b_s, b, sizeof(float) * n);
    cg::wait(cta);
    for (int r = threadIdx.x; r < tile; r += blockDim.x) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += a_s[r * n + k] * b_s[k];
        c[row0 + r] = s;
    }
}

int main()
{
    int n = 1024, tile = 16, m = 4096;
    float *a, *b, *c;
    panel_dot<<<m / tile, 128, sizeof(float) * (tile + 1) * n>>>(n, tile, a, b, c);
    return 0;
}
