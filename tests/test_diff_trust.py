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

from helpers import git

BEFORE = "void k(float *x, int n) { for (int i = 0; i < n; i++) x[i] *= 2.0f; }\n"
AFTER = "void k(float *x, int n) { for (int i = 0; i < n; i++) x[i] *= 3.0f + x[i]; }\n"


def run_diff(*args):
    result = CliRunner().invoke(main, ["diff", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """A repository whose own configuration would run commands: an fsmonitor hook, a clean filter and a
    long-running process filter on every .c file, a post-index-change hook; each leaves a marker."""
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q")
    git(r, "config", "user.email", "dev@example.com")
    git(r, "config", "user.name", "dev")
    (r / "k.c").write_text(BEFORE)
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "base")
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
