"""control.py -- control flow and temporaries: a negative index, `continue` and `elif` guards, an
np.zeros scratch array, a cuda.local.array.

last: x[i] = x[i] + x[-1] for i = 0 .. n-2 (x[-1] is x[n-1]): W = n - 1 fp64; x[0 .. n-2] read and
written, x[n-1] read: Q = 16(n-1) + 8 = 16n - 8 (n >= 2); the same accesses one by one.

staticroof:expect last
  W        = n - 1
  Q        = 16*n - 8
  Q_access = 16*n - 8
  I        = (n - 1)/(8*(2*n - 1))
  fp64     = n - 1

skip_odd: `if i % 2 == 1: continue` skips the rest of the odd iterations: the even i < m
(m = x_shape0), m - floor(m/2) of them, do one multiply, a read and a write.

staticroof:expect skip_odd
  W        = x_shape0 - floor(x_shape0/2)
  Q        = 16*x_shape0 - 16*floor(x_shape0/2)
  I        = 1/16
  fp64     = x_shape0 - floor(x_shape0/2)

piecewise: if i < 10 (a copy), elif i < 20 (one multiply), else (a multiply and an add): for
n >= 20, 10 + 2(n - 20) = 2n - 30; for 10 <= n < 20, n - 10; else 0: W = Max(0, n - 10, 2n - 30).
Every i reads x[i] and writes y[i]: Q = 16n.

staticroof:expect piecewise
  W        = Max(0, n - 10, 2*n - 30)
  Q        = 16*n
  Q_access = 16*n
  fp64     = Max(0, n - 10, 2*n - 30)

tmp_buffer: t = np.zeros(n, dtype=np.float32) is a temporary: np.zeros writes its n elements, the
first loop writes t[i] = x[i] * x[i] (fp32), the second reads it into y[i] = t[i] + 1.0 (the
Python float makes the add fp64).  Q: x read (4n), t written (4n: written before it is read, so
its reads are not compulsory traffic), y written (4n) -> 12n.  Q_access: the fill (4n), x load and
t store (8n), t load and y store (8n) -> 20n.

staticroof:expect tmp_buffer
  W        = 2*n
  Q        = 12*n
  Q_access = 20*n
  I        = 1/6
  fp32     = n
  fp64     = n

local_acc: acc = cuda.local.array(4, float32) lives in registers.  Each of the s = x_shape0
working threads does acc[k] = x[i] * k for k = 0 .. 3 (k is an int64: the multiply is fp64, 4 of
them) and y[i] = acc[0] + acc[3] (fp32): W = 5s.  Q: x read (4s), y written (4s) -> 8s.  The launch
in main() (n = 1000, 8 blocks of 128) gives W_value = 5000, Q_value = 8000.

staticroof:expect local_acc
  W        = 5*x_shape0
  Q        = 8*x_shape0
  I        = 5/8
  fp64     = 4*x_shape0
  fp32     = x_shape0
  W_value  = 5000
  Q_value  = 8000
"""
import numpy as np
from numba import njit, cuda, float32


@njit("void(float64[:])")
def last(x):
    n = x.shape[0]
    for i in range(n - 1):
        x[i] = x[i] + x[-1]


@njit("void(float64[:], float64[:])")
def skip_odd(x, y):
    for i in range(x.shape[0]):
        if i % 2 == 1:
            continue
        y[i] = 2.0 * x[i]


@njit("void(float64[:], float64[:])")
def piecewise(x, y):
    n = x.shape[0]
    for i in range(n):
        if i < 10:
            y[i] = x[i]
        elif i < 20:
            y[i] = 2.0 * x[i]
        else:
            y[i] = 3.0 * x[i] + 1.0


@njit("void(float32[:], float32[:])")
def tmp_buffer(x, y):
    n = x.shape[0]
    t = np.zeros(n, dtype=np.float32)
    for i in range(n):
        t[i] = x[i] * x[i]
    for i in range(n):
        y[i] = t[i] + 1.0


@cuda.jit("void(float32[:], float32[:])")
def local_acc(x, y):
    i = cuda.grid(1)
    acc = cuda.local.array(4, float32)
    if i < x.shape[0]:
        for k in range(4):
            acc[k] = x[i] * k
        y[i] = acc[0] + acc[3]


def main():
    n = 1000
    x = np.ones(n, dtype=np.float32)
    y = np.empty_like(x)
    local_acc[(n + 127) // 128, 128](x, y)
