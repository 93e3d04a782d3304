"""Issue #30: `staticroof diff` on a repository that is not to be trusted.  Its git runs nothing of the
repository's configuration and writes nothing (§2).

The kernel: `x[i] *= 2.0f` over n (W = n, Q = 8n: x read and written), changed to
`x[i] *= 3.0f + x[i]` (W = 2n: one add, one multiply; Q = 8n): I goes from 1/8 to 1/4, +100%.
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import git, new_repo, run_diff

BEFORE = "void k(float *x, int n) { for (int i = 0; i < n; i++) x[i] *= 2.0f; }\n"
AFTER = "void k(float *x, int n) { for (int i = 0; i < n; i++) x[i] *= 3.0f + x[i]; }\n"




@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """A repository whose own configuration would run commands: an fsmonitor hook, a clean filter and a
    long-running process filter on every .c file, a post-index-change hook; each leaves a marker."""
    r = new_repo(tmp_path / "repo", {"k.c": BEFORE})
    markers = tmp_path / "markers"
    markers.mkdir()
    script = tmp_path / "evil.sh"
    script.write_text(f'#!/bin/sh\ntouch "{markers}/$1"\ncat\n')
    script.chmod(0o755)
    (r / ".gitattributes").write_text("*.c filter=evil\n")
    git(r, "config", "filter.evil.clean", f"{script} clean")
    git(r, "config", "filter.evil.smudge", f"{script} smudge")
    git(r, "config", "filter.evil.process", f"{script} process")
    git(r, "config", "core.fsmonitor", f"{script} fsmonitor")
    hooks = r / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "post-index-change").write_text(f'#!/bin/sh\ntouch "{markers}/hook"\n')
    (hooks / "post-index-change").chmod(0o755)
    (r / ".staticroof_cache").mkdir()  # diff asks git whether the cache folder is tracked
    (r / "k.c").write_text(AFTER)
    monkeypatch.chdir(r)
    monkeypatch.setenv("STATICROOF_CACHE_DIR", str(tmp_path / "cache"))
    return r, markers


@pytest.mark.parametrize("revisions", [["HEAD"], ["HEAD", "HEAD"]], ids=["working-tree", "two-revisions"])
def test_git_runs_nothing_of_the_repository_and_writes_no_index(hostile, revisions):
    r, markers = hostile
    index = r / ".git" / "index"
    before = (index.read_bytes(), os.stat(index).st_mtime_ns)
    code, out = run_diff(*revisions)
    assert sorted(p.name for p in markers.iterdir()) == [], out  # no fsmonitor, filter or hook ran
    assert (index.read_bytes(), os.stat(index).st_mtime_ns) == before  # the index was not refreshed
    if revisions == ["HEAD"]:
        # the change is still seen (the file is read as it is, no filter): I 1/8 -> 1/4
        assert code == 0 and "+100%" in out and "1/8" in out and "1/4" in out, out
    else:
        assert code == 0, out


@pytest.fixture
def plain(tmp_path, monkeypatch):
    r = new_repo(tmp_path / "repo")
    monkeypatch.chdir(r)
    monkeypatch.setenv("STATICROOF_CACHE_DIR", str(tmp_path / "cache"))
    return r


def commit_then_change(r, files: dict, changed: dict):
    for name, body in files.items():
        (r / name).write_bytes(body.encode("utf-8", "surrogateescape"))
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "base")
    for name, body in changed.items():
        (r / name).write_bytes(body.encode("utf-8", "surrogateescape"))


# y[i] = x[i]*2 + 1: W = 2n (a multiply and an add), Q = 8n (x read, y written): I = 1/4.
# With `+ y[i]` for the `+ 1`: W = 2n, y is now read before it is written: Q = 12n, I = 1/6: the bytes
# rise 50% and I drops 33.3%, a regression (RD101) at the default 10%.  (Dropping the `+ 1` would be
# fewer FLOPs over the same bytes: an improvement, issue #32.)
C_AXPB = "void k(float *x, float *y, int n) { for (int i = 0; i < n; i++) y[i] = x[i] * 2.0f + 1.0f; }\n"
CUDA_AXPB = ("__global__ void g(float *x, float *y, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < n) y[i] = x[i] * 2.0f + 1.0f;\n}\n")


@pytest.mark.parametrize("includer", [True, False], ids=["included-by-a-source", "header-only"])
def test_a_header_kernel_regression_is_caught(plain, includer):
    # §4: a kernel defined in a `.h` (C) and one in a `.h` with CUDA (read as CUDA by its content);
    # the header changed, the including file did not
    files = {"kern.h": C_AXPB, "gpu.h": CUDA_AXPB}
    if includer:
        files["main.c"] = '#include "kern.h"\nint main(void) { return 0; }\n'
    commit_then_change(plain, files, {"kern.h": C_AXPB.replace(" + 1.0f", " + y[i]"),
                                      "gpu.h": CUDA_AXPB.replace(" + 1.0f", " + y[i]")})
    code, out = run_diff("HEAD")
    assert code == 1, out
    assert "kern.h:1:6: k  REGRESSED" in out and "gpu.h:1:17: g  REGRESSED" in out, out
    assert out.count("REGRESSED") == 2  # each kernel once, though main.c reaches kern.h too
    assert "I       1/4 = 0.25 FLOP/B  ->  1/6 = 0.1667 FLOP/B  (-33.3%)" in out


def test_a_cuh_change_reanalyzes_its_includers(plain):
    # a kernel in a .cu whose constant comes from a changed .cuh: factor 2 -> factor 2 + 1 more FLOP.
    # Before: y[i] = x[i]*S with S = 2 (W = n); after: y[i] = x[i]*S + 1.0f (W = 2n): I 1/8 -> 1/4 at
    # the same bytes (exit 0: no bytes rise; more FLOPs is no improvement either), but the .cu kernel
    # must be in the report
    cu = ('#include "ops.cuh"\n__global__ void g(float *x, float *y, int n)\n{\n'
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = OP(x[i]);\n}\n")
    commit_then_change(plain, {"ops.cuh": "#define OP(v) ((v) * 2.0f)\n", "k.cu": cu},
                       {"ops.cuh": "#define OP(v) ((v) * 2.0f + 1.0f)\n"})
    code, out = run_diff("HEAD")
    assert code == 0 and "k.cu:2:17: g  changed" in out, out


@pytest.mark.parametrize("name", ["a\nb.c", "tab\there.c", "bad\udcff.c", "x|**improved**|.c"],
                         ids=["newline", "tab", "not-utf8", "pipes"])
def test_odd_file_names_are_reported_on_one_line(plain, name):
    # §5 and §10: the kernel of a file whose name has a newline, a byte that is not UTF-8 or `|` is
    # diffed (not dropped, no traceback) and its name printed on one line, escaped; a non-UTF-8 .txt
    # beside it is no source and changes nothing
    commit_then_change(plain, {name: C_AXPB, "\udcfe.txt": "x"}, {name: C_AXPB.replace(" + 1.0f", " + y[i]"),
                                                                 "\udcfe.txt": "y"})
    code, out = run_diff("HEAD")
    assert code == 1 and "1 file, 1 kernel: 1 regressed" in out, out
    from staticroof.diagnostics import printable

    assert f"{printable(name)}:1:6: k  REGRESSED" in out
    code, md = run_diff("HEAD", "--format", "markdown")
    row = next(line for line in md.splitlines() if "**regressed**" in line)
    # the row has its 5 cells whatever the name holds: every `|` that is not a cell border is escaped
    assert len(row.replace("\\|", "").split("|")) == 7, row
    assert f"`{printable(name).replace('|', chr(92) + '|')}`" in row, row  # on one line, escaped


def test_markdown_escapes_report_text():
    from staticroof.reports.markdown import code, text

    assert text("<b>x</b> | *y* [a](b)") == "\\<b\\>x\\</b\\> \\| \\*y\\* \\[a\\]\\(b\\)"
    assert code("void k<float>(float*)") == "`void k<float>(float*)`"  # HTML in a code span is text
    assert code("a`b") == "`` a`b ``" and code("a\nb") == "`a\\nb`"


def test_a_blob_larger_than_a_source_is_never_read(plain):
    # §14: the size comes from `git ls-tree -l`; a blob past SOURCE_LIMIT is skipped before any byte of
    # it is requested (no `cat-file --batch` process even starts for it)
    from staticroof.diff import git as G
    from staticroof.inputs import SOURCE_LIMIT

    with open(plain / "big.c", "wb") as f:
        f.write(b"/*" + b" " * SOURCE_LIMIT + b"*/\n")
    (plain / "k.c").write_text(C_AXPB)
    git(plain, "add", "-A")
    git(plain, "commit", "-q", "-m", "big")
    tree = G.Tree(plain, G.resolve(plain, "HEAD"))
    try:
        assert tree.read("big.c") is None and tree._batch is None
        assert tree.read("k.c") == C_AXPB.encode()
    finally:
        tree.close()


@pytest.mark.parametrize("command", [["analyze", "--use-cache"], ["lint"]])
def test_a_cache_committed_to_git_is_not_used(plain, monkeypatch, command):
    # §9: a `.staticroof_cache` that git tracks could hold forged entries (a failing lint turned into a
    # pass in a fresh clone): lint and analyze --use-cache leave it alone with a note, as diff does
    monkeypatch.delenv("STATICROOF_CACHE_DIR")
    (plain / "k.c").write_text(C_AXPB)
    forged = plain / ".staticroof_cache" / "forged.json"
    forged.parent.mkdir()
    forged.write_text("{}\n")
    git(plain, "add", "-f", "-A")
    git(plain, "commit", "-q", "-m", "with a cache")
    result = CliRunner().invoke(main, [*command, "k.c"])
    assert "is tracked by git: not using it" in result.output, result.output
    assert sorted(p.name for p in (plain / ".staticroof_cache").rglob("*")) == ["forged.json"]  # nothing written
    git(plain, "rm", "-q", "-r", "--cached", ".staticroof_cache")
    git(plain, "commit", "-q", "-m", "untracked now")
    result = CliRunner().invoke(main, [*command, "k.c"])
    assert "is tracked by git" not in result.output
    assert len(list((plain / ".staticroof_cache").rglob("*.json"))) > 1  # used again: entries written


def test_a_forged_baseline_formula_cannot_hang_lint(plain):
    # §11: `I_expr = 10**(10**12)` in a baseline made `lint --baseline` evaluate it for ever; the decoder
    # refuses integers past 1024 bits and numeric exponents past 64 (no count has them): a usage error
    import json
    import subprocess
    import sys

    import sympy

    from staticroof.cache import codec

    (plain / "k.c").write_text(C_AXPB)
    r = CliRunner().invoke(main, ["baseline", "k.c", "-o", "b.json"])
    assert r.exit_code == 0, r.output
    doc = json.loads((plain / "b.json").read_text())
    n = sympy.Symbol("n", positive=True, integer=True)
    huge = sympy.Pow(10, 10**12, evaluate=False)
    doc["kernels"][0]["exact_values"] = codec.dump([None, None, None, 2 * n, 8 * n, huge, None])
    (plain / "b.json").write_text(json.dumps(doc))
    p = subprocess.run([sys.executable, "-m", "staticroof", "lint", "k.c", "--baseline", "b.json", "--no-cache"],
                       capture_output=True, text=True, timeout=60, cwd=plain)
    assert p.returncode == 2 and "kernel record 0 is malformed" in p.stdout + p.stderr, p.stdout + p.stderr
    assert "exponent too large" in p.stdout + p.stderr


def test_a_header_kernel_is_reported_once_by_analyze(tmp_path):
    # two sources include kern.h: its kernel k (W = 2n fp32, Q = 8n) is reported once, not once per
    # source; a third source that defines OFFSET differently gets a copy of its own
    (tmp_path / "kern.h").write_text("#ifndef OFFSET\n#define OFFSET 1.0f\n#endif\n"
                                     "void k(float *x, float *y, int n) { for (int i = 0; i < n; i++) "
                                     "y[i] = x[i] * 2.0f + OFFSET; }\n")
    for name in ("a.c", "b.c"):
        (tmp_path / name).write_text('#include "kern.h"\nint main(void) { return 0; }\n')
    r = CliRunner().invoke(main, ["analyze", str(tmp_path)])
    assert r.output.count("kern.h:4:6: k  [c, exact]") == 1, r.output
    # OFFSET 0.5 is a double: the add is fp64 there (n fp32 + n fp64): a different result, both stay
    (tmp_path / "c.c").write_text('#define OFFSET 0.5\n#include "kern.h"\nint main(void) { return 0; }\n')
    r = CliRunner().invoke(main, ["analyze", str(tmp_path), "-j", "2"])
    assert r.output.count("kern.h:4:6: k  [c, exact]") == 2, r.output
