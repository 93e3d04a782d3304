// Block-stride and grid-stride loops whose stride is the block or grid size the host picks at run
// time, and flat indices decomposed by division and modulo: the shapes tests/test_thread_idioms.py
// derives by hand.  Launch sites pass a block size that is a run-time value (`threads`).
#include <cuda_runtime.h>

// one block per row, its threads striding over the row's C columns
__global__ void bias_add_rows(float* out, const float* inp, const float* bias, int N, int C) {
    int row = blockIdx.x;
    if (row >= N) return;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        out[row * C + i] = inp[row * C + i] + bias[i];
    }
}

// the row's scale read once per thread (the loop-invariant load each thread keeps in a register)
__global__ void scale_rows(float* out, const float* inp, const float* s, int N, int C) {
    int row = blockIdx.x;
    const float* x = inp + row * C;
    float* y = out + row * C;
    if (row < N) {
        for (int i = threadIdx.x; i < C; i += blockDim.x) {
            y[i] = x[i] * s[row];
        }
    }
}

// rows spread over the blocks by a grid stride, columns over the threads by a block stride
__global__ void rows_grid_block_stride(double* out, const double* a, int N, int C) {
    for (int r = blockIdx.x; r < N; r += gridDim.x) {
        for (int c = threadIdx.x; c < C; c += blockDim.x) {
            out[r * C + c] = 2.0 * a[r * C + c] + 1.0;
        }
    }
}

// a per-thread accumulator then a per-thread store: each thread's partial sum is written
__global__ void partial_sums(float* partial, const float* x, int C) {
    float s = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        s += x[blockIdx.x * C + i];
    }
    partial[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// flat index over a B x T x C box, decomposed by division and modulo (a permute)
__global__ void permute_btc(float* out, const float* inp, int B, int T, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * T * C) {
        int b = idx / (T * C);
        int t = (idx / C) % T;
        int c = idx % C;
        out[(b * C + c) * T + t] = 2.0f * inp[idx];
    }
}

// the same decomposition in two steps, with an early return, reading a C-vector and a T x C table
__global__ void encoder_add(float* out, const float* wte, const float* wpe, int B, int T, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * T * C) return;
    int bt = idx / C;
    int b = bt / T;
    int t = bt % T;
    int c = idx % C;
    out[b * T * C + t * C + c] = wte[c] + wpe[t * C + c];
}

// a causal mask over N x T x T: the divisor T*T is a power of one size (a radix repeated)
__global__ void causal_mask(float* att, float s, int N, int T) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N * T * T) {
        int rest = idx % (T * T);
        int t2 = rest / T;
        int t = rest % T;
        if (t > t2)
            att[idx] = 0.0f;
        else
            att[idx] *= s;
    }
}

// one block per row of N x T rows, the causal length row % T + 1: the block index itself decomposed
__global__ void causal_rows(float* out, const float* inp, int N, int T) {
    int row = blockIdx.x;
    if (row >= N * T)
        return;
    int len = row % T + 1;
    for (int i = threadIdx.x; i < len; i += blockDim.x)
        out[row * T + i] = 2.0f * inp[row * T + i];
}

void launch_all(float* out, float* inp, float* bias, double* dout, double* da, float* part,
                int N, int C, int B, int T, int threads) {
    bias_add_rows<<<N, threads>>>(out, inp, bias, N, C);
    scale_rows<<<N, threads>>>(out, inp, bias, N, C);
    rows_grid_block_stride<<<64, threads>>>(dout, da, N, C);
    partial_sums<<<N, threads>>>(part, inp, C);
    int total = B * T * C;
    permute_btc<<<(total + threads - 1) / threads, threads>>>(out, inp, B, T, C);
    encoder_add<<<(total + threads - 1) / threads, threads>>>(out, inp, bias, B, T, C);
    causal_mask<<<(N * T * T + threads - 1) / threads, threads>>>(out, 0.5f, N, T);
    causal_rows<<<N * T, threads>>>(out, inp, N, T);
}

// a grid-stride loop reading one loop-invariant element: each thread that runs a trip loads it once
__global__ void scale_by_first(float* y, const float* x, const float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a[0] * x[i];
}
