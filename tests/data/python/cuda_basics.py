"""cuda_basics.py -- Numba CUDA kernels in the style of Numba's CUDA documentation, launched from
main() with the configuration computed the usual ways (ceil division, math.ceil, tuples).

increment_by_one (the documentation's first kernel): pos = cuda.grid(1); if pos < an_array.size:
an_array[pos] += 1.  No signature: float64 elements (SR160); += 1 is a float64 add.  With
s = an_array_shape0 elements and the grid covering the guard, s threads do one add each.
  W = s.  Q: each element read and written -> 16s.  I = 1/16.  At main's launch s = 1 << 16
  = 65536 (np.zeros(65536)): W_value = 65536, Q_value = 1048576.

staticroof:expect increment_by_one
  W        = an_array_shape0
  Q        = 16*an_array_shape0
  Q_access = 16*an_array_shape0
  I        = 1/16
  fp64     = an_array_shape0
  W_value  = 65536
  Q_value  = 1048576

increment_a_2D_array: x, y = cuda.grid(2) and the guard x < shape[0] and y < shape[1]: one add per
element of the s0 x s1 array.  The launch: threadsperblock = (16, 16), blocks per grid
math.ceil(1000 / 16) = 63 and math.ceil(600 / 16) = 38 for np.zeros((1000, 600)).
  W = s0*s1, Q = 16*s0*s1, I = 1/16; at the launch W_value = 600000, Q_value = 9600000.

staticroof:expect increment_a_2D_array
  W        = an_array_shape0*an_array_shape1
  Q        = 16*an_array_shape0*an_array_shape1
  I        = 1/16
  fp64     = an_array_shape0*an_array_shape1
  W_value  = 600000
  Q_value  = 9600000

vec_add: i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x (written out), if i < c.size:
c[i] = a[i] + b[i] in float32 (signature).  No launch: the block size is unknown, and the global
index still combines (n = c_shape0 threads of work).  W = n fp32; Q = 12n; I = 1/12.

staticroof:expect vec_add
  W        = c_shape0
  Q        = 12*c_shape0
  Q_access = 12*c_shape0
  I        = 1/12
  fp32     = c_shape0

scale_shared: each block stages its 128 elements of x in cuda.shared.array(128, float32), syncs,
then out[i] = 2.0 * tile[tid]: 2.0 is a Python float, so the multiply is float64 (Numba's
promotion).  n = x.shape[0] threads pass the guards (launched with 128 threads per block).
  W = n fp64.  Q: x read (4n), out written (4n) -> 8n; the tile is on chip.
  Q_shared: a store and a load of 4 bytes per working thread -> 8n.  I = n/8n = 1/8.

staticroof:expect scale_shared
  W        = n
  Q        = 8*n
  Q_shared = 8*n
  I        = 1/8
  fp64     = n

grid_stride_mul: for i in range(cuda.grid(1), n, cuda.gridsize(1)): out[i] = x[i] * y[i] in
float32: every i < n once over the grid (launched with 64 blocks of 128 threads, fewer threads than
elements).  W = n fp32; Q = 12n; I = 1/12.

staticroof:expect grid_stride_mul
  W        = n
  Q        = 12*n
  I        = 1/12
  fp32     = n
"""

import math

import numpy as np
from numba import cuda, float32


@cuda.jit
def increment_by_one(an_array):
    pos = cuda.grid(1)
    if pos < an_array.size:
        an_array[pos] += 1


@cuda.jit
def increment_a_2D_array(an_array):
    x, y = cuda.grid(2)
    if x < an_array.shape[0] and y < an_array.shape[1]:
        an_array[x, y] += 1


@cuda.jit("void(float32[:], float32[:], float32[:])")
def vec_add(a, b, c):
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i < c.size:
        c[i] = a[i] + b[i]


@cuda.jit("void(float32[:], float32[:])")
def scale_shared(x, out):
    tile = cuda.shared.array(128, dtype=float32)
    n = x.shape[0]
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < n:
        tile[tid] = x[i]
    cuda.syncthreads()
    if i < n:
        out[i] = 2.0 * tile[tid]


@cuda.jit("void(int64, float32[:], float32[:], float32[:])")
def grid_stride_mul(n, x, y, out):
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        out[i] = x[i] * y[i]


def main():
    an_array = np.zeros(1 << 16)
    threadsperblock = 32
    blockspergrid = (an_array.size + (threadsperblock - 1)) // threadsperblock
    increment_by_one[blockspergrid, threadsperblock](an_array)

    grid2 = np.zeros((1000, 600))
    threadsperblock2 = (16, 16)
    blockspergrid_x = math.ceil(grid2.shape[0] / threadsperblock2[0])
    blockspergrid_y = math.ceil(grid2.shape[1] / threadsperblock2[1])
    increment_a_2D_array[(blockspergrid_x, blockspergrid_y), threadsperblock2](grid2)

    x = np.ones(100_000, dtype=np.float32)
    out = np.empty_like(x)
    scale_shared[(x.size + 127) // 128, 128](x, out)
    grid_stride_mul[64, 128](x.size, x, x, out)
