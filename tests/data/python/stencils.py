"""stencils.py -- finite-difference stencils in the style of Numba tutorials (explicit interior loops).

blur3: y[i] = (x[i-1] + x[i] + x[i+1]) / 3.0 with float32 arrays: the two adds are float32, but
3.0 is a Python float (float64), so the division runs in float64 (Numba's rule, as in C's SR107).
i = 1 .. n-2 (n - 2 trips, n >= 3).  W: 2(n-2) fp32 + (n-2) fp64 = 3(n-2).
Q: x[0 .. n-1] read (4n), y[1 .. n-2] written (4(n-2)) -> 8n - 8.  I = 3(n-2)/(8(n-1)).

staticroof:expect blur3
  W        = 3*n - 6
  Q        = 8*n - 8
  Q_access = 16*n - 32
  I        = 3*(n - 2)/(8*(n - 1))
  fp32     = 2*n - 4
  fp64     = n - 2

lap2d: v[i, j] = u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4.0*u[i, j] on float64 (n, m =
u.shape), interior i = 1 .. n-2, j = 1 .. m-2: 3 adds, 1 multiply, 1 subtract per point ->
W = 5(n-2)(m-2).  Q: u: the interior and the 2(n-2) + 2(m-2) border points next to it (not the
corners): nm - 4 elements read -> 8(nm - 4); v: (n-2)(m-2) written.  Q = 16nm - 16n - 16m.
Q_access: 5 loads + 1 store per point -> 48(n-2)(m-2).

staticroof:expect lap2d
  W        = 5*(n - 2)*(m - 2)
  Q        = 16*n*m - 16*n - 16*m
  Q_access = 48*(n - 2)*(m - 2)
  I        = 5*(n - 2)*(m - 2)/(16*(n*m - n - m))
  fp64     = 5*(n - 2)*(m - 2)

heat1d: nt explicit time steps of un[i] = u[i] + 0.1*(u[i+1] - 2.0*u[i] + u[i-1]) (float64):
per point a multiply and a subtract (u[i+1] - 2.0*u[i]), an add, a multiply by 0.1 and an add ->
5 FLOPs: W = 5*nt*(n-2).  Compulsory traffic does not grow with nt (the same elements):
u[0 .. n-1] read (8n), un[1 .. n-2] written (8(n-2)) -> Q = 16n - 16.  Q_access: u[i+1], u[i] (one
load for both uses in the statement), u[i-1], and the store -> 32*nt*(n-2).

staticroof:expect heat1d
  W        = 5*nt*(n - 2)
  Q        = 16*n - 16
  Q_access = 32*nt*(n - 2)
  I        = 5*nt*(n - 2)/(16*(n - 1))
  fp64     = 5*nt*(n - 2)
"""

import numba as nb
import numpy as np


@nb.njit("void(float32[:], float32[:])")
def blur3(x, y):
    n = x.shape[0]
    for i in range(1, n - 1):
        y[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0


@nb.njit
def lap2d(u, v):
    n, m = u.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            v[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]


@nb.jit(nopython=True)
def heat1d(u, un, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(1, n - 1):
            un[i] = u[i] + 0.1 * (u[i + 1] - 2.0 * u[i] + u[i - 1])


if __name__ == "__main__":
    u = np.random.rand(64, 64)
    lap2d(u, np.zeros_like(u))
    h = np.zeros(100)
    heat1d(h, h.copy(), 50)
