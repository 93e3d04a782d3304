// Device-side timing with clock64() around fast-math sine and cosine; UINT_MAX marks "no index"
// (device code has it from the CUDA headers without including <climits>).
__global__ void polar(int n, const float *angle, float *xy, unsigned *first, long long *cycles)
{
  long long t0 = clock64();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s, c;
    __sincosf(angle[i], &s, &c);
    xy[i] = s + c;
    first[i] = angle[i] > 0.0f ? (unsigned)i : UINT_MAX;
  }
  if (i == 0)
    cycles[0] = clock64() - t0;
}

__global__ void polar_out(int n, const float *angle, float *s, float *c)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __sincosf(angle[i], &s[i], &c[i]);
}

int main()
{
  int n = 1000;
  float *angle, *xy, *s, *c;
  unsigned *first;
  long long *cycles;
  polar<<<(n + 255) / 256, 256>>>(n, angle, xy, first, cycles);
  polar_out<<<(n + 255) / 256, 256>>>(n, angle, s, c);
  return 0;
}
