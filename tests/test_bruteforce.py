"""The analyzer's formulas against a brute-force simulation of the same kernel.

Each test writes a small pure-Python version of its C kernel that runs the loops in program order,
records every (array, element, read/write) event and counts FLOPs by precision.  From the events
the simulation computes, at concrete sizes:

- W by precision;
- Q compulsory: element size * (distinct elements whose first access is a read + distinct
  elements written);
- Q access: every load/store, except that a reference whose index does not depend on its innermost
  enclosing loop counts once per execution of that loop, and identical references (same array,
  index and kind) in one statement count once.

The analyzer's symbolic formulas, substituted at several sizes, must equal the simulation; where
sizes are given with `-D`, the exact value `.value` must equal it too.
"""

from __future__ import annotations

from collections import Counter

import pytest
import sympy

from helpers import analyze_source, formula_at

BYTES = {"fp64": 8, "fp32": 4, "fp16": 2, "int32": 4}


class Sim:
    """Records the events of one run of a kernel."""

    def __init__(self, dtypes: dict):
        self.dtypes = dtypes  # array -> dtype
        self.first = {}  # (array, element) -> "r" | "w" for the first access
        self.written = set()
        self.flops = Counter()
        self.loads = Counter()  # array -> access-level loads
        self.stores = Counter()  # array -> access-level stores
        self._kept = set()  # (ref label, kind, outer loop values) for loop-invariant references

    def stmt(self, loops, refs, flops=None):
        """One execution of a statement.

        loops: the values of its enclosing loops, outermost first, each as (loop id, value);
        refs: (label, array, element, kind, invariant) in evaluation order, where `label` names the
              static reference (identical references in the statement share it) and `invariant`
              says its index does not depend on the innermost enclosing loop;
        flops: precision -> operations.
        """
        seen = set()
        for label, array, elem, kind, invariant in refs:
            key = (array, elem)
            self.first.setdefault(key, kind)
            if kind == "w":
                self.written.add(key)
            if (label, kind) in seen:
                continue
            seen.add((label, kind))
            if invariant:
                once = (label, kind, tuple(loops[:-1]))
                if once in self._kept:
                    continue
                self._kept.add(once)
            (self.loads if kind == "r" else self.stores)[array] += 1
        for p, n in (flops or {}).items():
            self.flops[p] += n

    @property
    def W(self):
        return sum(self.flops.values())

    @property
    def Q(self):
        total = 0
        for (array, _), kind in self.first.items():
            if kind == "r":
                total += BYTES[self.dtypes[array]]
        for array, _ in self.written:
            total += BYTES[self.dtypes[array]]
        return total

    @property
    def Q_access(self):
        return sum(BYTES[self.dtypes[a]] * c for a, c in (self.loads + self.stores).items())

    def array_bytes(self, array):
        """(compulsory read bytes, compulsory write bytes) of one array."""
        b = BYTES[self.dtypes[array]]
        r = sum(1 for (a, _), kind in self.first.items() if a == array and kind == "r")
        w = sum(1 for a, _ in self.written if a == array)
        return b * r, b * w


def at(expr, **sizes):
    """The analyzer's formula at concrete sizes: for a Quantity, the piece whose condition holds
    there (the formula shown may be one piece of several, with its condition)."""
    if hasattr(expr, "piece_list"):
        expr = formula_at(expr, sizes)
    syms = {s: sizes[s.name] for s in sympy.sympify(expr).free_symbols}
    v = sympy.sympify(expr).subs(syms)
    assert not v.free_symbols, (expr, sizes)
    return sympy.nsimplify(v)


def check(k, sim: Sim, **sizes):
    t = k.total
    assert at(t.flops, **sizes) == sim.W, ("W", t.flops.expr, sizes, sim.W)
    for p in set(t.by_precision) | set(sim.flops):
        got = at(t.by_precision[p], **sizes) if p in t.by_precision else 0
        assert got == sim.flops[p], (p, sizes)
    assert at(t.compulsory, **sizes) == sim.Q, ("Q", t.compulsory.expr, sizes, sim.Q)
    assert at(t.access, **sizes) == sim.Q_access, ("Q_access", t.access.expr, sizes, sim.Q_access)
    for name in sim.dtypes:
        r, w = sim.array_bytes(name)
        if name not in t.arrays:
            assert r == 0 and w == 0, name
            continue
        a = t.arrays[name]
        assert at(a.read, **sizes) == r, (name, "read", a.read.expr, sizes, r)
        assert at(a.write, **sizes) == w, (name, "write", a.write.expr, sizes, w)
        assert at(a.access_read, **sizes) == BYTES[sim.dtypes[name]] * sim.loads[name], (name, sizes)
        assert at(a.access_write, **sizes) == BYTES[sim.dtypes[name]] * sim.stores[name], (name, sizes)


def check_values(src, name, tmp_path, sim: Sim, **sizes):
    """With the sizes given as -D, the exact numbers equal the simulation."""
    k = analyze_source(src, tmp_path, defines={s: str(v) for s, v in sizes.items()})[name]
    assert not k.failed
    assert k.sizes == sizes
    assert k.total.flops.value == sim.W
    assert k.total.compulsory.value == sim.Q
    assert k.total.access.value == sim.Q_access


# ---------------------------------------------------------------------------------------------
# (a) 2-D 5-point stencil

STENCIL = """
void stencil5(int n, const double A[n][n], double B[n][n])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
"""


def sim_stencil(n):
    s = Sim({"A": "fp64", "B": "fp64"})
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            s.stmt([("i", i), ("j", j)], [
                ("A[i][j]", "A", (i, j), "r", False),
                ("A[i-1][j]", "A", (i - 1, j), "r", False),
                ("A[i+1][j]", "A", (i + 1, j), "r", False),
                ("A[i][j-1]", "A", (i, j - 1), "r", False),
                ("A[i][j+1]", "A", (i, j + 1), "r", False),
                ("B[i][j]", "B", (i, j), "w", False),
            ], {"fp64": 5})  # 4 adds + 1 multiply by the double 0.2
    return s


@pytest.fixture(scope="module")
def stencil_kernel(tmp_path_factory):
    return analyze_source(STENCIL, tmp_path_factory.mktemp("stencil"))["stencil5"]


@pytest.mark.parametrize("n", [3, 4, 7, 11])
def test_stencil_2d(stencil_kernel, n):
    assert stencil_kernel.exact
    check(stencil_kernel, sim_stencil(n), n=n)


def test_stencil_2d_values(tmp_path):
    check_values(STENCIL, "stencil5", tmp_path, sim_stencil(9), n=9)


# ---------------------------------------------------------------------------------------------
# (b) triangular kernels

TRIANGULAR = """
void trmv_acc(int n, const float L[n][n], const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            y[i] += L[i][j] * x[j];
}

void strict_off(int n, const float L[n][n], const float *x, float *y)
{
    for (int i = 2; i < n; i++)
        for (int j = 1; j < i; j++)
            y[i] += L[i][j] * x[j - 1];
}
"""


def sim_trmv_acc(n):
    s = Sim({"L": "fp32", "x": "fp32", "y": "fp32"})
    for i in range(n):
        for j in range(i + 1):
            s.stmt([("i", i), ("j", j)], [
                ("L[i][j]", "L", (i, j), "r", False),
                ("x[j]", "x", (j,), "r", False),
                # y[i] is invariant in the j loop, but y may alias L and x (float parameters, none
                # restrict) and the loop writes y: not held, loaded and stored every trip
                ("y[i]", "y", (i,), "r", False),
                ("y[i]", "y", (i,), "w", False),
            ], {"fp32": 2})
    return s


def sim_strict_off(n):
    s = Sim({"L": "fp32", "x": "fp32", "y": "fp32"})
    for i in range(2, n):
        for j in range(1, i):
            s.stmt([("i", i), ("j", j)], [
                ("L[i][j]", "L", (i, j), "r", False),
                ("x[j-1]", "x", (j - 1,), "r", False),
                ("y[i]", "y", (i,), "r", False),  # may alias L and x, as in trmv_acc: every trip
                ("y[i]", "y", (i,), "w", False),
            ], {"fp32": 2})
    return s


@pytest.fixture(scope="module")
def triangular_kernels(tmp_path_factory):
    return analyze_source(TRIANGULAR, tmp_path_factory.mktemp("tri"))


@pytest.mark.parametrize("n", [4, 7, 11])
def test_triangular(triangular_kernels, n):
    k = triangular_kernels["trmv_acc"]
    assert k.exact
    check(k, sim_trmv_acc(n), n=n)


@pytest.mark.parametrize("n", [4, 7, 11])
def test_triangular_strict_offset(triangular_kernels, n):
    k = triangular_kernels["strict_off"]
    assert k.exact
    check(k, sim_strict_off(n), n=n)


def test_triangular_values(tmp_path):
    check_values(TRIANGULAR, "trmv_acc", tmp_path, sim_trmv_acc(6), n=6)
    check_values(TRIANGULAR, "strict_off", tmp_path, sim_strict_off(6), n=6)


# ---------------------------------------------------------------------------------------------
# (c) linearized indices: transpose of an m-by-n row-major matrix

TRANSPOSE = """
void transpose(int m, int n, const float *A, float *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[j * m + i] = 2.0f * A[i * n + j];
}
"""


def sim_transpose(m, n):
    s = Sim({"A": "fp32", "B": "fp32"})
    for i in range(m):
        for j in range(n):
            s.stmt([("i", i), ("j", j)], [
                ("A", "A", (i * n + j,), "r", False),
                ("B", "B", (j * m + i,), "w", False),
            ], {"fp32": 1})
    return s


@pytest.fixture(scope="module")
def transpose_kernel(tmp_path_factory):
    return analyze_source(TRANSPOSE, tmp_path_factory.mktemp("tr"))["transpose"]


@pytest.mark.parametrize("m,n", [(3, 5), (5, 3), (4, 4), (2, 7), (7, 2)])
def test_transpose_linearized(transpose_kernel, m, n):
    assert transpose_kernel.exact
    check(transpose_kernel, sim_transpose(m, n), m=m, n=n)


def test_transpose_values(tmp_path):
    check_values(TRANSPOSE, "transpose", tmp_path, sim_transpose(3, 6), m=3, n=6)
    check_values(TRANSPOSE, "transpose", tmp_path, sim_transpose(6, 3), m=6, n=3)


# ---------------------------------------------------------------------------------------------
# (d) a write-then-read temporary and an in-place update across two nests

TEMP = """
void temp_inplace(int n, float *x, float *t, float *y)
{
    for (int i = 1; i < n; i++)
        t[i] = x[i] * x[i];
    for (int i = 0; i < n; i++) {
        y[i] = y[i] + t[i];
        x[i] = x[i] - y[i];
    }
}
"""


def sim_temp(n):
    s = Sim({"x": "fp32", "t": "fp32", "y": "fp32"})
    for i in range(1, n):
        s.stmt([("a", i)], [
            ("x[i]", "x", (i,), "r", False),  # x[i]*x[i]: one reference
            ("x[i]", "x", (i,), "r", False),
            ("t[i]", "t", (i,), "w", False),
        ], {"fp32": 1})
    for i in range(n):
        s.stmt([("b", i)], [
            ("y[i]", "y", (i,), "r", False),
            ("t[i]", "t", (i,), "r", False),  # t[0] is read before any write: compulsory read
            ("y[i]", "y", (i,), "w", False),
        ], {"fp32": 1})
        s.stmt([("b", i)], [
            ("x[i]2", "x", (i,), "r", False),  # x[0] first read here
            ("y[i]2", "y", (i,), "r", False),
            ("x[i]2", "x", (i,), "w", False),
        ], {"fp32": 1})
    return s


@pytest.fixture(scope="module")
def temp_kernel(tmp_path_factory):
    return analyze_source(TEMP, tmp_path_factory.mktemp("tmp"))["temp_inplace"]


@pytest.mark.parametrize("n", [2, 4, 7, 11])
def test_temporary_and_in_place(temp_kernel, n):
    assert temp_kernel.exact
    assert len(temp_kernel.nests) == 2
    check(temp_kernel, sim_temp(n), n=n)


def test_temporary_values(tmp_path):
    check_values(TEMP, "temp_inplace", tmp_path, sim_temp(8), n=8)


# ---------------------------------------------------------------------------------------------
# (e) a counted-down and a strided loop mixing arrays and precisions

MIX = """
void mix(int n, const double *x, double *y, float *z)
{
    for (int i = n - 1; i >= 1; i--)
        y[i] = y[i - 1] * 0.5 + x[i];
    for (int i = 0; i < n; i += 3)
        z[i] = (float)y[i] * 2.0f + z[i];
}

void mix_up(int n, const double *x, double *y, float *z)
{
    for (int i = 1; i <= n - 1; i++)
        y[i] = y[i - 1] * 0.5 + x[i];
    for (int i = n - 1; i >= 0; i -= 2)
        z[i / 2] = (float)y[i] * 2.0f;
}
"""


def sim_mix(n):
    s = Sim({"x": "fp64", "y": "fp64", "z": "fp32"})
    for i in range(n - 1, 0, -1):  # counted down: y[i-1] is read before y[i-1] is written
        s.stmt([("a", i)], [
            ("y[i-1]", "y", (i - 1,), "r", False),
            ("x[i]", "x", (i,), "r", False),
            ("y[i]", "y", (i,), "w", False),
        ], {"fp64": 2})
    for i in range(0, n, 3):
        s.stmt([("b", i)], [
            ("y[i]", "y", (i,), "r", False),
            ("z[i]", "z", (i,), "r", False),
            ("z[i]", "z", (i,), "w", False),
        ], {"fp32": 2})
    return s


def sim_mix_up(n):
    s = Sim({"x": "fp64", "y": "fp64", "z": "fp32"})
    for i in range(1, n):  # counted up: y[i-1] was written on the previous trip (except y[0])
        s.stmt([("a", i)], [
            ("y[i-1]", "y", (i - 1,), "r", False),
            ("x[i]", "x", (i,), "r", False),
            ("y[i]", "y", (i,), "w", False),
        ], {"fp64": 2})
    for i in range(n - 1, -1, -2):
        s.stmt([("b", i)], [
            ("y[i]", "y", (i,), "r", False),
            ("z[i/2]", "z", (i // 2,), "w", False),
        ], {"fp32": 1})
    return s


@pytest.fixture(scope="module")
def mix_kernels(tmp_path_factory):
    return analyze_source(MIX, tmp_path_factory.mktemp("mix"))


@pytest.mark.parametrize("n", [4, 7, 11, 12])
def test_down_and_strided(mix_kernels, n):
    k = mix_kernels["mix"]
    assert k.exact
    check(k, sim_mix(n), n=n)


@pytest.mark.parametrize("n", [4, 7, 11, 12])
def test_up_and_strided_down(mix_kernels, n):
    k = mix_kernels["mix_up"]
    assert k.exact
    check(k, sim_mix_up(n), n=n)


def test_mix_values(tmp_path):
    check_values(MIX, "mix", tmp_path, sim_mix(10), n=10)
    check_values(MIX, "mix_up", tmp_path, sim_mix_up(10), n=10)


# ---------------------------------------------------------------------------------------------
# (f) two sizes, a loop-invariant reference under a guard and a rectangular nest

GUARDED = """
void band(int m, int n, const float A[m][n], const float *x, float *y)
{
    for (int i = 0; i < m; i++) {
        float s = 0.0f;
        for (int j = 0; j < n; j++)
            if (j >= i - 1 && j <= i + 1)
                s += A[i][j] * x[j] + x[i];
        y[i] = s;
    }
}
"""


def sim_band(m, n):
    s = Sim({"A": "fp32", "x": "fp32", "y": "fp32"})
    for i in range(m):
        for j in range(n):
            if i - 1 <= j <= i + 1:
                s.stmt([("i", i), ("j", j)], [
                    ("A[i][j]", "A", (i, j), "r", False),
                    ("x[j]", "x", (j,), "r", False),
                    ("x[i]", "x", (i,), "r", True),  # invariant in j: once per j loop with a trip
                ], {"fp32": 3})
        s.stmt([("i", i)], [("y[i]", "y", (i,), "w", False)])
    return s


@pytest.fixture(scope="module")
def band_kernel(tmp_path_factory):
    return analyze_source(GUARDED, tmp_path_factory.mktemp("band"))["band"]


@pytest.mark.parametrize("m,n", [(4, 9), (9, 4), (6, 6), (6, 5), (5, 6), (3, 11), (11, 3)])
def test_band_two_sizes(band_kernel, tmp_path, m, n):
    # W/3 = |{(i, j): i < m, j < n, |i - j| <= 1}| is piecewise in how m and n compare:
    # 3m - 1 for m <= n - 1, 3n - 2 for m == n, 3n - 1 for m >= n + 1 (e.g. 6, 6 -> 16 trips).
    # Every piece is kept with its condition on m and n, so the formula is exact for every ordering.
    k = band_kernel
    assert k.exact, [str(d) for d in k.diagnostics]
    check(k, sim_band(m, n), m=m, n=n)
    check_values(GUARDED, "band", tmp_path, sim_band(m, n), m=m, n=n)


@pytest.mark.parametrize("m,n", [(4, 9), (9, 4), (6, 6)])
def test_band_values(tmp_path, m, n):
    check_values(GUARDED, "band", tmp_path, sim_band(m, n), m=m, n=n)
