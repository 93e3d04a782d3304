// A kernel templated on its element type, launched for double.
template <typename T>
__global__ void axpy(int n, T a, const T *x, T *y)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main()
{
  int n = 1000;
  double *x, *y;
  cudaMalloc(&x, n * sizeof(double));
  cudaMalloc(&y, n * sizeof(double));
  axpy<double><<<(n + 255) / 256, 256>>>(n, 2.0, x, y);
  return 0;
}
