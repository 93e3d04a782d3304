"""Numba CUDA kernels whose launches differ by scope and by type set, written as the Numba docs and
numba-examples write them: a kernel nested in each of two test functions under one name, and one
kernel launched with float32 and with float64 arrays (two instances, each with its own launch).
Each takes the launch in its own scope with its own type set (it used to take the file's first
launch of the bare name: test_square_plus.kernel ran at grid 4 x 256 over 1,000 elements, and
square[float64] at 8 x 256 over 2,048).

test_double.kernel: launched as kernel[4, 256] with x = np.ones(1000, dtype=np.float32), so x_shape0
= 1000 (1,024 threads cover the guard).  y[i] = x[i] + x[i]: one fp32 add per element, x read and y
written at 4 B -> W = n, Q = 8n = 8,000 B.

staticroof:expect test_double.kernel
  W        = x_shape0
  Q        = 8*x_shape0
  fp32     = x_shape0
  W_value  = 1000
  Q_value  = 8000

test_square_plus.kernel: float64 arrays of 4096, grid (4096 + 127) // 128 = 32 blocks of 128 threads.
y[i] = x[i] * x[i] + x[i]: a multiply and an add in fp64 -> W = 2n = 8,192; Q = 16n = 65,536 B.

staticroof:expect test_square_plus.kernel
  W        = 2*x_shape0
  Q        = 16*x_shape0
  fp64     = 2*x_shape0
  W_value  = 8192
  Q_value  = 65536

square, launched with float32 device arrays of 2048 (grid 8 x 256) and with float64 arrays of 512
(grid (512 + 63) // 64 = 8 blocks of 64): two instances.  out[i] = x[i] * x[i], one multiply:
float32 W = 2,048, Q = 8n = 16,384 B; float64 W = 512, Q = 16n = 8,192 B.

staticroof:expect square[float32]
  W        = x_shape0
  Q        = 8*x_shape0
  fp32     = x_shape0
  W_value  = 2048
  Q_value  = 16384

staticroof:expect square[float64]
  W        = x_shape0
  Q        = 16*x_shape0
  fp64     = x_shape0
  W_value  = 512
  Q_value  = 8192
"""

import numpy as np
from numba import cuda


def test_double():
    @cuda.jit
    def kernel(x, y):
        i = cuda.grid(1)
        if i < x.shape[0]:
            y[i] = x[i] + x[i]

    n = 1000
    x = np.ones(n, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[4, 256](x, y)


def test_square_plus():
    @cuda.jit
    def kernel(x, y):
        i = cuda.grid(1)
        if i < x.shape[0]:
            y[i] = x[i] * x[i] + x[i]

    n = 4096
    x = np.ones(n, dtype=np.float64)
    y = np.zeros_like(x)
    threads = 128
    blocks = (x.size + threads - 1) // threads
    kernel[blocks, threads](x, y)


@cuda.jit
def square(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i] * x[i]


def main():
    n = 2048
    a = np.arange(n, dtype=np.float32)
    b = np.zeros_like(a)
    d_a = cuda.to_device(a)
    d_b = cuda.to_device(b)
    square[8, 256](d_a, d_b)

    m = 512
    c = np.ones(m)
    e = np.empty_like(c)
    threadsperblock = 64
    blockspergrid = (c.size + (threadsperblock - 1)) // threadsperblock
    square[blockspergrid, threadsperblock](c, e)
