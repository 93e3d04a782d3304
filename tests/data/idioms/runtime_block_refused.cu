// Block-stride shapes whose threads do NOT together cover the range once, or whose body tells the
// threads apart: the one-loop-per-block reading must be refused (the result stays approximate).
__global__ void half_the_threads(float* y, const float* x, int C) {
    if (threadIdx.x < 16) {
        for (int i = threadIdx.x; i < C; i += blockDim.x) y[blockIdx.x * C + i] = 2.0f * x[blockIdx.x * C + i];
    }
}
__global__ void body_reads_thread(float* y, const float* x, int C) {
    for (int i = threadIdx.x; i < C; i += blockDim.x) y[blockIdx.x * C + threadIdx.x] += x[blockIdx.x * C + i];
}
__global__ void every_other(float* y, const float* x, int C) {
    for (int i = 2 * threadIdx.x; i < C; i += blockDim.x) y[blockIdx.x * C + i] = 2.0f * x[blockIdx.x * C + i];
}
__global__ void invariant_store(float* acc, const float* x, int C) {
    for (int i = threadIdx.x; i < C; i += blockDim.x) acc[blockIdx.x] += x[blockIdx.x * C + i];
}
// a remainder by a size that is no place value of the guard's box
__global__ void not_a_digit(float* out, const float* inp, int B, int T, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * T * C) {
        int t = idx % T;
        int c = (idx / T) % (C + 1);
        out[c * T + t] = inp[idx];
    }
}
// a grid-stride loop under a condition: not the top of the kernel, so not one loop for all threads
// (it was: W = blockDim_x*gridDim_x*n, "exact")
__global__ void grid_stride_if(float* y, const float* x, int n, int on) {
    if (on > 0) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
            y[i] = 2.0f * x[i];
    }
}
