"""gemm_numba.py -- square float32 matrix product C = A*B with @njit(parallel=True) and prange,
the Numba twins of samples/gemm.c (a register accumulator) and samples/gemm_accum.c (C[i, j] +=).

gemm: N = A.shape[0] names the size N.  s = np.float32(0.0) keeps the accumulator float32 (with
s = 0.0 Numba would type it float64 and the add would be fp64: tests/test_python_precision.py).
  W: per (i, j, k) one float32 multiply and one float32 add -> 2*N**3 fp32.
  Q: A and B: N**2 elements each, only read -> 4N**2 + 4N**2; C: N**2 elements, only written
     -> 4N**2.  s is a register.  Q = 12*N**2.
  Q_access: A[i, k] and B[k, j] vary with k: loaded every trip -> 2 * 4 * N**3; the store C[i, j]
     once per (i, j) -> 4N**2.  Q_access = 4*(2*N**3 + N**2).
  I = 2N**3 / 12N**2 = N/6.

staticroof:expect gemm
  W        = 2*N**3
  Q        = 12*N**2
  Q_access = 4*(2*N**3 + N**2)
  I        = N/6
  fp32     = 2*N**3

gemm_accum: C[i, j] += A[i, k] * B[k, j] reads C[i, j] before writing it.
  W = 2*N**3 fp32 as above.
  Q: A, B read (4N**2 each); C: N**2 elements read first, then written -> 4N**2 + 4N**2.
     Q = 16*N**2.
  Q_access: A, B loaded every trip (8N**3); C[i, j] does not vary with k, but C may alias A, B (Numba
     arguments): loaded and stored every k trip -> 8N**3 (RF202).  Q_access = 16*N**3.
  I = 2N**3 / 16N**2 = N/8.

staticroof:expect gemm_accum
  W        = 2*N**3
  Q        = 16*N**2
  Q_access = 16*N**3
  I        = N/8
  fp32     = 2*N**3
"""

import numpy as np
from numba import njit, prange

SIG = "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"


@njit(SIG, parallel=True, fastmath=True)
def gemm(A, B, C):
    N = A.shape[0]
    for i in prange(N):
        for j in range(N):
            s = np.float32(0.0)
            for k in range(N):
                s += A[i, k] * B[k, j]
            C[i, j] = s


@njit(SIG, parallel=True)
def gemm_accum(A, B, C):
    N = A.shape[0]
    for i in prange(N):
        for j in range(N):
            for k in range(N):
                C[i, j] += A[i, k] * B[k, j]


if __name__ == "__main__":
    a = np.random.rand(256, 256).astype(np.float32)
    c = np.zeros_like(a)
    gemm(a, a, c)
    gemm_accum(a, a, c)
