"""misc.py -- assorted kernels: Horner polynomials, clipping, a 3-D accumulation, a flat-indexed
image kernel with the sizes as parameters, and a typed prange GEMV.

polyval: Horner's rule acc = acc * x[i] + c[k] over deg = c.shape[0] coefficients for each of the
n = x.shape[0] points, float64: W = 2*n*deg.  Q: c (8deg), x (8n) read, y (8n) written.
Q_access: x[i] does not vary with k (one load per i, 8n), c[k] every (i, k) (8*n*deg), y 8n.
I = 2n*deg / (8deg + 16n).

staticroof:expect polyval
  W        = 2*n*deg
  Q        = 8*deg + 16*n
  Q_access = 8*n*deg + 16*n
  I        = n*deg/(4*deg + 8*n)
  fp64     = 2*n*deg

clip: x[i] = min(max(x[i], lo), hi) in float32: min and max are free (as fmin/fmax in C), so W = 0;
x read and written: Q = 8n.

staticroof:expect clip
  W        = 0
  Q        = 8*n
  I        = 0

colsum3d: out[j] += A[i, j, k] over an nx x ny x nz float32 volume (typed by annotation-free
pragma): nx*ny*nz adds.  Q: A read (4*nx*ny*nz), out read and written (8*ny).
Q_access: A every trip; out[j] (invariant in k, may alias A): a load and a store per trip -> 8*nx*ny*nz.

staticroof:expect colsum3d
  W        = nx*ny*nz
  Q        = 4*nx*ny*nz + 8*ny
  Q_access = 12*nx*ny*nz
  I        = nx*nz/(4*nx*nz + 8)
  fp32     = nx*ny*nz

brighten: img[r * w + c] = img[r * w + c] * gain + bias over an h x w image stored flat, h and w
passed as integers (their sizes h and w), float32 signature: a multiply and an add per pixel ->
W = 2hw fp32; each pixel read and written: Q = 8hw; I = 1/4.

staticroof:expect brighten
  W        = 2*h*w
  Q        = 8*h*w
  I        = 1/4
  fp32     = 2*h*w

gemv32: y[i] = sum_j A[i, j] x[j] with np.float32(0.0) as the accumulator and prange over rows:
W = 2nm fp32; Q = 4nm + 4m + 4n; I = nm/(2(nm + m + n)).

staticroof:expect gemv32
  W        = 2*n*m
  Q        = 4*n*m + 4*m + 4*n
  I        = n*m/(2*(n*m + m + n))
  fp32     = 2*n*m
"""

import numpy as np
from numba import njit, prange
from numba import jit as numba_jit


@njit
def polyval(c, x, y):
    deg = c.shape[0]
    n = x.shape[0]
    for i in range(n):
        acc = 0.0
        for k in range(deg):
            acc = acc * x[i] + c[k]
        y[i] = acc


@njit("void(float32[:], float32, float32)")
def clip(x, lo, hi):
    n = x.shape[0]
    for i in range(n):
        x[i] = min(max(x[i], lo), hi)


# staticroof: A=float32, out=float32
@numba_jit(nopython=True)
def colsum3d(A, out):
    nx, ny, nz = A.shape
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                out[j] += A[i, j, k]


@njit("void(float32[::1], int64, int64, float32, float32)")
def brighten(img, h, w, gain, bias):
    for r in range(h):
        for c in range(w):
            img[r * w + c] = img[r * w + c] * gain + bias


@njit("void(float32[:, :], float32[:], float32[:])", parallel=True)
def gemv32(A, x, y):
    n, m = A.shape
    for i in prange(n):
        s = np.float32(0.0)
        for j in range(m):
            s += A[i, j] * x[j]
        y[i] = s


if __name__ == "__main__":
    c = np.array([1.0, -2.0, 0.5])
    x = np.linspace(0.0, 1.0, 100)
    polyval(c, x, np.empty_like(x))
