"""reduce_numba.py -- sums of a vector, the way Numba users write them, and what the accumulator's
type does to the precision of the adds.

total: no signature, so x is float64 (SR160); s = 0.0 is float64.  n = x.shape[0].
  W: one fp64 add per element -> n.  Q: x read once -> 8n.  Q_access = 8n.  I = 1/8.

staticroof:expect total
  W        = n
  Q        = 8*n
  Q_access = 8*n
  I        = 1/8
  fp64     = n

sum32: the signature makes x float32 but s = 0.0 is a Python float: Numba types s float64 and
s += x[i] is a float64 add of the promoted element (checked against Numba in
tests/test_python_precision.py).
  W: n fp64 adds.  Q: x read -> 4n.  I = n / 4n = 1/4.

staticroof:expect sum32
  W        = n
  Q        = 4*n
  Q_access = 4*n
  I        = 1/4
  fp64     = n

sum_gpu: one cuda.atomic.add per element into out[0] (guard i < n gives n threads).
  W: the atomic add of float32 into a float32 array -> n fp32.
  Q: x read (4n); out[0] read and written once over the kernel -> 4 + 4.  Q = 4*n + 8.
  Q_access: per thread a load of x[i], and the atomic's read and write of out[0] -> 12*n.
  I = n / (4n + 8).

staticroof:expect sum_gpu
  W        = n
  Q        = 4*n + 8
  Q_access = 12*n
  I        = n/(4*n + 8)
  fp32     = n
"""

import numpy as np
from numba import cuda, njit


@njit
def total(x):
    n = x.shape[0]
    s = 0.0
    for i in range(n):
        s += x[i]
    return s


@njit("float64(float32[:])")
def sum32(x):
    n = x.shape[0]
    s = 0.0
    for i in range(n):
        s += x[i]
    return s


@cuda.jit("void(float32[:], float32[:])")
def sum_gpu(x, out):
    n = x.shape[0]
    i = cuda.grid(1)
    if i < n:
        cuda.atomic.add(out, 0, x[i])


if __name__ == "__main__":
    x = np.arange(1 << 16, dtype=np.float32)
    out = np.zeros(1, dtype=np.float32)
    sum_gpu[(x.size + 127) // 128, 128](x, out)
    print(total(x.astype(np.float64)), sum32(x), out[0])
