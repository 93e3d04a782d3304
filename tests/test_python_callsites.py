"""Numba kernels wherever they are defined, typed from the file's own calls as Numba's dispatch types
them (issue #29 §1, §2).  tests/data/python/nested_and_typed.py holds the hand-derived counts (checked
by test_samples and traced by test_python_trace); here: the discovery, the host typing rules, the
instance names, and the types checked against Numba's own dispatch."""

from __future__ import annotations

import importlib.util
import textwrap

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import S, analyze_source, same


def _kernels(src: str, tmp_path):
    return analyze_source(textwrap.dedent(src), tmp_path, name="kernels.py")


def test_kernels_nested_in_test_functions_are_found(tmp_path):
    # before: SR006 "no kernels" and exit 0.  Now the kernel in the test body is analyzed, typed by
    # the test's arrays (float64 from np.random.rand): y[i] = x[i] + 1.0 is 1 fp64 FLOP, Q = 16n
    p = tmp_path / "test_k.py"
    p.write_text(textwrap.dedent('''\
        import numpy as np
        from numba import njit


        def test_add_one():
            @njit
            def add_one(x, y):
                for i in range(x.shape[0]):
                    y[i] = x[i] + 1.0

            x = np.random.rand(10)
            y = np.empty_like(x)
            add_one(x, y)
    '''))
    r = CliRunner().invoke(main, ["analyze", str(p)])
    assert "SR006" not in r.output and "add_one  [python, exact]" in r.output, r.output


def test_same_name_in_two_tests_is_qualified(tmp_path):
    # two `kernel`s: each named by where it is, each typed by its own test's call (fp32 and fp64)
    ks = _kernels('''
        import numpy as np
        from numba import njit

        def test_single():
            @njit
            def kernel(x):
                for i in range(x.shape[0]):
                    x[i] *= 2.0
            kernel(np.ones(8, dtype=np.float32))

        def test_double():
            @njit
            def kernel(x):
                for i in range(x.shape[0]):
                    x[i] *= 2.0
            kernel(np.ones(8))
    ''', tmp_path)
    assert set(ks) == {"test_single.kernel", "test_double.kernel"}
    # x *= 2.0: float32 * float64 literal is an fp64 multiply either way; x read and written
    assert same(ks["test_single.kernel"].total.compulsory.expr, S("8*x_shape0"))
    assert same(ks["test_double.kernel"].total.compulsory.expr, S("16*x_shape0"))
    assert all(k.exact for k in ks.values())


@pytest.mark.parametrize("make, dtype_bytes", [
    ("np.zeros(n)", 8),                                  # NumPy's default: float64
    ("np.zeros((n,), dtype=np.float32)", 4),
    ("np.ones(n, np.float32)", 4),                       # the dtype as a positional argument
    ("np.arange(n)", 8),                                 # int64
    ("np.arange(n, dtype=np.int16)", 2),
    ("np.random.rand(n).astype(np.float32)", 4),
    ("np.linspace(0.0, 1.0, n)", 8),
    ("np.full(n, 3, dtype=np.int8)", 1),
    ("np.empty(n, dtype='float16')", 2),
    ("make(n)", 4),                                      # what the file's own function returns
    ("np.arange(n * 0.5)", 8),                           # float64: a float argument
])
def test_host_types(tmp_path, make, dtype_bytes):
    # copy(x, y): y[i] = x[i], no arithmetic; x read and y written: Q = 2 * bytes * n
    src = f'''
        import numpy as np
        from numba import njit

        def make(n):
            return np.zeros(n, dtype=np.float32)

        @njit
        def copy(x, y):
            for i in range(x.shape[0]):
                y[i] = x[i]

        def main(n=100):
            x = {make}
            copy(x, x.copy())
    '''
    k = _kernels(src, tmp_path)["copy"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.compulsory.expr, S(f"{2 * dtype_bytes}*x_shape0"))


def test_cuda_kernel_typed_by_device_arrays_and_untyped_one_says_so(tmp_path):
    # cuda.device_array(n) is float64 by default, to_device keeps the host array's float32:
    # out[i] = x[i] * 2: a float32 times an int64 literal -> fp64 multiply; Q = 4n + 8n = 12n
    ks = _kernels('''
        import numpy as np
        from numba import cuda

        @cuda.jit
        def twice(x, out):
            i = cuda.grid(1)
            if i < x.shape[0]:
                out[i] = x[i] * 2

        @cuda.jit
        def untyped(x):
            i = cuda.grid(1)
            if i < x.shape[0]:
                x[i] = 0.0

        def main():
            n = 1024
            d_x = cuda.to_device(np.ones(n, dtype=np.float32))
            d_out = cuda.device_array(n)
            twice[n // 128, 128](d_x, d_out)
    ''', tmp_path)
    assert ks["twice"].exact and same(ks["twice"].total.compulsory.expr, S("12*x_shape0"))
    u = ks["untyped"]
    [d] = [d for d in u.diagnostics if d.code == "SR160"]
    assert not u.exact and d.severity == "warning" and "--dtype x=float64" in d.message


def test_numba_dispatch_makes_the_same_type_sets(tmp_path):
    # Numba itself, run on the file: the signatures its dispatcher compiled are the instances
    # staticroof names (axpy[float32], axpy[float64]), with the same array dtypes
    numba = pytest.importorskip("numba")
    src = textwrap.dedent('''
        import numpy as np
        from numba import njit

        @njit
        def axpy(a, x, y):
            for i in range(x.shape[0]):
                y[i] += a * x[i]

        def main():
            x32 = np.random.random(16).astype(np.float32)
            axpy(np.float32(0.5), x32, np.zeros_like(x32))
            axpy(0.5, np.random.random(16), np.zeros(16))
    ''')
    p = tmp_path / "axpy_mod.py"
    p.write_text(src)
    spec = importlib.util.spec_from_file_location("axpy_mod", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main()
    compiled = [tuple(str(getattr(t, "dtype", t)) for t in sig.args) for sig in mod.axpy.nopython_signatures]
    assert compiled == [("float32", "float32", "float32"), ("float64", "float64", "float64")]
    ks = analyze_source(src, tmp_path, name="axpy_static.py")
    assert list(ks) == ["axpy[float32]", "axpy[float64]"]
    for name, dtype in (("axpy[float32]", "fp32"), ("axpy[float64]", "fp64")):
        k = ks[name]
        assert k.exact and set(k.total.by_precision) == {dtype}
        assert k.total.compulsory.expr == S(f"{3 * (4 if dtype == 'fp32' else 8)}*x_shape0")
    assert numba.__version__


def test_calls_of_kernels_in_a_class_body_type_them(tmp_path):
    # `self.relax(u, out)` (a @staticmethod) in a method and `Smoother.scale(x, ...)` from a module
    # function are the kernels' calls: their float32 arrays type them (before: float64 guessed, SR160).
    # relax: u[i - 1] + u[i + 1] an fp32 add, 0.5 * it an fp64 multiply (a float literal), for
    # i in 1..n-2 -> W = 2(n - 2); u read whole (4n), out written at 1..n-2 (4(n - 2)) -> Q = 8n - 8
    # (n >= 5).  scale: a * x[i] one fp32 multiply (np.float32 scalar), x read and written -> Q = 8n.
    # `self.halve(x)` calls a plain function of the class through an instance: Numba would pass
    # `self` as its first argument, so the call says nothing of x, whose float64 stays a guess.
    ks = _kernels('''
        import numpy as np
        from numba import njit


        class Smoother:
            @staticmethod
            @njit
            def relax(u, out):
                for i in range(1, u.shape[0] - 1):
                    out[i] = 0.5 * (u[i - 1] + u[i + 1])

            @njit
            def scale(x, a):
                for i in range(x.shape[0]):
                    x[i] = a * x[i]

            @njit
            def halve(x):
                for i in range(x.shape[0]):
                    x[i] = x[i] * 0.5

            def run(self, n):
                u = np.zeros(n, dtype=np.float32)
                out = np.empty_like(u)
                self.relax(u, out)
                self.halve(u)


        def main():
            x = np.ones(100, dtype=np.float32)
            Smoother.scale(x, np.float32(3.0))
            Smoother().run(100)
    ''', tmp_path)
    relax, scale, halve = ks["relax"], ks["scale"], ks["halve"]
    assert relax.exact and scale.exact, [str(d) for d in relax.diagnostics + scale.diagnostics]
    assert same(relax.total.by_precision["fp32"].expr, S("u_shape0 - 2"))
    assert same(relax.total.by_precision["fp64"].expr, S("u_shape0 - 2"))
    assert same(relax.total.compulsory.expr, S("8*u_shape0 - 8"))
    assert same(scale.total.flops.expr, S("x_shape0")) and set(scale.total.by_precision) == {"fp32"}
    assert same(scale.total.compulsory.expr, S("8*x_shape0"))
    assert not halve.exact and any(d.code == "SR160" for d in halve.diagnostics)
    assert same(halve.total.compulsory.expr, S("16*x_shape0"))  # float64 guessed: 8 B read and written
