"""numba_arith.py -- arithmetic as Numba compiles it (frontends/python/arithmetic.py): integer
powers by binary exponentiation, complex values, reductions and ufuncs with out=, in kernels
written as Numba users write them (finance, fractals, signal processing).  Every kernel has an
explicit signature; n is the length of the first array (x_shape0, S_shape0, ...).

taylor_cos: y[i] = 1 - x^2/2 + x^4/24 - x^6/720 in float64.  Powers: x**2 1 multiply, x**4 2,
x**6 3 (binary exponentiation); 3 divisions and 3 adds/subtractions -> 12 per element (LLVM
would share x*x between the powers of one x; staticroof, as in C, counts each as written).
Q: x read, y written: 16n.

staticroof:expect taylor_cos
  W        = 12*x_shape0
  Q        = 16*x_shape0
  fp64     = 12*x_shape0

horner_free_poly: y[i] = 3x^5 - 2x^3 + x^2 - 7 (float64): x**5 3 multiplies, x**3 2, x**2 1; the
two coefficient multiplies, two subtractions and one add -> 11 per element.  Q = 16n.

staticroof:expect horner_free_poly
  W        = 11*x_shape0
  Q        = 16*x_shape0
  fp64     = 11*x_shape0

gravity: y[i] = G * m[i] * r[i] ** -2: r**-2 is r*r and one division 1.0/(r*r) (2), then two
multiplies (G a module constant, a float64 literal) -> 4 per element.  Q: m, r read, y written:
24n.

staticroof:expect gravity
  W        = 4*m_shape0
  Q        = 24*m_shape0
  fp64     = 4*m_shape0

roots_and_squares: y[i] = x[i] ** 0.5 + x[i] ** 2.0: LLVM rewrites pow(x, 0.5) as sqrt (a special
call, weight 1) and pow(x, 2.0) as x*x; one add -> 2 FLOPs and 1 sqrt = 3 per element.  Q = 16n.

staticroof:expect roots_and_squares
  W        = 3*x_shape0
  Q        = 16*x_shape0
  special  = x_shape0
  fp64     = 3*x_shape0

black_scholes: the call price of each option (S, K, T arrays; r, v float64 scalars):
  sqrt_t = sqrt(T): 1 sqrt.
  d1 = (log(S/K) + (r + 0.5*v*v)*T) / (v*sqrt_t): S/K, 0.5*v, *v, r+, *T, +, v*sqrt_t, / -> 8
       FLOPs and 1 log.
  d2 = d1 - v*sqrt_t: 2.
  nd1, nd2 = 0.5*(1.0 + erf(d/SQRT2)): a division, an add and a multiply each (3) and an erf.
  call = S*nd1 - K*exp(-r*T)*nd2: -r is a sign change (free); -r*T, S*nd1, K*exp, *nd2, - -> 5
       FLOPs and 1 exp.
W = 8 + 2 + 3 + 3 + 5 = 21 FLOPs and 5 special calls (sqrt, log, erf, erf, exp) = 26 per option.
Q: S, K, T read (24n), price written (8n): 32n.

staticroof:expect black_scholes
  W        = 26*S_shape0
  Q        = 32*S_shape0
  special  = 5*S_shape0
  fp64     = 26*S_shape0

mandelbrot: escape counts over an h x w grid (h = im_shape0, w = re_shape0), max_iter iterations
each, without an early exit.  c = complex(re[j], im[i]) and z = c are moves; per iteration
z = z*z + c is a complex square (5: re*re, im*im, re*im once, a subtraction and the doubling add
re*im + im*re) and a complex add (2), and the test z.real**2 + z.imag**2 <= 4.0 is 2 multiplies
and an add (3): 10 per iteration, W = 10*h*w*max_iter (the count update is integer work, the
same whichever way the test goes).
Q: re (8w), im (8h) read, img (int64) written 8hw.

staticroof:expect mandelbrot
  W        = 10*im_shape0*re_shape0*max_iter
  Q        = 8*im_shape0*re_shape0 + 8*im_shape0 + 8*re_shape0
  fp64     = 10*im_shape0*re_shape0*max_iter

fft_butterfly: one radix-2 stage over x of 2*half complex128 values with half twiddles:
t = tw[k] * x[k + half] a complex multiply (6), x[k] = u + t (2), x[k + half] = u - t (2):
W = 10*half.  Q: x's 2*half elements read and written (16 B each: 64*half), tw read (16*half):
80*half.

staticroof:expect fft_butterfly
  W        = 10*half
  Q        = 80*half
  fp64     = 10*half

power_spectrum: P[i] = X[i].real**2 + X[i].imag**2 of a complex128 spectrum: the parts are free,
2 multiplies and an add (3 per bin).  Q: X read (16n), P written (8n): 24n.

staticroof:expect power_spectrum
  W        = 3*X_shape0
  Q        = 24*X_shape0
  fp64     = 3*X_shape0

rotate_conj: out[i] = a * z[i] + np.conj(z[i]) in complex64 (a a complex64 scalar): a complex
multiply (6) and a complex add (2), the conjugate free -> 8 fp32 FLOPs per element.  Q: z read,
out written, 8 B each: 16n.

staticroof:expect rotate_conj
  W        = 8*z_shape0
  Q        = 16*z_shape0
  fp32     = 8*z_shape0

cdot: np.dot of two complex128 vectors (BLAS zdotu in Numba): a complex multiply (6) and a
complex add (2) per element -> 8n.  Q: x, y read: 32n.

staticroof:expect cdot
  W        = 8*x_shape0
  Q        = 32*x_shape0
  fp64     = 8*x_shape0

norm_via_sum: np.sqrt(np.sum(x * x)) in float64: a multiply and an add per element (Numba's sum
starts from 0.0: n adds) and one sqrt: W = 2n + 1.  Q: x read, 8n.

staticroof:expect norm_via_sum
  W        = 2*x_shape0 + 1
  Q        = 8*x_shape0
  special  = 1
  fp64     = 2*x_shape0 + 1

norm32: np.linalg.norm of a float32 vector (BLAS snrm2, a float32 result): x*x and an add per
element and one sqrtf: W = 2n + 1 fp32.  Q = 4n.

staticroof:expect norm32
  W        = 2*x_shape0 + 1
  Q        = 4*x_shape0
  special  = 1
  fp32     = 2*x_shape0 + 1

rms_out: the root of each square in place, np.multiply(x, x, sq) then np.sqrt(sq, sq) (the output
array a positional argument: Numba does not take `out=` as a keyword), over the m = sq_shape0
elements of the output: m multiplies and m sqrt calls -> W = 2m.  Q: x read
(8m); sq written first, then read and written again (8m: its first access is the write): 16m.

staticroof:expect rms_out
  W        = 2*sq_shape0
  Q        = 16*sq_shape0
  special  = sq_shape0
  fp64     = 2*sq_shape0
"""

import math

import numpy as np
from numba import njit

G = 6.674e-11
SQRT2 = 1.4142135623730951


@njit("void(float64[:], float64[:])")
def taylor_cos(x, y):
    for i in range(x.shape[0]):
        y[i] = 1.0 - x[i] ** 2 / 2.0 + x[i] ** 4 / 24.0 - x[i] ** 6 / 720.0


@njit("void(float64[:], float64[:])")
def horner_free_poly(x, y):
    for i in range(x.shape[0]):
        y[i] = 3.0 * x[i] ** 5 - 2.0 * x[i] ** 3 + x[i] ** 2 - 7.0


@njit("void(float64[:], float64[:], float64[:])")
def gravity(m, r, y):
    for i in range(m.shape[0]):
        y[i] = G * m[i] * r[i] ** -2


@njit("void(float64[:], float64[:])")
def roots_and_squares(x, y):
    for i in range(x.shape[0]):
        y[i] = x[i] ** 0.5 + x[i] ** 2.0


@njit("void(float64[:], float64[:], float64[:], float64, float64, float64[:])")
def black_scholes(S, K, T, r, v, price):
    for i in range(S.shape[0]):
        sqrt_t = math.sqrt(T[i])
        d1 = (math.log(S[i] / K[i]) + (r + 0.5 * v * v) * T[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        nd1 = 0.5 * (1.0 + math.erf(d1 / SQRT2))
        nd2 = 0.5 * (1.0 + math.erf(d2 / SQRT2))
        price[i] = S[i] * nd1 - K[i] * math.exp(-r * T[i]) * nd2


@njit("void(float64[:], float64[:], int64, int64[:, :])")
def mandelbrot(re, im, max_iter, img):
    for i in range(im.shape[0]):
        for j in range(re.shape[0]):
            c = complex(re[j], im[i])
            z = c
            count = 0
            for _ in range(max_iter):
                z = z * z + c
                count += 1 if z.real * z.real + z.imag * z.imag <= 4.0 else 0
            img[i, j] = count


@njit("void(complex128[:], complex128[:], int64)")
def fft_butterfly(x, tw, half):
    for k in range(half):
        t = tw[k] * x[k + half]
        u = x[k]
        x[k] = u + t
        x[k + half] = u - t


@njit("void(complex128[:], float64[:])")
def power_spectrum(X, P):
    for i in range(X.shape[0]):
        P[i] = X[i].real ** 2 + X[i].imag ** 2


@njit("void(complex64[:], complex64, complex64[:])")
def rotate_conj(z, a, out):
    for i in range(z.shape[0]):
        out[i] = a * z[i] + np.conj(z[i])


@njit("complex128(complex128[:], complex128[:])")
def cdot(x, y):
    return np.dot(x, y)


@njit("float64(float64[:])")
def norm_via_sum(x):
    return np.sqrt(np.sum(x * x))


@njit("float32(float32[:])")
def norm32(x):
    return np.linalg.norm(x)


@njit("void(float64[:], float64[:])")
def rms_out(x, sq):
    np.multiply(x, x, sq)
    np.sqrt(sq, sq)
