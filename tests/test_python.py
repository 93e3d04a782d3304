"""The Python/Numba front end: the reference values as Numba kernels, C/Numba pairs with identical
formulas, and the documented behaviour on bad input (syntax errors, unsupported constructs beside
good kernels, files without kernels).  A Python file is parsed, never imported or run."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import ROOT, SAMPLES, S, analyze_file, analyze_source, same


def _one(src: str, tmp_path, name: str, **kw):
    kernels = analyze_source(textwrap.dedent(src), tmp_path, name="kernels.py", **kw)
    return kernels[name]


def _check(k, W, Q, I, prec=None):  # noqa: E741 (the paper's name for intensity)
    t = k.total
    assert not k.failed and k.exact, [str(d) for d in k.diagnostics]
    assert same(t.flops.expr, S(W)), t.flops.expr
    assert same(t.compulsory.expr, S(Q)), t.compulsory.expr
    assert same(t.intensity.expr, S(I)), t.intensity.expr
    if prec is not None:
        assert set(t.by_precision) == {prec} or all(p == prec for p, q in t.by_precision.items()
                                                  if q.expr != 0), t.by_precision


# ---------------------------------------------------------------------------------------------
# Reference values (DEVELOPERS.md) as Numba kernels

def test_saxpy_fp32_by_signature(tmp_path):
    # W: a*x[i] + y[i] is 2 fp32 per element (all float32 by the signature) -> 2N;
    # Q: x read 4N, y read 4N and written 4N -> 12N; I = 1/6
    k = _one('''
        from numba import njit

        @njit("void(float32, float32[:], float32[:])")
        def saxpy(a, x, y):
            N = x.shape[0]
            for i in range(N):
                y[i] = a * x[i] + y[i]
    ''', tmp_path, "saxpy")
    _check(k, "2*N", "12*N", "1/6", "fp32")


def test_daxpy_fp64_from_its_call_and_guessed_without_one(tmp_path):
    # main calls daxpy with np.random.rand arrays and a Python float: float64 all through, as Numba's
    # dispatch types them; W = 2N fp64, Q = 3 * 8N = 24N, I = 1/12, exact
    src = '''
        import numba as nb
        import numpy as np

        @nb.njit
        def daxpy(a, x, y):
            for i in range(len(x)):
                y[i] = a * x[i] + y[i]
    '''
    k = _one(src + '''
        def main(n=1000):
            x, y = np.random.rand(n), np.random.rand(n)
            daxpy(2.5, x, y)
    ''', tmp_path, "daxpy")
    _check(k, "2*x_shape0", "24*x_shape0", "1/12", "fp64")
    assert not any(d.code == "SR160" for d in k.diagnostics)
    # no call, no signature: the same numbers rest on a guess (float64, SR160, a warning): approximate
    k = _one(src, tmp_path, "daxpy")
    assert not k.exact and same(k.total.flops.expr, S("2*x_shape0"))
    [d] = [d for d in k.diagnostics if d.code == "SR160"]
    assert d.severity == "warning" and "--dtype a=float64 --dtype x=float64 --dtype y=float64" in d.message


def test_vmul_fp32(tmp_path):
    # z[i] = x[i]*y[i]: 1 fp32 per element; Q = 4N + 4N + 4N = 12N; I = 1/12
    k = _one('''
        from numba import jit, float32

        @jit((float32[:], float32[:], float32[:]), nopython=True)
        def vmul(x, y, z):
            for i in range(x.shape[0]):
                z[i] = x[i] * y[i]
    ''', tmp_path, "vmul")
    _check(k, "x_shape0", "12*x_shape0", "1/12", "fp32")


def test_pairsum_fp32(tmp_path):
    # s += x[i] + y[j] over N x N with s float32: 2N**2 fp32; x and y read once: Q = 8N; I = N/4
    k = _one('''
        import numpy as np
        from numba import njit

        @njit("float32(int64, float32[:], float32[:])")
        def pairsum(n, x, y):
            s = np.float32(0.0)
            for i in range(n):
                for j in range(n):
                    s += x[i] + y[j]
            return s
    ''', tmp_path, "pairsum")
    _check(k, "2*n**2", "8*n", "n/4", "fp32")


def test_gemm_register_accumulator_and_accumulate_in_place(tmp_path):
    # accumulator: W = 2N**3 fp32, Q = A + B read + C written = 12N**2, I = N/6;
    # C[i, j] += ...: C is also read first: Q = 16N**2, I = N/8
    kernels = analyze_source(textwrap.dedent('''
        import numpy as np
        from numba import njit, prange

        @njit("void(float32[:, :], float32[:, :], float32[:, :])", parallel=True)
        def gemm(A, B, C):
            N = A.shape[0]
            for i in prange(N):
                for j in range(N):
                    acc = np.float32(0)
                    for k in range(N):
                        acc += A[i, k] * B[k, j]
                    C[i, j] = acc

        @njit("void(float32[:, :], float32[:, :], float32[:, :])")
        def gemm_inplace(A, B, C):
            N = A.shape[0]
            for i in range(N):
                for j in range(N):
                    for k in range(N):
                        C[i, j] += A[i, k] * B[k, j]
    '''), tmp_path, name="kernels.py")
    _check(kernels["gemm"], "2*N**3", "12*N**2", "N/6", "fp32")
    _check(kernels["gemm_inplace"], "2*N**3", "16*N**2", "N/8", "fp32")


def test_linearized_and_chained_subscripts(tmp_path):
    # A[i*n + j] and A[i][j] address the same n*n elements as A[i, j]: each kernel reads n**2
    # elements of 8 bytes, and y[i] += reads then writes n elements: Q = 8n**2 + 16n;
    # W = n**2 fp64 adds; I = n**2 / (8n**2 + 16n) = n/(8(n + 2))
    kernels = analyze_source(textwrap.dedent('''
        import numpy as np
        from numba import njit

        @njit
        def rowsum_flat(A, y, n):
            for i in range(n):
                for j in range(n):
                    y[i] += A[i * n + j]

        @njit
        def rowsum_chained(A, y, n):
            for i in range(n):
                for j in range(n):
                    y[i] += A[i][j]

        @njit
        def rowsum_tuple(A, y, n):
            for i in range(n):
                for j in range(n):
                    y[i] += A[i, j]

        if __name__ == "__main__":
            n = 100
            y = np.zeros(n)
            A = np.random.rand(n * n)
            rowsum_flat(A, y, n)
            rowsum_chained(A.reshape(n, n), y, n)
            rowsum_tuple(A.reshape(n, n), y, n)
    '''), tmp_path, name="kernels.py")
    for name in ("rowsum_flat", "rowsum_chained", "rowsum_tuple"):
        _check(kernels[name], "n**2", "8*n**2 + 16*n", "n/(8*(n + 2))", "fp64")


def test_negative_step_and_offsets(tmp_path):
    # range(n - 1, 0, -1): i = n-1 .. 1, n - 1 trips (none for n = 1); y[i] = x[i] - x[i - 1]:
    # W = n - 1 fp64; x[0 .. n-1] read (n elements once n >= 2), y[1 .. n-1] written:
    # Q = 8n + 8(n - 1) = 16n - 8 for n >= 2, 0 for n = 1
    p = tmp_path / "k.py"
    p.write_text(textwrap.dedent('''
        from numba import njit

        @njit("void(float64[:], float64[:], int64)")
        def diff_down(x, y, n):
            for i in range(n - 1, 0, -1):
                y[i] = x[i] - x[i - 1]
    '''))
    for n in (1, 2, 3, 10):
        k = analyze_file(p, {"n": str(n)})[0]["diff_down"]
        assert k.exact
        assert k.total.flops.value == n - 1
        assert k.total.compulsory.value == (16 * n - 8 if n >= 2 else 0)


def test_sizes_bind_with_D(tmp_path):
    p = tmp_path / "k.py"
    p.write_text(textwrap.dedent('''
        from numba import njit

        @njit("void(float64[:], float64[:])")
        def copy(x, y):
            n = x.shape[0]
            for i in range(n):
                y[i] = x[i]
    '''))
    kernels, _ = analyze_file(p, {"n": "1000"})
    assert kernels["copy"].total.compulsory.value == 16000  # 8 B read + 8 B written per element


def test_dtype_through_D(tmp_path):
    # `-D x=float32` gives x float32 elements: x*x is an fp32 multiply; Q = 4n (x) + 8n (y, float64)
    p = tmp_path / "k.py"
    p.write_text(textwrap.dedent('''
        from numba import njit

        @njit
        def square(x, y):
            for i in range(x.shape[0]):
                y[i] = x[i] * x[i]
    '''))
    kernels, _ = analyze_file(p, {"x": "float32"})
    t = kernels["square"].total
    assert same(t.compulsory.expr, S("12*x_shape0")) and set(t.by_precision) == {"fp32"}


# ---------------------------------------------------------------------------------------------
# C/CUDA and Numba versions of one algorithm: identical formulas

PAIRS = [
    ("saxpy.c", "saxpy", "saxpy_numba.py", "saxpy"),
    ("saxpy.cu", "saxpy", "saxpy_numba.py", "saxpy_gpu"),
    ("saxpy.cu", "saxpy_grid_stride", "saxpy_numba.py", "saxpy_grid_stride"),
    ("daxpy.c", "daxpy", "daxpy_numba.py", "daxpy"),
    ("vmul.c", "vmul", "daxpy_numba.py", "vmul"),
    ("gemm.c", "gemm", "gemm_numba.py", "gemm"),
    ("gemm_accum.c", "gemm_accum", "gemm_numba.py", "gemm_accum"),
    ("jacobi2d.c", "jacobi2d", "stencil2d_numba.py", "jacobi2d"),
    ("pairsum.c", "pairsum", "../tests/data/python/pairsum.py", "pairsum"),
]


@pytest.mark.parametrize("c_file,c_kernel,py_file,py_kernel", PAIRS, ids=[f"{p[0]}:{p[1]}" for p in PAIRS])
def test_c_and_numba_agree(c_file, c_kernel, py_file, py_kernel):
    c = analyze_file(SAMPLES / c_file)[0][c_kernel]
    py = analyze_file(SAMPLES / py_file)[0][py_kernel]
    assert c.exact and py.exact
    for q in ("flops", "compulsory", "access", "intensity"):
        assert same(getattr(py.total, q).expr, getattr(c.total, q).expr), (q, getattr(py.total, q).expr,
                                                                            getattr(c.total, q).expr)
    assert {p for p, v in py.total.by_precision.items() if v.expr != 0} == \
        {p for p, v in c.total.by_precision.items() if v.expr != 0}


# ---------------------------------------------------------------------------------------------
# Bad input: clear messages, the rest still analyzed, never a traceback

def test_syntax_error_costs_only_its_function(tmp_path):
    p = tmp_path / "broken.py"
    p.write_text(textwrap.dedent('''\
        from numba import njit

        @njit("void(float64[:], float64[:])")
        def good(x, y):
            for i in range(x.shape[0]):
                y[i] = 2.0 * x[i]

        @njit
        def bad(x):
            for i in range(x.shape[0]:
                x[i] = 0
    '''))
    r = CliRunner().invoke(main, ["analyze", str(p)])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert f"{p}:10:" in r.output and "SR001" in r.output and "`bad`" in r.output
    assert "good  [python, exact]" in r.output


def test_unsupported_construct_beside_a_good_kernel(tmp_path):
    p = tmp_path / "mixed.py"
    p.write_text(textwrap.dedent('''\
        import numpy as np
        from numba import njit

        @njit
        def walks(x):
            for v in x:
                print(v)

        @njit
        def scales(x):
            for i in range(x.shape[0]):
                x[i] *= 3.0

        scales(np.ones(10))
    '''))
    kernels, report = analyze_file(p)
    assert kernels["walks"].failed
    d = kernels["walks"].diagnostics[0]
    assert d.code == "SR002" and d.location.line == 6 and d.location.col == 5
    _check(kernels["scales"], "x_shape0", "16*x_shape0", "1/16", "fp64")
    assert report.failed


def test_file_without_kernels(tmp_path):
    p = tmp_path / "plain.py"
    p.write_text("import numpy as np\n\n\ndef helper(a):\n    return a + 1\n")
    r = CliRunner().invoke(main, ["analyze", str(p)])
    assert "SR006" in r.output and "Traceback" not in r.output


def test_undecorated_loops_are_drivers_shown_with_all_functions(tmp_path):
    p = tmp_path / "plain.py"
    p.write_text(textwrap.dedent('''\
        def scale(x, a):
            for i in range(len(x)):
                x[i] = a * x[i]
    '''))
    r = CliRunner().invoke(main, ["analyze", str(p)])
    assert "scale" not in r.output.split("SR006")[0] or "SR006" in r.output
    r = CliRunner().invoke(main, ["analyze", "--all-functions", str(p)])
    assert "scale  [python" in r.output


def test_the_file_is_never_imported_or_run(tmp_path):
    marker = tmp_path / "ran"
    p = tmp_path / "sideeffect.py"
    p.write_text(textwrap.dedent(f'''\
        import pathlib
        pathlib.Path({str(marker)!r}).write_text("imported")
        raise SystemExit(3)
        from numba import njit

        @njit
        def k(x):
            for i in range(x.shape[0]):
                x[i] = 1.0
    '''))
    kernels, _ = analyze_file(p)
    assert not marker.exists() and "k" in kernels and not kernels["k"].failed


def test_analyze_does_not_import_numba_and_front_end_stays_out_of_the_analyses():
    code = textwrap.dedent(f'''
        import sys
        from staticroof.frontends import load
        res, _ = load({str(SAMPLES / "saxpy_numba.py")!r}, {{}})
        assert res.kernels, res.diagnostics
        bad = [m for m in sys.modules if m.startswith(("staticroof.analysis", "staticroof.roofline",
                                                       "staticroof.reports"))]
        assert not bad, bad
        from staticroof.cli import main
        try:
            main(["analyze", {str(SAMPLES / "gemm_numba.py")!r}])
        except SystemExit:
            pass
        assert "numba" not in sys.modules and "numpy" not in sys.modules, "numba imported"
        print("ok")
    ''')
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


def test_gallery_coverage():
    # Kernels in the styles of Numba's documentation and examples (tests/data/python_gallery) and every
    # Python kernel of the repository: at least 90% analyzed, no internal error; every gallery kernel
    # (mandel's complex arithmetic too, since issue #29).
    files = sorted((ROOT / "tests" / "data" / "python_gallery").glob("*.py")) + sorted(SAMPLES.glob("*.py")) \
        + sorted((ROOT / "tests" / "data" / "python").glob("*.py"))
    total = analyzed = 0
    for f in files:
        kernels, report = analyze_file(f)
        assert not any(d.code == "SR099" for d in report.file_diagnostics)
        for k in kernels.values():
            assert not any(d.code == "SR099" for d in k.diagnostics), [str(d) for d in k.diagnostics]
            total += 1
            analyzed += not k.failed
    assert total >= 60 and analyzed / total >= 0.9, (analyzed, total)
    gallery = analyze_file(ROOT / "tests" / "data" / "python_gallery" / "numba_examples.py")[0]
    assert [n for n, k in gallery.items() if k.failed] == []


def test_grid_and_block_options_override_the_launch(tmp_path):
    # no launch site: --block 128 makes threadIdx/blockIdx usable alone (the block size is known);
    # the guard i < n still gives n threads of one fp32 multiply each
    p = tmp_path / "k.py"
    p.write_text(textwrap.dedent('''
        from numba import cuda

        @cuda.jit("void(float32[:], int32)")
        def tile_scale(x, n):
            i = cuda.blockIdx.x * 128 + cuda.threadIdx.x
            if i < n:
                x[i] = x[i] * x[i]
    '''))
    r = CliRunner().invoke(main, ["analyze", str(p), "--block", "128", "-D", "n=1000"])
    assert "block 128 x 1 x 1 (--grid/--block)" in r.output and "W            n = 1,000 FLOP" in r.output, r.output


@pytest.mark.parametrize("n", [100, 1000])
def test_grid_option_replaces_the_grid_formula_of_the_launch_site(tmp_path, n):
    # the launch passes n, so its grid is the formula ceil(n/128) in the kernel's sizes; --grid 3
    # replaces it, as in CUDA C (it used to be kept: 8 blocks at n = 1000, "with --grid" said).
    # No guard: every one of the 3*128 = 384 threads does one fp64 multiply (np.ones is float64,
    # 2.0 a float64), W = 384 whatever n is, on both sides of the block size 128
    p = tmp_path / "k.py"
    p.write_text(textwrap.dedent('''
        import numpy as np
        from numba import cuda


        @cuda.jit
        def scale(x, n):
            i = cuda.grid(1)
            x[i] = x[i] * 2.0


        def main():
            n = 1000
            d_x = cuda.to_device(np.ones(n))
            scale[(n + 127) // 128, 128](d_x, n)
    '''))
    r = CliRunner().invoke(main, ["analyze", str(p), "-D", f"n={n}", "--grid", "3"])
    assert "grid 3 x 1 x 1, block 128 x 1 x 1" in r.output and "with --grid" in r.output, r.output
    assert "= 384 FLOP   (fp64)" in r.output, r.output


def test_types_from_type_objects_tuples_and_annotations(tmp_path):
    # numba.types objects, a tuple of argument types and annotations all make x and y float32:
    # y[i] = x[i] * x[i] is one fp32 multiply per element, Q = 8 bytes per element; print() is free
    kernels = analyze_source(textwrap.dedent('''
        import numba as nb
        from numba import njit, types

        @njit(types.void(types.float32[:], types.float32[:]))
        def by_types(x, y):
            for i in range(x.shape[0]):
                y[i] = x[i] * x[i]

        @njit((nb.float32[:], nb.float32[:]))
        def by_tuple(x, y):
            for i in range(x.shape[0]):
                y[i] = x[i] * x[i]

        @njit
        def by_annotation(x: "float32[:]", y: nb.float32[:]):
            print(f"{x.shape[0]} elements")
            for i in range(x.shape[0]):
                y[i] = x[i] * x[i]
    '''), tmp_path, name="kernels.py")
    for name in ("by_types", "by_tuple", "by_annotation"):
        _check(kernels[name], "x_shape0", "8*x_shape0", "1/8", "fp32")


def test_sr107_at_each_promoted_operator(tmp_path):
    # `0.5 * v * (...)` in a float32 kernel: the inner `*` (column 20) meets a Python float and the
    # outer one (column 24) the float64 product; both start at `0.5`, so each note is placed at its
    # operator. `s += x[i]` with `s = 0.0` adds a float32 element to a float64 accumulator (the `+=`
    # at column 11). `x[i] * np.float32(2)` and `x[i] ** 2` stay fp32: no note.
    p = tmp_path / "act.py"
    p.write_text(textwrap.dedent('''\
        import numpy as np
        from numba import njit


        @njit("void(float32[:], float32[:])")
        def act(x, y):
            s = 0.0
            for i in range(x.shape[0]):
                y[i] = 0.5 * x[i] * (x[i] * np.float32(2) + x[i] ** 2)
                s += x[i]
            y[0] = s
    '''))
    k = analyze_file(p)[0]["act"]
    notes = sorted((d.location.line, d.location.col, d.message.split(" runs")[0]) for d in k.diagnostics
                   if d.code == "SR107")
    assert notes == [(9, 20, "`*` on fp32 and a Python float literal (float64 in Numba) `0.5`"),
                     (9, 27, "`*` on fp32 and a float64 operand `0.5 * x[i]`"),
                     (10, 11, "`+` on fp32 and a float64 operand `s`")]
