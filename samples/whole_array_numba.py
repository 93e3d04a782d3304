"""whole_array_numba.py -- NumPy-style kernels under @njit: whole-array and slice expressions, which
Numba compiles to loops over the arrays' shapes (and staticroof counts as those loops).

saxpy_array: y[:] = a * x + y.  The loop runs over y's shape, m = y.shape[0] (the size y_shape0);
x has the same shape (NumPy requires it).
  W: per element a*x and + y in float32 -> 2*m.  Q: x read (4m), y read then written (8m) -> 12*m.
  I = 1/6, the loop form's (samples/saxpy_numba.py).

staticroof:expect saxpy_array
  W        = 2*y_shape0
  Q        = 12*y_shape0
  Q_access = 12*y_shape0
  I        = 1/6
  fp32     = 2*y_shape0

smooth3: y[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0 on float64: element e = 0 .. m-3 (m = y_shape0,
m - 2 elements, for m >= 3) reads x[e], x[e+1], x[e+2] and writes y[e+1].
  W: 2 adds and 1 division per element -> 3*(m-2).
  Q: x[0 .. m-1] read (8m); y[1 .. m-2] written (8(m-2)) -> 16m - 16.
  Q_access: 3 loads and 1 store of 8 bytes per element -> 32*(m-2).
  I = 3(m-2) / (16(m-1)).

staticroof:expect smooth3
  W        = 3*y_shape0 - 6
  Q        = 16*y_shape0 - 16
  Q_access = 32*y_shape0 - 64
  I        = 3*(y_shape0 - 2)/(16*(y_shape0 - 1))
  fp64     = 3*y_shape0 - 6

l2norm: np.sqrt(np.sum(x * x)) on float32 (n = x_shape0): np.sum is a loop of n adds from zero
(Numba's implementation), each element squared first, all float32; then one sqrtf (a special
function of weight 1).
  W = 2n + 1 (special = 1).  Q: x read once -> 4n.  I = (2n + 1)/(4n).

staticroof:expect l2norm
  W        = 2*x_shape0 + 1
  Q        = 4*x_shape0
  I        = (2*x_shape0 + 1)/(4*x_shape0)
  fp32     = 2*x_shape0 + 1
  special  = 1

rowdot: C[i, j] = np.dot(A[i, :], B[:, j]) with n, m = A.shape and p = B.shape[1]: for each of the
n*p entries a dot product over m elements, a multiply and an add each -> W = 2*n*m*p fp32.
  Q: A read in full (4nm), B's m rows of p columns read (4mp), C written (4np) -> 4(nm + mp + np).
  I = 2nmp / (4(nm + mp + np)) = n*m*p/(2*(n*m + m*p + n*p)).

staticroof:expect rowdot
  W        = 2*n*m*p
  Q        = 4*(n*m + m*p + n*p)
  I        = n*m*p/(2*(n*m + m*p + n*p))
  fp32     = 2*n*m*p
"""

import numpy as np
from numba import njit


@njit("void(float32, float32[:], float32[:])")
def saxpy_array(a, x, y):
    y[:] = a * x + y


@njit("void(float64[:], float64[:])")
def smooth3(x, y):
    y[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0


@njit("float32(float32[:])")
def l2norm(x):
    return np.sqrt(np.sum(x * x))


@njit("void(float32[:, :], float32[:, :], float32[:, :])")
def rowdot(A, B, C):
    n, m = A.shape
    p = B.shape[1]
    for i in range(n):
        for j in range(p):
            C[i, j] = np.dot(A[i, :], B[:, j])
