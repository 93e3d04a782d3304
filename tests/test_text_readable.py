"""The text report stays readable when a kernel is approximate (issue #28, section 4): one line per
cause per kernel (`CODE xN`, at the first occurrence; `--verbose` and the JSON list every one), and
a formula past `LONG_FORMULA` characters left to the JSON, its value at the sizes still printed.
The expected lines, counts and lengths are derived by hand from the two files in
tests/data/text_report/."""

from __future__ import annotations

import json

from click.testing import CliRunner

from staticroof.cli import main
from staticroof.reports.text import LONG_FORMULA, _shown

from helpers import ROOT

DATA = ROOT / "tests" / "data" / "text_report"
REPEATED = DATA / "repeated.c"
LONG = DATA / "long_formula.c"
SEGMENTS = [f"length_of_segment_{k:02d}" for k in range(12)]

# repeated.c: the three `if`s of clamp3 test the loaded value, so each is SR104 (their conditions
# start at column 13 of lines 6, 8 and 10); both branches are counted: v*0.5f and v*0.25f, 2 FLOP
# per element, x read and y written, 4 B each.
_CAUSE = "SR104 condition depends on data; both branches are counted"
_WHERE = [f"{REPEATED.relative_to(ROOT)}:{line}:13" for line in (6, 8, 10)]


def run(*args, cwd=ROOT) -> str:
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(main, ["analyze", *map(str, args)], catch_exceptions=False)
    finally:
        os.chdir(here)
    assert r.exit_code == 0, r.output
    return r.output


def diagnostics(text: str) -> list[str]:
    return [x.strip() for x in text.splitlines() if " SR" in x]


def test_one_line_per_cause_at_the_first_occurrence():
    out = run(REPEATED.relative_to(ROOT))
    # W: v*0.5, v*0.25 and 0.5*(x[i] + 1): 4 per element, every branch counted
    assert "W            4*n FLOP" in out and "Q compulsory 8*n B" in out
    assert diagnostics(out) == [
        f"{_WHERE[0]}: SR104 x3 condition depends on data; both branches are counted (first of 3; --verbose lists all)"]


def test_verbose_lists_every_occurrence():
    for flag in ("--verbose", "-v"):
        out = run(REPEATED.relative_to(ROOT), flag)
        assert diagnostics(out) == [f"{w}: {_CAUSE}" for w in _WHERE]


def test_json_lists_every_occurrence():
    report = json.loads(run(REPEATED.relative_to(ROOT), "--format", "json"))
    (k,) = report["kernels"]
    got = [(d["line"], d["col"], d["code"], d["message"]) for d in k["diagnostics"]]
    assert got == [(line, 13, "SR104", "condition depends on data; both branches are counted") for line in (6, 8, 10)]
    assert json.loads(run(REPEATED.relative_to(ROOT), "--format", "json", "-v")) == report  # the flag is text's


def test_different_causes_keep_their_own_lines(tmp_path):
    # two messages of one code are two causes: a data-dependent `if` (SR104) twice, and a store
    # through an index read from memory (SR101, its message names the array: `y` twice, `z` once)
    p = tmp_path / "mixed.c"
    p.write_text("void mixed(int n, const int *restrict idx, const float *restrict x, float *restrict y,\n"
                 "           float *restrict z)\n"
                 "{\n"
                 "    for (int i = 0; i < n; i++) {\n"
                 "        if (x[i] > 0.0f) y[idx[i]] = x[i];\n"
                 "        if (x[i] < 0.0f) y[idx[i]] = -x[i];\n"
                 "        z[idx[i]] = x[i];\n"
                 "    }\n"
                 "}\n")
    # causes in the order they first occur, each at its first occurrence; the occurrences of the
    # two causes interleave (line 5, then line 6)
    assert diagnostics(run(p.name, cwd=tmp_path)) == [
        "mixed.c:5:13: SR104 x2 condition depends on data; both branches are counted (first of 2; --verbose lists all)",
        "mixed.c:5:26: SR101 x2 `y`: read from `idx`; each access counts as a new element "
        "(first of 2; --verbose lists all)",
        "mixed.c:7:9: SR101 `z`: read from `idx`; each access counts as a new element"]
    assert diagnostics(run(p.name, "-v", cwd=tmp_path)) == [
        "mixed.c:5:13: SR104 condition depends on data; both branches are counted",
        "mixed.c:5:26: SR101 `y`: read from `idx`; each access counts as a new element",
        "mixed.c:6:13: SR104 condition depends on data; both branches are counted",
        "mixed.c:6:26: SR101 `y`: read from `idx`; each access counts as a new element",
        "mixed.c:7:9: SR101 `z`: read from `idx`; each access counts as a new element"]


def _sizes() -> list[str]:
    return [a for name in SEGMENTS for a in ("-D", f"{name}=1000")]


def test_a_long_formula_is_left_to_the_json():
    # W: one multiply per element of each segment, `length_of_segment_00 + ... + length_of_segment_11`,
    # 12 names of 20 characters and 11 ` + `: 273 characters.  Q: each segment read and written,
    # `8*length_of_segment_00 + ...`: 12 terms of 22 characters, 297.  At 1,000 each: 12,000 FLOP
    # and 96,000 B.
    w_formula = " + ".join(SEGMENTS)
    q_formula = " + ".join(f"8*{s}" for s in SEGMENTS)
    assert (len(w_formula), len(q_formula)) == (273, 297)
    out = run(LONG.relative_to(ROOT), *_sizes())
    rows = [" ".join(x.split()) for x in out.splitlines()]
    assert "W (formula of 273 characters: --format json) = 12,000 FLOP (fp32)" in rows
    assert "Q compulsory (formula of 297 characters: --format json) = 96,000 B" in rows
    assert "Q access (formula of 297 characters: --format json) = 96,000 B (no reuse beyond registers)" in rows
    assert w_formula not in out and q_formula not in out
    # short formulas are printed as before: one array's, one nest's
    assert "seg00 (fp32): read 4*length_of_segment_00 B, write 4*length_of_segment_00 B" in out
    assert "nest L5      W length_of_segment_00 FLOP, Q 8*length_of_segment_00 B, I 1/8 FLOP/B" in out

    (k,) = json.loads(run(LONG.relative_to(ROOT), *_sizes(), "--format", "json"))["kernels"]
    assert k["flops"]["expr"] == w_formula and k["flops"]["total"] == 12_000
    assert k["bytes"]["compulsory_expr"] == q_formula and k["bytes"]["compulsory"] == 96_000
    assert k["bytes"]["access_expr"] == q_formula


def test_a_long_formula_without_sizes_is_the_note_alone():
    rows = [" ".join(x.split()) for x in run(LONG.relative_to(ROOT)).splitlines()]
    assert "W (formula of 273 characters: --format json) FLOP (fp32)" in rows
    assert "Q compulsory (formula of 297 characters: --format json) B" in rows


def test_the_threshold_is_one_constant():
    assert LONG_FORMULA == 200
    assert _shown("n" * LONG_FORMULA) == "n" * LONG_FORMULA
    assert _shown("n" * (LONG_FORMULA + 1)) == "(formula of 201 characters: --format json)"
    assert _shown("n" * 20_431) == "(formula of 20,431 characters: --format json)"


def test_the_cache_keeps_the_grouped_and_the_verbose_report_apart(tmp_path):
    p = tmp_path / "repeated.c"
    p.write_text(REPEATED.read_text())
    plain = run(p.name, "--use-cache", cwd=tmp_path)
    verbose = run(p.name, "--use-cache", "-v", cwd=tmp_path)
    assert len(diagnostics(plain)) == 1 and len(diagnostics(verbose)) == 3
    assert run(p.name, "--use-cache", cwd=tmp_path) == plain  # a hit prints the grouped view
    assert run(p.name, "--use-cache", "-v", cwd=tmp_path) == verbose
