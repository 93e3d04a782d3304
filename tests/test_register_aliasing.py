"""One traffic model for analyze and lint: the access level's register rule knows aliasing.

A DRAM reference invariant in its innermost sequential loop is held in a register across that loop
(one access per execution of the loop) unless another array of the loop may alias it
(staticroof.registers).  Each expectation below is derived by hand in its comment; the
trace oracles (C, CUDA, Numba), written apart from the analysis, must count the same, and lint's
RF202 must name only traffic the access level already counts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.registers import types_may_alias

from helpers import S, analyze_source, lint, lint_codes, same, totals_agree, trace_agrees

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

ROW_SUM = """
void row_sum(const float *in, float *out, int rows, int cols) {
  for (int r = 0; r < rows; r++) { out[r] = 0.0f; for (int c = 0; c < cols; c++) out[r] += in[r*cols + c]; }
}
"""
ROW_SUM_RESTRICT = ROW_SUM.replace("const float *in, float *out", "const float *restrict in, float *restrict out")
ROW_SUM_LOCAL = """
void row_sum(const float *in, float *out, int rows, int cols) {
  for (int r = 0; r < rows; r++) { float s = 0.0f; for (int c = 0; c < cols; c++) s += in[r*cols + c]; out[r] = s; }
}
"""


def _arr(k, name):
    return k.total.arrays[name]


def _check(k, name, loads, stores):
    a = _arr(k, name)
    assert same(a.access_read.expr, S(loads)), (name, a.access_read.expr, loads)
    assert same(a.access_write.expr, S(stores)), (name, a.access_write.expr, stores)


# -- C ------------------------------------------------------------------------------------------
def test_row_sum_without_restrict_loads_and_stores_every_trip(tmp_path):
    k = analyze_source(ROW_SUM, tmp_path, name="rs.c")["row_sum"]
    # W: one fp32 add per (r, c).  Q compulsory: in read once (4*rows*cols), out written (4*rows).
    # `out` may alias `in` (both float, no restrict) and is written in the c loop: every trip loads
    # and stores out[r].  out: loads 4*rows*cols, stores 4*rows (`= 0`) + 4*rows*cols.
    totals_agree(k, {"W": "rows*cols", "Q": "4*rows*cols + 4*rows",
                     "Q_access": "4*rows*cols + 4*rows*cols + 4*rows + 4*rows*cols"})
    _check(k, "in", "4*rows*cols", "0")
    _check(k, "out", "4*rows*cols", "4*rows + 4*rows*cols")


def test_row_sum_with_restrict_holds_the_accumulator(tmp_path):
    k = analyze_source(ROW_SUM_RESTRICT, tmp_path, name="rs.c")["row_sum"]
    # restrict: out[r] in a register across the c loop, as before aliasing was modeled: one load
    # per r (before the loop), stores 4*rows (`= 0`) + 4*rows (after the loop).  Q unchanged.
    totals_agree(k, {"W": "rows*cols", "Q": "4*rows*cols + 4*rows", "Q_access": "4*rows*cols + 12*rows"})
    _check(k, "out", "4*rows", "8*rows")


def test_a_local_accumulator_is_unchanged(tmp_path):
    k = analyze_source(ROW_SUM_LOCAL, tmp_path, name="rs.c")["row_sum"]
    # s is a register: in 4*rows*cols loads, out 4*rows stores; access = compulsory
    totals_agree(k, {"W": "rows*cols", "Q": "4*rows*cols + 4*rows", "Q_access": "4*rows*cols + 4*rows"})


GEMV = """
void gemv(int n, const float *A, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] += A[i*n + j] * x[j];
}
"""


@pytest.mark.parametrize("restrict", [False, True])
def test_gemv(tmp_path, restrict):
    src = GEMV.replace("float *y", "float *restrict y") if restrict else GEMV
    k = analyze_source(src, tmp_path, name="gemv.c")["gemv"]
    # W = 2n^2; Q = A 4n^2 + x 4n + y read and written 8n.  A, x: 4n^2 loads each (both vary in j).
    # y[i]: no restrict -> may alias A and x (float): loads and stores 4n^2 each; restrict on y ->
    # nothing aliases it: one load and one store per i (4n each).
    totals_agree(k, {"W": "2*n**2", "Q": "4*n**2 + 12*n"})
    _check(k, "A", "4*n**2", "0")
    _check(k, "x", "4*n**2", "0")
    if restrict:
        _check(k, "y", "4*n", "4*n")
    else:
        _check(k, "y", "4*n**2", "4*n**2")


READ_ONLY = """
void scale(int n, const float *x, const float *w, float *y) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < n; j++)
      s += x[i] * w[j];
    y[i] = s;
  }
}
"""


def test_a_read_only_invariant_reference_is_held_when_the_loop_writes_no_array(tmp_path):
    k = analyze_source(READ_ONLY, tmp_path, name="ro.c")["scale"]
    # the j loop writes only the local s: x[i] is read once per i (4n), w[j] every trip (4n^2),
    # y[i] stored after the loop (4n)
    _check(k, "x", "4*n", "0")
    _check(k, "w", "4*n**2", "0")
    _check(k, "y", "0", "4*n")


MIXED = """
void mix(int n, const float *a, double *acc) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      acc[i] += a[i*n + j];
}
"""


def test_float_and_double_do_not_alias(tmp_path):
    k = analyze_source(MIXED, tmp_path, name="mix.c")["mix"]
    # strict aliasing: a double store cannot change a float: acc[i] held (8n loads, 8n stores)
    _check(k, "acc", "8*n", "8*n")
    _check(k, "a", "4*n**2", "0")
    assert types_may_alias("fp32", "fp32") and not types_may_alias("fp32", "fp64")
    assert types_may_alias("uint8", "fp64") and types_may_alias("int32", "uint32")


CHARS = MIXED.replace("const float *a", "const unsigned char *a")


def test_a_byte_array_aliases_anything(tmp_path):
    k = analyze_source(CHARS, tmp_path, name="chars.c")["mix"]
    # unsigned char may alias the double: acc[i] loaded and stored every trip (8n^2 each)
    _check(k, "acc", "8*n**2", "8*n**2")
    _check(k, "a", "n**2", "0")


@pytest.mark.parametrize("src,name", [(ROW_SUM, "row_sum"), (ROW_SUM_RESTRICT, "row_sum"),
                                      (ROW_SUM_LOCAL, "row_sum"), (GEMV, "gemv"),
                                      (GEMV.replace("float *y", "float *restrict y"), "gemv"),
                                      (READ_ONLY, "scale"), (MIXED, "mix"), (CHARS, "mix")])
@pytest.mark.parametrize("size", [1, 2, 7])
def test_the_c_trace_agrees(tmp_path, src, name, size):
    sizes = {"rows": size, "cols": size + 2} if name == "row_sum" else {"n": size}
    k = analyze_source(src, tmp_path, sizes, name="k.c")[name]
    trace_agrees(Path(tmp_path) / "k.c", name, sizes, k)


# -- CUDA ---------------------------------------------------------------------------------------
CUDA = """
__global__ void rows(const float *in, float *RESTRICT out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    for (int c = 0; c < cols; c++)
      out[r] += in[r * cols + c];
}

int main() {
  int rows = 1000, cols = 64;
  float *in, *out;
  rows<<<(rows + 127) / 128, 128>>>(in, out, rows, cols);
}
"""


@pytest.mark.parametrize("restrict", [False, True])
def test_cuda_restrict_on_one_of_two_pointers(tmp_path, restrict):
    src = CUDA.replace("RESTRICT", "__restrict__" if restrict else "")
    k = analyze_source(src, tmp_path, name="k.cu")["rows"]
    # 1000 threads with r < rows = 1000, each 64 trips.  `__restrict__` on out alone is enough: out
    # aliases nothing, so out[r] is held (one load, one store per thread: 4*1000 each); without it
    # every trip loads and stores out[r]: 4*64000 each.  in: 4*64000 loads either way.
    assert k.exact, [str(d) for d in k.diagnostics]
    a = _arr(k, "out")
    per = 4 * 1000 if restrict else 4 * 64000
    assert (a.access_read.value, a.access_write.value) == (per, per)
    assert _arr(k, "in").access_read.value == 4 * 64000
    assert k.total.compulsory.value == 4 * 64000 + 8 * 1000  # compulsory unchanged
    trace_agrees(Path(tmp_path) / "k.cu", "rows", {"rows": 1000, "cols": 64}, k, "cuda")


# -- Numba --------------------------------------------------------------------------------------
NUMBA = '''
import numpy as np
from numba import njit


@njit("void(float64[:, :], float64[:], int64, int64)")
def row_sum(a, out, rows, cols):
    for r in range(rows):
        out[r] = 0.0
        for c in range(cols):
            out[r] += a[r, c]


@njit("void(float64[:, :], float64[:], int64, int64)")
def row_sum_local(a, out, rows, cols):
    for r in range(rows):
        s = 0.0
        for c in range(cols):
            s += a[r, c]
        out[r] = s


@njit("void(float32[:, :], float64[:], int64, int64)")
def mixed(a, out, rows, cols):
    for r in range(rows):
        for c in range(cols):
            out[r] += a[r, c]
'''

SIZES = {"rows": 300, "cols": 20, "a_shape0": 300, "a_shape1": 20, "out_shape0": 300}


def test_numba_arguments_may_alias(tmp_path):
    ks = analyze_source(NUMBA, tmp_path, SIZES, name="k.py")
    k = ks["row_sum"]
    # float64 arrays: out may alias a (Numba assumes no independence): out loads 8*300*20, stores
    # 8*300 (`= 0`) + 8*300*20; a 8*300*20 loads.  Q = 8*6000 + 8*300.
    assert k.exact, [str(d) for d in k.diagnostics]
    assert (_arr(k, "out").access_read.value, _arr(k, "out").access_write.value) == (48000, 2400 + 48000)
    assert k.total.compulsory.value == 48000 + 2400
    # a local accumulator: out stored once per row (8*300)
    assert _arr(ks["row_sum_local"], "out").access_write.value == 2400
    # a float32 `a` cannot alias a float64 `out`: out[r] held, 8*300 loads and 8*300 stores
    m = ks["mixed"]
    assert (_arr(m, "out").access_read.value, _arr(m, "out").access_write.value) == (2400, 2400)


@pytest.mark.parametrize("kernel", ["row_sum", "row_sum_local", "mixed"])
def test_the_numba_trace_agrees(tmp_path, kernel):
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run
    from staticroof.trace import compare, run as run_trace

    path = Path(tmp_path) / "k.py"
    path.write_text(NUMBA)
    defines = {n: str(v) for n, v in SIZES.items()}
    (k,) = run([path], AnalysisOptions(defines=defines, only={kernel})).kernels
    traced = run_trace(str(path), kernel, dict(k.sizes), "python", defines, launch=None)
    assert [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok] == []


# -- lint agrees with the analysis ----------------------------------------------------------------
def test_rf202_follows_the_register_rule(tmp_path):
    _, found, _ = lint(tmp_path, {"rs.c": ROW_SUM}, "--select", "RF202")
    assert lint_codes(found) == ["RF202"]
    msg = found[0][3]
    # the per-trip bytes of out[r] += ...: 8 per (r, c), counted by the access level
    assert "as it may alias `in`" in msg and "the access level counts 8*cols*rows" in msg, msg
    for src in (ROW_SUM_RESTRICT, ROW_SUM_LOCAL, MIXED):
        assert lint(tmp_path, {"ok.c": src}, "--select", "RF202")[1] == []


def _samples():
    return sorted(p for p in SAMPLES.iterdir() if p.suffix in (".c", ".cu", ".py"))


@pytest.mark.parametrize("path", _samples(), ids=lambda p: p.name)
def test_every_rf202_finding_is_counted_by_the_access_level(path):
    r = CliRunner().invoke(main, ["lint", str(path), "--format", "json", "--select", "RF202"])
    assert r.exit_code in (0, 1), r.output
    findings = json.loads(r.stdout)
    if not findings:
        return
    a = CliRunner().invoke(main, ["analyze", str(path), "--format", "json"])
    assert a.exit_code == 0, a.output
    kernels = {k["name"]: k for k in json.loads(a.stdout)["kernels"]}
    for f in findings:
        kname = f["message"].split("`")[1]
        array = f["message"].split("`")[3]
        per_trip = f["message"].split("the access level counts ")[1].split(" for it")[0]
        arr = kernels[kname]["bytes"]["arrays"][array]
        access = S(arr["access_read_expr"]) + S(arr["access_write_expr"])
        trips = S(per_trip.split(" = ")[0].removesuffix(" B"))
        # the access level of the array holds the per-trip loads and stores RF202 names (at sizes
        # on both sides of any constant)
        for v in (1, 7, 1000):
            assert (access - trips).subs(dict.fromkeys(access.free_symbols | trips.free_symbols, v)) >= 0, \
                (path.name, kname, array, access, trips)
