// SAXPY into a third array, out[i] = a*x[i] + y[i], fp32, n = 1,000,000 in blocks of 1024
// (grid 977): the RTX 3070 console run (tests/data/ncu/rtx3070-console).
#include <cstdio>

struct SaxpyArgs {
    float a;
    int n;
};

__global__ void saxpy(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out, float a,
                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}

int main()
{
    SaxpyArgs args = {2.5f, 1000000};
    const int threads = 1024;
    int blocks = (args.n + threads - 1) / threads;
    float *x, *y, *out;
    cudaMalloc(&x, args.n * sizeof(float));
    cudaMalloc(&y, args.n * sizeof(float));
    cudaMalloc(&out, args.n * sizeof(float));
    saxpy<<<blocks, threads>>>(x, y, out, args.a, args.n);
    float sample = 0.0f;
    cudaMemcpy(&sample, out + 12345, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("SAXPY complete on %d elements. Example out[12345] = %.1f\n", args.n, sample);
    cudaFree(x); cudaFree(y); cudaFree(out);
    return 0;
}
