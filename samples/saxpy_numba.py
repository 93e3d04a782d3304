"""saxpy_numba.py -- single-precision "a times x plus y", y[i] = a*x[i] + y[i], in Numba: once
compiled for the CPU with @njit and a signature, and twice for the GPU with @cuda.jit (one element
per thread, and a grid-stride loop), with the launch in main().  Each is the Numba twin of
samples/saxpy.c and samples/saxpy.cu, and gives the same formulas.

saxpy (@njit("void(float32, float32[:], float32[:])")): the signature makes a, x and y float32.
n = x.shape[0] names the size n; the loop runs i = 0 .. n-1.
  W: a*x[i] is float32 * float32 and + y[i] float32 + float32 (Numba's promotion keeps float32
     when both operands are float32): 2 fp32 per trip.  W = 2*n.
  Q: x: n elements only read -> 4n; y: n elements, read first (the right-hand side is evaluated
     before the store) and written -> 4n + 4n.  a is a scalar argument -> 0.  Q = 12*n.
  Q_access: one load of x[i], one of y[i], one store of y[i] per trip -> 12*n.
  I = 2n / 12n = 1/6.

staticroof:expect saxpy
  W        = 2*n
  Q        = 12*n
  Q_access = 12*n
  I        = 1/6
  fp32     = 2*n

saxpy_gpu: i = cuda.grid(1) (blockIdx.x*blockDim.x + threadIdx.x) with the guard i < n.  The grid
is assumed to cover the guard: the threads i = 0 .. n-1 do one element each, as in saxpy.cu.
  W = 2*n fp32, Q = 12*n, Q_access = 12*n, Q_shared = 0, I = 1/6.
  The launch in main() passes n = 1 << 20 = 1048576 (256 threads per block,
  (n + 255) // 256 = 4096 blocks): W_value = 2097152, Q_value = 12*1048576 = 12582912.

staticroof:expect saxpy_gpu
  W        = 2*n
  Q        = 12*n
  Q_access = 12*n
  Q_shared = 0
  I        = 1/6
  fp32     = 2*n
  W_value  = 2097152
  Q_value  = 12582912

saxpy_grid_stride: for i in range(cuda.grid(1), n, cuda.gridsize(1)): over all threads of the
grid the loop visits every i in [0, n) exactly once, whatever the launch (here 1024 blocks of 256
threads), so the counts are those of saxpy_gpu, with the same n = 1048576 from main().

staticroof:expect saxpy_grid_stride
  W        = 2*n
  Q        = 12*n
  Q_access = 12*n
  I        = 1/6
  fp32     = 2*n
  W_value  = 2097152
  Q_value  = 12582912
"""

import numpy as np
from numba import cuda, njit


@njit("void(float32, float32[:], float32[:])")
def saxpy(a, x, y):
    n = x.shape[0]
    for i in range(n):
        y[i] = a * x[i] + y[i]


@cuda.jit("void(int32, float32, float32[:], float32[:])")
def saxpy_gpu(n, a, x, y):
    i = cuda.grid(1)
    if i < n:
        y[i] = a * x[i] + y[i]


@cuda.jit("void(int32, float32, float32[:], float32[:])")
def saxpy_grid_stride(n, a, x, y):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, n, stride):
        y[i] = a * x[i] + y[i]


def main():
    n = 1 << 20
    x = np.ones(n, dtype=np.float32)
    y = np.full(n, 2.0, dtype=np.float32)
    d_x = cuda.to_device(x)
    d_y = cuda.to_device(y)
    threads = 256
    blocks = (n + threads - 1) // threads
    saxpy_gpu[blocks, threads](n, np.float32(2.0), d_x, d_y)
    saxpy_grid_stride[1024, threads](n, np.float32(2.0), d_x, d_y)
    print(d_y.copy_to_host()[0], "(expected 6.0)")


if __name__ == "__main__":
    main()
