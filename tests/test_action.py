"""action.yml and .pre-commit-hooks.yaml against the keys their hosts document, and the action's
review script run as a GitHub runner would run it.

The key lists are written from GitHub's "Metadata syntax for GitHub Actions" (composite actions)
and pre-commit's "Creating new hooks" page; a key outside them is ignored or refused by the host,
which is what these tests exist to catch.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import ACCUMULATE, GEMM_H, HOOK_KEYS, REGISTER, ROOT, git

ACTION_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
ACTION_REQUIRED = {"name", "description", "runs"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
OUTPUT_KEYS = {"description", "value"}  # `value` is required for a composite action's outputs
COMPOSITE_KEYS = {"using", "steps"}
STEP_KEYS = {"name", "id", "if", "run", "shell", "uses", "with", "env", "working-directory", "continue-on-error"}
BRANDING_COLORS = {"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}

HOOK_REQUIRED = {"id", "name", "entry", "language"}
HOOK_LANGUAGES = {"conda", "coursier", "dart", "docker", "docker_image", "dotnet", "fail", "golang", "haskell",
                  "julia", "lua", "node", "perl", "python", "r", "ruby", "rust", "swift", "pygrep", "script",
                  "system"}


def load(name: str):
    return yaml.safe_load((ROOT / name).read_text())


def test_action_keys_are_the_documented_ones():
    action = load("action.yml")
    assert set(action) <= ACTION_KEYS and ACTION_REQUIRED <= set(action)
    for name, spec in action["inputs"].items():
        assert set(spec) <= INPUT_KEYS and "description" in spec, name
        assert isinstance(spec.get("default", ""), str), f"{name}: a default is a string"
    for name, spec in action["outputs"].items():
        assert set(spec) == OUTPUT_KEYS, name
    runs = action["runs"]
    assert set(runs) == COMPOSITE_KEYS and runs["using"] == "composite"
    for step in runs["steps"]:
        assert set(step) <= STEP_KEYS, step
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] == "bash", "a composite action's run step names its shell"
    assert set(action["branding"]) <= {"icon", "color"} and action["branding"]["color"] in BRANDING_COLORS
    # every ${{ inputs.X }} names a declared input, every steps.ID an existing step
    text = (ROOT / "action.yml").read_text()
    import re

    for used in re.findall(r"inputs\.([A-Za-z0-9_-]+)", text):
        assert used in action["inputs"], used
    ids = {s.get("id") for s in runs["steps"]}
    for used in re.findall(r"steps\.([A-Za-z0-9_-]+)\.", text):
        assert used in ids, used


def test_action_inputs_never_pasted_into_a_script():
    """An input reaches a `run` script through `env:` only (an expression inside the script would
    let a branch name or input inject shell code)."""
    for step in load("action.yml")["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step.get("name")


def test_pre_commit_hooks_keys_are_the_documented_ones():
    from identify.identify import ALL_TAGS

    hooks = load(".pre-commit-hooks.yaml")
    assert isinstance(hooks, list) and hooks
    for hook in hooks:
        assert set(hook) <= HOOK_KEYS and HOOK_REQUIRED <= set(hook), hook
        assert hook["language"] in HOOK_LANGUAGES
        for key in ("types", "types_or", "exclude_types"):
            assert set(hook.get(key, [])) <= ALL_TAGS, f"{key}: not identify tags"
    assert [h["id"] for h in hooks] == ["staticroof"]
    assert hooks[0]["entry"].split()[:2] == ["staticroof", "lint"]


def _review_script() -> str:
    (step,) = [s for s in load("action.yml")["runs"]["steps"] if s.get("id") == "review"]
    return step["run"]


@pytest.mark.slow  # three `staticroof diff` runs in subprocesses (~10 s)
@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's script is bash")
def test_review_script_runs_as_on_a_runner(tmp_path):
    """The `staticroof diff` step's script, with the environment a runner gives it, on a pull
    request that moves C's accumulation into memory: the summary gets the Markdown table, the log
    the annotations, the output the count, and the step fails (exit 1)."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "dev@example.com")
    git(repo, "config", "user.name", "dev")
    (repo / "src" / "gemm.h").write_text(GEMM_H)
    (repo / "src" / "gemm.c").write_text(REGISTER)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src" / "gemm.c").write_text(ACCUMULATE)
    git(repo, "commit", "-q", "-am", "accumulate in C")
    head = git(repo, "rev-parse", "HEAD").strip()
    summary, output, runner_temp = tmp_path / "summary.md", tmp_path / "output", tmp_path / "runner"
    runner_temp.mkdir()
    env = dict(os.environ, BASE=base, HEAD_REV=head, MACHINE="l4", FAIL_UNDER="10", ARGS="-D N=768",
               GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output), RUNNER_TEMP=str(runner_temp),
               STATICROOF_CACHE_DIR=str(runner_temp / "staticroof-cache"),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    p = subprocess.run(["bash", "-c", _review_script()], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "`N/6` = 128 → `N/8` = 96 (-25%)" in summary.read_text()
    assert "::warning file=src/gemm.c,line=6,col=6,title=staticroof RD101 intensity-drop::" in p.stdout
    assert output.read_text() == "regressions=1\n"
    assert not (repo / ".staticroof_cache").exists()  # the cache stayed in the runner's temporary space

    env["BASE"] = ""
    p = subprocess.run(["bash", "-c", _review_script()], cwd=repo, env=env, capture_output=True, text=True)
    assert p.returncode == 2 and "::error title=staticroof::no base revision" in p.stdout
