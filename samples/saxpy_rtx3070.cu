/* saxpy_rtx3070.cu -- SAXPY into a third array, out[i] = a*x[i] + y[i], fp32, n = 1,000,000 in
 * blocks of 1024 (grid 977): our own code of the kernel the shared ncu run
 * rtx3070-console/ncu_console_basic.txt measured (console output, basic set, RTX 3070, copied in
 * tests/data/ncu/).  n is a struct field at the launch site, so it is unbound without -D.
 *
 * saxpy: i = blockIdx.x*blockDim.x + threadIdx.x with the guard i < n; the grid covers the
 *   guard, so the threads i = 0 .. n-1 do work.
 *   W: per thread one float multiply (a*x[i]) and one float add (+ y[i]) -> 2 fp32.  W = 2*n.
 *   Q (compulsory), element size 4 bytes:
 *      x, y: n distinct elements each, only read  -> 8n
 *      out:  n distinct elements, only written    -> 4n
 *      a: scalar by value -> 0.                          Q = 12*n.
 *   Q_access: per thread two loads and one store of 4 bytes -> 12*n.
 *   Q_shared: no shared memory -> 0.
 *   I = W / Q = 2n / 12n = 1/6.
 *   (At n = 10^6: W = 2,000,000 FLOP, DRAM reads 8,000,000 B.  The console run prints no DRAM byte
 *   counts, only throughput.)
 *
 * staticroof:expect saxpy
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   Q_shared = 0
 *   I        = 1/6
 *   fp32     = 2*n
 */
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
