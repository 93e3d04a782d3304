/* llm_layers.cu -- transformer-training layers in the style of a from-scratch LLM trainer:
 * a templated 128-bit vector struct (Packed128<T>, operator[], load128/load128cs/store128),
 * one warp per row with cooperative-groups reductions or xor shuffles, __ldcs/__stcs streaming
 * hints.  floatX is float here (ENABLE_BF16 not defined), so x128 holds 4 floats (16 bytes).
 *
 * residual_forward<<<ceil_div(N, 256 * 4), 256>>>(out, inp1, inp2, N):
 *   idx = 4*(global thread id), guard idx < N: the threads t with 4t < N, ceiling(N/4) of them,
 *   each adds 4 elements: W = 4*ceiling(N/4) (fp32).  The vector loads/stores cover elements
 *   0 .. 4*ceiling(N/4) - 1 of each array: Q = 3 * 4 * 4*ceiling(N/4) = 48*ceiling(N/4).
 *
 * layernorm_forward<<<ceil_div(N * 32, 256), 256>>>(out, mean, rstd, inp, weight, bias, N, C):
 *   one 32-lane tile per row (meta_group_size() = 8 rows per block), guard idx < N.  Per row:
 *     sum over c (lane-strided, every c < C once): C adds;  cg::reduce: 31 adds;
 *     m = sum / C in every lane: 32 divides;
 *     second pass: diff = x - m, sum += diff*diff: 3*C;  cg::reduce: 31;
 *     s = rsqrtf(sum / C + 1e-5f) in every lane: divide, add, rsqrtf (special): 3*32 = 96;
 *     output pass: n = s * (x - m); o = n * weight + bias: 4*C.
 *   W = N*(8*C + 190) (fp32), special = 32*N (rsqrtf).
 *   Q: inp read N*C, out written N*C, mean and rstd written N each (lane 0), weight and bias read
 *      C each: Q = 8*N*C + 8*N + 8*C -- when mean and rstd are not null.  The stores are guarded by
 *      `mean != nullptr` (callers may skip the statistics): a run-time flag the caller sets, not
 *      data; counted for the pointers not null (the note SR154 names it), as `if (flag)` on an int
 *      parameter is counted for flag != 0.  (Null pointers would drop the 8*N of mean and rstd; W
 *      does not depend on it: the guarded statements do no arithmetic.)
 *
 * rmsnorm_forward<<<ceil_div(N, 4), 128>>>(out, inp, weight, N, C): one warp per row (4 per
 *   block: row = blockIdx.x*4 + threadIdx.x/32), x128 chunks at c = 4*lane, 4*lane + 128, ...
 *   < C: ceiling(C/4) chunks per row, each 4 elements.
 *     W per row: sum of squares 2 per element -> 8*ceiling(C/4); xor tree 5 adds x 32 lanes
 *     = 160; r = rsqrtf(acc / C + eps) in every lane: 3 x 32 = 96; scaling 2 per element ->
 *     8*ceiling(C/4).  W = N*(16*ceiling(C/4) + 256), special = 32*N.
 *   Q: each row r touches [r*C, r*C + 4*ceiling(C/4)), and 4*ceiling(C/4) >= C, so the rows'
 *     ranges touch or overlap: their union is [0, (N-1)*C + 4*ceiling(C/4)).  inp read and out
 *     written over that union, weight read over [0, 4*ceiling(C/4)):
 *     Q = 8*((N - 1)*C + 4*ceiling(C/4)) + 16*ceiling(C/4) = 8*N*C - 8*C + 48*ceiling(C/4).
 *
 * softmax_rows_online<<<ceil_div(N * 32, 512), 512>>>(out, inp, N, C): one warp per row
 *   (16 per block), online max/sum, xor-shuffle max (fmaxf: 0 FLOPs) and sum.  Per row:
 *     online pass, per element: m_new = fmaxf (0); sum*expf(maxval - m_new) + expf(v - m_new):
 *       2 subtracts, 2 expf, 1 multiply, 1 add = 6 (2 special): 6*C;
 *     every lane: sumval *= expf(maxval - row_max): 3 (1 special) -> 96;
 *     sum tree: 5 x 32 = 160; norm = 1.0f / sum in every lane: 32;
 *     output pass: expf(x - row_max) * norm: 3 per element (1 special): 3*C.
 *   W = N*(9*C + 288), special = N*(3*C + 32).  Q: inp read N*C, out written N*C: 8*N*C.
 *
 * staticroof:expect residual_forward
 *   W    = 4*ceiling(N/4)
 *   Q    = 48*ceiling(N/4)
 *   fp32 = 4*ceiling(N/4)
 *
 * staticroof:expect layernorm_forward
 *   W       = N*(8*C + 190)
 *   Q       = 8*N*C + 8*N + 8*C
 *   fp32    = N*(8*C + 190)
 *   special = 32*N
 *
 * staticroof:expect rmsnorm_forward
 *   W       = N*(16*ceiling(C/4) + 256)
 *   Q       = 8*N*C - 8*C + 48*ceiling(C/4)
 *   fp32    = N*(16*ceiling(C/4) + 256)
 *   special = 32*N
 *
 * staticroof:expect softmax_rows_online
 *   W       = N*(9*C + 288)
 *   Q       = 8*N*C
 *   fp32    = N*(9*C + 288)
 *   special = N*(3*C + 32)
 */

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cassert>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#ifdef ENABLE_BF16
typedef __nv_bfloat16 floatX;
#else
typedef float floatX;
#endif

template <class ElementType>
struct alignas(16) Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits)
    {
        static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
        memcpy(&payload, &bits, sizeof(bits));
    }

    __device__ static Packed128 constant(ElementType value)
    {
        Packed128 result;
        for (int k = 0; k < size; ++k)
            result.payload[k] = value;
        return result;
    }
    __device__ static Packed128 zeros() { return constant(0); }

    __device__ ElementType& operator[](int index) { return payload[index]; }
    __device__ const ElementType& operator[](int index) const { return payload[index]; }
    __device__ int4 get_bits() const
    {
        int4 bits;
        static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
        memcpy(&bits, &payload, sizeof(bits));
        return bits;
    }

    static constexpr const size_t size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};

typedef Packed128<floatX> x128;

template <class ElementType>
__device__ Packed128<ElementType> load128(const ElementType* address)
{
    return Packed128<ElementType>{*reinterpret_cast<const int4*>(address)};
}

template <class ElementType>
__device__ Packed128<ElementType> load128cs(const ElementType* address)
{
    return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4*>(address))};
}

template <class ElementType>
__device__ void store128(ElementType* target, Packed128<ElementType> value)
{
    *reinterpret_cast<int4*>(target) = value.get_bits();
}

__device__ inline float warp_reduce_sum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
    return val;
}

__device__ inline float warp_reduce_max(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_xor_sync(0xFFFFFFFF, val, offset));
    return val;
}

__global__ void residual_forward(floatX* out, const floatX* inp1, const floatX* inp2, int N)
{
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (idx < N) {
        x128 packed_out;
        x128 packed_inp1 = load128cs(inp1 + idx);
        x128 packed_inp2 = load128cs(inp2 + idx);
        for (int k = 0; k < packed_inp1.size; k++)
            packed_out[k] = (floatX)((float)packed_inp1[k] + (float)packed_inp2[k]);
        store128(out + idx, packed_out);
    }
}

__global__ void layernorm_forward(floatX* __restrict__ out, float* __restrict__ mean,
                                  float* __restrict__ rstd, const floatX* __restrict__ inp,
                                  const floatX* __restrict__ weight, const floatX* __restrict__ bias,
                                  int N, int C)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N)
        return;

    const floatX* x = inp + idx * C;

    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size())
        sum += (float)x[i];
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float m = sum / C;
    if (warp.thread_rank() == 0 && mean != nullptr)
        __stcs(mean + idx, m);

    sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        float diff = (float)x[i] - m;
        sum += diff * diff;
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float s = rsqrtf(sum / C + 1e-5f);
    if (warp.thread_rank() == 0 && rstd != nullptr)
        __stcs(rstd + idx, s);

    floatX* o = out + idx * C;
    for (int c = warp.thread_rank(); c < C; c += warp.size()) {
        float n = s * ((float)__ldcs(x + c) - m);
        __stcs(o + c, (floatX)(n * (float)weight[c] + (float)bias[c]));
    }
}

__global__ void rmsnorm_forward(floatX* __restrict__ out, const floatX* __restrict__ inp,
                                const floatX* __restrict__ weight, int N, int C)
{
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * (128 / 32) + threadIdx.x / 32;
    if (row >= N)
        return;

    const floatX* x = inp + row * C;
    float acc = 0.0f;
    for (int c = lane * x128::size; c < C; c += 32 * x128::size) {
        const x128 v = load128(x + c);
        for (int k = 0; k < x128::size; ++k)
            acc += (float)v[k] * (float)v[k];
    }
    acc = warp_reduce_sum(acc);
    const float r = rsqrtf(acc / C + 1e-6f);

    floatX* o = out + row * C;
    for (int c = lane * x128::size; c < C; c += 32 * x128::size) {
        const x128 v = load128(x + c);
        const x128 w = load128(weight + c);
        x128 res;
        for (int k = 0; k < x128::size; ++k)
            res[k] = (floatX)((float)v[k] * r * (float)w[k]);
        store128(o + c, res);
    }
}

__global__ void softmax_rows_online(floatX* __restrict__ out, const floatX* __restrict__ inp, int N, int C)
{
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= N)
        return;

    const floatX* x = inp + row * C;
    float maxval = -INFINITY;
    float sumval = 0.0f;
    for (int i = lane; i < C; i += 32) {
        float v = (float)x[i];
        float m_new = fmaxf(maxval, v);
        sumval = sumval * expf(maxval - m_new) + expf(v - m_new);
        maxval = m_new;
    }

    float row_max = warp_reduce_max(maxval);
    sumval *= expf(maxval - row_max);
    float sum = warp_reduce_sum(sumval);
    float norm = 1.0f / sum;

    for (int i = lane; i < C; i += 32)
        out[row * C + i] = (floatX)(expf((float)x[i] - row_max) * norm);
}

static inline int ceil_div(int dividend, int divisor) { return (dividend + divisor - 1) / divisor; }

void residual_forward_launch(floatX* out, const floatX* inp1, const floatX* inp2, int N, cudaStream_t stream)
{
    const int block_size = 256;
    assert(N % (block_size * x128::size) == 0);
    const int grid_size = ceil_div(N, (int)(block_size * x128::size));
    residual_forward<<<grid_size, block_size, 0, stream>>>(out, inp1, inp2, N);
}

int main(int argc, char** argv)
{
    const int B = 8, T = 1024, C = 768;
    const int N = B * T;

    floatX *d_out, *d_inp, *d_res, *d_w, *d_b;
    float *d_mean, *d_rstd;
    cudaMalloc(&d_out, (size_t)N * C * sizeof(floatX));
    cudaMalloc(&d_inp, (size_t)N * C * sizeof(floatX));
    cudaMalloc(&d_res, (size_t)N * C * sizeof(floatX));
    cudaMalloc(&d_w, C * sizeof(floatX));
    cudaMalloc(&d_b, C * sizeof(floatX));
    cudaMalloc(&d_mean, N * sizeof(float));
    cudaMalloc(&d_rstd, N * sizeof(float));

    residual_forward_launch(d_res, d_inp, d_out, N * C, 0);
    layernorm_forward<<<ceil_div(N * 32, 256), 256>>>(d_out, d_mean, d_rstd, d_res, d_w, d_b, N, C);
    rmsnorm_forward<<<ceil_div(N, 4), 128>>>(d_out, d_res, d_w, N, C);
    softmax_rows_online<<<ceil_div(N * 32, 512), 512>>>(d_out, d_res, N, C);
    cudaDeviceSynchronize();

    cudaFree(d_out);
    cudaFree(d_inp);
    cudaFree(d_res);
    cudaFree(d_w);
    cudaFree(d_b);
    cudaFree(d_mean);
    cudaFree(d_rstd);
    return 0;
}
