"""Issue #32 §1 acceptance: the pull-request gate catches what lint catches and passes an improvement.

tests/data/diff/kernels.cu holds four CUDA kernels as a project writes them (a CUDA_CHECK macro, a
`main` that launches each with n = 2**20, rows = 4096, cols = 256, 256 threads).  The head commit
changes each in one way that the compulsory bytes do not show, derived by hand:

- row_sum: the register accumulator `s` becomes `out[row] += ...` inside the `c` loop.  W = rows*cols
  adds and Q = 4*rows*cols (in) + 4*rows (out) = 4,210,688 B both before and after (the first access
  of out[row] is a write either way), but `out` may alias `in`: lint's RF202 (each trip loads and
  stores it).  RF203 (a row per thread, 256 elements apart) was there before: not new.
- scale: `x[i]` becomes `x[2 * i]`: n distinct elements of x still, Q = 8n = 8,388,608 B, W = n; a
  warp now touches 8 sectors for 128 B: RF203.
- halve: `0.5f` becomes `0.5`: the multiply runs in fp64 (W = n fp64 instead of fp32), Q = 8n: RF101.
- smooth: `c*x[i-1] + c*x[i+1] + x[i]` (2 multiplies, 2 adds) becomes `c*(x[i-1] + x[i+1]) + x[i]`
  (1 multiply, 2 adds) over the n - 2 threads with 1 <= i < n - 1: W 4n - 8 = 4,194,296 ->
  3n - 6 = 3,145,722 (-25%), Q = x's n elements + y's n - 2 = 8n - 8 B on both sides.  Fewer FLOPs
  over the same bytes: I drops 25% and that is an improvement (on the A100, memory-bound at 2.039
  TB/s both times: the time floor 8,388,600 B / 2.039e12 B/s = 4.114 us does not move).
"""

from __future__ import annotations

import json

import pytest

from helpers import ROOT, git, new_repo, run_diff

BASE = (ROOT / "tests" / "data" / "diff" / "kernels.cu").read_text()
EDITS = {
    "row_sum": ("""        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += in[row * cols + c];
        out[row] = s;""", """        out[row] = 0.0f;
        for (int c = 0; c < cols; ++c)
            out[row] += in[row * cols + c];"""),
    "scale": ("y[i] = a * x[i];", "y[i] = a * x[2 * i];"),
    "halve": ("y[i] = x[i] * 0.5f;", "y[i] = x[i] * 0.5;"),
    "smooth": ("y[i] = c * x[i - 1] + c * x[i + 1] + x[i];", "y[i] = c * (x[i - 1] + x[i + 1]) + x[i];"),
}


def edited(*names) -> str:
    text = BASE
    for name in names:
        old, new = EDITS[name]
        assert text.count(old) == 1, name
        text = text.replace(old, new)
    return text


@pytest.fixture
def repo(tmp_path, monkeypatch):
    r = new_repo(tmp_path / "repo", {"kernels.cu": BASE})
    monkeypatch.chdir(r)
    monkeypatch.setenv("STATICROOF_CACHE_DIR", str(tmp_path / "cache"))
    return r


diff = run_diff


def commit(repo, text: str, message: str) -> None:
    (repo / "kernels.cu").write_text(text)
    git(repo, "commit", "-q", "-am", message)


@pytest.mark.parametrize("machine", [[], ["--machine", "a100"]], ids=["no-machine", "a100"])
@pytest.mark.parametrize("name,code", [("row_sum", "RF202"), ("scale", "RF203"), ("halve", "RF101")])
def test_each_hidden_regression_fails_the_gate(repo, name, code, machine):
    commit(repo, edited(name), f"{name}: the change lint catches")
    status, out = diff("HEAD~1", "HEAD", "--format", "json", *machine)
    ks = {k["name"]: k for k in json.loads(out)["kernels"]}
    assert status == 1, out
    k = ks[name]
    assert k["regression"] and [r["code"] for r in k["reasons"]] == ["RD105"], k["reasons"]
    assert k["reasons"][0]["message"].startswith(f"new lint finding {code}: `{name}`")
    assert k["change"]["Q"]["percent"] == 0  # the bytes do not show it
    assert [n for n, other in ks.items() if other["regression"]] == [name]
    # reported, not failing, when the project says so; not looked for with `off`
    status, out = diff("HEAD~1", "HEAD", "--format", "json", "--lint", "report", *machine)
    k = {k["name"]: k for k in json.loads(out)["kernels"]}[name]
    assert status == 0 and k["reasons"] == [] and [g["code"] for g in k["lint_gained"]] == [code]
    (repo / "staticroof.toml").write_text('diff-lint = "off"\n')
    status, out = diff("HEAD~1", "HEAD", "--format", "json", *machine)
    assert status == 0 and {k["name"]: k for k in json.loads(out)["kernels"]}[name]["lint_gained"] == []


@pytest.mark.parametrize("machine", [[], ["--machine", "a100"]], ids=["no-machine", "a100"])
def test_fewer_flops_at_the_same_bytes_is_an_improvement(repo, machine):
    commit(repo, edited("smooth"), "smooth: one multiply fewer")
    status, out = diff("HEAD~1", "HEAD", "--format", "json", *machine)
    assert status == 0, out
    (k,) = [k for k in json.loads(out)["kernels"] if k["name"] == "smooth"]
    assert (k["old"]["W"], k["new"]["W"]) == (4 * 2**20 - 8, 3 * 2**20 - 6)
    assert k["old"]["Q"] == k["new"]["Q"] == 8 * 2**20 - 8
    assert k["change"]["I"]["percent"] == pytest.approx(-25)
    assert k["improved"] and not k["regression"]
    if machine:
        assert k["change"]["time"]["percent"] == 0
        assert k["why"] == "less to do: W -25%, the time floor unchanged"
    else:
        assert k["why"] == "less to do: W -25%"
    status, text = diff("HEAD~1", "HEAD", *machine)
    assert "kernels.cu:32:17: smooth  improved" in text


def test_all_four_changes_in_one_pull_request(repo):
    """The three regressions fail the gate with their reasons; the Markdown says why in one line
    per kernel (row_sum's edit is one line shorter: smooth starts at line 31)."""
    commit(repo, edited(*EDITS), "all four")
    status, md = diff("HEAD~1", "HEAD", "--machine", "a100", "--format", "markdown")
    assert status == 1
    assert "**:x: 1 file, 4 kernels: 3 regressed, 1 improved**" in md
    why = [line for line in md.splitlines() if line.startswith("- `kernels.cu:")]
    assert len(why) == 4
    for line, (name, code) in zip(why[:3], [("row_sum", "RF202"), ("scale", "RF203"), ("halve", "RF101")],
                                  strict=True):
        assert f"`{name}` (REGRESSED): RD105 new lint finding {code}" in line, line
    assert why[3].startswith("- `kernels.cu:31` `smooth` (improved): less to do: W \\-25%"), why[3]
