// A template device function instantiated by its arguments, in a template kernel launched for two
// element types and in a plain kernel that calls it with float and with double.
template <typename T>
__device__ T mul(T a, T b) { return a * b; }

template <typename T>
__global__ void scale(int n, T s, const T *x, T *y)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = mul(s, x[i]) + mul(x[i], x[i]);
}

__global__ void mix(int n, const float *x, const double *y, double *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = mul(x[i], x[i]) + mul(y[i], y[i]);
}

int main()
{
  int n = 1000;
  float *xf, *yf;
  double *xd, *yd, *out;
  scale<float><<<(n + 255) / 256, 256>>>(n, 2.0f, xf, yf);
  scale<double><<<(n + 127) / 128, 128>>>(n, 2.0, xd, yd);
  mix<<<(n + 255) / 256, 256>>>(n, xf, xd, out);
  return 0;
}
