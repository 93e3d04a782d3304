"""Issue #29 §4: `for` loops over arrays, `enumerate` and `zip`, as Numba compiles them (the range loop
over the first axis, each element a read).  Derivations by hand; `total` is also run by the trace."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import S, analyze_file, same, trace_agrees

SOURCE = '''
import numpy as np
from numba import njit


@njit("float32(float32[:])")
def total(x):
    s = np.float32(0)
    for v in x:
        s += v
    return s


@njit("void(float32[:], float32[:])")
def scale_enum(x, y):
    for i, v in enumerate(x):
        y[i] = np.float32(2.0) * v


@njit("void(float64[:], float64[:], float64[:])")
def add_zip(x, y, z):
    for i, (a, b) in enumerate(zip(x, y)):
        z[i] = a + b
'''


@pytest.fixture
def kernels(tmp_path):
    (tmp_path / "iterate.py").write_text(SOURCE)
    return tmp_path / "iterate.py", analyze_file(tmp_path / "iterate.py")[0]


def test_for_over_an_array_reads_each_element(kernels):
    # for v in x: s += v -> n fp32 adds, x read once: W = n, Q = 4n (s is a register)
    path, ks = kernels
    k = ks["total"]
    assert k.exact and same(k.total.flops.expr, S("x_shape0")) and same(k.total.compulsory.expr, S("4*x_shape0"))
    for size in (7, 40):
        at = analyze_file(path, {"x_shape0": size})[0]["total"]
        assert (at.total.flops.value, at.total.compulsory.value) == (size, 4 * size)
        trace_agrees(Path(path), "total", {"x_shape0": size}, at, "python")


def test_enumerate_gives_the_index_and_the_element(kernels):
    # y[i] = 2*v: n fp32 multiplies; x read (4n) and y written (4n): W = n, Q = 8n
    _, ks = kernels
    k = ks["scale_enum"]
    assert k.exact and same(k.total.flops.expr, S("x_shape0")) and same(k.total.compulsory.expr, S("8*x_shape0"))


def test_zip_of_arrays_of_unknown_lengths_is_approximate(kernels):
    # zip stops at the shorter array: min(x_shape0, y_shape0) trips, which the count does not model yet
    _, ks = kernels
    k = ks["add_zip"]
    assert not k.failed and not k.exact and "SR102" in {d.code for d in k.diagnostics}


TRANSPOSED = '''import numpy as np
from numba import njit


@njit
def colsum_t(a):
    out = np.zeros(a.shape[1])
    for j in range(a.T.shape[0]):
        for i in range(a.shape[0]):
            out[j] += a.T[j, i]
    return out


colsum_t(np.ones((4, 3), dtype=np.float32))
'''


@pytest.mark.parametrize("rows,cols", [(3, 5), (40, 7)])
def test_a_transposed_view_is_the_array_with_its_axes_reversed(tmp_path, rows, cols):
    """#29 §4: `a.T[j, i]` is `a[i, j]` (and `a.T.shape[0]` is `a.shape[1]`); it cost the whole kernel
    (SR002).  out = np.zeros(cols) (float64): cols stores; then rows*cols float64 adds of a float32
    element (promoted, SR107): W = rows*cols; Q = a read 4*rows*cols + out written 8*cols; at the access
    level out[j] is held across the i loop (a local array aliases no parameter): one load and one store
    per j, so Q access = 4*rows*cols + 8*cols (fill) + 16*cols."""
    p = tmp_path / "colsum_t.py"
    p.write_text(TRANSPOSED)
    sizes = {"a_shape0": rows, "a_shape1": cols}
    k = analyze_file(p, sizes)[0]["colsum_t"]
    assert not k.failed and k.exact
    assert k.total.flops.value == rows * cols and k.total.compulsory.value == 4 * rows * cols + 8 * cols
    assert k.total.access.value == 4 * rows * cols + 24 * cols
    trace_agrees(p, "colsum_t", sizes, k, "python")
