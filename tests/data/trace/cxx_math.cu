// C++ math overloads in device code: `sqrt`, `fma` and `fmin` of floats are the float functions
// (fp32), of a float and a double the double ones.  Expected values: tests/test_trace.py.
__global__ void cxx_math(int n, const float *x, float *y, const double *u, double *w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = sqrt(x[i]) + fma(x[i], x[i], 1.0f) + fmin(x[i], 0.5f);
        w[i] = fma(x[i], u[i], 2.0) + sqrt(x[i] * 2);
    }
}

int main()
{
    cxx_math<<<(1000 + 255) / 256, 256>>>(1000, 0, 0, 0, 0);
    return 0;
}
