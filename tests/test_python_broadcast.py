"""Broadcasting between ranks in whole-array expressions of Python kernels, as NumPy broadcasts:
shapes aligned from the right, a `None` axis or an extent-1 slice read at its one index.  The
compulsory count reads each distinct element once (the 1-D operand of `A + b` is m elements, not
n*m); the access level loads it wherever it changes.  Every expected value is derived by hand, at
extents 1 and above (1 is the constant broadcasting turns on); Numba runs the kernels to confirm
the result shapes and values the derivations assume."""

from __future__ import annotations

import textwrap

import pytest
import sympy

from helpers import analyze_file, formula_at

SOURCE = textwrap.dedent('''\
    import numpy as np
    from numba import njit


    @njit("void(float64[:, :], float64[:], float64[:, :])")
    def add_row(A, b, C):
        C[:, :] = A + b


    @njit("float32[:, :](float32[:], float32[:])")
    def outer(x, y):
        return x[:, None] * y[None, :]


    @njit("float64[:, :](float64[:], float64[:, :])")
    def add_col(x, Y):
        z = x[:, None] + Y
        return z


    @njit("void(float64[:, :], float64[:])")
    def scale_cols(A, s):
        A[:, :] *= s[None, :]


    @njit("void(float64[:, :, :], float64[:, :, :], float64[:])")
    def bias3(T, U, w):
        T[:, :, :] = U + 0.5 * w


    @njit("float64(float64[:], float64[:])")
    def outer_sum(x, y):
        return np.sum(x[:, None] * y[None, :])


    @njit("void(float64[:], float64[:], float64[:])")
    def first_times(y, x, z):
        y[:] = x[0:1] * z
''')


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    p = tmp_path_factory.mktemp("bc") / "bc.py"
    p.write_text(SOURCE)
    return analyze_file(p)[0]


def _at(kernels, name, sizes):
    k = kernels[name]
    assert k.exact and not k.failed, [str(d) for d in k.diagnostics]
    values = {sympy.Symbol(n): v for n, v in sizes.items()}
    return tuple(int(formula_at(q, sizes).subs(values)) for q in (k.total.flops, k.total.compulsory, k.total.access))


SHAPES = [(1, 1), (1, 4), (3, 1), (3, 4)]


@pytest.mark.parametrize("n,m", SHAPES)
def test_matrix_plus_row(kernels, n, m):
    # C[:, :] = A + b over C's n x m: A[i, j] + b[j]: n*m adds; read A n*m and b m elements,
    # write C n*m; the access level loads b[j] at every (i, j) (it changes with j): 3nm loads/stores
    assert _at(kernels, "add_row", {"C_shape0": n, "C_shape1": m}) == (n * m, 8 * (2 * n * m + m), 24 * n * m)


@pytest.mark.parametrize("n,m", SHAPES)
def test_outer_product_with_none_axes(kernels, n, m):
    # x[:, None] (n x 1) * y[None, :] (1 x m): a new n x m float32 array; n*m fp32 multiplies; read n
    # + m elements, write n*m (4 B each); access: x[i] once per row (invariant in j), y[j] and the
    # result at every (i, j)
    k = kernels["outer"]
    assert set(k.total.by_precision) == {"fp32"}
    assert _at(kernels, "outer", {"x_shape0": n, "y_shape0": m}) == (n * m, 4 * (n + m + n * m), 4 * (n + 2 * n * m))


@pytest.mark.parametrize("n,m", SHAPES)
def test_column_plus_matrix_new_array(kernels, n, m):
    # z = x[:, None] + Y: the broadcast shape (n, m) comes from Y (x's second axis is 1); n*m adds;
    # read x n, Y n*m, write z n*m; access x n (per row), Y and z n*m each
    got = _at(kernels, "add_col", {"x_shape0": n, "Y_shape0": n, "Y_shape1": m})
    assert got == (n * m, 8 * (n + 2 * n * m), 8 * (n + 2 * n * m))


@pytest.mark.parametrize("n,m", SHAPES)
def test_in_place_scale_by_row(kernels, n, m):
    # A[:, :] *= s[None, :]: n*m multiplies; A read and written n*m, s read m; access 3nm
    assert _at(kernels, "scale_cols", {"A_shape0": n, "A_shape1": m}) == (n * m, 8 * (2 * n * m + m), 24 * n * m)


@pytest.mark.parametrize("p,q,r", [(1, 1, 1), (2, 3, 1), (2, 3, 5)])
def test_three_axes_plus_vector(kernels, p, q, r):
    # T = U + 0.5 * w over p x q x r: w[k] along the last axis; a multiply and an add per element
    # (0.5 * w[k] is computed at every element, as the expression is evaluated element-wise);
    # read U pqr, w r, write T pqr; access: w[k] changes with k, so 3pqr
    got = _at(kernels, "bias3", {"T_shape0": p, "T_shape1": q, "T_shape2": r})
    assert got == (2 * p * q * r, 8 * (2 * p * q * r + r), 24 * p * q * r)


@pytest.mark.parametrize("n,m", SHAPES)
def test_sum_of_a_broadcast_product(kernels, n, m):
    # np.sum(x[:, None] * y[None, :]): n*m multiplies and n*m adds (Numba's sum starts from 0);
    # read n + m elements, nothing written; access x n, y n*m
    assert _at(kernels, "outer_sum", {"x_shape0": n, "y_shape0": m}) == (2 * n * m, 8 * (n + m), 8 * (n + n * m))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_extent_one_slice_broadcasts(kernels, n):
    # y[:] = x[0:1] * z over y's n: x[0] at every element; n multiplies; read x 1 and z n, write
    # y n; access: x[0] is the same element throughout, but the implicit loop writes y, a float64
    # argument that may alias x: reloaded at every element (n), z and y n each: 8 * 3n
    assert _at(kernels, "first_times", {"y_shape0": n}) == (n, 8 * (1 + 2 * n), 8 * 3 * n)


def test_operand_of_more_axes_than_the_target_is_sr002(tmp_path):
    p = tmp_path / "bad.py"
    p.write_text(textwrap.dedent('''\
        from numba import njit


        @njit("void(float64[:], float64[:, :])")
        def squash(y, A):
            y[:] = A + 1.0
    '''))
    k = analyze_file(p)[0]["squash"]
    assert k.failed and "an operand of 2 axes broadcast into 1" in str(k.diagnostics[0])


numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def compiled():
    scope: dict = {}
    exec(compile(SOURCE, "bc.py", "exec"), scope)  # the test's own kernels, not a user file
    return scope


@pytest.mark.parametrize("n,m", SHAPES)
def test_numba_broadcast_shapes_and_values(compiled, n, m):
    rng = np.random.default_rng(7 * n + m)
    x, y = rng.random(n), rng.random(m)
    A, Y = rng.random((n, m)), rng.random((n, m))
    C = np.empty((n, m))
    compiled["add_row"](A, y, C)
    assert np.allclose(C, A + y)
    o = compiled["outer"](x.astype(np.float32), y.astype(np.float32))
    assert o.shape == (n, m) and o.dtype == np.float32
    z = compiled["add_col"](x, Y)
    assert z.shape == (n, m) and np.allclose(z, x[:, None] + Y)
    assert compiled["outer_sum"](x, y) == pytest.approx(x.sum() * y.sum())
    out = np.empty(m)
    compiled["first_times"](out, x, y)
    assert np.allclose(out, x[0] * y)
