"""ufuncs_and_helpers.py -- @vectorize and @guvectorize ufuncs, @njit helpers called from kernels
(inlined at the call), a CUDA device function, and math functions through the cost table.

vadd (@vectorize(["float32(float32, float32)"])): one call per element of its broadcast inputs, n
of them: each input element read once, the result written once (the array `out`).
  W = n fp32 (a + b).  Q = 4n + 4n + 4n = 12n.  I = 1/12.

staticroof:expect vadd
  W        = n
  Q        = 12*n
  I        = 1/12
  fp32     = n

rect (@vectorize("float64(float64)"), a single signature): math.sqrt(x) * 2.0: a sqrt (a special of
weight 1) and a multiply per element -> W = 2n (special = n).  Q = 8n + 8n = 16n.  I = 1/8.

staticroof:expect rect
  W        = 2*n
  Q        = 16*n
  I        = 1/8
  fp64     = 2*n
  special  = n

gadd (@guvectorize(..., "(n),(n)->(n)")): the core function's loop over x.shape[0] (its size
x_shape0; the broadcast over outer dimensions is one core call here).  res[i] = x[i] + y[i] in
float64: W = x_shape0, Q = 24*x_shape0, I = 1/24.

staticroof:expect gadd
  W        = x_shape0
  Q        = 24*x_shape0
  I        = 1/24
  fp64     = x_shape0

sumsq: s += sq(x[i]) with the @njit helper sq(v) = v * v inlined: a multiply and an add per
element.  main calls it with `np.arange(10, dtype=np.float32)`, so x is float32 (as Numba's dispatch
types it): sq's v * v is a float32 multiply, and s = 0.0 is a float64 that the float32 result joins
in a float64 add.  W = 2n (fp32 n, fp64 n); Q = 4n (x read once); I = 1/2.

staticroof:expect sumsq
  W        = 2*n
  Q        = 4*n
  I        = 1/2
  fp32     = n
  fp64     = n

fma_kernel: out[i] = madd(x[i], y[i]) with the CUDA device function madd(a, b) = a * b + 1.0: the
float32 multiply stays float32, + 1.0 (a Python float) is float64.  n = out.size threads.
  W = 2n (fp32 n, fp64 n).  Q = 4n + 4n + 4n = 12n.  I = 1/6.

staticroof:expect fma_kernel
  W        = 2*out_shape0
  Q        = 12*out_shape0
  I        = 1/6
  fp32     = out_shape0
  fp64     = out_shape0

softplus: y[i] = math.log(1.0 + math.exp(x[i])) in float64: an exp, an add and a log per element
-> W = 3n (special = 2n).  Q = 16n.  I = 3/16.

staticroof:expect softplus
  W        = 3*n
  Q        = 16*n
  I        = 3/16
  fp64     = 3*n
  special  = 2*n

sigmoid32: y[i] = 1 / (1 + math.exp(-x[i])) with float32 arrays: math.exp of a float32 is the
float32 function (expf), but 1 + (float32) adds an int64 literal, which Numba promotes to float64,
and the division is then float64 too.  W = 3n: fp32 n (the exp), fp64 2n.  Q = 8n.  I = 3/8.

staticroof:expect sigmoid32
  W        = 3*n
  Q        = 8*n
  I        = 3/8
  fp32     = n
  fp64     = 2*n
  special  = n

psum (@njit(parallel=True), prange): s += x[i] with s = 0.0 a float64; main calls it with a
float32 array (np.arange(10, dtype=np.float32)): the float32 element joins s in a float64 add.
W = n fp64; Q = 4n; I = 1/4.

staticroof:expect psum
  W        = n
  Q        = 4*n
  I        = 1/4
  fp64     = n

reverse: for i in range(n - 1, -1, -1): y[n - 1 - i] = x[i] in float32: no arithmetic, x read and y
written once each: Q = 8n.

staticroof:expect reverse
  W        = 0
  Q        = 8*n
  Q_access = 8*n
  I        = 0
"""

import math

import numpy as np
from numba import cuda, guvectorize, njit, prange, vectorize


@vectorize(["float32(float32, float32)"])
def vadd(a, b):
    return a + b


@vectorize("float64(float64)", nopython=True)
def rect(x):
    return math.sqrt(x) * 2.0


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)")
def gadd(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y[i]


@njit
def sq(v):
    return v * v


@njit
def sumsq(x):
    n = x.shape[0]
    s = 0.0
    for i in range(n):
        s += sq(x[i])
    return s


@cuda.jit(device=True)
def madd(a, b):
    return a * b + 1.0


@cuda.jit("void(float32[:], float32[:], float32[:])")
def fma_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = madd(x[i], y[i])


@njit
def softplus(x, y):
    n = x.shape[0]
    for i in range(n):
        y[i] = math.log(1.0 + math.exp(x[i]))


@njit("void(float32[:], float32[:])")
def sigmoid32(x, y):
    n = x.shape[0]
    for i in range(n):
        y[i] = 1 / (1 + math.exp(-x[i]))


@njit(parallel=True)
def psum(x):
    n = x.shape[0]
    s = 0.0
    for i in prange(n):
        s += x[i]
    return s


@njit("void(float32[:], float32[:])")
def reverse(x, y):
    n = x.shape[0]
    for i in range(n - 1, -1, -1):
        y[n - 1 - i] = x[i]


if __name__ == "__main__":
    a = np.arange(10, dtype=np.float32)
    print(vadd(a, a), rect(a.astype(np.float64)), sumsq(a), psum(a))
    softplus(a.astype(np.float64), np.empty(10))
    print(sq(a[0]))
