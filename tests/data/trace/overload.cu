// Two overloads of one device function, as C++ picks them by argument type.
__device__ float sq(float x) { return x * x; }
__device__ double sq(double x) { return x * x; }

__global__ void sumsq(int n, const float *x, const double *y, double *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sq(x[i]) + sq(y[i]);
}

int main()
{
  int n = 1000;
  float *x;
  double *y, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(double));
  cudaMalloc(&out, n * sizeof(double));
  sumsq<<<(n + 255) / 256, 256>>>(n, x, y, out);
  return 0;
}
