// Kernels launched from kernels (dynamic parallelism), std::bool_constant tag parameters, and a host
// class template that allocates with new[]/delete[].  Expected values: tests/test_device_launch.py.
#include <type_traits>
#include <cuda_runtime.h>

__global__ void child(float *y, const float *x, int off, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        y[off + i] = 2.0f * x[off + i];
}

// one thread per row launches the row's child grid
__global__ void parent(float *y, const float *x, int n, int m)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n)
        child<<<(m + 127) / 128, 128>>>(y, x, row * m, m);
}

// a child whose block size the parent reads at run time: not followed (SR105)
__global__ void parent_dynamic(float *y, const float *x, int n, int m, int threads)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n)
        child<<<(m + threads - 1) / threads, threads>>>(y, x, row * m, m);
}

template <bool kScale>
__global__ void tagged(float *y, const float *x, int n, std::bool_constant<kScale>)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = kScale ? 2.0f * x[i] : x[i];
}

template <typename T>
class HostBuffer {
public:
    explicit HostBuffer(int n) : n_(n) { data_ = new T[n]; }
    ~HostBuffer() { delete[] data_; }
    T *data() { return data_; }
    int size() const { return n_; }
private:
    int n_;
    T *data_;
};

int main()
{
    const int n = 1000, m = 64;
    HostBuffer<float> hx(n * m);
    float *x, *y;
    cudaMalloc(&x, n * m * sizeof(float));
    cudaMalloc(&y, n * m * sizeof(float));
    parent<<<(n + 255) / 256, 256>>>(y, x, n, m);
    parent_dynamic<<<(n + 255) / 256, 256>>>(y, x, n, m, 128);
    tagged<true><<<(n + 255) / 256, 256>>>(y, x, n, std::bool_constant<true>{});
    tagged<false><<<(n + 255) / 256, 256>>>(y, x, n, std::bool_constant<false>{});
    return 0;
}
