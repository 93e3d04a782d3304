"""Numba @stencil kernels as users write them: a 3-point smoother, a 5-point Laplacian, a heat step
that calls a stencil from @njit with a border value, and a wide window with a given neighborhood.

Hand-derived counts (8-byte float64 elements; n, m the first array's extents):

smooth3(a), 1-D, neighborhood (-1, 1): interior i = 1 .. n-2, P = max(n-2, 0) points; 3 FLOP each
  (2 adds, a multiply by the frozen global THIRD).  W = 3P.  Reads a[i-1], a[i], a[i+1]: all n elements once P > 0.
  Numba allocates `out` and writes out[:1] = 0 and out[-1:] = 0 (min(1, n) each), then the
  interior: the n elements written.  Q_compulsory = 8*(n + (n if P else 0)).
  Access: 2*min(1, n) border stores, 3 loads + 1 store per point: 8*(2*min(1, n) + 4P).

laplacian(u), 2-D, neighborhood (-1, 1) x (-1, 1): P = max(n-2, 0)*max(m-2, 0) points, 5 FLOP
  each (3 adds, a subtract, a multiply).  W = 5P.  Reads: every element but the 4 corners
  (n*m - 4) when P > 0.  Written: all n*m (slabs u[:1, :], u[-1:, :], u[:, :1], u[:, -1:] and
  the interior).  Access: slabs 2m + 2n stores, 5 loads + 1 store per point.

heat_step(u, alpha), @njit: lap = laplacian2(u) with cval=1.0 (the same counts as laplacian,
  its border 1.0 instead of 0), then a loop over all n*m: new[i, j] = u[i, j] + alpha*lap[i, j]
  (2 FLOP) into a fresh array `new`.  W = 5P + 2nm.  Reads: u (n*m - 4 if P else 0, the loop then
  reads all n*m, so n*m), lap is made in the kernel: written first, its reads free.  Compulsory:
  u n*m, lap n*m written, new n*m written: 8*3nm.  Access: laplacian's plus 2 loads and 1 store
  per element of the loop: 8*(2m + 2n + 6P + 3nm).

window5(x), neighborhood ((-2, 2),): P = max(n-4, 0), a loop of 5 adds into s = 0.0 and a
  divide: 6 FLOP each.  Reads all n once P > 0; written all n (out[:2], out[-2:], interior).
  Access: 2*min(2, n) border stores + 6 per point (5 loads, 1 store).

The same counts in the analysis's size names, for sizes past every neighborhood (n = a_shape0 >= 3,
u_shape0, u_shape1 >= 3, x_shape0 >= 5; the smaller sizes are swept in tests/test_python_trace.py):
smooth3 W = 3(n-2), Q = 16n, access 8(2 + 4(n-2)) = 32n - 48; laplacian and laplacian2 W = 5(n-2)(m-2),
Q = 8(2nm - 4), access 8(2m + 2n + 6(n-2)(m-2)) = 48nm - 80n - 80m + 192; heat_step W = 5(n-2)(m-2) +
2nm, Q = 24nm, access 8(2m + 2n + 6(n-2)(m-2) + 3nm); window5 W = 6(n-4), Q = 16n, access
8(4 + 6(n-4)) = 48n - 160.

staticroof:expect smooth3
  W        = 3*a_shape0 - 6
  Q        = 16*a_shape0
  Q_access = 32*a_shape0 - 48
  I        = 3*(a_shape0 - 2)/(16*a_shape0)
  fp64     = 3*a_shape0 - 6

staticroof:expect laplacian
  W        = 5*(u_shape0 - 2)*(u_shape1 - 2)
  Q        = 16*u_shape0*u_shape1 - 32
  Q_access = 48*u_shape0*u_shape1 - 80*u_shape0 - 80*u_shape1 + 192
  I        = 5*(u_shape0 - 2)*(u_shape1 - 2)/(16*(u_shape0*u_shape1 - 2))
  fp64     = 5*(u_shape0 - 2)*(u_shape1 - 2)

staticroof:expect laplacian2
  W        = 5*(u_shape0 - 2)*(u_shape1 - 2)
  Q        = 16*u_shape0*u_shape1 - 32
  Q_access = 48*u_shape0*u_shape1 - 80*u_shape0 - 80*u_shape1 + 192
  fp64     = 5*(u_shape0 - 2)*(u_shape1 - 2)

staticroof:expect heat_step
  W        = 5*(n - 2)*(m - 2) + 2*n*m
  Q        = 24*n*m
  Q_access = 8*(2*m + 2*n + 6*(n - 2)*(m - 2) + 3*n*m)
  fp64     = 5*(n - 2)*(m - 2) + 2*n*m

staticroof:expect window5
  W        = 6*x_shape0 - 24
  Q        = 16*x_shape0
  Q_access = 48*x_shape0 - 160
  I        = 3*(x_shape0 - 4)/(8*x_shape0)
  fp64     = 6*x_shape0 - 24
"""

import numpy as np
from numba import njit, stencil

THIRD = 1.0 / 3.0


@stencil
def smooth3(a):
    return (a[-1] + a[0] + a[1]) * THIRD


@stencil
def laplacian(u):
    return u[-1, 0] + u[1, 0] + u[0, -1] + u[0, 1] - 4.0 * u[0, 0]


@stencil(cval=1.0)
def laplacian2(u):
    return u[-1, 0] + u[1, 0] + u[0, -1] + u[0, 1] - 4.0 * u[0, 0]


@njit
def heat_step(u, alpha):
    n, m = u.shape
    lap = laplacian2(u)
    new = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            new[i, j] = u[i, j] + alpha * lap[i, j]
    return new


@stencil(neighborhood=((-2, 2),))
def window5(x):
    s = 0.0
    for k in range(-2, 3):
        s += x[k]
    return s / 5.0


if __name__ == "__main__":
    u = np.random.rand(64, 64)
    print(heat_step(u, 0.1).sum(), smooth3(u[0]).sum(), window5(u[1]).sum())
    print(laplacian(u).max(), laplacian2(u).min())
