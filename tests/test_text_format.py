"""The text formats people read (issue #11): every count that stands alone has thousands
separators (`2,403,000 B`, never `2403000 B`), and every formula or number carries its unit
(`FLOP`, `B`, `FLOP/B`, `calls`), in `analyze`, `trace` and `machines`.  The numbers asserted here
are derived by hand; only their spelling is the subject."""

from __future__ import annotations

import re
import shutil
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.diagnostics import Location
from staticroof.reports.formula import expr, number
from staticroof.reports.trace import render_text, unit
from staticroof.trace import Row

from helpers import SAMPLES

_FIXED = r"""
#include <stdio.h>
#include <stdlib.h>

struct timer { double start, stop; };

/* a fixed-size buffer scaled in place, and a small fp64 table folded to fp32 */
void scale_fixed(float *restrict buf, const double *restrict w, float *restrict out)
{
    for (int i = 0; i < 300000; i++)
        buf[i] = buf[i] * 2.0f;
    for (int i = 0; i < 250; i++)
        out[i] = (float)(w[i] * 0.5);
}

int main(void)
{
    float *buf = malloc(300000 * sizeof(float)), *out = malloc(250 * sizeof(float));
    double *w = malloc(250 * sizeof(double));
    scale_fixed(buf, w, out);
    printf("%f\n", buf[0] + out[0]);
    return 0;
}
"""


def run(*args) -> str:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.output


def lines(text: str) -> list[str]:
    return [" ".join(x.split()) for x in text.splitlines()]


def bare_counts(text: str) -> list[str]:
    """Integers of 4 digits or more printed right before a unit without separators."""
    return re.findall(r"(?<![\w.,*/])\d{4,} (?:B|FLOP|calls)\b", text)


def test_constant_counts_have_separators_and_units(tmp_path):
    # Every count is a constant (no sizes): buf is 300,000 floats read and written (1,200,000 B
    # each) with one fp32 multiply per element; w is 250 doubles read (2,000 B), multiplied in fp64
    # (250 FLOP; the cast is free), out 250 floats written (1,000 B).  W = 300,250 FLOP;
    # Q = 2,400,000 + 2,000 + 1,000 = 2,403,000 B, the access level the same (no element twice).
    # Nest L9: 300,000 FLOP over 2,400,000 B = 1/8; nest L11: 250 over 3,000 B = 1/12.
    p = tmp_path / "fixed.c"
    p.write_text(_FIXED.lstrip("\n"))
    out = run("analyze", p, "--machine", "h100")
    got = lines(out)
    for want in ["W 300,250 FLOP (fp64 250 FLOP, fp32 300,000 FLOP)",
                 "Q compulsory 2,403,000 B",
                 "Q access 2,403,000 B (no reuse beyond registers)",
                 "arrays buf (fp32): read 1,200,000 B, write 1,200,000 B access r 1,200,000 B, w 1,200,000 B",
                 "out (fp32): read 0 B, write 1,000 B access r 0 B, w 1,000 B",
                 "w (fp64): read 2,000 B, write 0 B access r 2,000 B, w 0 B",
                 "nest L9 W 300,000 FLOP, Q 2,400,000 B, I 1/8 FLOP/B",
                 "nest L11 W 250 FLOP, Q 3,000 B, I 1/12 FLOP/B"]:
        assert want in got, out
    # Q cache is the constant itself (no `2403000 = 2,403,000`), with its unit
    assert any(x.startswith("Q cache 2,403,000 B (lower bound") for x in got), out
    assert not bare_counts(out), bare_counts(out)


def test_gemm_at_2048_on_h100():
    # N = 2048: W = 2N^3 = 17,179,869,184 FLOP; Q compulsory = 12N^2 = 50,331,648 B; access
    # 8N^3 + 4N^2 = 68,736,253,952 B; I = N/6 = 341.33 FLOP/B, stated with its unit on the
    # I line, the roofline line and the DRAM level alike (one spelling of one number).
    out = run("analyze", SAMPLES / "gemm.c", "-D", "N=2048", "--machine", "h100-sxm")
    got = lines(out)
    assert "W 2*N**3 = 17,179,869,184 FLOP (fp32)" in got
    assert "Q compulsory 12*N**2 = 50,331,648 B" in got
    assert "Q access 8*N**3 + 4*N**2 = 68,736,253,952 B (no reuse beyond registers)" in got
    assert "arrays A (fp32): read 4*N**2 B, write 0 B access r 4*N**3 B, w 0 B" in got
    assert "C (fp32): read 0 B, write 4*N**2 B access r 0 B, w 4*N**2 B" in got
    (roof,) = [x for x in got if x.startswith("roofline ")]
    assert "(ridge 20 FLOP/B): I 341.33 FLOP/B at DRAM;" in roof
    (levels,) = [x for x in got if x.startswith("levels ")]
    assert levels.startswith("levels DRAM I 341.33 FLOP/B @ 3.35 TB/s | L2 I ") and "FLOP/B @ 10.1 TB/s" in levels
    assert not bare_counts(out)


def test_every_sample_line_carries_units():
    # samples on a GPU with level bandwidths (nests and a special function, a 2-D stencil without
    # sizes, a CUDA reduction with shared memory, a 2-D launch): no count without separators, and
    # the quantities that used to print bare formulas (access columns, Q cache without sizes,
    # nests, per-precision W, level intensities) each end in their unit
    out = run("analyze", *(SAMPLES / f for f in ("l2norm.c", "jacobi2d.c", "reduce.cu", "transpose.cu")),
              "--machine", "a100")
    assert not bare_counts(out), bare_counts(out)
    for line in lines(out):
        if line.startswith("arrays ") or re.match(r"^\w+ \((fp|bf|int|uint)", line):
            assert re.search(r"read .+ B, write .+ B access r .+ B, w .+ B", line), line
        if line.startswith("Q cache "):
            assert re.match(r"Q cache .+ B \(lower bound", line), line
        if line.startswith("nest "):
            assert re.match(r"nest \S+ W .+ FLOP, Q .+ B, I .+ FLOP/B$", line), line
        if line.startswith("levels "):
            for part in line[len("levels "):].split(" | "):
                assert re.match(r"(DRAM|L2|L1) I (\?|[\d.,]+) FLOP/B ", part), line
        if line.startswith("roofline ") and "give the sizes" not in line:
            assert re.search(r": I [\d.,]+ FLOP/B[ ,]", line), line
        if line.startswith("launch "):
            assert re.match(r"launch grid [\d,?]+ x [\d,?]+ x [\d,?]+, block ", line), line
    # the 2-precision W of l2norm_separate (fp32 3n + 1 with one sqrtf): formula and unit
    assert "W 3*n + 1 FLOP (fp32 3*n + 1 FLOP)" in lines(out)
    assert "special sqrtf 1 call (counted in W)" in lines(out)


def test_piecewise_constant_pieces_have_separators(tmp_path):
    # n > 1000: 200,000 elements scaled (1 fp32 FLOP, 4 B read + 4 B written each): W 200,000
    # FLOP, Q 1,600,000 B; n <= 1000: n elements with 2 FLOPs: W 2n, Q 8n.
    p = tmp_path / "pw.c"
    p.write_text("void pw(float *x, int n)\n{\n    if (n > 1000) {\n"
                 "        for (int i = 0; i < 200000; i++) x[i] = x[i] * 2.0f;\n    } else {\n"
                 "        for (int i = 0; i < n; i++) x[i] = x[i] * 2.0f + 1.0f;\n    }\n}\n")
    out = run("analyze", p)
    got = lines(out)
    assert "W 200,000 FLOP if n >= 1001 (fp32)" in got and "2*n FLOP if n <= 1000" in got
    assert "Q compulsory 1,600,000 B if n >= 1001" in got and "8*n B if n <= 1000" in got
    assert "arrays x (fp32): read (800,000 if n >= 1001; 4*n if n <= 1000) B, write (800,000 if n >= 1001; " \
           "4*n if n <= 1000) B access r (800,000 if n >= 1001; 4*n if n <= 1000) B, w (800,000 if n >= 1001; " \
           "4*n if n <= 1000) B" in got, out
    assert not bare_counts(out)


def test_cuda_launch_and_sizes_have_separators():
    # saxpy.cu launches (n + 255) / 256 = 4,096 blocks of 256 at n = 1 << 20 = 1,048,576
    out = run("analyze", SAMPLES / "saxpy.cu", "--kernel", "saxpy")
    got = lines(out)
    assert any(x.startswith("launch grid 4,096 x 1 x 1, block 256 x 1 x 1 (launch at") for x in got), out
    assert any(x.startswith("sizes n = 1,048,576 (launch at") for x in got), out
    assert "W 2*n = 2,097,152 FLOP (fp32)" in got  # 2 FLOPs per element
    assert "Q compulsory 12*n = 12,582,912 B" in got  # x read, y read and written: 12 B per element


def test_the_formula_helpers():
    assert number(134217728) == "134,217,728" and number(0.08333333) == "0.08333" and number(170.666) == "170.67"
    assert number(float("inf")) == "inf" and number(None) == ""
    import sympy

    assert expr(sympy.Integer(2403000)) == "2,403,000" and expr(sympy.sympify("Min(400000, 4*n)")) == \
        "Min(400000, 4*n)"  # a comma inside a formula would read as an argument separator


def test_trace_table_rows_have_separators_and_units():
    k = SimpleNamespace(location=Location("k.c", 3, 6), name="k", sizes={"n": 100000, "m": 7}, exact=True)
    rows = [Row("W", 200000, 200000), Row("W fp32", 200000, 200000), Row("special sqrtf", 1, 1),
            Row("x read", 400000, 400000), Row("W loads", 8, 8), Row("Q compulsory", 1200000, 1200004)]
    text = render_text([(k, rows)]).splitlines()
    assert text[0] == "k.c:3:6: k at m = 7; n = 100,000: DIFFER"
    got = [" ".join(x.split()) for x in text[2:]]
    assert got == ["W 200,000 200,000 FLOP", "W fp32 200,000 200,000 FLOP", "special sqrtf 1 1 calls",
                   "x read 400,000 400,000 B", "W loads 8 8 B", "Q compulsory 1,200,000 1,200,004 B <-"]
    assert [unit(q) for q in ("W", "W fp16", "special expf", "special read", "Q access", "b[].x stores")] == \
        ["FLOP", "FLOP", "calls", "B", "B", "B"]


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="trace needs a C compiler")
def test_trace_command_table():
    # saxpy at n = 100,000: 2 FLOPs per element; x read 4n = 400,000 B, y read and written
    # 400,000 B each; Q compulsory = access = 12n = 1,200,000 B
    got = lines(run("trace", SAMPLES / "saxpy.c", "-D", "n=100000"))
    assert got[0].endswith("saxpy at n = 100,000: agree")
    for want in ["W 200,000 200,000 FLOP", "x read 400,000 400,000 B", "y write 400,000 400,000 B",
                 "Q compulsory 1,200,000 1,200,000 B", "Q access 1,200,000 1,200,000 B"]:
        assert want in got


def test_machines_listing_has_separators():
    # H100 SXM fp8 tensor: 1,978.9 TFLOP/s dense; bandwidth 3,350 GB/s
    out = run("machines")
    (h100,) = [x for x in out.splitlines() if x.startswith("h100-sxm ")]
    assert "3,350 GB/s" in h100 and "fp8_tensor 1,978.9T/" in h100
    assert not re.search(r"(?<![\d,.])\d{4,}(?:\.\d+)?T/", out)
