"""`staticroof diff BASE [HEAD]`: a temporary git repository with a GEMM, changed to the forms that
regress it, checked in every output format against numbers derived by hand.

The GEMM (C = A*B, N x N fp32, N from gemm.h), three ways:

- register accumulator (the base): per k trip one multiply and one add, W = 2N^3 (fp32); A and B
  read once each, C written once (the accumulator s is a register): Q = 4N^2 + 4N^2 + 4N^2 =
  12N^2; I = W/Q = N/6.
- `C[i][j] += A[i][k]*B[k][j]`: the same W = 2N^3; C's first access is now a read, so C is read
  and written: Q = 4N^2 (A) + 4N^2 (B) + 4N^2 + 4N^2 (C) = 16N^2; I = N/8.  The change in I is
  (N/8)/(N/6) - 1 = -25% at every N, in Q +33.33%.
- fp64-promoted (`s = fma(A[i][k], B[k][j], s)`: C's `fma` takes and returns double, where
  `fmaf` was meant): the same operations, 2 FLOPs per k trip, now fp64: W = 2N^3 (fp64), Q =
  12N^2, I = N/6: the intensity is unchanged, the roof is not.

On the L4 (fp32 30.3 TFLOP/s, fp64 473.4 GFLOP/s, 300 GB/s; no L2/L1 bandwidths, so the verdict is
the classic DRAM roofline's): the fp32 ridge is 30.3e12/300e9 = 101 FLOP/B, the fp64 ridge 1.578.
The gate judges the time floor t = max(W/peak, Q/bandwidth) (issue #32: what the user pays).
At N = 768 (gemm.h): base I = 128 >= 101, compute-bound, P = 30.3 TFLOP/s, t = 2*768**3/30.3e12 =
29.90 us (the bytes take 12*768**2/300e9 = 23.59 us).  `C +=`: I = 96 < 101, memory-bound, P =
300e9 * 96 = 28.8 TFLOP/s (-4.95%), t = 16*768**2/300e9 = 31.46 us (+5.21%, within 10%): it crossed
the ridge and got slower (RD102), and it gained lint's RF202 (C accumulated in memory: RD105).
fp64: I = 128 >= 1.578, compute-bound at the fp64 peak, P = 473.4 GFLOP/s (-98.44%), t =
2*768**3/473.4e9 = 1.914 ms, x64 (30.3e12/473.4e9 = 64.005: RD104), and lint's RF101 (RD105).  At
N = 1024 (both sides of the ridge: I = 170.67 and 128, both above 101) `C +=` stays compute-bound at
the same W: the same time floor, and only the new RF202 fails it.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import ACCUMULATE, GEMM_H, REGISTER, ROOT, git, new_repo, run_diff

SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"


PROMOTED = REGISTER.replace("s += A[i][k] * B[k][j];", "s = fma(A[i][k], B[k][j], s);")


@pytest.fixture
def repo(tmp_path, monkeypatch):
    r = new_repo(tmp_path / "repo", {"src/gemm.h": GEMM_H, "src/gemm.c": REGISTER}, "gemm with a register accumulator")
    monkeypatch.chdir(r)
    monkeypatch.setenv("STATICROOF_CACHE_DIR", str(tmp_path / "cache"))
    return r


diff = run_diff


def kernels(output: str) -> dict:
    return {k["name"]: k for k in json.loads(output)["kernels"]}


def sarif_valid(text: str) -> dict:
    """Validate against the official schema (tests/data/sarif-schema-2.1.0.json, from the OASIS
    SARIF TC's repository, oasis-tcs/sarif-spec, Documents/CommitteeSpecifications/2.1.0/)."""
    import jsonschema

    doc = json.loads(text)
    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))
    validator.validate(doc)
    bad = json.loads(text)
    bad["runs"][0]["results"][0]["level"] = "severe"  # the schema is strict: a wrong level is refused
    assert not validator.is_valid(bad)
    return doc


def test_accumulator_in_c_regresses_in_every_format(repo):
    (repo / "src" / "gemm.c").write_text(ACCUMULATE)
    status, out = diff("HEAD", "--machine", "l4", "--format", "json")
    assert status == 1
    k = kernels(out)["gemm"]
    assert k["status"] == "changed" and k["regression"]
    assert (k["old"]["W"], k["old"]["Q"], k["old"]["I"]) == (2 * 768**3, 12 * 768**2, 128)
    assert (k["new"]["W"], k["new"]["Q"], k["new"]["I"]) == (2 * 768**3, 16 * 768**2, 96)
    assert (k["old"]["Q_expr"], k["new"]["Q_expr"], k["old"]["I_expr"], k["new"]["I_expr"]) == \
        ("12*N**2", "16*N**2", "N/6", "N/8")
    assert (k["old"]["bound"], k["new"]["bound"]) == ("compute", "DRAM")
    assert (k["old"]["attainable"], k["new"]["attainable"]) == (30.3e12, 28.8e12)
    assert k["change"]["W"]["percent"] == 0
    assert k["change"]["Q"]["percent"] == pytest.approx(100 / 3)
    assert k["change"]["I"]["percent"] == pytest.approx(-25)
    assert k["change"]["attainable"]["percent"] == pytest.approx((28.8 / 30.3 - 1) * 100)  # -4.9505%
    assert k["change"]["time"]["percent"] == pytest.approx((16 * 768**2 / 300e9 / (2 * 768**3 / 30.3e12) - 1) * 100)
    assert [r["code"] for r in k["reasons"]] == ["RD102", "RD105"]
    assert k["reasons"][1]["message"].startswith("new lint finding RF202: `gemm`: `C` is accumulated in memory")

    status, text = diff("HEAD", "--machine", "l4")
    assert status == 1
    assert "src/gemm.c:6:6: gemm  REGRESSED" in text
    assert "Q       12*N**2 = 7,077,888 B  ->  16*N**2 = 9,437,184 B  (+33.3%)" in text
    assert "I       N/6 = 128 FLOP/B  ->  N/8 = 96 FLOP/B  (-25%)" in text
    assert "bound   compute  ->  memory (DRAM)" in text
    assert "P       30.3 TFLOP/s (fp32)  ->  28.8 TFLOP/s (fp32)  (-4.95%)" in text
    assert "time    29.9 us  ->  31.46 us  (+5.21%)" in text
    assert "RD102   compute-bound -> memory-bound at DRAM on l4" in text

    status, md = diff("HEAD", "--machine", "l4", "--format", "markdown")
    assert status == 1
    assert md.startswith("### staticroof: intensity review\n")
    assert ("| **regressed** | `gemm` in `src/gemm.c` | `2*N**3` = 905,969,664 (0%) | "
            "`12*N**2` = 7,077,888 → `16*N**2` = 9,437,184 (+33.3%) | `N/6` = 128 → `N/8` = 96 (-25%) | "
            "compute → memory (DRAM) | 30.3 TFLOP/s (fp32) → 28.8 TFLOP/s (fp32) (-4.95%) | "
            "29.9 us → 31.46 us (+5.21%) |") in md
    assert "- `src/gemm.c:6` `gemm` (REGRESSED): RD102 compute\\-bound \\-\\> memory\\-bound at DRAM on l4; RD105" in md

    status, gh = diff("HEAD", "--machine", "l4", "--format", "github")
    assert status == 1
    lines = gh.splitlines()
    # on the first line the change touched inside the kernel (line 10: `float s = 0.0f;` removed there)
    assert lines[0] == ("::warning file=src/gemm.c,line=10,col=1,title=staticroof RD102 became-memory-bound::"
                        "gemm (defined at line 6): compute-bound -> memory-bound at DRAM on l4: compute -> memory "
                        "(DRAM), I N/8 = 96 FLOP/B")
    assert lines[1].startswith("::warning file=src/gemm.c,line=10,col=1,title=staticroof RD105 new-lint-finding::"
                               "gemm (defined at line 6): new lint finding RF202")

    status, sarif = diff("HEAD", "--machine", "l4", "--format", "sarif")
    assert status == 1
    doc = sarif_valid(sarif)
    results = doc["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["RD102", "RD105"]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "src/gemm.c" and loc["region"] == {"startLine": 10, "startColumn": 1}
    assert "compute -> memory (DRAM), I N/8 = 96 FLOP/B" in results[0]["message"]["text"]

    # the lint finding only reported (`--lint report`, or diff-lint = "report"): RD102 still fails it
    status, out = diff("HEAD", "--machine", "l4", "--format", "json", "--lint", "report")
    k = kernels(out)["gemm"]
    assert status == 1 and [r["code"] for r in k["reasons"]] == ["RD102"]
    assert [g["code"] for g in k["lint_gained"]] == ["RF202"]


def test_fp64_promotion_regresses_by_the_roof(repo):
    (repo / "src" / "gemm.c").write_text(PROMOTED)
    status, out = diff("HEAD", "--machine", "l4", "--format", "json")
    assert status == 1
    k = kernels(out)["gemm"]
    assert (k["new"]["W"], k["new"]["Q"], k["new"]["I"]) == (2 * 768**3, 12 * 768**2, 128)  # I unchanged
    assert (k["old"]["precision"], k["new"]["precision"]) == ("fp32", "fp64")
    assert (k["old"]["bound"], k["new"]["bound"]) == ("compute", "compute")
    assert k["new"]["attainable"] == 473.4e9
    assert k["change"]["I"]["percent"] == 0
    assert k["change"]["attainable"]["percent"] == pytest.approx((473.4e9 / 30.3e12 - 1) * 100)  # -98.44%
    assert k["change"]["time"]["percent"] == pytest.approx((30.3e12 / 473.4e9 - 1) * 100)  # x64.0
    assert [r["code"] for r in k["reasons"]] == ["RD104", "RD105"]
    assert k["reasons"][0]["message"] == "the time floor rises 64x (more than 10%) on l4: fp32 -> fp64 roof"
    assert k["reasons"][1]["message"].startswith("new lint finding RF101: `gemm`: `fma` of fp32 runs in fp64")

    status, text = diff("HEAD", "--machine", "l4")
    assert status == 1 and "P       30.3 TFLOP/s (fp32)  ->  473.4 GFLOP/s (fp64)  (-98.4%)" in text
    assert "time    29.9 us  ->  1.914 ms  (x64)" in text
    status, md = diff("HEAD", "--machine", "l4", "--format", "markdown")
    assert status == 1 and "30.3 TFLOP/s (fp32) → 473.4 GFLOP/s (fp64) (-98.4%)" in md
    status, gh = diff("HEAD", "--machine", "l4", "--format", "github")
    assert status == 1 and gh.startswith("::warning file=src/gemm.c,line=12,col=1,title=staticroof RD104 "
                                         "time-floor-rise::gemm (defined at line 6): the time floor rises 64x")
    status, sarif = diff("HEAD", "--machine", "l4", "--format", "sarif")
    assert status == 1 and [r["ruleId"] for r in sarif_valid(sarif)["runs"][0]["results"]] == ["RD104", "RD105"]


def test_committed_revisions_and_both_sides_of_the_ridge(repo):
    """HEAD named as a commit (both sides from git's objects), which also changes N (768 -> 1024 in
    gemm.h): numbers at different sizes do not compare, the formulas do.  At N = 1024 on both sides
    (-D) both forms are above the ridge (I = 1024/6 = 170.67 and 1024/8 = 128 >= 101)."""
    (repo / "src" / "gemm.c").write_text(ACCUMULATE)
    (repo / "src" / "gemm.h").write_text(GEMM_H.replace("N 768", "N 1024"))
    git(repo, "commit", "-q", "-am", "accumulate in C, N = 1024")
    (repo / "src" / "gemm.c").write_text("/* the working tree is not looked at */\n")
    status, out = diff("HEAD~1", "HEAD", "--machine", "l4", "--format", "json")
    k = kernels(out)["gemm"]
    # base at N = 768 (its own gemm.h): I = 768/6 = 128; head at N = 1024: I = 1024/8 = 128.  The
    # numbers alone would say 0%; the formulas say N/6 -> N/8, -25%, with Q 12N**2 -> 16N**2 (+33%):
    # RD101 (no time floor across sizes), and the new RF202
    assert (k["old"]["I"], k["new"]["I"]) == (128, 128)
    assert (k["old"]["bound"], k["new"]["bound"]) == ("compute", "compute")
    assert k["change"]["I"] == {"percent": pytest.approx(-25), "basis": "formulas"}
    assert "time" not in k["change"] and "attainable" not in k["change"]
    assert [r["code"] for r in k["reasons"]] == ["RD101", "RD105"] and status == 1
    # the same sizes on both sides: -D N=1024 binds the size in both revisions
    status, out = diff("HEAD~1", "HEAD", "--machine", "l4", "--format", "json", "-D", "N=1024")
    k = kernels(out)["gemm"]
    assert (k["old"]["I"], k["new"]["I"]) == (pytest.approx(1024 / 6), 128)
    assert (k["old"]["bound"], k["new"]["bound"]) == ("compute", "compute")
    # both compute-bound at the same W: the same time floor 2*1024**3/30.3e12; the new RF202 alone fails it
    assert k["change"]["time"]["percent"] == 0
    assert [r["code"] for r in k["reasons"]] == ["RD105"] and status == 1
    status, out = diff("HEAD~1", "HEAD", "--machine", "l4", "--format", "json", "-D", "N=1024", "--lint", "off")
    assert status == 0 and kernels(out)["gemm"]["reasons"] == []


def test_symbolic_sizes_compare_the_formulas(repo):
    """With the size a parameter no call binds, the numbers are unknown: the change comes from the
    formulas, (n/8)/(n/6) = 3/4 at every n."""
    src = REGISTER.replace('#include "gemm.h"\n', "").replace("[N]", "[n]").replace("< N", "< n")
    src = src.replace("void gemm(const float", "void gemm(int n, const float").split("\nint main")[0]
    (repo / "src" / "gemm.c").write_text(src)
    git(repo, "commit", "-q", "-am", "size as a parameter")
    (repo / "src" / "gemm.c").write_text(src.replace("""            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
""", """            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
"""))
    status, out = diff("HEAD", "--format", "json")
    k = kernels(out)["gemm"]
    assert k["new"]["I"] is None and (k["old"]["I_expr"], k["new"]["I_expr"]) == ("n/6", "n/8")
    assert k["change"]["I"] == {"percent": pytest.approx(-25), "basis": "formulas"}
    assert k["change"]["Q"] == {"percent": pytest.approx(100 / 3), "basis": "formulas"}
    # no machine: I drops 25% because the bytes rise 33%: RD101; and the new RF202
    assert status == 1 and [r["code"] for r in k["reasons"]] == ["RD101", "RD105"]
    assert k["reasons"][0]["message"] == "I drops 25% (more than 10%): Q rises 33.3%"
    status, text = diff("HEAD")
    assert "I       n/6 FLOP/B  ->  n/8 FLOP/B  (-25%)" in text
    assert diff("HEAD", "--fail-under", "30", "--lint", "off")[0] == 0  # a 25% drop is within 30%


def test_renames_new_removed_and_header_changes(repo):
    git(repo, "mv", "src/gemm.c", "src/matmul.c")
    (repo / "src" / "matmul.c").write_text(ACCUMULATE)
    (repo / "src" / "axpy.c").write_text("void axpy(int n, float a, const float *x, float *y) {\n"
                                          "    for (int i = 0; i < n; i++)\n        y[i] += a * x[i];\n}\n")
    status, out = diff("HEAD", "--format", "json")
    ks = json.loads(out)["kernels"]
    by = {(k["name"], k["status"]): k for k in ks}
    assert by[("gemm", "changed")]["file"] == "src/matmul.c"
    assert by[("gemm", "changed")]["old_file"] == "src/gemm.c"  # followed across the rename
    assert by[("gemm", "changed")]["change"]["I"]["percent"] == pytest.approx(-25)
    new = by[("axpy", "new")]["new"]
    assert (new["W_expr"], new["Q_expr"], new["I_expr"]) == ("2*n", "12*n", "1/6")  # y read and written, x read
    assert status == 1
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "rename")
    (repo / "src" / "axpy.c").unlink()
    (repo / "src" / "gemm.h").write_text(GEMM_H.replace("N 768", "N 512"))  # only the header changes
    status, out = diff("HEAD", "--format", "json")
    by = {(k["name"], k["status"]): k for k in json.loads(out)["kernels"]}
    assert ("axpy", "removed") in by
    g = by[("gemm", "changed")]  # matmul.c is re-analyzed because the header it includes changed
    assert (g["old"]["W"], g["new"]["W"]) == (2 * 768**3, 2 * 512**3)
    # N/8 at N = 768 is 96, at 512 it is 64: numbers at different sizes, which the code did not cause;
    # the formulas (N/8 both) say 0%, and nothing regressed
    assert g["change"]["I"] == {"percent": 0.0, "basis": "formulas"} and not g["regression"]
    status, text = diff("HEAD")
    assert "src/axpy.c:1:6: axpy  removed" in text


def test_unchanged_files_and_usage_errors(repo, tmp_path, monkeypatch):
    status, out = diff("HEAD", "--format", "json")
    assert status == 0 and json.loads(out)["kernels"] == []
    status, out = diff("no-such-branch")
    assert status == 2 and "`no-such-branch` is not a commit" in out
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    status, out = diff("HEAD")
    assert status == 2 and "not inside a git repository" in out


def test_diff_uses_the_cache_and_refuses_a_committed_one(repo, tmp_path, monkeypatch):
    (repo / "src" / "gemm.c").write_text(ACCUMULATE)
    first = diff("HEAD", "--format", "json")
    entries = list((tmp_path / "cache").rglob("*.json"))
    assert len(entries) == 2  # one per side
    assert diff("HEAD", "--format", "json") == first
    monkeypatch.delenv("STATICROOF_CACHE_DIR")
    (repo / ".staticroof_cache").mkdir()
    (repo / ".staticroof_cache" / "forged.json").write_text("{}")
    git(repo, "add", "-f", ".staticroof_cache/forged.json")
    _status, out = diff("HEAD", "--format", "json")
    assert "is tracked by git: not using it" in out


def test_report_modules_take_lint_findings():
    """reports/sarif, github and markdown are not diff's alone: lint's findings go through them as
    annotations (reports.annotation.from_findings)."""
    from staticroof.diagnostics import Location
    from staticroof.lint.registry import Finding
    from staticroof.reports import github, markdown, sarif
    from staticroof.reports.annotation import from_findings

    found = [Finding("RF202", "C[i][j] accumulates in memory inside the k loop: 8*N**3 B of loads and stores",
                     Location("src/my gemm.c", 12, 17), "gemm", name="memory-accumulator"),
             Finding("RF301", "I = 1/6 FLOP/B, below the configured 0.5", Location("src/saxpy.c"), "saxpy")]
    anns = from_findings(found)
    doc = sarif_valid(sarif.render(anns, {"RF202": ("memory-accumulator", "An accumulator kept in memory."),
                                          "RF301": ("low-intensity", "Intensity below the threshold.")}))
    r0, r1 = doc["runs"][0]["results"]
    assert r0["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/my%20gemm.c"
    assert "region" not in r1["locations"][0]["physicalLocation"]  # no line: no region
    assert github.render(anns).splitlines() == [
        "::warning file=src/my gemm.c,line=12,col=17,title=staticroof RF202 memory-accumulator::C[i][j] "
        "accumulates in memory inside the k loop: 8*N**3 B of loads and stores",
        "::warning file=src/saxpy.c,title=staticroof RF301::I = 1/6 FLOP/B, below the configured 0.5"]
    md = markdown.render_findings(anns)
    assert "| `src/my gemm.c:12:17` | RF202 (memory-accumulator) | C[i][j] accumulates" in md


def test_a_kernel_that_can_no_longer_be_analyzed_is_listed_not_failed(repo):
    """A syntax error in the kernel costs the review its numbers: listed (a SARIF note, RD901), and
    not a regression by itself (exit 0)."""
    (repo / "src" / "gemm.c").write_text(REGISTER.replace("s += A[i][k] * B[k][j];", "s += A[i][k] * ;"))
    status, out = diff("HEAD", "--format", "json")
    k = kernels(out)["gemm"]
    assert status == 0 and k["status"] == "unanalyzable" and k["new"]["status"] == "unsupported"
    text = diff("HEAD")[1]
    assert ": gemm  no longer analyzable" in text and "  after   not analyzed: syntax error" in text
    status, md = diff("HEAD", "--format", "markdown")
    assert "| no longer analyzable | `gemm` in `src/gemm.c` | not analyzed:" in md
    status, sarif = diff("HEAD", "--format", "sarif")
    (result,) = sarif_valid(sarif)["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("RD901", "note")


def test_rules_lists_the_regression_codes():
    out = CliRunner().invoke(main, ["rules"]).output
    for code, name in (("RD101", "intensity-drop"), ("RD102", "became-memory-bound"), ("RD103", "attainable-drop")):
        assert f"{code}  {name}: " in out


def test_the_readme_diff_example_is_what_diff_prints(repo):
    """Issue #32: the README's `staticroof diff` example (a `> ` block: it needs a repository) is run
    here on the repository it describes (the register GEMM, then `C[i][j] +=` committed), and every
    line it shows is the real output's, the commits' hashes aside; a line ending in `...` is a prefix."""
    import re

    text = (ROOT / "README.md").read_text()
    block = re.search(r"^> (staticroof diff HEAD~1 HEAD --machine l4)[^\n]*\n(.*?)^```", text, re.M | re.S)
    command, shown = block.group(1), block.group(2).splitlines()
    (repo / "src" / "gemm.c").write_text(ACCUMULATE)
    git(repo, "commit", "-q", "-am", "accumulate in C")
    status, out = diff(*command.split()[2:])
    assert status == 1
    got = out.splitlines()
    assert len(got) == len(shown), out

    def norm(line: str) -> str:
        return re.sub(r"\([0-9a-f]{10}\)", "(HASH)", line)

    for want, have in zip(shown, got, strict=True):
        if want.endswith("..."):
            assert norm(have).startswith(norm(want[:-3])), (want, have)
        else:
            assert norm(have) == norm(want), (want, have)
