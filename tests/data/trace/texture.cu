// A two-point average read through a texture object bound to linear memory.
__global__ void smooth(int n, cudaTextureObject_t tex, float *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * (tex1Dfetch<float>(tex, i) + tex1Dfetch<float>(tex, i + 1));
}

int main()
{
  int n = 1000;
  float *buf, *out;
  cudaMalloc(&buf, (n + 1) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buf;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = (n + 1) * sizeof(float);
  cudaTextureDesc td = {};
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  smooth<<<(n + 127) / 128, 128>>>(n, tex, out);
  return 0;
}
