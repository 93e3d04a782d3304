"""Issue #30 §1: no file outside the project tree (the git work tree holding the analyzed file) and
the -I folders is read, so nothing of it can reach a report the pull-request gate posts.  Each case
is run through both preprocessors (the system's `cc -E` and pcpp, STATICROOF_NO_CPP=1): the secret is
a token file outside the tree; a leak would print it as a loop bound's size."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from staticroof.frontends.common.confine import Confinement, parse_make_deps, project_root
from staticroof.frontends.common.preprocess import system_preprocessor_available

SECRET = "ghp_Zx9SecretTokenValue"

PREPROCESSORS = ["pcpp"] + (["cc"] if system_preprocessor_available() else [])


def project(tmp_path):
    """tmp/proj (a git work tree: a `.git` folder is what marks it) and tmp/secret.txt beside it."""
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    return proj


def analyze(proj, which, *args):
    env = dict(os.environ)
    env.pop("STATICROOF_NO_CPP", None)
    if which == "pcpp":
        env["STATICROOF_NO_CPP"] = "1"
    return subprocess.run([sys.executable, "-m", "staticroof", "analyze", "--no-cache", *map(str, args)],
                          capture_output=True, text=True, cwd=proj, env=env, timeout=120)


def bounded_by(include_line: str) -> str:
    # the included file's first token becomes the loop bound: a leak shows it as a size
    return f"void k(float *x)\n{{\n    for (int i = 0; i <\n{include_line}\n    ; i++) x[i] *= 2.0f;\n}}\n"


@pytest.mark.parametrize("which", PREPROCESSORS)
def test_absolute_include_outside_the_tree_is_refused(tmp_path, which):
    proj = project(tmp_path)
    secret = tmp_path / "secret.txt"
    (proj / "k.c").write_text(bounded_by(f'#include "{secret}"'))
    r = analyze(proj, which, "k.c")
    assert r.returncode == 1, r.stdout + r.stderr
    assert SECRET not in r.stdout + r.stderr
    # the error names the include and the path, at the include's line and the name's column
    assert f'k.c:4:11: SR005 #include "{secret}": {secret} is outside the project tree ({proj})' in r.stdout, r.stdout


@pytest.mark.parametrize("which", PREPROCESSORS)
def test_a_header_linked_outside_the_tree_is_not_followed(tmp_path, which):
    proj = project(tmp_path)
    (proj / "bound.h").symlink_to(tmp_path / "secret.txt")
    (proj / "k.c").write_text(bounded_by('#include "bound.h"'))
    r = analyze(proj, which, "k.c")
    assert r.returncode == 1 and SECRET not in r.stdout + r.stderr, r.stdout
    assert f"(a link to {tmp_path / 'secret.txt'}) is outside the project tree" in r.stdout, r.stdout


@pytest.mark.parametrize("which", PREPROCESSORS)
def test_a_computed_include_is_checked_after_the_preprocessor(tmp_path, which):
    # `#include HDR` names its file through a macro: only the preprocessor knows it; what it opened is
    # checked after it ran (cc's dependency list, pcpp's file hook), and its output is dropped
    proj = project(tmp_path)
    (proj / "k.c").write_text(f'#define HDR "{tmp_path / "secret.txt"}"\n' + bounded_by("#include HDR"))
    r = analyze(proj, which, "k.c")
    assert r.returncode == 1 and SECRET not in r.stdout + r.stderr, r.stdout
    assert "is outside the project tree" in r.stdout and "SR005" in r.stdout


@pytest.mark.parametrize("which", PREPROCESSORS)
def test_headers_inside_the_tree_and_in_i_folders_are_read(tmp_path, which):
    # a header in the tree, one reached through a link that stays in the tree, and one in a -I folder
    # outside the tree (the user named it): all read; the bound N = 37 + 0 + 0 gives W = 37, Q = 8*37
    proj = project(tmp_path)
    (proj / "inc").mkdir()
    (proj / "inc" / "n.h").write_text("#define N 37\n")
    (proj / "alias.h").symlink_to(proj / "inc" / "n.h")
    outside = tmp_path / "vendor"
    outside.mkdir()
    (outside / "zero.h").write_text("#define ZERO 0\n")
    (proj / "k.c").write_text('#include "inc/n.h"\n#include "alias.h"\n#include <zero.h>\n'
                              "void k(float *x) { for (int i = ZERO; i < N; i++) x[i] *= 2.0f; }\n")
    r = analyze(proj, which, "k.c", "-I", outside)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "N = 37 (macro); ZERO = 0 (macro)" in r.stdout, r.stdout  # both headers' sizes were read
    assert "= 37 FLOP" in r.stdout and "Q compulsory Max(0, 8*N - 8*ZERO) = 296 B" in r.stdout, r.stdout
    r = analyze(proj, which, "k.c")  # without the -I, zero.h is no user header: an empty stub (SR004)
    assert "outside the project tree" not in r.stdout


def test_project_root_is_the_git_work_tree_else_the_current_folder(tmp_path, monkeypatch):
    proj = project(tmp_path)
    (proj / "src").mkdir()
    assert project_root(proj / "src" / "k.c") == proj.resolve()
    (proj / "wt").mkdir()
    (proj / "wt" / ".git").write_text("gitdir: elsewhere\n")  # a worktree's `.git` is a file
    assert project_root(proj / "wt" / "k.c") == (proj / "wt").resolve()
    plain = tmp_path / "plain"
    (plain / "sub").mkdir(parents=True)
    monkeypatch.chdir(plain)
    assert project_root(plain / "sub" / "k.c") == plain.resolve()  # inside the current folder
    other = tmp_path / "other"
    other.mkdir()
    assert project_root(other / "k.c") == other.resolve()  # outside it: the file's own folder
    c = Confinement(proj / "src" / "k.c", include_dirs=[other])
    assert c.allows(proj / "src" / "a.h") and c.allows(other / "b.h") and not c.allows(tmp_path / "secret.txt")


def test_make_dependencies_are_read_with_their_escapes():
    text = "x: /w/input.c /p/sp\\ ace/h\\#1.h \\\n /p/c$$d.h\n"
    assert parse_make_deps(text) == ["/w/input.c", "/p/sp ace/h#1.h", "/p/c$d.h"]
    assert parse_make_deps("garbage") is None  # then the output is not used
