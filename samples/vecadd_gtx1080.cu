// Vector add c[i] = a[i] + b[i], fp32, n = 100 in one block of 1024 threads, launched three times:
// the GTX 1080 raw-page run (tests/data/ncu/gtx1080-raw-csv), which then checks sum/n == 1.
#include <cstdio>
#include <vector>

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < n)
        c[id] = a[id] + b[id];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 100;
    int block = 1024, grid = (n + block - 1) / block;
    std::vector<float> h(n, 0.5f);
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    std::printf("grid: (%d,1,1)\nthreads: (%d,1,1)\n", grid, block);
    for (int rep = 0; rep < 3; ++rep)
        vecAdd<<<grid, block>>>(a, b, c, n);
    cudaMemcpy(h.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0;
    for (float v : h)
        sum += v;
    std::printf("Final sum = %f; sum/n = %f (should be ~1)\n", sum, sum / n);
    cudaFree(a); cudaFree(b); cudaFree(c);
    return 0;
}
