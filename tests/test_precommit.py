"""The pre-commit hook (issue #12 item 3): `.pre-commit-hooks.yaml` declares the documented keys,
and `pre-commit try-repo` on a clone of this repository's HEAD, in a throw-away git repository
with a good and a bad kernel, fails on the bad one only.

try-repo installs staticroof (and its dependencies, from the package index) into a fresh
environment: that takes a minute or more, so the end-to-end test is marked slow
(`pytest -m slow tests/test_precommit.py`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from helpers import HOOK_KEYS, ROOT


def _hooks() -> list:
    import yaml

    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())


def test_hook_manifest_is_valid():
    pytest.importorskip("pre_commit")
    from pre_commit.clientlib import load_manifest

    hooks = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))  # pre-commit's own schema check
    assert [h["id"] for h in hooks] == ["staticroof"]
    raw = _hooks()[0]
    assert set(raw) <= HOOK_KEYS
    assert raw["entry"] == "staticroof lint" and raw["language"] == "python"
    from identify.identify import tags_from_filename

    # identify tags .c as c, .cu as cuda, .py as python: every one is a file the hook receives
    for name in ("kernel.c", "kernel.cu", "kernels.py"):
        assert tags_from_filename(name) & set(raw["types_or"]), name


GOOD = """\
#include <stdlib.h>
#define N 256

void gemm(int n, const float *A, const float *B, float *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += A[i * n + k] * B[k * n + j];
            C[i * n + j] = acc;
        }
}

int main(void)
{
    float *A = calloc(N * N, 4), *B = calloc(N * N, 4), *C = calloc(N * N, 4);
    gemm(N, A, B, C);
    free(A); free(B); free(C);
    return 0;
}
"""
BAD = GOOD.replace("""            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += A[i * n + k] * B[k * n + j];
            C[i * n + j] = acc;""", """            for (int k = 0; k < n; k++)
                C[i * n + j] += A[i * n + k] * B[k * n + j];""")


def _git(cwd, *args):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


@pytest.mark.slow
def test_try_repo_fails_on_the_bad_kernel_only(tmp_path):
    pytest.importorskip("pre_commit")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "staticroof"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, capture_output=True)
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "--quiet")
    (project / "good.c").write_text(GOOD)
    (project / "bad.c").write_text(BAD)
    _git(project, "add", "good.c", "bad.c")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PRE_COMMIT_COLOR": "never"}

    def try_repo(*files):
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(clone), "staticroof", "--files",
                               *files], cwd=project, capture_output=True, text=True, env=env, timeout=900)

    both = try_repo("good.c", "bad.c")
    assert both.returncode == 1, both.stdout + both.stderr
    # n = N = 256 from main: 8*n**3 = 134,217,728 B in memory, 8*n**2 = 524,288 B in a register
    assert "bad.c:9:17: RF202 `gemm`: `C` is accumulated in memory inside the `k` loop" in both.stdout
    assert "8*n**3 = 134,217,728 B at the access level, against 8*n**2 = 524,288 B" in both.stdout
    assert "good.c" not in both.stdout.split("staticroof lint")[-1]
    good = try_repo("good.c")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout


def test_every_package_is_installed():
    # a package missing from [tool.setuptools] packages is absent from a real (non-editable) install,
    # which is what pre-commit makes: the hook then dies on the import
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "staticroof").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


def test_the_readme_hook_passes_ordinary_memory_bound_code(tmp_path, monkeypatch):
    """Issue #32 §6: with the README's hook arguments, an ordinary SAXPY (C and CUDA, memory-bound
    57x below the A100's ridge: RF302's business, left out there) passes; an fp64 promotion fails."""
    import re

    import yaml
    from click.testing import CliRunner

    from staticroof.cli import main

    text = (ROOT / "README.md").read_text()
    section = text[text.index("### pre-commit"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    (hook,) = [h for r in yaml.safe_load(block)["repos"] for h in r["hooks"]]
    args = [str(a) for a in hook["args"]]
    monkeypatch.chdir(tmp_path)
    cu = tmp_path / "saxpy.cu"
    cu.write_text("__global__ void saxpy(int n, float a, const float *x, float *y)\n{\n"
                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = a * x[i] + y[i];\n}\n")
    r = CliRunner().invoke(main, ["lint", *args, str(ROOT / "samples" / "saxpy.c"), str(cu), "-D", "n=1000000"])
    assert r.exit_code == 0, r.output
    cu.write_text(cu.read_text().replace("a * x[i]", "a * x[i] * 0.5"))
    r = CliRunner().invoke(main, ["lint", *args, str(cu), "-D", "n=1000000"])
    assert r.exit_code == 1 and "RF101" in r.output, r.output
