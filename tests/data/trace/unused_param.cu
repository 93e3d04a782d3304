// `flags` and `stream_id` are part of the interface; this kernel never reads them.
__global__ void sscal(int n, int flags, float alpha, float *x, int stream_id)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = alpha * x[i];
}

int main()
{
  int n = 1000;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  sscal<<<(n + 255) / 256, 256>>>(n, 0, 2.0f, x, 0);
  return 0;
}
