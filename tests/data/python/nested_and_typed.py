"""nested_and_typed.py -- Numba kernels where real projects define them (issue #29 §1, §2): nested in
test functions and test methods, in a class body, a `with` block and `if __name__ == "__main__":`,
made by `njit(g)` and `njit(sig)(g)`, with several signatures; their argument types come from the
file's own calls as Numba's dispatch would see them.  Sizes: n = x_shape0 unless said.

saxpy (nested in test_saxpy_float32): called with np.float32(2.0) and np.arange/np.ones/empty_like
arrays of dtype float32: out[i] = a * x[i] + y[i] is a multiply and an add in fp32 -> W = 2n fp32;
x, y read and out written, 4 B each -> Q = 12n.

staticroof:expect saxpy
  W        = 2*x_shape0
  Q        = 12*x_shape0
  Q_access = 12*x_shape0
  I        = 1/6
  fp32     = 2*x_shape0

axpy (nested in TestAxpy.test_axpy_both_precisions), called with two type sets, so two results:
(np.float32(0.5), float32 arrays from .astype(np.float32) and np.zeros_like) and (0.5, float64 arrays
from np.random.random and np.zeros).  y[i] += a * x[i]: 2 FLOP per element.  x read, y read and
written: float32 -> W = 2n fp32, Q = 12n; float64 -> W = 2n fp64, Q = 24n.

staticroof:expect axpy[float32]
  W        = 2*x_shape0
  Q        = 12*x_shape0
  fp32     = 2*x_shape0

staticroof:expect axpy[float64]
  W        = 2*x_shape0
  Q        = 24*x_shape0
  fp64     = 2*x_shape0

square_diff (TestAxpy.test_rng_arrays): x, y from rng.standard_normal(500, dtype=np.float32), out
from np.empty_like(x): (x - y) * (x - y) is two subtracts and a multiply in fp32 -> W = 3n fp32;
Q = 4n * 3 = 12n.

staticroof:expect square_diff
  W        = 3*x_shape0
  Q        = 12*x_shape0
  fp32     = 3*x_shape0

The kernel `cfunc = njit(sum_sq)`, called with np.linspace(0, 1, 50) (float64): acc += x[i] * x[i], 2 fp64 FLOP
per element; x read once -> W = 2n fp64, Q = 8n.

staticroof:expect cfunc
  W        = 2*x_shape0
  Q        = 8*x_shape0
  fp64     = 2*x_shape0

The kernel `typed = njit("float64(float32[:])")(sum_sq)`: the signature makes x float32: x[i] * x[i] is an fp32
multiply, acc (0.0, a float64) += it an fp64 add -> W = 2n (fp32 n, fp64 n); Q = 4n.

staticroof:expect typed
  W        = 2*x_shape0
  Q        = 4*x_shape0
  fp32     = x_shape0
  fp64     = x_shape0

hypot_sq, @vectorize with two signatures: one result per signature.  a * a + b * b: 2 multiplies and
an add per element.  int64: no floating-point work, a, b read and out written at 8 B -> Q = 24n.
float32: W = 3n fp32, Q = 12n.

staticroof:expect hypot_sq[int64]
  W        = 0
  Q        = 24*n

staticroof:expect hypot_sq[float32]
  W        = 3*n
  Q        = 12*n
  fp32     = 3*n

scale_shift, @vectorize without a signature, called in main with two float32 arrays (np.linspace
with dtype=np.float32): v * s is fp32, + 1.0 (a Python float) fp64, and the result, a float64, is
what the ufunc returns -> W = 2n (fp32 n, fp64 n); Q = 4n + 4n + 8n = 16n.

staticroof:expect scale_shift
  W        = 2*n
  Q        = 16*n
  fp32     = n
  fp64     = n

mean, @njit with two signatures (float32[:] and float64[:]): s = 0.0 is float64, so each s += x[i]
is an fp64 add and s / x.shape[0] one fp64 divide -> W = n + 1 fp64 in both; Q = 4n and 8n.

staticroof:expect mean[float32]
  W        = x_shape0 + 1
  Q        = 4*x_shape0
  fp64     = x_shape0 + 1

staticroof:expect mean[float64]
  W        = x_shape0 + 1
  Q        = 8*x_shape0
  fp64     = x_shape0 + 1

scale_kernel, @cuda.jit launched in run_scale with cuda.to_device of a float32 array (np.random.rand
.astype(np.float32)), cuda.device_array(n, dtype=np.float32) and np.float32(3.0): one fp32 multiply
per thread that passes i < x.size -> W = n fp32; x read and out written, 4 B each -> Q = 8n.  The
launch is 32 blocks of 128 threads for n = 4096: W_value = 4096, Q_value = 32768.

staticroof:expect scale_kernel
  W        = x_shape0
  Q        = 8*x_shape0
  fp32     = x_shape0
  W_value  = 4096
  Q_value  = 32768

reset_counter: a @cuda.jit kernel that reads no thread index, never launched in the file and never
typed: counted as one thread writing one float64 element (8 B), but both rest on guesses (SR113:
every thread of an unknown launch runs it; SR160: float64 assumed), so it is approximate.

staticroof:expect reset_counter
  W        = 0
  exact    = false

blend (nested in test_cuda_blend) with the nested device function lerp(a, b, t) = a + t * (b - a)
inlined: a subtract, a multiply and an add in fp64 (a, b from cuda.to_device of np.zeros/np.ones,
out from cuda.device_array_like) -> W = 3n fp64 with n = out_shape0; Q = 24n.  Launched with
(n + 255) // 256 = 4 blocks of 256 threads for n = 1000: W_value = 3000, Q_value = 24000.

staticroof:expect blend
  W        = 3*out_shape0
  Q        = 24*out_shape0
  fp64     = 3*out_shape0
  W_value  = 3000
  Q_value  = 24000

col_sums (test_returned_arrays): u = make_grid(64) is the float32 (n, n) array make_grid returns,
out = make_grid(64)[0] a float32 row.  s = np.float32(0.0); s += u[i, j]: one fp32 add per element
-> W = s0*s1 fp32; u read once (4 s0 s1 B) and out written (4 s1 B).

staticroof:expect col_sums
  W        = u_shape0*u_shape1
  Q        = 4*u_shape0*u_shape1 + 4*u_shape1
  fp32     = u_shape0*u_shape1

axpby (test_full_and_literals): axpby(2, x, 0.5, y) with x = np.full(256, 2.0, dtype=np.float32)
and y = np.full(256, 1.0) (float64, the fill value's type): a is an int64, so a * x[i] is an fp64
multiply (Numba promotes int64 with float32 to float64), b * y[i] and the add fp64 too -> W = 3n fp64;
Q = 4n (x) + 8n + 8n (y read and written) = 20n.

staticroof:expect axpby
  W        = 3*x_shape0
  Q        = 20*x_shape0
  fp64     = 3*x_shape0

dot, a @staticmethod @njit("float32(float32[:], float32[:])") in a class body: x[i] * y[i] fp32, the
s (0.0, float64) += it fp64 -> W = 2n (fp32 n, fp64 n); Q = 8n.

staticroof:expect dot
  W        = 2*x_shape0
  Q        = 8*x_shape0
  fp32     = x_shape0
  fp64     = x_shape0

safe_recip, defined in a `with np.errstate(...)` block and called there with np.arange(1, 65,
dtype=np.float64) and np.empty(64): 1.0 / x[i], one fp64 divide -> W = n, Q = 16n.

staticroof:expect safe_recip
  W        = x_shape0
  Q        = 16*x_shape0
  fp64     = x_shape0

row_means (defined under `if __name__ == "__main__":`), called with a float32 (200, 30) array and a
float32 out: s = 0.0 (float64) += A[i, j] is an fp64 add per element, s / A.shape[1] one fp64 divide
per row -> W = s0*s1 + s0 fp64; A read (4 s0 s1 B), out written (4 s0 B).

staticroof:expect row_means
  W        = A_shape0*A_shape1 + A_shape0
  Q        = 4*A_shape0*A_shape1 + 4*A_shape0
  fp64     = A_shape0*A_shape1 + A_shape0
"""

import unittest

import numpy as np
from numba import cuda, float32, njit, prange, vectorize


def make_grid(n):
    return np.zeros((n, n), dtype=np.float32)


def test_saxpy_float32():
    @njit
    def saxpy(a, x, y, out):
        for i in range(x.shape[0]):
            out[i] = a * x[i] + y[i]

    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    out = np.empty_like(x)
    saxpy(np.float32(2.0), x, y, out)
    np.testing.assert_allclose(out, 2 * x + y)


class TestAxpy(unittest.TestCase):
    def test_axpy_both_precisions(self):
        @njit
        def axpy(a, x, y):
            for i in range(x.shape[0]):
                y[i] += a * x[i]

        x32 = np.random.random(100).astype(np.float32)
        y32 = np.zeros_like(x32)
        axpy(np.float32(0.5), x32, y32)
        x64 = np.random.random(100)
        y64 = np.zeros(100)
        axpy(0.5, x64, y64)
        np.testing.assert_allclose(y64, 0.5 * x64)

    def test_rng_arrays(self):
        @njit
        def square_diff(x, y, out):
            for i in range(x.shape[0]):
                out[i] = (x[i] - y[i]) * (x[i] - y[i])

        rng = np.random.default_rng(42)
        x = rng.standard_normal(500, dtype=np.float32)
        y = rng.standard_normal(500, dtype=np.float32)
        out = np.empty_like(x)
        square_diff(x, y, out)


def test_call_forms():
    def sum_sq(x):
        acc = 0.0
        for i in range(x.shape[0]):
            acc += x[i] * x[i]
        return acc

    cfunc = njit(sum_sq)
    typed = njit("float64(float32[:])")(sum_sq)
    x = np.linspace(0, 1, 50)
    assert abs(cfunc(x) - typed(x.astype(np.float32))) < 1e-5


@vectorize(["int64(int64, int64)", "float32(float32, float32)"])
def hypot_sq(a, b):
    return a * a + b * b


@vectorize
def scale_shift(v, s):
    return v * s + 1.0


@njit(["float32(float32[:])", "float64(float64[:])"])
def mean(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s / x.shape[0]


@cuda.jit
def scale_kernel(x, out, factor):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor


@cuda.jit
def reset_counter(counter):
    counter[0] = 0


def run_scale():
    n = 4096
    x = np.random.rand(n).astype(np.float32)
    d_x = cuda.to_device(x)
    d_out = cuda.device_array(n, dtype=np.float32)
    threads = 128
    blocks = (n + threads - 1) // threads
    scale_kernel[blocks, threads](d_x, d_out, np.float32(3.0))
    return d_out.copy_to_host()


def test_cuda_blend():
    @cuda.jit(device=True)
    def lerp(a, b, t):
        return a + t * (b - a)

    @cuda.jit
    def blend(a, b, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = lerp(a[i], b[i], 0.25)

    n = 1000
    a = cuda.to_device(np.zeros(n))
    b = cuda.to_device(np.ones(n))
    out = cuda.device_array_like(a)
    blend[(n + 255) // 256, 256](a, b, out)


def test_returned_arrays():
    @njit
    def col_sums(u, out):
        for j in range(u.shape[1]):
            s = np.float32(0.0)
            for i in range(u.shape[0]):
                s += u[i, j]
            out[j] = s

    u = make_grid(64)
    col_sums(u, make_grid(64)[0])


def test_full_and_literals():
    @njit
    def axpby(a, x, b, y):
        for i in range(x.shape[0]):
            y[i] = a * x[i] + b * y[i]

    x = np.full(256, 2.0, dtype=np.float32)
    y = np.full(256, 1.0)
    axpby(2, x, 0.5, y)


class Kernels:
    @staticmethod
    @njit("float32(float32[:], float32[:])")
    def dot(x, y):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] * y[i]
        return s


with np.errstate(divide="ignore"):
    @njit
    def safe_recip(x, out):
        for i in range(x.shape[0]):
            out[i] = 1.0 / x[i]

    safe_recip(np.arange(1, 65, dtype=np.float64), np.empty(64))


if __name__ == "__main__":
    @njit(parallel=True)
    def row_means(A, out):
        for i in prange(A.shape[0]):
            s = 0.0
            for j in range(A.shape[1]):
                s += A[i, j]
            out[i] = s / A.shape[1]

    A = np.random.rand(200, 30).astype(np.float32)
    row_means(A, np.empty(200, dtype=np.float32))
    x = np.linspace(0.0, 1.0, 1000, dtype=np.float32)
    print(hypot_sq(x, x), scale_shift(x, x), mean(x), Kernels.dot(x, x), run_scale())
