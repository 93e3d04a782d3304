"""blas1.py -- level-1 BLAS written the way Numba users port them: explicit loops, n = x.shape[0].

scal: x[i] *= alpha on float64 (signature).  W = n fp64; x read then written: Q = 16n; I = 1/16.

staticroof:expect scal
  W        = n
  Q        = 16*n
  Q_access = 16*n
  I        = 1/16
  fp64     = n

axpby: y[i] = a*x[i] + b*y[i], float32 by the signature: 2 multiplies and 1 add -> W = 3n fp32;
x read (4n), y read and written (8n) -> Q = 12n; I = 3n/12n = 1/4.

staticroof:expect axpby
  W        = 3*n
  Q        = 12*n
  Q_access = 12*n
  I        = 1/4
  fp32     = 3*n

dot: no signature (float64, SR160); s = 0.0; s += x[i]*y[i]: W = 2n fp64; Q = 8n + 8n = 16n;
I = 1/8.

staticroof:expect dot
  W        = 2*n
  Q        = 16*n
  Q_access = 16*n
  I        = 1/8
  fp64     = 2*n

asum32: s = np.float32(0); s += abs(x[i]) on float32: abs is free (as fabs in C), the add fp32:
W = n; Q = 4n; I = 1/4.

staticroof:expect asum32
  W        = n
  Q        = 4*n
  I        = 1/4
  fp32     = n

nrm2: s += x[i]*x[i] in float64, then math.sqrt(s) once: W = 2n + 1 (a special of weight 1);
Q = 8n; I = (2n + 1)/(8n).

staticroof:expect nrm2
  W        = 2*n + 1
  Q        = 8*n
  I        = (2*n + 1)/(8*n)
  fp64     = 2*n + 1
  special  = 1

swap: t = x[i]; x[i] = y[i]; y[i] = t on float32: no arithmetic; x and y each read then written:
Q = 16n; Q_access = 2 loads + 2 stores of 4 bytes per i = 16n; I = 0.

staticroof:expect swap
  W        = 0
  Q        = 16*n
  Q_access = 16*n
  I        = 0
"""

import math

import numpy as np
from numba import njit


@njit("void(float64, float64[:])")
def scal(alpha, x):
    n = x.shape[0]
    for i in range(n):
        x[i] *= alpha


@njit("void(float32, float32[:], float32, float32[:])")
def axpby(a, x, b, y):
    n = x.shape[0]
    for i in range(n):
        y[i] = a * x[i] + b * y[i]


@njit
def dot(x, y):
    n = x.shape[0]
    s = 0.0
    for i in range(n):
        s += x[i] * y[i]
    return s


@njit("float32(float32[:])")
def asum32(x):
    n = x.shape[0]
    s = np.float32(0)
    for i in range(n):
        s += abs(x[i])
    return s


@njit(cache=True)
def nrm2(x):
    n = len(x)
    s = 0.0
    for i in range(n):
        s += x[i] * x[i]
    return math.sqrt(s)


@njit("void(float32[:], float32[:])", nogil=True)
def swap(x, y):
    n = x.shape[0]
    for i in range(n):
        t = x[i]
        x[i] = y[i]
        y[i] = t


if __name__ == "__main__":
    x = np.random.rand(1000)
    y = np.ones(1000)
    print(dot(x, y), nrm2(x))
