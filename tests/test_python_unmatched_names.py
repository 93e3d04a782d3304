"""No silent option (#29 §5): a command-line `--dtype NAME=TYPE` (or `-D NAME=TYPE`) whose NAME is no
parameter of any analyzed Python kernel, and a `-D NAME=VALUE` whose NAME is no parameter or size of
one, are a warning on stderr with the closest names; the exit status and the report are unchanged.
The names of every file count (a kernel in another file may use it), and a `-D` is not checked when a
C or CUDA file is in the run (its preprocessor may take any name as a macro)."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from staticroof.cli import main

# saxpy's names: the parameters a, x, y; the size of `range(x.shape[0])`: x_shape0
SAXPY = textwrap.dedent('''
    import numpy as np
    from numba import njit


    @njit
    def saxpy(a, x, y):
        for i in range(x.shape[0]):
            y[i] = a * x[i] + y[i]
''')

# scale's names: x, y, and the local size n (`n = x.shape[0]` names the size n)
SCALE = textwrap.dedent('''
    from numba import njit


    @njit
    def scale(x, y):
        n = x.shape[0]
        for i in range(n):
            y[i] = 2.0 * x[i]
''')

C_FILE = "void copy(int n, float *a, const float *b) { for (int i = 0; i < n; i++) a[i] = b[i]; }\n"


def _analyze(paths, *args):
    r = CliRunner().invoke(main, ["analyze", *map(str, paths), *args])
    warnings = [line for line in r.stderr.splitlines() if line.startswith("staticroof: warning:")]
    return r, warnings


@pytest.fixture
def saxpy(tmp_path):
    p = tmp_path / "saxpy.py"
    p.write_text(SAXPY)
    return p


def test_a_dtype_for_no_parameter_names_the_closest(saxpy):
    plain, none = _analyze([saxpy])
    r, warnings = _analyze([saxpy], "--dtype", "xx=float32")
    assert none == []
    assert warnings == ["staticroof: warning: `--dtype xx=float32`: `xx` is no parameter of any analyzed Python "
                        "kernel (did you mean `x`?); it is ignored"]
    assert r.exit_code == plain.exit_code and r.stdout == plain.stdout  # a warning, nothing else changes


def test_a_define_for_no_size_names_the_shape_symbol(saxpy):
    r, warnings = _analyze([saxpy], "-D", "x_shape=1000")
    assert warnings == ["staticroof: warning: `-D x_shape=1000`: `x_shape` is no parameter or size of any "
                        "analyzed Python kernel (did you mean `x_shape0`?); it is ignored"]
    r, warnings = _analyze([saxpy], "-D", "x_shape0=1000", "--dtype", "a=float32", "-D", "y=float32")
    assert warnings == []
    assert "x_shape0 = 1,000 (-D)" in r.stdout  # the size it names is bound


def test_a_define_typing_a_name_that_is_no_parameter(saxpy):
    _r, warnings = _analyze([saxpy], "-D", "b=float32", "-D", "zzz=7")
    assert warnings == [
        "staticroof: warning: `-D b=float32`: `b` is no parameter of any analyzed Python kernel; it is ignored",
        "staticroof: warning: `-D zzz=7`: `zzz` is no parameter or size of any analyzed Python kernel; "
        "it is ignored"]


def test_a_name_of_a_kernel_in_another_file_matches(tmp_path, saxpy):
    other = tmp_path / "scale.py"
    other.write_text(SCALE)
    _r, alone = _analyze([saxpy], "-D", "n=100")
    _r, both = _analyze([saxpy, other], "-D", "n=100")
    assert len(alone) == 1 and "`n` is no parameter or size" in alone[0]
    assert both == []  # scale's local size n


def test_a_c_file_in_the_run_takes_the_defines_it_spells(tmp_path, saxpy):
    """A C file spelling USE_FAST (in an `#ifdef`) takes `-D USE_FAST=1` as its macro: no warning;
    `-D NDEBUG` changes the assert.h stub and `-D __FAST_MATH__` is reserved: no warning either.  The
    --dtype is still checked against the Python kernels only (the C file's `n` is no --dtype target)."""
    c = tmp_path / "copy.c"
    c.write_text("#ifdef USE_FAST\n#endif\n" + C_FILE)
    _r, warnings = _analyze([saxpy, c], "-D", "USE_FAST=1", "-D", "NDEBUG", "-D", "__FAST_MATH__",
                            "--dtype", "q=float32")
    assert warnings == ["staticroof: warning: `--dtype q=float32`: `q` is no parameter of any analyzed Python "
                        "kernel; it is ignored"]


def test_a_define_no_c_file_spells_is_a_warning(tmp_path):
    """Issue #32: `-D M=1000` for a parameter named `m` became a macro no line uses, silently.  A -D
    whose name the file, its headers and the stubs never spell warns, naming the case-insensitive
    match; a name of a size symbol the analysis made (`gridDim_x`) or a parameter matches."""
    c = tmp_path / "copy.c"
    c.write_text(C_FILE.replace("int n", "int m").replace("< n", "< m"))
    _r, warnings = _analyze([c], "-D", "M=1000", "-D", "m=37")
    assert warnings == ["staticroof: warning: `-D M=1000`: no analyzed file or its headers use `M` (did you mean "
                        "`m`?); it is ignored"]
    cu = tmp_path / "k.cu"
    cu.write_text("__global__ void k(float *y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n")
    _r, warnings = _analyze([cu], "-D", "gridDim_x=4", "-D", "blockDim_x=32")
    assert warnings == []


def test_the_warning_survives_the_printed_cache(tmp_path, saxpy, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.staticroof]\n")
    args = ("--use-cache", "--config", str(tmp_path / "pyproject.toml"), "-D", "x_shape=9")
    first, w1 = _analyze([saxpy], *args)
    second, w2 = _analyze([saxpy], *args)  # printed from the cache entry: no analysis
    assert any((tmp_path / ".staticroof_cache").rglob("*"))
    assert w1 == w2 and len(w1) == 1 and "`x_shape0`" in w1[0]
    assert first.stdout == second.stdout
    _r, w3 = _analyze([saxpy], "--use-cache", "--config", str(tmp_path / "pyproject.toml"), "-D", "x_shape0=9")
    assert w3 == []
