"""stencil2d_numba.py -- a 5-point Jacobi sweep on an n x n float64 grid with @njit, written with
chained subscripts A[i][j] as ported C code often is; the Numba twin of samples/jacobi2d.c.

jacobi2d: n = A.shape[0]; i and j run over the interior 1 .. n-2 (n-2 trips each, for n >= 3).
  W: per point 4 adds and one multiply by 0.2; the arrays have no signature, so they are float64
     (SR160) and every operation is fp64: 5*(n-2)**2.
  Q: A: the points read are (i, j) and its four neighbours for interior (i, j): the interior
     (n-2)**2 and the n-2 inner points of each of the 4 borders (not the corners): n**2 - 4
     elements, only read -> 8*(n**2 - 4).  B: (n-2)**2 elements written -> 8*(n-2)**2.
     Q = 8n**2 - 32 + 8n**2 - 32n + 32 = 16*n*(n-2).
  Q_access: 5 loads and 1 store of 8 bytes per point: 48*(n-2)**2.
  I = 5(n-2)**2 / (16 n (n-2)) = 5*(n-2)/(16*n).

staticroof:expect jacobi2d
  W        = 5*(n-2)**2
  Q        = 16*n*(n-2)
  Q_access = 48*(n-2)**2
  I        = 5*(n-2)/(16*n)
  fp64     = 5*(n-2)**2
"""

import numpy as np
from numba import njit


@njit
def jacobi2d(A, B):
    n = A.shape[0]
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j]
                             + A[i][j - 1] + A[i][j + 1])


if __name__ == "__main__":
    a = np.random.rand(512, 512)
    b = np.zeros_like(a)
    for _ in range(10):
        jacobi2d(a, b)
        a, b = b, a
