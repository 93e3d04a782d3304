/* host_configs.cu -- launch configurations the host computes (issue #28 §3), one kernel per idiom.
 *
 * Every kernel but k_2d and k_min_stride is the same: y[i] = a*x[i] for i < n (one multiply), and
 * thread 0 of each block writes blk[blockIdx.x] = a + 1 (one add).  With G blocks of B threads the
 * threads cover T = min(n, G*B) elements:
 *   W = T + G,  Q = Q_access = 8*T + 4*G  (x read T, y written T, blk written G).
 * So the block count is visible in W and Q, and a grid that does not cover n shows in T.
 * The sizes: n = 37 (one partial block) and n = 1000 (several blocks, a capped grid below n).
 *
 * k_rem   <<<n / 256 + (n % 256 ? 1 : 0), 256>>>        G = ceiling(n/256): T = n.
 *           n = 37: G = 1, W = 38, Q = 300;  n = 1000: G = 4, W = 1004, Q = 8016.
 * k_ceil  <<<ceil((float)n / 256), 256>>>                the same.
 * k_min   <<<std::min((n + 255) / 256, 2), 256>>>        G = Min(2, ceiling(n/256)), T = min(n, 512).
 *           n = 37: G = 1, T = 37, W = 38, Q = 300;  n = 1000: G = 2, T = 512, W = 514, Q = 4104.
 * k_imin  <<<imin(2, (n + 255) / 256), 256>>>            (a user macro) the same as k_min.
 * k_min_plain <<<std::min((n + 255) / 256, 2), 256>>>    y[i] = a*x[i] for i < n only (no per-block
 *           term): the work does not name the grid, but the capped grid still leaves elements out:
 *           W = T = min(n, 512), Q = 8*T.  n = 37: W = 37, Q = 296;  n = 1000: W = 512, Q = 4096.
 * k_min_stride <<<std::min((n + 255) / 256, 2), 256>>>   a grid-stride loop: T = n whatever G.
 *           n = 37: G = 1, W = 38, Q = 300;  n = 1000: G = 2, W = 1002, Q = 8008.
 * k_sw<B> launched from `switch (threads) { case 128: ... case 64: ... }` in launch_switch, with
 *           blocks = (n + threads - 1) / threads, threads unknown in main: the case binds it.
 *           <128>: G = ceiling(n/128): n = 37: W = 38, Q = 300; n = 1000: G = 8, W = 1008, Q = 8032.
 *           <64>:  G = ceiling(n/64):  n = 37: W = 38, Q = 300; n = 1000: G = 16, W = 1016, Q = 8064.
 * k_if    launched under `if (threads == 128)`: G = ceiling(n/128), as k_sw<128>.
 * k_occ   block size from cudaOccupancyMaxPotentialBlockSize (bs = 256 before the call is
 *           overwritten): unknown, blockDim_x stays a size; grid (n + bs - 1) / bs unknown too.
 * k_loop  launched in `for (s = 1; s <= 4; s++) k_loop<<<s, 256>>>(..., n)`: the grid changes per
 *           launch and is no formula in the kernel's parameters: approximate (SR153).
 * k_loop_n launched in `for (m = n; m > 1; m /= 4) k_loop_n<<<(m + 255) / 256, 256>>>(..., m)`:
 *           per launch, G = ceiling(n/256) in the kernel's n: exact, as k_rem (SR150).
 * k_loop_block (y[i] = a*x[i] for i < n only) launched in `for (b = 64; b <= 256; b *= 2)
 *           k_loop_block<<<(n + b - 1) / b, b>>>(..., n)`: the loop tries block sizes, and the grid
 *           follows the block: per launch it covers n whatever b.  W = n, Q = 8*n, exact (SR150, no
 *           SR153): n = 37: W = 37, Q = 296;  n = 1000: W = 1000, Q = 8000.
 *
 * k_2d    <<<make_grid(nx, ny, block), block>>>, block = make_block() = dim3(32, 8): a 2-D sum
 *           out[j*nx + i] = u[j*nx + i] + v[j*nx + i] for i < nx, j < ny, and one atomicAdd(cnt, 1)
 *           per block (thread (0, 0)), Gx = ceiling(nx/32), Gy = ceiling(ny/8) blocks:
 *           W = nx*ny + Gx*Gy;  Q = 12*nx*ny + 8 (cnt read and written);
 *           Q_access = 12*nx*ny + 8*Gx*Gy.
 *           nx = 37, ny = 9: Gx = 2, Gy = 2: W = 337, Q = 4004, Q_access = 4028.
 *           nx = 1000, ny = 20: Gx = 32, Gy = 3: W = 20096, Q = 240008, Q_access = 240768.
 */
#include <algorithm>
#include <cstdlib>
#include <cmath>

#define imin(a, b) ((a) < (b) ? (a) : (b))

__global__ void k_rem(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_ceil(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_min(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_imin(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_min_plain(const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

__global__ void k_min_stride(const float* x, float* y, float* blk, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

template <int B>
__global__ void k_sw(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_if(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_occ(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_loop(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_loop_n(const float* x, float* y, float* blk, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
    if (threadIdx.x == 0)
        blk[blockIdx.x] = a + 1.0f;
}

__global__ void k_loop_block(const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

__global__ void k_2d(const float* u, const float* v, float* out, float* cnt, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny)
        out[j * nx + i] = u[j * nx + i] + v[j * nx + i];
    if (threadIdx.x == 0 && threadIdx.y == 0)
        atomicAdd(cnt, 1.0f);
}

static dim3 make_block()
{
    return dim3(32, 8);
}

static dim3 make_grid(int nx, int ny, const dim3& block)
{
    int gx = (nx + block.x - 1) / block.x;
    return dim3(gx, (ny + block.y - 1) / block.y);
}

static void launch_switch(const float* x, float* y, float* blk, int n, int threads)
{
    int blocks = (n + threads - 1) / threads;
    switch (threads) {
    case 128:
        k_sw<128><<<blocks, threads>>>(x, y, blk, 2.0f, n);
        break;
    case 64:
        k_sw<64><<<blocks, threads>>>(x, y, blk, 2.0f, n);
        break;
    default:
        abort();
    }
    if (threads == 128)
        k_if<<<blocks, threads>>>(x, y, blk, 2.0f, n);
}

int main(int argc, char** argv)
{
    int n = atoi(argv[1]);
    int nx = atoi(argv[2]), ny = atoi(argv[3]);
    int threads = atoi(argv[4]);
    float *x, *y, *blk, *cnt;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&blk, n * sizeof(float));
    cudaMalloc(&cnt, sizeof(float));

    k_rem<<<n / 256 + (n % 256 ? 1 : 0), 256>>>(x, y, blk, 2.0f, n);
    k_ceil<<<ceil((float)n / 256), 256>>>(x, y, blk, 2.0f, n);
    k_min<<<std::min((n + 255) / 256, 2), 256>>>(x, y, blk, 2.0f, n);
    k_imin<<<imin(2, (n + 255) / 256), 256>>>(x, y, blk, 2.0f, n);
    k_min_plain<<<std::min((n + 255) / 256, 2), 256>>>(x, y, 2.0f, n);
    k_min_stride<<<std::min((n + 255) / 256, 2), 256>>>(x, y, blk, 2.0f, n);

    launch_switch(x, y, blk, n, threads);

    int minGrid, bs = 256;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, k_occ, 0, 0);
    int occGrid = (n + bs - 1) / bs;
    k_occ<<<occGrid, bs>>>(x, y, blk, 2.0f, n);

    for (int s = 1; s <= 4; s++)
        k_loop<<<s, 256>>>(x, y, blk, 2.0f, n);
    for (int m = n; m > 1; m /= 4)
        k_loop_n<<<(m + 255) / 256, 256>>>(x, y, blk, 2.0f, m);
    for (int b = 64; b <= 256; b *= 2)
        k_loop_block<<<(n + b - 1) / b, b>>>(x, y, 2.0f, n);

    dim3 block = make_block();
    dim3 grid = make_grid(nx, ny, block);
    k_2d<<<grid, block>>>(x, y, blk, cnt, nx, ny);
    return 0;
}
