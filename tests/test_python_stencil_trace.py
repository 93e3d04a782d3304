"""The trace of `@numba.stencil` kernels (staticroof/trace/python/stencil.py): the values it
computes are Numba's (the interior, the border with `cval`, `out=`, `neighborhood=`,
`standard_indexing=`, checked against numba.stencil on small arrays), and its counts for
tests/data/python/stencil_kernels.py are the hand-derived ones of that file's docstring (the sweep
in test_python_trace.py checks static == traced for it)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from staticroof.trace import run as run_trace
from staticroof.trace.python.runtime import STATE, Array, Counter, Sites
from staticroof.trace.python.stencil import Stencil

FILE = Path(__file__).resolve().parent / "data" / "python" / "stencil_kernels.py"


def _trace(kernel: str, sizes: dict):
    t = run_trace(str(FILE), kernel, sizes, "python", {n: str(v) for n, v in sizes.items()})
    comp = sum(a.elem_bytes * (a.first_read + a.written) for a in t.arrays.values())
    access = sum(a.elem_bytes * (a.loads + a.stores) for a in t.arrays.values())
    return sum(t.flops.values()), comp, access


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_smooth3_and_window5_counts(n):
    p = max(n - 2, 0)  # smooth3: 3 FLOP, 3 loads + 1 store per point, borders out[:1], out[-1:]
    assert _trace("smooth3", {"a_shape0": n}) == (3 * p, 8 * (n + (n if p else 0)), 8 * (2 * min(1, n) + 4 * p))
    p = max(n - 4, 0)  # window5: 6 FLOP, 5 loads + 1 store per point, borders out[:2], out[-2:]
    assert _trace("window5", {"x_shape0": n}) == (6 * p, 8 * (n + (n if p else 0)), 8 * (2 * min(2, n) + 6 * p))


@pytest.mark.parametrize("n,m", [(1, 2), (2, 3), (3, 3), (4, 5)])
def test_laplacian_and_heat_step_counts(n, m):
    p = max(n - 2, 0) * max(m - 2, 0)
    reads = n * m - 4 if p else 0
    lap = (5 * p, 8 * (n * m + reads), 8 * (2 * m + 2 * n + 6 * p))
    assert _trace("laplacian", {"u_shape0": n, "u_shape1": m}) == lap
    # + the loop over all n*m: 2 FLOP, loads of u and lap, a store to new; u all read, lap and
    # new written
    assert _trace("heat_step", {"n": n, "m": m}) == (5 * p + 2 * n * m, 8 * 3 * n * m,
                                                     8 * (2 * m + 2 * n + 6 * p + 3 * n * m))


# ---------------------------------------------------------------------------------------------
# The values: the trace's stencil against numba.stencil

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")


KERNELS = """\
def _lap(u):
    return u[-1, 0] + u[1, 0] + u[0, -1] + u[0, 1] - 4.0 * u[0, 0]


def _fwd(a):
    return a[1] - a[0]


def _back(a):
    return a[0] - a[-1]


def _win(x):
    s = 0.0
    for k in range(-2, 3):
        s += x[k]
    return s / 5.0


def _weighted(a, w):
    return w[0] * a[-1] + w[1] * a[1]
"""
# the same functions as numba.stencil kernels, each called through an @njit wrapper (a stencil
# called outside @njit is compiled again at every call): compiled once for the module
NUMBA = KERNELS + """
from numba import njit, stencil

lap = stencil(_lap)
lap_c = stencil(_lap, cval=1.5)
fwd = stencil(_fwd, cval=2.0)
back = stencil(_back, cval=3.0)
win = stencil(_win, neighborhood=((-2, 2),))
weighted = stencil(_weighted, standard_indexing=("w",))
weighted_c = stencil(_weighted, standard_indexing=("w",), cval=4.0)


@njit
def run_lap(u, c):
    return lap_c(u) if c else lap(u)


@njit
def run_1d(a):
    return fwd(a), back(a), win(a)


@njit
def run_weighted(a, w, out, c):
    if c:
        weighted_c(a, w, out=out)
    else:
        weighted(a, w, out=out)
"""
PLAIN: dict = {}
exec(compile(KERNELS, "kernels.py", "exec"), PLAIN)


@pytest.fixture(scope="module")
def compiled():
    scope: dict = {}
    exec(compile(NUMBA, "kernels.py", "exec"), scope)
    return scope


def _array(name: str, values) -> Array:
    a = Array(name, "fp64", values.shape)
    for idx in itertools.product(*(range(n) for n in values.shape)):
        a.data[a.flat(idx)] = float(values[idx])
    return a


def _values(a: Array):
    out = np.empty(a.shape)
    for idx in itertools.product(*(range(n) for n in a.shape)):
        out[idx] = a.data[a.flat(idx)]
    return out


def _hood(fn):
    """The neighborhoods Numba infers for the kernels above, derived by hand (the smallest and
    largest relative index per axis, 0 included; a wrong one would move the interior and the
    border Numba's values show)."""
    return {"_lap": [(-1, 1), (-1, 1)], "_fwd": [(0, 1)], "_back": [(-1, 0)], "_win": [(-2, 2)],
            "_weighted": [(-1, 1)]}[fn.__name__]


def _run(name, args, hood=None, cval=None, standard=(), out=None):
    fn = PLAIN[name]
    STATE.counter, STATE.sites = Counter({}), Sites({}, {})
    try:
        params = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
        st = Stencil(fn.__name__, fn, params, hood, cval, set(standard), lambda rel, nd: _hood(fn))
        got = st(*[_array(p, a) for p, a in zip(params, args, strict=True)],
                 **({"out": _array("out", out)} if out is not None else {}))
    finally:
        STATE.counter = STATE.sites = None
    return _values(got)


@pytest.mark.parametrize("shape", [(1, 1), (2, 4), (3, 3), (4, 6)])
@pytest.mark.parametrize("cval", [None, 1.5])
def test_laplacian_values_are_numbas(compiled, shape, cval):
    u = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape) ** 2
    # every element is written (border or interior): np.empty's contents show nowhere
    assert np.array_equal(_run("_lap", [u], cval=cval), compiled["run_lap"](u, cval is not None))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_one_sided_and_given_neighborhoods_are_numbas(compiled, n):
    a = np.arange(n, dtype=np.float64) ** 2 + 1.0
    fwd, back, win = compiled["run_1d"](a)
    assert np.array_equal(_run("_fwd", [a], cval=2.0), fwd)
    # (-1, 0): out[-0:] = cval is the whole array, then the interior
    assert np.array_equal(_run("_back", [a], cval=3.0), back)
    assert np.array_equal(_run("_win", [a], hood=[(-2, 2)]), win)


@pytest.mark.parametrize("with_cval", [False, True])
def test_out_and_standard_indexing_are_numbas(compiled, with_cval):
    a = np.arange(6, dtype=np.float64) * 1.5
    w = np.array([2.0, -1.0])
    init = np.full(6, 7.0)
    want = init.copy()
    compiled["run_weighted"](a, w, want, with_cval)
    got = _run("_weighted", [a, w], cval=4.0 if with_cval else None, standard=("w",), out=init)
    assert np.array_equal(got, want)  # without cval, out's border keeps its 7.0


def test_an_out_array_of_unknown_extent_takes_the_inputs(tmp_path):
    p = tmp_path / "st.py"
    p.write_text("from numba import njit, stencil\n\n\n@stencil(cval=1.0)\ndef forward(a):\n    return a[1] - a[0]\n"
                 "\n\n@njit\ndef into(x, y):\n    forward(x, out=y)\n")
    # y's extent is not a size of the analysis (it assumes x's): y[:] = 1.0 (4 stores) and 3
    # interior points (a subtract, 2 loads, 1 store), with or without y_shape0 given
    for sizes in ({"x_shape0": 4}, {"x_shape0": 4, "y_shape0": 4}):
        t = run_trace(str(p), "into", sizes, "python", {})
        assert t.flops == {"fp64": 3}
        assert (t.arrays["x"].first_read, t.arrays["x"].loads) == (4, 6)
        assert (t.arrays["y"].written, t.arrays["y"].stores) == (4, 7)


@pytest.mark.parametrize("n,m", [(1, 2), (4, 5)])
def test_a_standard_indexed_array_is_reloaded_per_row_of_the_nest(tmp_path, n, m):
    """w[0], w[1] under standard_indexing in a 2-D stencil of neighborhood (-1, 0) x (0, 1): Numba's
    nest runs rows i = 1 .. n-1 and columns j = 0 .. m-2, (n-1)(m-1) points of 2 multiplies and 2
    adds.  w's two elements stay in registers along a row and are loaded again when the column
    loop begins: 2(n-1) loads, as the analysis counts (the trace kept them for the whole nest:
    2 loads, 48 B against 16 B at 4 x 5)."""
    p = tmp_path / "st.py"
    p.write_text('from numba import stencil\n\n\n@stencil(standard_indexing=("w",))\ndef wsum(a, w, c):\n'
                 "    return w[0] * a[-1, 0] + w[1] * a[0, 1] + c\n")
    sizes = {"a_shape0": n, "a_shape1": m, "w_shape0": 2}
    t = run_trace(str(p), "wsum", sizes, "python", {})
    rows = n - 1 if m > 1 else 0
    assert t.flops == ({"fp64": 4 * rows * (m - 1)} if rows else {})
    assert t.arrays["w"].loads == 2 * rows
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run
    from staticroof.trace import compare

    (k,) = run([p], AnalysisOptions(defines={k_: str(v) for k_, v in sizes.items()})).kernels
    assert all(r.ok for r in compare(k, t))
