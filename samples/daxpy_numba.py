"""daxpy_numba.py -- "a times x plus y" in Numba with no signature: Numba compiles it for the
types it is called with, and the call below (np.ones(n), a Python float) gives float64 arrays and a
float64 scalar, the type staticroof assumes when nothing states one (SR160 says so).  The Numba
twin of samples/daxpy.c.

daxpy: n = len(x) names the size n; for i in prange(n) is a parallel loop over i = 0 .. n-1.
  W: a*x[i] and + y[i], float64: 2 fp64 per trip.  W = 2*n.
  Q: x read (8n), y read then written (8n + 8n).  Q = 24*n.
  Q_access: 3 accesses of 8 bytes per trip = 24*n.
  I = 2n / 24n = 1/12.

staticroof:expect daxpy
  W        = 2*n
  Q        = 24*n
  Q_access = 24*n
  I        = 1/12
  fp64     = 2*n

vmul: z[i] = x[i] * y[i] on float32 arrays (the signature lists the types), the reference
"z[i] = x[i]*y[i]" kernel (samples/vmul.c).
  W: one float32 multiply per trip, n trips -> n.  Q: x, y read (4n each), z written (4n) -> 12n.
  I = n / 12n = 1/12.

staticroof:expect vmul
  W        = n
  Q        = 12*n
  Q_access = 12*n
  I        = 1/12
  fp32     = n
"""

import numba
import numpy as np


@numba.njit(parallel=True)
def daxpy(a, x, y):
    n = len(x)
    for i in numba.prange(n):
        y[i] = a * x[i] + y[i]


@numba.jit("void(float32[::1], float32[::1], float32[::1])", nopython=True, cache=True)
def vmul(x, y, z):
    n = x.shape[0]
    for i in range(n):
        z[i] = x[i] * y[i]


if __name__ == "__main__":
    x = np.ones(1000)
    y = np.zeros(1000)
    daxpy(2.0, x, y)
    vmul(x.astype(np.float32), x.astype(np.float32), np.empty(1000, np.float32))
