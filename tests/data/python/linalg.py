"""linalg.py -- dense linear algebra loops in Numba (shapes unpacked as `n, m = A.shape`).

matvec: y[i] = sum_j A[i, j] * x[j], float64 (no signature, SR160), accumulator s = 0.0.
  W = 2nm.  Q: A (8nm), x (8m) read, y (8n) written -> 8(nm + n + m).
  Q_access: A[i, j] and x[j] vary with j: 8nm each; y once per i: 8n -> 16nm + 8n.
  I = 2nm / (8(nm + n + m)) = nm/(4(nm + n + m)).

staticroof:expect matvec
  W        = 2*n*m
  Q        = 8*n*m + 8*n + 8*m
  Q_access = 16*n*m + 8*n
  I        = n*m/(4*(n*m + n + m))
  fp64     = 2*n*m

outer: A[i, j] = x[i] * y[j] in float32 (n = x.shape[0], m = y.shape[0]): W = nm; Q: x (4n), y (4m)
read, A (4nm) written.  Q_access: x[i] every (i, j) (A, written in j, may alias it) (4nm), y[j]
every (i, j) (4nm), the store (4nm): Numba arguments may alias.  I = nm/(4(n + m + nm)).

staticroof:expect outer
  W        = n*m
  Q        = 4*n + 4*m + 4*n*m
  Q_access = 12*n*m
  I        = n*m/(4*(n + m + n*m))
  fp32     = n*m

transpose: B[j, i] = A[i, j] (float64, n, m = A.shape): no arithmetic; Q = 8nm + 8nm = 16nm.

staticroof:expect transpose
  W        = 0
  Q        = 16*n*m
  Q_access = 16*n*m
  I        = 0

trmv_lower: y = L x for lower-triangular L: j = 0 .. i, n(n+1)/2 pairs (float64).
  W = 2 * n(n+1)/2 = n(n+1).  Q: L's n(n+1)/2 elements (4n(n+1)), x (8n), y (8n) ->
  4n**2 + 20n.  I = n(n+1)/(4n(n+5)) = (n+1)/(4(n+5)).

staticroof:expect trmv_lower
  W        = n*(n + 1)
  Q        = 4*n**2 + 20*n
  I        = (n + 1)/(4*(n + 5))
  fp64     = n*(n + 1)

gemm_tn: C = A^T B with k, n = A.shape and m = B.shape[1], a float32 register accumulator
(float32(0) from `from numba import float32`): W = 2nmk fp32; Q: A (4kn), B (4km) read, C (4nm)
written.  I = 2nmk / (4(kn + km + nm)).

staticroof:expect gemm_tn
  W        = 2*n*m*k
  Q        = 4*k*n + 4*k*m + 4*n*m
  I        = n*m*k/(2*(k*n + k*m + n*m))
  fp32     = 2*n*m*k
"""

import numpy as np
from numba import float32, njit


@njit
def matvec(A, x, y):
    n, m = A.shape
    for i in range(n):
        s = 0.0
        for j in range(m):
            s += A[i, j] * x[j]
        y[i] = s


@njit("void(float32[:], float32[:], float32[:, :])")
def outer(x, y, A):
    n = x.shape[0]
    m = y.shape[0]
    for i in range(n):
        for j in range(m):
            A[i, j] = x[i] * y[j]


@njit
def transpose(A, B):
    n, m = A.shape
    for i in range(n):
        for j in range(m):
            B[j, i] = A[i, j]


@njit
def trmv_lower(L, x, y):
    n = x.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(i + 1):
            s += L[i, j] * x[j]
        y[i] = s


@njit("void(float32[:, :], float32[:, :], float32[:, :])", fastmath=True)
def gemm_tn(A, B, C):
    k, n = A.shape
    m = B.shape[1]
    for i in range(n):
        for j in range(m):
            s = float32(0)
            for p in range(k):
                s += A[p, i] * B[p, j]
            C[i, j] = s


if __name__ == "__main__":
    A = np.random.rand(300, 200)
    x = np.ones(200)
    y = np.zeros(300)
    matvec(A, x, y)
    transpose(A, np.empty((200, 300)))
    L = np.random.rand(200, 200)
    trmv_lower(L, x, y[:200])
