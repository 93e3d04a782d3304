// Two kernels in one file; the second sums each block's values in dynamic shared memory.
__global__ void scale(int n, const float *x, float *y)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 3.0f * x[i];
}

__global__ void blocksum(int n, const float *x, float *out)
{
  extern __shared__ float smem[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  smem[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int t = 0; t < blockDim.x; t++)
      s += smem[t];
    out[blockIdx.x] = s;
  }
}

int main()
{
  int n = 1000;
  float *x, *y, *sums;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&sums, ((n + 255) / 256) * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(n, x, y);
  blocksum<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(n, x, sums);
  return 0;
}
