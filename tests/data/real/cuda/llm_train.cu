/* llm_train.cu -- the training kernels of a from-scratch GPT-2 trainer in CUDA (llm.c style, fp32):
 * token/position encoder forward and backward, three layernorm forwards (a thread, a block, a warp
 * per row), GELU forward/backward, a grid-stride residual add, the AdamW update, the bias gradient
 * (a block per channel, a block-stride loop over the B*T rows, a shared-memory tree), a matmul with
 * register tiling, the cross-entropy loss and the fused softmax/loss/gradient classifier.  The host
 * times every kernel at each block size of `block_sizes[]` (so the block size is a run-time value:
 * blockDim_x), except the matmul (16 x 16) and the bias gradient (512), launched with constants.
 * Every guard is covered by its launch grid (CEIL_DIV over the guarded extent, or a block per row).
 *
 * encoder_forward_kernel3: one thread per (b, t, c) of the B x T x C box, idx decomposed as
 *   bt = idx / C, b = bt / T, t = bt % T, c = idx % C: out[b,t,c] = wte[ix*C + c] + wpe[t*C + c], 1 add:
 *   W = B*T*C.  The row of wte is the token id ix = inp[b*T + t], read from memory: which rows of
 *   wte are read depends on the data (exact = false; without it out B*T*C, inp B*T (int), wpe T*C
 *   elements are exact, wte between C and B*T*C elements).
 * encoder_backward_kernel: the same threads, atomicAdd(&dwte[ix*C + c], g) and
 *   atomicAdd(&dwpe[t*C + c], g): an atomic add is 1 FLOP: W = 2*B*T*C; dwte's rows again come from
 *   the token ids (exact = false).
 *
 * layernorm_forward_kernel1: one thread per row (N rows, guard idx < N), three sequential passes:
 *   mean: C adds, m / C: 1;  variance: (x - m), square, add: 3*C, v / C: 1;
 *   s = 1.0f / sqrtf(v + eps): add, divide, sqrtf (special): 3;
 *   output: s * (x - m): 2, n * weight + bias: 2 -> 4*C.
 *   W = N*(8*C + 5) (fp32), special = N (sqrtf).
 *   Q: inp read N*C, out written N*C, mean and rstd written N each, weight and bias read C each:
 *   Q = 8*N*C + 8*N + 8*C.  Q_access: per row x is loaded 3*C times, weight, bias, out C each, mean
 *   and rstd once: 4*N*(6*C + 2) = 24*N*C + 8*N.
 * layernorm_forward_kernel2: one block per row (grid N, guard idx < N), blockDim_x threads stride
 *   over the C columns (every column once per pass), blockReduceSum = two xor-shuffle warp
 *   reductions of 5 adds each in every thread: 10*blockDim_x per call.  Per row:
 *     mean: C + 10*blockDim_x, m = sum / C in every thread: blockDim_x;
 *     variance: 3*C + 10*blockDim_x, s = rsqrtf(sum / C + eps) in every thread: 3*blockDim_x
 *     (1 special);  output: 4*C.
 *   W = N*(8*C + 24*blockDim_x), special = N*blockDim_x.  Q and Q_access as kernel1 (thread 0
 *   writes mean and rstd; the strided passes load x 3*C times per row).
 * layernorm_forward_kernel3: one warp per row, blockDim.x / 32 rows per block, grid
 *   CEIL_DIV(N*32, block_size), guard idx < N; lanes stride by 32 over C, warpReduceSum (5 adds) in
 *   all 32 lanes.  Per row: C + 160 + 32 (m = sum / C) + 3*C + 160 + 96 (sum / C, + eps, rsqrtf)
 *   + 4*C.  W = N*(8*C + 448), special = 32*N.  Q = 8*N*C + 8*N + 8*C (lane 0 writes mean, rstd),
 *   Q_access = 24*N*C + 8*N.
 *
 * gelu_forward_kernel: per element 0.044715f*x*x*x: 3; 0.5f*x: 1; *(...): 1; 1.0f + tanhf: 1 and
 *   1 special; GELU_SCALING_FACTOR * (x + cube): 2 (sqrtf(2.0f / M_PI) is a compile-time constant:
 *   0).  W = 9*N, special = N, Q = 8*N.
 * gelu_backward_kernel: cube 3; tanh_arg 2; tanhf, coshf 2 special; sech = 1 / (c*c): 2;
 *   local_grad = 0.5f*(1 + tanh): 2, x*0.5f*sech*GSF: 3, (1.0f + 3.0f*0.044715f*x*x): 3 (the
 *   constant product is free), the product and the sum: 2 -> 10; dinp = local_grad * dout: 1.
 *   W = 20*N, special = 2*N, Q = 12*N (inp, dout read, dinp written).
 * residual_forward_kernel: grid-stride loop over [0, N), one add: W = N, Q = Q_access = 12*N.
 * adamw_kernel2: lerp(a, b, w) = fma(w, b, fma(-w, a, a)): 2 fma = 4 FLOPs (negation 0; `fma` on
 *   floats is C++'s float overload: fp32).  Per parameter: 2 lerps 8, grad*grad 1, m /= and v /= 2,
 *   sqrtf (special) 1, + eps 1, m / (...) 1, weight_decay * p 1, + 1, learning_rate * 1, -= 1.
 *   W = 18*num_parameters, special = num_parameters.  Q: grads read; m, v, params read and
 *   written: Q = 28*num_parameters; the two params_memory[i] of the last statement are one access:
 *   Q_access = 28*num_parameters too.
 * matmul_backward_bias_kernel1<<<OC, 512>>>: block o sums dout[i*OC + o] over i < B*T in a
 *   double accumulator (each float promoted: B*T fp64 adds per block), the tree over 512 shared
 *   values adds 256 + 128 + ... + 1 = 511 (fp32), thread 0 adds into dbias[o]: 1.
 *   W = B*T*OC + 512*OC (fp64 B*T*OC, fp32 512*OC).  Q: dout read B*T*OC, dbias read and written
 *   OC: Q = Q_access = 4*B*T*OC + 8*OC.
 * matmul_forward_kernel2<<<(CEIL_DIV(BT, 64), CEIL_DIV(OC, 16)), (16, 16)>>>: thread (x, y) owns
 *   rows 4x .. 4x+3 of column oc = y (guard oc < OC); the grid has NX = 16*ceiling(BT/64) threads
 *   along x.  Every k < C: 4 fma on the zero-padded tile (8 FLOPs) whether the rows exist or not:
 *   8*C*NX*OC = 128*C*OC*ceiling(BT/64); the epilogue adds the bias to the BT*OC real outputs.
 *   W = 128*C*OC*ceiling(BT/64) + BT*OC.  Q: inp BT*C, weight OC*C, bias OC read, out BT*OC
 *   written: Q = 4*BT*C + 4*C*OC + 4*OC + 4*BT*OC.  Q_access: weight once per k per thread:
 *   C*OC*NX; inp only for existing rows: BT*C per column, BT*C*OC; bias once per thread: OC*NX;
 *   out BT*OC: Q_access = 64*C*OC*ceiling(BT/64) + 4*BT*C*OC + 64*OC*ceiling(BT/64) + 4*BT*OC.
 *
 * crossentropy_forward_kernel1: one thread per (b, t): -logf(probs[b,t,targets[b,t]]): negation 0,
 *   logf 1 special: W = B*T, special = B*T; the probability read is at a target index read from
 *   memory (exact = false).
 * fused_classifier_kernel1: one block per (b, t) row of the P-padded logits, V real columns.  Per
 *   row: max pass (fmaxf, blockReduceMax: 0); sum pass sub, expf, add: 3*V (V special);
 *   blockReduceSum 10*blockDim_x; scale = 1.0f / sum in every thread: blockDim_x; thread 0:
 *   expf(x[ix] - max) * scale, -logf: 4 (2 special); gradient pass expf(x - max) * scale: 3 (1
 *   special), (prob - indicator) * dloss: 2 -> 5*V (the indicator is a compare: 0).
 *   W = B*T*(8*V + 11*blockDim_x + 4), special = B*T*(2*V + 2).  x[ix] is a read at a target index
 *   read from memory (exact = false): for 0 <= ix < V it is one of the row's V elements, already
 *   read, and Q would be 8*B*T*V + 12*B*T; the analysis cannot know it.
 *
 * staticroof:expect encoder_forward_kernel3
 *   W     = B*T*C
 *   fp32  = B*T*C
 *   exact = false
 *
 * staticroof:expect encoder_backward_kernel
 *   W     = 2*B*T*C
 *   fp32  = 2*B*T*C
 *   exact = false
 *
 * staticroof:expect layernorm_forward_kernel1
 *   W        = N*(8*C + 5)
 *   Q        = 8*N*C + 8*N + 8*C
 *   Q_access = 24*N*C + 8*N
 *   fp32     = N*(8*C + 5)
 *   special  = N
 *
 * staticroof:expect layernorm_forward_kernel2
 *   W        = N*(8*C + 24*blockDim_x)
 *   Q        = 8*N*C + 8*N + 8*C
 *   Q_access = 24*N*C + 8*N
 *   fp32     = N*(8*C + 24*blockDim_x)
 *   special  = N*blockDim_x
 *
 * staticroof:expect layernorm_forward_kernel3
 *   W        = N*(8*C + 448)
 *   Q        = 8*N*C + 8*N + 8*C
 *   Q_access = 24*N*C + 8*N
 *   fp32     = N*(8*C + 448)
 *   special  = 32*N
 *
 * staticroof:expect gelu_forward_kernel
 *   W       = 9*N
 *   Q       = 8*N
 *   fp32    = 9*N
 *   special = N
 *
 * staticroof:expect gelu_backward_kernel
 *   W       = 20*N
 *   Q       = 12*N
 *   fp32    = 20*N
 *   special = 2*N
 *
 * staticroof:expect residual_forward_kernel
 *   W        = N
 *   Q        = 12*N
 *   Q_access = 12*N
 *   fp32     = N
 *
 * staticroof:expect adamw_kernel2
 *   W        = 18*num_parameters
 *   Q        = 28*num_parameters
 *   Q_access = 28*num_parameters
 *   fp32     = 18*num_parameters
 *   special  = num_parameters
 *
 * staticroof:expect matmul_backward_bias_kernel1
 *   W        = B*T*OC + 512*OC
 *   Q        = 4*B*T*OC + 8*OC
 *   Q_access = 4*B*T*OC + 8*OC
 *   fp64     = B*T*OC
 *   fp32     = 512*OC
 *
 * staticroof:expect matmul_forward_kernel2
 *   W        = 128*C*OC*ceiling(BT/64) + BT*OC
 *   Q        = 4*BT*C + 4*C*OC + 4*OC + 4*BT*OC
 *   Q_access = 64*C*OC*ceiling(BT/64) + 4*BT*C*OC + 64*OC*ceiling(BT/64) + 4*BT*OC
 *   fp32     = 128*C*OC*ceiling(BT/64) + BT*OC
 *
 * staticroof:expect crossentropy_forward_kernel1
 *   W       = B*T
 *   fp32    = B*T
 *   special = B*T
 *   exact   = false
 *
 * staticroof:expect fused_classifier_kernel1
 *   W       = B*T*(8*V + 11*blockDim_x + 4)
 *   fp32    = B*T*(8*V + 11*blockDim_x + 4)
 *   special = B*T*(2*V + 2)
 *   exact   = false
 */

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <float.h>
#include <assert.h>
#include <cuda_runtime.h>

// ----------------------------------------------------------------------------
// CUDA utils

#define WARP_SIZE 32
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

// register tile of the matmul: each thread owns TM rows of one output column
#define TM 4

void cuda_check(cudaError_t error, const char* file, int line)
{
    if (error != cudaSuccess) {
        printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
        exit(EXIT_FAILURE);
    }
}
#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))

__device__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
    return val;
}

__device__ float warpReduceMax(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_xor_sync(0xFFFFFFFF, val, offset));
    return val;
}

// every thread of the block gets the block's sum: each warp reduces, lane 0 parks its partial in
// shared memory, then every warp reduces the (at most 32) partials again
__device__ float blockReduceSum(float val)
{
    __shared__ float shared_val[WARP_SIZE];
    const int lane_id = threadIdx.x % WARP_SIZE;
    const int warp_id = threadIdx.x / WARP_SIZE;
    const int num_warps = blockDim.x / WARP_SIZE;

    __syncthreads();  // the buffer may still be read by a previous call
    val = warpReduceSum(val);
    if (lane_id == 0)
        shared_val[warp_id] = val;
    __syncthreads();
    val = (lane_id < num_warps) ? shared_val[lane_id] : 0.0f;
    return warpReduceSum(val);
}

__device__ float blockReduceMax(float val)
{
    __shared__ float shared_max[WARP_SIZE];
    const int lane_id = threadIdx.x % WARP_SIZE;
    const int warp_id = threadIdx.x / WARP_SIZE;
    const int num_warps = blockDim.x / WARP_SIZE;

    __syncthreads();
    val = warpReduceMax(val);
    if (lane_id == 0)
        shared_max[warp_id] = val;
    __syncthreads();
    val = (lane_id < num_warps) ? shared_max[lane_id] : -FLT_MAX;
    return warpReduceMax(val);
}

__device__ inline float lerp(float start, float end, float weight)
{
    return fma(weight, end, fma(-weight, start, start));
}

// ----------------------------------------------------------------------------
// kernels

__global__ void encoder_forward_kernel3(float* out, const int* inp, const float* wte, const float* wpe,
                                        int B, int T, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T * C;
    if (idx < N) {
        int bt = idx / C;
        int b = bt / T;
        int t = bt % T;
        int c = idx % C;
        int ix = inp[b * T + t];
        float* out_btc = out + b * T * C + t * C + c;
        const float* wte_ix = wte + ix * C + c;
        const float* wpe_tc = wpe + t * C + c;
        *out_btc = *wte_ix + *wpe_tc;
    }
}

__global__ void encoder_backward_kernel(float* dwte, float* dwpe, const float* dout, const int* inp,
                                        int B, int T, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T * C;
    if (idx < N) {
        int bt = idx / C;
        int b = bt / T;
        int t = bt % T;
        int c = idx % C;
        int ix = inp[b * T + t];
        const float* dout_btc = dout + b * T * C + t * C + c;
        float* dwte_ix = dwte + ix * C + c;
        float* dwpe_tc = dwpe + t * C + c;
        atomicAdd(dwte_ix, *dout_btc);
        atomicAdd(dwpe_tc, *dout_btc);
    }
}

// naive: one thread per row, three passes over its C channels
__global__ void layernorm_forward_kernel1(float* out, float* mean, float* rstd, const float* inp,
                                          const float* weight, const float* bias, int N, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    float eps = 1e-5f;
    if (idx < N) {
        const float* x = inp + idx * C;
        float m = 0.0f;
        for (int i = 0; i < C; i++) {
            m += x[i];
        }
        m = m / C;
        float v = 0.0f;
        for (int i = 0; i < C; i++) {
            float xshift = x[i] - m;
            v += xshift * xshift;
        }
        v = v / C;
        float s = 1.0f / sqrtf(v + eps);
        float* out_idx = out + idx * C;
        for (int i = 0; i < C; i++) {
            float n = (s * (x[i] - m));
            float o = n * weight[i] + bias[i];
            out_idx[i] = o;
        }
        mean[idx] = m;
        rstd[idx] = s;
    }
}

// one block per row: the block's threads stride over C, then a two-level shuffle reduction
__global__ void layernorm_forward_kernel2(float* __restrict__ out, float* __restrict__ mean,
                                          float* __restrict__ rstd, const float* __restrict__ inp,
                                          const float* __restrict__ weight, const float* __restrict__ bias,
                                          int N, int C)
{
    int idx = blockIdx.x;
    if (idx >= N)
        return;
    const float* x = inp + idx * C;

    float sum = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        sum += x[i];
    sum = blockReduceSum(sum);
    float m = sum / C;

    sum = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        float diff = x[i] - m;
        sum += diff * diff;
    }
    sum = blockReduceSum(sum);
    float s = rsqrtf(sum / C + 1e-5f);

    float* o = out + idx * C;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        float n = s * (x[i] - m);
        o[i] = n * weight[i] + bias[i];
    }
    if (threadIdx.x == 0) {
        mean[idx] = m;
        rstd[idx] = s;
    }
}

// one warp per row, blockDim.x / 32 rows per block
__global__ void layernorm_forward_kernel3(float* __restrict__ out, float* __restrict__ mean,
                                          float* __restrict__ rstd, const float* __restrict__ inp,
                                          const float* __restrict__ weight, const float* __restrict__ bias,
                                          int N, int C)
{
    int lane_id = threadIdx.x % WARP_SIZE;
    int warp_id = threadIdx.x / WARP_SIZE;
    int num_warps = blockDim.x / WARP_SIZE;
    int idx = blockIdx.x * num_warps + warp_id;
    if (idx >= N)
        return;
    const float* x = inp + idx * C;

    float sum = 0.0f;
    for (int i = lane_id; i < C; i += WARP_SIZE)
        sum += x[i];
    sum = warpReduceSum(sum);
    float m = sum / C;
    if (lane_id == 0)
        __stcs(mean + idx, m);

    sum = 0.0f;
    for (int i = lane_id; i < C; i += WARP_SIZE) {
        float diff = x[i] - m;
        sum += diff * diff;
    }
    sum = warpReduceSum(sum);
    float s = rsqrtf(sum / C + 1e-5f);
    if (lane_id == 0)
        __stcs(rstd + idx, s);

    float* o = out + idx * C;
    for (int c = lane_id; c < C; c += WARP_SIZE) {
        float n = s * (__ldcs(x + c) - m);
        __stcs(o + c, n * weight[c] + bias[c]);
    }
}

__global__ void gelu_forward_kernel(float* out, const float* inp, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float xi = inp[i];
        float cube = 0.044715f * xi * xi * xi;
        out[i] = 0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube)));
    }
}

__global__ void gelu_backward_kernel(float* dinp, const float* inp, const float* dout, const int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float x = inp[i];
        float cube = 0.044715f * x * x * x;
        float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
        float tanh_out = tanhf(tanh_arg);
        float coshf_out = coshf(tanh_arg);
        float sech_out = 1.0f / (coshf_out * coshf_out);
        float local_grad = 0.5f * (1.0f + tanh_out) +
                           x * 0.5f * sech_out * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
        dinp[i] = local_grad * dout[i];
    }
}

__global__ void residual_forward_kernel(float* out, const float* inp1, const float* inp2, int N)
{
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < N; idx += blockDim.x * gridDim.x)
        out[idx] = __ldcs(&inp1[idx]) + __ldcs(&inp2[idx]);
}

__global__ void adamw_kernel2(float* params_memory, const float* grads_memory, float* m_memory, float* v_memory,
                              long num_parameters, float learning_rate, float beta1, float beta2,
                              float beta1_correction, float beta2_correction, float eps, float weight_decay)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_parameters)
        return;
    float grad = grads_memory[i];
    float m = m_memory[i];
    float v = v_memory[i];
    // update the first moment (momentum) and the second moment (RMSprop)
    m = lerp(grad, m, beta1);
    m_memory[i] = m;
    v = lerp(grad * grad, v, beta2);
    v_memory[i] = v;
    m /= beta1_correction;  // m_hat
    v /= beta2_correction;  // v_hat
    params_memory[i] -= learning_rate * (m / (sqrtf(v) + eps) + weight_decay * params_memory[i]);
}

// dbias[o] += sum over the B*T rows of dout[., o]: one block per output channel, the block's threads
// stride over the rows (a double accumulator each), then a shared-memory tree
__global__ void matmul_backward_bias_kernel1(float* dbias, const float* dout, int B, int T, int OC)
{
    extern __shared__ float shared[];
    int o = blockIdx.x;
    int tid = threadIdx.x;
    int block_size = blockDim.x;
    const float* x = dout + o;
    double sum = 0.0;
    for (int i = tid; i < B * T; i += block_size)
        sum += x[i * OC];
    shared[tid] = (float)sum;
    __syncthreads();
    for (int stride = block_size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (tid < stride)
            shared[tid] += shared[tid + stride];
    }
    if (tid == 0)
        dbias[o] += shared[0];
}

// out = inp @ weight^T + bias, inp (B*T, C), weight (OC, C), out (B*T, OC), with register tiling
// along the rows: each thread keeps TM accumulators of one output channel, so the weight value it
// loads for a k is reused TM times from a register
__global__ void matmul_forward_kernel2(float* out, const float* inp, const float* weight, const float* bias,
                                       int BT, int C, int OC)
{
    const int row0 = (blockIdx.x * blockDim.x + threadIdx.x) * TM;
    const int oc = blockIdx.y * blockDim.y + threadIdx.y;
    if (oc >= OC)
        return;
    const float* wrow = weight + oc * C;

    float acc[TM];
#pragma unroll
    for (int i = 0; i < TM; i++)
        acc[i] = 0.0f;
    for (int k = 0; k < C; k++) {
        const float w = wrow[k];
#pragma unroll
        for (int i = 0; i < TM; i++) {
            const float a = (row0 + i < BT) ? inp[(row0 + i) * C + k] : 0.0f;
            acc[i] += a * w;
        }
    }

    const float b = bias[oc];
    for (int i = 0; i < TM; i++)
        if (row0 + i < BT)
            out[(row0 + i) * OC + oc] = acc[i] + b;
}

__global__ void crossentropy_forward_kernel1(float* losses, const float* probs, const int* targets,
                                             int B, int T, int V)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T) {
        int b = i / T;
        int t = i % T;
        const float* probs_bt = probs + b * T * V + t * V;
        int ix = targets[b * T + t];
        losses[b * T + t] = -logf(probs_bt[ix]);
    }
}

// softmax + cross-entropy loss + gradient of the logits in place, one block per (b, t) row of the
// padded (P columns) logits; only the first V columns are real
__global__ void fused_classifier_kernel1(float* logits, float* losses, const float* dlosses, const int* targets,
                                         int B, int T, int V, int P)
{
    int idx = blockIdx.x;
    if (idx >= B * T)
        return;
    int ix = targets[idx];
    const float* x = logits + idx * P;

    float maxval = -FLT_MAX;
    for (int i = threadIdx.x; i < V; i += blockDim.x)
        maxval = fmaxf(maxval, x[i]);
    maxval = blockReduceMax(maxval);

    float sumval = 0.0f;
    for (int i = threadIdx.x; i < V; i += blockDim.x)
        sumval += expf(x[i] - maxval);
    sumval = blockReduceSum(sumval);
    float scale = 1.0f / sumval;

    if (threadIdx.x == 0) {
        float prob = expf(x[ix] - maxval) * scale;
        losses[idx] = -logf(prob);
    }

    float dloss = dlosses[idx];
    for (int i = threadIdx.x; i < V; i += blockDim.x) {
        float prob = expf(x[i] - maxval) * scale;
        float indicator = (i == ix) ? 1.0f : 0.0f;
        logits[idx * P + i] = (prob - indicator) * dloss;
    }
}

// ----------------------------------------------------------------------------
// kernel launchers

void encoder_forward(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C,
                     const int block_size)
{
    const int N = B * T * C;
    const int grid_size = CEIL_DIV(N, block_size);
    encoder_forward_kernel3<<<grid_size, block_size>>>(out, inp, wte, wpe, B, T, C);
    cudaCheck(cudaGetLastError());
}

void encoder_backward(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T, int C,
                      const int block_size)
{
    const int N = B * T * C;
    const int grid_size = CEIL_DIV(N, block_size);
    encoder_backward_kernel<<<grid_size, block_size>>>(dwte, dwpe, dout, inp, B, T, C);
    cudaCheck(cudaGetLastError());
}

void layernorm_forward(int kernel_num, float* out, float* mean, float* rstd, const float* inp, const float* weight,
                       const float* bias, int B, int T, int C, const int block_size)
{
    const int N = B * T;
    switch (kernel_num) {
    case 1:
        layernorm_forward_kernel1<<<CEIL_DIV(N, block_size), block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
        break;
    case 2:
        layernorm_forward_kernel2<<<N, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
        break;
    case 3:
        assert(block_size % 32 == 0);
        layernorm_forward_kernel3<<<CEIL_DIV(N * 32, block_size), block_size>>>(out, mean, rstd, inp, weight, bias,
                                                                                 N, C);
        break;
    default:
        printf("Invalid kernel number\n");
        exit(1);
    }
    cudaCheck(cudaGetLastError());
}

void gelu_forward(float* out, const float* inp, int N, const int block_size)
{
    const int grid_size = CEIL_DIV(N, block_size);
    gelu_forward_kernel<<<grid_size, block_size>>>(out, inp, N);
    cudaCheck(cudaGetLastError());
}

void gelu_backward(float* dinp, const float* inp, const float* dout, const int N, const int block_size)
{
    const int grid_size = CEIL_DIV(N, block_size);
    gelu_backward_kernel<<<grid_size, block_size>>>(dinp, inp, dout, N);
    cudaCheck(cudaGetLastError());
}

void residual_forward(float* out, const float* inp1, const float* inp2, int N, const int block_size)
{
    int num_sms = 132;
    const int grid_size = min(CEIL_DIV(N, block_size), 4 * num_sms);
    residual_forward_kernel<<<grid_size, block_size>>>(out, inp1, inp2, N);
    cudaCheck(cudaGetLastError());
}

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, int BT, int C, int OC)
{
    const int sqrt_block_size = 16;
    dim3 gridDim(CEIL_DIV(BT, sqrt_block_size * TM), CEIL_DIV(OC, sqrt_block_size));
    dim3 blockDim(sqrt_block_size, sqrt_block_size);
    matmul_forward_kernel2<<<gridDim, blockDim>>>(out, inp, weight, bias, BT, C, OC);
    cudaCheck(cudaGetLastError());
}

void matmul_backward_bias(float* dbias, const float* dout, int B, int T, int OC)
{
    const int block_size = 512;
    matmul_backward_bias_kernel1<<<OC, block_size, block_size * sizeof(float)>>>(dbias, dout, B, T, OC);
    cudaCheck(cudaGetLastError());
}

void crossentropy_forward(float* losses, const float* probs, const int* targets, int B, int T, int V,
                          const int block_size)
{
    const int N = B * T;
    const int grid_size = CEIL_DIV(N, block_size);
    crossentropy_forward_kernel1<<<grid_size, block_size>>>(losses, probs, targets, B, T, V);
    cudaCheck(cudaGetLastError());
}

void fused_classifier(float* logits, float* losses, const float* dlosses, const int* targets, int B, int T, int V,
                      int P, const int block_size)
{
    const int N = B * T;
    fused_classifier_kernel1<<<N, block_size>>>(logits, losses, dlosses, targets, B, T, V, P);
    cudaCheck(cudaGetLastError());
}

// ----------------------------------------------------------------------------

float* make_random_float(size_t n)
{
    float* arr = (float*)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        arr[i] = ((float)rand() / RAND_MAX) * 2.0f - 1.0f;
    return arr;
}

int* make_random_int(size_t n, int V)
{
    int* arr = (int*)malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
        arr[i] = rand() % V;
    return arr;
}

int main(int argc, char** argv)
{
    srand(0);
    int B = 8;
    int T = 1024;
    int C = 768;
    int V = 50257;
    int P = 50304;  // padded to a multiple of 128
    int OC = 4 * C;
    long num_parameters = 1L << 20;

    int deviceIdx = 0;
    cudaCheck(cudaSetDevice(deviceIdx));

    float* h_act = make_random_float((size_t)B * T * P);
    int* h_tokens = make_random_int(B * T, V);

    float *d_out, *d_inp, *d_res, *d_w, *d_b, *d_mean, *d_rstd, *d_wte, *d_wpe, *d_logits, *d_losses;
    float *d_params, *d_grads, *d_m, *d_v;
    int* d_tokens;
    cudaCheck(cudaMalloc(&d_out, (size_t)B * T * OC * sizeof(float)));
    cudaCheck(cudaMalloc(&d_inp, (size_t)B * T * OC * sizeof(float)));
    cudaCheck(cudaMalloc(&d_res, (size_t)B * T * OC * sizeof(float)));
    cudaCheck(cudaMalloc(&d_w, (size_t)OC * C * sizeof(float)));
    cudaCheck(cudaMalloc(&d_b, OC * sizeof(float)));
    cudaCheck(cudaMalloc(&d_mean, B * T * sizeof(float)));
    cudaCheck(cudaMalloc(&d_rstd, B * T * sizeof(float)));
    cudaCheck(cudaMalloc(&d_wte, (size_t)V * C * sizeof(float)));
    cudaCheck(cudaMalloc(&d_wpe, (size_t)T * C * sizeof(float)));
    cudaCheck(cudaMalloc(&d_logits, (size_t)B * T * P * sizeof(float)));
    cudaCheck(cudaMalloc(&d_losses, B * T * sizeof(float)));
    cudaCheck(cudaMalloc(&d_params, num_parameters * sizeof(float)));
    cudaCheck(cudaMalloc(&d_grads, num_parameters * sizeof(float)));
    cudaCheck(cudaMalloc(&d_m, num_parameters * sizeof(float)));
    cudaCheck(cudaMalloc(&d_v, num_parameters * sizeof(float)));
    cudaCheck(cudaMalloc(&d_tokens, B * T * sizeof(int)));
    cudaCheck(cudaMemcpy(d_logits, h_act, (size_t)B * T * P * sizeof(float), cudaMemcpyHostToDevice));
    cudaCheck(cudaMemcpy(d_tokens, h_tokens, B * T * sizeof(int), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    cudaCheck(cudaEventCreate(&start));
    cudaCheck(cudaEventCreate(&stop));

    // time every kernel at each block size
    int block_sizes[] = {64, 128, 256, 512, 1024};
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
        int block_size = block_sizes[j];
        cudaCheck(cudaEventRecord(start, 0));

        encoder_forward(d_out, d_tokens, d_wte, d_wpe, B, T, C, block_size);
        encoder_backward(d_wte, d_wpe, d_out, d_tokens, B, T, C, block_size);
        for (int kernel_num = 1; kernel_num <= 3; kernel_num++)
            layernorm_forward(kernel_num, d_out, d_mean, d_rstd, d_inp, d_w, d_b, B, T, C, block_size);
        gelu_forward(d_out, d_inp, B * T * OC, block_size);
        gelu_backward(d_inp, d_res, d_out, B * T * OC, block_size);
        residual_forward(d_res, d_inp, d_out, B * T * C, block_size);
        crossentropy_forward(d_losses, d_logits, d_tokens, B, T, V, block_size);
        fused_classifier(d_logits, d_losses, d_mean, d_tokens, B, T, V, P, block_size);

        float learning_rate = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.0f;
        int t = j + 1;
        float beta1_correction = 1.0f - powf(beta1, t);
        float beta2_correction = 1.0f - powf(beta2, t);
        adamw_kernel2<<<CEIL_DIV(num_parameters, block_size), block_size>>>(
            d_params, d_grads, d_m, d_v, num_parameters, learning_rate, beta1, beta2, beta1_correction,
            beta2_correction, eps, weight_decay);
        cudaCheck(cudaGetLastError());

        cudaCheck(cudaEventRecord(stop, 0));
        cudaCheck(cudaEventSynchronize(stop));
        float elapsed_time;
        cudaCheck(cudaEventElapsedTime(&elapsed_time, start, stop));
        printf("block_size %4d | time %.4f ms\n", block_size, elapsed_time);
    }

    matmul_forward(d_out, d_inp, d_w, d_b, B * T, C, OC);
    matmul_backward_bias(d_b, d_out, B, T, OC);
    cudaCheck(cudaDeviceSynchronize());

    free(h_act);
    free(h_tokens);
    cudaCheck(cudaFree(d_out));
    cudaCheck(cudaFree(d_inp));
    cudaCheck(cudaFree(d_res));
    cudaCheck(cudaFree(d_w));
    cudaCheck(cudaFree(d_b));
    cudaCheck(cudaFree(d_mean));
    cudaCheck(cudaFree(d_rstd));
    cudaCheck(cudaFree(d_wte));
    cudaCheck(cudaFree(d_wpe));
    cudaCheck(cudaFree(d_logits));
    cudaCheck(cudaFree(d_losses));
    cudaCheck(cudaFree(d_params));
    cudaCheck(cudaFree(d_grads));
    cudaCheck(cudaFree(d_m));
    cudaCheck(cudaFree(d_v));
    cudaCheck(cudaFree(d_tokens));
    return 0;
}
