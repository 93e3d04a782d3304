"""`(name)` is a cast only when `name` is a type where it is written (issue #28): a local, a
parameter, a file-scope variable or a function in scope is a value, so `(t) - a[i]` subtracts,
`if (flag) x = ...` is a condition and `cosf(t) - 1.0f` a call; a typedef stays a cast (`(real) -
a[i]` negates and converts), also past an inner block whose local shadowed it.  Once through the
CUDA front end (whose token rewrite makes unknown type names opaque: it read these as casts, W = 0
with no error) and once through the C front end (pycparser).  Expected W and Q are derived by hand
in the comments, at sizes on both sides of the constants (n = 37 and 1000; flag 0 and 1); the trace,
which compiles the real code, must agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import analyze_source, codes, trace_agrees

BODIES = {
    # a local `float t`: one fp32 subtraction per element; a read and written: 8 B per element
    "sub_local": ("float *a", "float t = 2.0f; a[i] = (t) - a[i];"),
    # a parameter as a condition: y[i] * 2 when flag (1 FLOP, y read, x written), nothing otherwise
    "flagged": ("float *x, const float *y, int flag", "if (flag) x[i] = y[i] * 2.0f;"),
    # cosf(t) - 1: one special call (1 FLOP) + one subtraction per element; x read and written
    "cos_minus": ("float *x", "float t = x[i]; x[i] = cosf(t) - 1.0f;"),
    # a genuine cast and a cast to a typedef: (float)k[i] converts (0 FLOP), * 2 is 1 FLOP;
    # (real) - a[i] negates and converts: 0 FLOP.  k (int) read, a read and written: 12 B
    "casts": ("float *a, const int *k", "a[i] = (real) - a[i]; a[i] = a[i] + (float)k[i] * 2.0f;"),
    # `real` shadowed by a local in the inner block: subtraction there (1 FLOP); after the block
    # the typedef again: a cast (0 FLOP).  a and b each read and written: 16 B
    "shadowed": ("float *a, float *b", "{ float real = 3.0f; a[i] = (real) - a[i]; } b[i] = (real) - b[i];"),
    # a file-scope variable: one subtraction per element
    "file_scope": ("float *a", "a[i] = (offset) - a[i];"),
}


def expected(name: str, n: int, flag: int) -> tuple[int, int]:
    """(W, Q compulsory) by hand, per the comments above."""
    return {"sub_local": (n, 8 * n), "flagged": (flag * n, 8 * n * flag), "cos_minus": (2 * n, 8 * n),
            "casts": (2 * n, 12 * n), "shadowed": (n, 16 * n), "file_scope": (n, 8 * n)}[name]


def c_source() -> str:
    funcs = "".join(f"void {name}({params}, int n)\n{{\n    for (int i = 0; i < n; i++) {{ {body} }}\n}}\n"
                    for name, (params, body) in BODIES.items())
    return "#include <math.h>\ntypedef float real;\nfloat offset = 0.5f;\n" + funcs


def cuda_source(n: int, flag: int) -> str:
    funcs = "".join(f"__global__ void {name}({params}, int n)\n{{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    f"    if (i < n) {{ {body} }}\n}}\n" for name, (params, body) in BODIES.items())
    # every kernel launched over exactly n threads' blocks, as a host would
    calls = "".join(f"    {name}<<<(n + 127) / 128, 128>>>({', '.join(_args(params))}, n);\n"
                    for name, (params, _) in BODIES.items())
    main = (f"int main()\n{{\n    int n = {n}, flag = {flag};\n    float *a, *b, *x, *y; int *k;\n"
            f"{calls}    return 0;\n}}\n")
    return "typedef float real;\n__device__ float offset = 0.5f;\n" + funcs + main


def _args(params: str) -> list[str]:
    return [p.split()[-1].lstrip("*") for p in params.split(",")]


@pytest.mark.parametrize("n", [37, 1000])
def test_c(tmp_path, n, flag=1):
    ks = analyze_source(c_source(), tmp_path, {"n": n, "flag": flag}, name="names.c")
    for name in BODIES:
        k = ks[name]
        assert k.exact, (name, [str(d) for d in k.diagnostics])
        assert (k.total.flops.value, k.total.compulsory.value) == expected(name, n, flag), name
    for name in ("sub_local", "flagged", "shadowed"):
        trace_agrees(Path(tmp_path) / "names.c", name, {"n": n, "flag": flag}, ks[name])


@pytest.mark.parametrize("n", [37, 1000])
def test_cuda(tmp_path, n, flag=1):
    ks = analyze_source(cuda_source(n, flag), tmp_path, {"flag": flag}, name="names.cu")
    for name in BODIES:
        k = ks[name]
        assert not k.failed and k.exact, (name, [str(d) for d in k.diagnostics])
        assert "SR141" not in codes(k), name  # no name read as an unknown type
        assert (k.total.flops.value, k.total.compulsory.value) == expected(name, n, flag), name
    for name in ("sub_local", "flagged", "shadowed"):
        trace_agrees(Path(tmp_path) / "names.cu", name, {"n": n, "flag": flag}, ks[name], "cuda")


@pytest.mark.parametrize("suffix", ["c", "cu"])
def test_a_false_flag_counts_nothing(tmp_path, suffix):
    # flag = 0: the branch never runs: W = 0, Q = 0 at both sizes (the values)
    for n in (37, 1000):
        src = c_source() if suffix == "c" else cuda_source(n, 0)
        k = analyze_source(src, tmp_path, {"n": n, "flag": 0}, name=f"names.{suffix}")["flagged"]
        assert (k.total.flops.value, k.total.compulsory.value) == (0, 0)


@pytest.mark.parametrize("suffix", ["c", "cu"])
@pytest.mark.parametrize("n", [37, 1000])
def test_a_false_flag_is_exact(tmp_path, suffix, n):
    # `-D flag=0` is below 1, where no formula over the sizes reaches (every size is at least 1, so
    # the formula for `if (flag)` is the flag != 0 one, W = n): the bound value decides the condition
    # as a compile-time constant would (SR115), the guarded statement never runs, and W = Q = 0 is
    # exact, formulas included; the trace agrees.
    src = c_source() if suffix == "c" else cuda_source(n, 0)
    k = analyze_source(src, tmp_path, {"n": n, "flag": 0}, name=f"names.{suffix}")["flagged"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert "SR115" in codes(k) and "SR121" not in codes(k)
    assert (k.total.flops.value, k.total.compulsory.value, k.total.access.value) == (0, 0, 0)
    assert (k.total.flops.expr, k.total.compulsory.expr) == (0, 0)
    trace_agrees(Path(tmp_path) / f"names.{suffix}", "flagged", {"n": n, "flag": 0}, k,
                 "c" if suffix == "c" else "cuda")


FFS = """
__global__ void lowest(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { int s = x[i]; x[i] = __ffs(s) - 1; }
}
int main() { int *x; lowest<<<(NN + 127) / 128, 128>>>(x, NN); return 0; }
"""


@pytest.mark.parametrize("n", [37, 1000])
def test_an_integer_intrinsic_minus_one(tmp_path, n):
    # __ffs(s) - 1: integer work only (W = 0); x (int32) read and written: 8 B per element
    ks = analyze_source(FFS.replace("NN", str(n)), tmp_path, name="ffs.cu")
    k = ks["lowest"]
    assert not k.failed and k.exact, [str(d) for d in k.diagnostics]
    assert not {"SR001", "SR105", "SR141"} & codes(k)
    assert (k.total.flops.value, k.total.compulsory.value) == (0, 8 * n)
    trace_agrees(Path(tmp_path) / "ffs.cu", "lowest", {"n": n}, k, "cuda")


GUESS = """
#include "consts.h"
__global__ void gone(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { { float t = 1.0f; a[i] = a[i] * t; } a[i] = (t) - a[i]; }
}
"""


def test_a_name_nothing_declares_is_a_guess_that_says_so(tmp_path):
    # `t` is out of scope after its block and no header declares it: `(t) - a[i]` cannot be
    # decided; it is read as a cast (the old reading) with SR141 saying so, and approximate
    (tmp_path / "consts.h").write_text("/* the real one is elsewhere */\n")
    k = analyze_source(GUESS, tmp_path, {"n": 1000}, name="gone.cu")["gone"]
    assert not k.failed and not k.exact
    notes = [d.message for d in k.diagnostics if d.code == "SR141"]
    assert len(notes) == 1 and "`(t)` is read as a cast" in notes[0] and "guess" in notes[0]
    assert k.total.flops.value == 1000  # a[i] * t: the guessed cast does no floating-point work
