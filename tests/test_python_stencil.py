"""`@numba.stencil` kernels: relative indexing, the neighborhood (inferred or given), the border
Numba writes (`cval`), `standard_indexing`, `out=`, a stencil called from an @njit function and
the stencil kernel itself.  Every expected value is derived by hand below, at sizes on both sides
of the neighborhood; the shapes the derivations rest on (which elements Numba computes, what the
border holds, the neighborhood it infers) are checked by running the stencils with Numba."""

from __future__ import annotations

import textwrap

import pytest
import sympy

from helpers import analyze_file, formula_at

SOURCE = textwrap.dedent('''\
    import time

    import numpy as np
    from numba import njit, stencil

    COEFFS = 2


    @stencil
    def laplace(a):
        return a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1] - 4.0 * a[0, 0]


    @stencil(neighborhood=((-2, 2),))
    def window(a):
        s = 0.0
        for k in range(-2, 3):
            s += a[k]
        return s / 5.0


    @stencil(cval=1.0)
    def forward(a):
        return a[1] - a[0]


    @stencil
    def backward(a):
        return a[0] - a[-1]


    @stencil(standard_indexing=("w",))
    def weighted(a, w):
        return w[0] * a[-1] + w[COEFFS - 1] * a[1]


    @njit
    def step(u):
        lap = laplace(u)
        return lap


    @njit
    def into(x, y):
        forward(x, out=y)


    def main(n=512):
        u = np.random.rand(n, n)
        t = time.perf_counter()
        step(u)
        print("step", time.perf_counter() - t)
        x = np.linspace(0.0, 1.0, n)
        print(laplace(u).sum(), window(x).sum(), forward(x).sum(), backward(x).sum())
        print(weighted(x, np.array([0.25, 0.75])).sum())
        into(x, np.empty_like(x))
''')


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    p = tmp_path_factory.mktemp("stencil") / "stencils.py"
    p.write_text(SOURCE)
    return p


@pytest.fixture(scope="module")
def analyzed(source):
    """The file analyzed once, without sizes: each test evaluates the piecewise formulas."""
    return analyze_file(source)[0]


def _at(kernels, kernel, sizes: dict):
    k = kernels[kernel]
    assert k.exact and not k.failed, [str(d) for d in k.diagnostics]
    values = {sympy.Symbol(n): v for n, v in sizes.items()}
    return tuple(int(formula_at(q, sizes).subs(values)) for q in (k.total.flops, k.total.compulsory, k.total.access))


def _laplace(n, m):
    # interior (n-2)(m-2) points when n, m >= 3 (the neighborhood is (-1, 1) on both axes), 5 FLOP
    # each (3 adds, a subtract, a multiply).  Read: the interior and its four neighbours, i.e. every
    # element but the 4 corners (n*m - 4), none without an interior.  Written: every element (the
    # border slabs out[:1, :], out[-1:, :], out[:, :1], out[:, -1:] and the interior cover it).
    # Access: the slabs store 2m + 2n, each point loads 5 and stores 1.
    pts = max(n - 2, 0) * max(m - 2, 0)
    reads = n * m - 4 if pts else 0
    return 5 * pts, 8 * (n * m + reads), 8 * (2 * m + 2 * n + 6 * pts)


@pytest.mark.parametrize("n,m", [(1, 1), (2, 5), (3, 3), (3, 4), (5, 7)])
def test_laplace_2d_itself_and_called_from_njit(analyzed, n, m):
    assert _at(analyzed, "laplace", {"a_shape0": n, "a_shape1": m}) == _laplace(n, m)
    assert _at(analyzed, "step", {"u_shape0": n, "u_shape1": m}) == _laplace(n, m)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 9])
def test_window_with_a_given_neighborhood(analyzed, n):
    # neighborhood (-2, 2): interior i = 2 .. n-3, max(n-4, 0) points; a loop of 5 adds into
    # s = 0.0 and a divide: 6 FLOP each.  Read a[i-2 .. i+2]: all n elements once there is a point
    # (n >= 5).  Written: all n (out[:2], out[-2:], the interior).  Access: the two border slabs
    # store min(2, n) each, each point loads 5 and stores 1.
    pts = max(n - 4, 0)
    reads = n if pts else 0
    assert _at(analyzed, "window", {"a_shape0": n}) == (6 * pts, 8 * (n + reads), 8 * (2 * min(2, n) + 6 * pts))


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_cval_and_out(analyzed, n):
    # forward: neighborhood (0, 1), interior i = 0 .. n-2 (n-1 points), one subtract each; reads
    # a[i], a[i+1]: all n once n >= 2.  Without out=: out[:-0] is empty, out[-1:] the last element,
    # so n elements written, 1 + (n-1) stores.  into(x, y) passes out=y with cval=1.0: y[:] = 1.0
    # (n stores) and the interior (n-1 stores) -> the same n elements, 2n - 1 stores.
    pts = n - 1
    reads = n if pts else 0
    assert _at(analyzed, "forward", {"a_shape0": n}) == (pts, 8 * (n + reads), 8 * (1 + 2 * pts + pts))
    assert _at(analyzed, "into", {"x_shape0": n}) == (pts, 8 * (n + reads), 8 * (n + 2 * pts + pts))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_high_zero_border_slice_is_the_whole_array(analyzed, n):
    # backward: neighborhood (-1, 0): Numba writes out[:1] (1 store) and out[-0:], which is the
    # whole array (n stores), then the interior i = 1 .. n-1 (n-1 points: a load of a[i], a[i-1],
    # a store, a subtract).  Reads: all n once n >= 2.
    pts = n - 1
    reads = n if pts else 0
    assert _at(analyzed, "backward", {"a_shape0": n}) == (pts, 8 * (n + reads), 8 * (1 + n + 3 * pts))


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_standard_indexing(analyzed, n):
    # neighborhood (-1, 1) from a only (w is indexed as usual: w[0], w[1] each point); interior
    # i = 1 .. n-2, max(n-2, 0) points, 2 multiplies and an add.  Reads: a[i-1] and a[i+1]: [0, n-2)
    # and [2, n), n elements for n >= 4, 2 (a[0], a[2]) at n = 3; w: 2 elements.  Written: n.
    # Access: 2 border stores, 2 loads of a and a store per point, and w[0], w[1] loaded once (the
    # same elements every point: kept in registers, the access level's rule).
    pts = max(n - 2, 0)
    reads_a = n if n >= 4 else 2 if n == 3 else 0
    reads_w = 2 if pts else 0
    got = _at(analyzed, "weighted", {"a_shape0": n, "w_shape0": 2})
    assert got == (3 * pts, 8 * (n + reads_a + reads_w), 8 * (2 + 3 * pts + reads_w))


def test_unsupported_stencils_are_sr002(tmp_path):
    p = tmp_path / "bad.py"
    p.write_text(textwrap.dedent('''\
        from numba import stencil


        @stencil
        def variable(a, k):
            return a[k] + a[0]


        @stencil(func_or_mode="wrap")
        def wrap(a):
            return a[1]


        @stencil
        def fine(a):
            return a[1]
    '''))
    kernels, _report = analyze_file(p)
    why = {k.name: str(k.diagnostics[0]) for k in kernels.values() if k.failed}
    assert set(why) == {"variable", "wrap"}
    assert "not a constant (Numba needs `neighborhood=`)" in why["variable"] and ":6:12:" in why["variable"]
    assert "mode other than" in why["wrap"]
    assert not kernels["fine"].failed


# ---------------------------------------------------------------------------------------------
# What Numba does: the neighborhood it infers, the elements it computes, the border it writes

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def compiled():
    # the test's own source, not a user file; a stencil called outside @njit is compiled again at
    # every call, so each is called through an @njit wrapper (compiled once)
    wrappers = "".join(f"\n\n@njit\ndef run_{k}({args}):\n    return {k}({args})\n"
                       for k, args in (("window", "a"), ("forward", "a"), ("backward", "a"), ("weighted", "a, w")))
    scope: dict = {}
    exec(compile(SOURCE + wrappers, "stencils.py", "exec"), scope)
    return scope


def _computed(out, border_value) -> int:
    """How many elements the kernel wrote (the rest hold the border value)."""
    return int(np.count_nonzero(out != border_value))


@pytest.mark.parametrize("n,m", [(1, 1), (2, 5), (3, 3), (3, 4), (5, 7)])
def test_numba_laplace_interior_and_border(compiled, n, m):
    rng = np.random.default_rng(n * 10 + m)
    u = rng.random((n, m)) + 1.0
    out = compiled["step"](u)
    assert out.shape == u.shape
    assert _computed(out, 0.0) == _laplace(n, m)[0] // 5  # W / 5 FLOP per point
    if n >= 3 and m >= 3:
        assert not out[0].any() and not out[-1].any() and not out[:, 0].any() and not out[:, -1].any()
        i, j = 1, 1
        want = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
        assert out[i, j] == pytest.approx(want)
    # the neighborhood Numba inferred is the one the front end infers
    import libcst as cst

    from staticroof.frontends.python.stencil import infer

    fn = next(s for s in cst.parse_module(SOURCE).body if isinstance(s, cst.FunctionDef) and s.name.value == "laplace")
    assert [tuple(p) for p in compiled["laplace"].neighborhood] == infer(fn, {"a"}, 2, {})  # after step(u)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 9])
def test_numba_window_interior(compiled, n):
    a = np.arange(1.0, n + 1.0)
    out = compiled["run_window"](a)
    assert out.shape == a.shape and _computed(out, 0.0) == max(n - 4, 0)
    if n >= 5:
        assert out[2] == pytest.approx(a[0:5].sum() / 5.0) and out[:2].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_numba_cval_with_and_without_out(compiled, n):
    a = 3.0 * np.arange(n, dtype=np.float64) ** 2 + 2.0  # forward differences 3(2i + 1), never 1.0
    plain = compiled["run_forward"](a)
    assert plain.shape == a.shape and _computed(plain, 1.0) == n - 1 and plain[-1] == 1.0
    y = np.full(n, np.nan)
    compiled["into"](a, y)
    assert y[-1] == 1.0 and np.array_equal(y[:-1], np.diff(a))  # out[:] = cval, then the interior
    b = compiled["run_backward"](a)
    assert b[0] == 0.0 and _computed(b, 0.0) == n - 1


def test_numba_standard_indexing(compiled):
    a = np.arange(1.0, 7.0)
    w = np.array([0.5, 2.0])
    out = compiled["run_weighted"](a, w)
    assert out[1] == 0.5 * a[0] + 2.0 * a[2] and out[0] == 0.0 and out[-1] == 0.0
    assert _computed(out, 0.0) == len(a) - 2
