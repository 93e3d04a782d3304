/* vecadd_gtx1080.cu -- vector add c[i] = a[i] + b[i], fp32, n = 100 in one block of 1024 threads,
 * launched three times, then a check that sum/n == 1: our own code of the kernel the shared ncu run
 * gtx1080-raw-csv/nsight_vectoradd_100_32_metrics_all.csv measured (`ncu --csv --page raw` on a
 * GTX 1080, copied in tests/data/ncu/; the .txt beside it has the program output first).
 * `staticroof validate samples/vecadd_gtx1080.cu -D n=100 --ncu tests/data/ncu/gtx1080-raw-csv/...`
 * compares.  n comes from the command line (default 100), so it is unbound without -D.
 *
 * vecAdd: id = blockIdx.x*blockDim.x + threadIdx.x with the guard id < n; the grid
 *   (n + 1023) / 1024 blocks covers the guard, so the threads id = 0 .. n-1 do work.
 *   W: per thread one float add -> 1 fp32.  W = n.
 *   Q (compulsory), element size 4 bytes:
 *      a, b: n distinct elements each, only read  -> 8n
 *      c:    n distinct elements, only written    -> 4n     Q = 12*n.
 *   Q_access: per thread two loads and one store of 4 bytes -> 12*n.
 *   Q_shared: no shared memory -> 0.
 *   I = W / Q = n / 12n = 1/12.  Per launch (SR150: launched in a host loop of 3).
 *   (At n = 100 the compulsory reads are 800 B; the run measured 7,552, 3,264 and 2,176 B: a kernel
 *   this small is all fixed traffic.)
 *
 * staticroof:expect vecAdd
 *   W        = n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = 1/12
 *   fp32     = n
 */
#include <cstdio>
#include <cstdlib>
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
