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

from helpers import ACCUMULATE, GEMM_H, HOOK_KEYS, REGISTER, ROOT, git, new_repo

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


@pytest.mark.slow  # `staticroof diff` runs in subprocesses (~10 s)
@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's script is bash")
def test_review_script_runs_as_on_a_runner(tmp_path):
    """The `staticroof diff` step's script, with the environment a runner gives it, on a pull
    request that moves C's accumulation into memory: one `diff` run; the summary gets the Markdown
    table, the log the annotations (on the first changed line inside the kernel: line 10, where
    `float s = 0.0f;` was), the output the count, and the step fails (exit 1).  The args input keeps
    its quotes (a -D of two words would break a plain split) and runs nothing."""
    repo = new_repo(tmp_path / "repo", {"src/gemm.h": GEMM_H, "src/gemm.c": REGISTER}, branch="main")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src" / "gemm.c").write_text(ACCUMULATE)
    git(repo, "commit", "-q", "-am", "accumulate in C")
    head = git(repo, "rev-parse", "HEAD").strip()
    summary, output, runner_temp = tmp_path / "summary.md", tmp_path / "output", tmp_path / "runner"
    runner_temp.mkdir()
    marker = tmp_path / "ran"
    env = dict(os.environ, BASE=base, HEAD_REV=head, MACHINE="l4", FAIL_UNDER="10",
               ARGS=f"-D N=768 --config 'no such.toml' -D '$(touch {marker})'",
               GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output), RUNNER_TEMP=str(runner_temp),
               STATICROOF_CACHE_DIR=str(runner_temp / "staticroof-cache"), PYTHON=sys.executable,
               STATICROOF=str(Path(sys.executable).parent / "staticroof"))
    p = subprocess.run(["bash", "-c", _review_script()], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=600)
    # the quoted name is one argument (a missing configuration file: a usage error, exit 2), and
    # `$(...)` inside the args is a -D value, never run
    assert p.returncode == 2 and "no such.toml" in p.stdout + p.stderr, p.stdout + p.stderr
    assert not marker.exists()
    env["ARGS"] = "-D N=768 -D 'TITLE=a b'"
    p = subprocess.run(["bash", "-c", _review_script()], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "`N/6` = 128 → `N/8` = 96 (-25%)" in summary.read_text()
    assert ("::warning file=src/gemm.c,line=10,col=1,title=staticroof RD102 became-memory-bound::"
            "gemm (defined at line 6)") in p.stdout, p.stdout
    assert "title=staticroof RD105 new-lint-finding::" in p.stdout
    assert output.read_text() == "regressions=1\n"
    assert not (repo / ".staticroof_cache").exists()  # the cache stayed in the runner's temporary space

    env["BASE"] = ""
    p = subprocess.run(["bash", "-c", _review_script()], cwd=repo, env=env, capture_output=True, text=True)
    assert p.returncode == 2 and "::error title=staticroof::no base revision" in p.stdout


def test_the_action_pins_every_dependency_within_the_packages_own_bounds():
    """action-constraints.txt pins each of staticroof's dependencies (and theirs: sympy's mpmath,
    libcst's PyYAML) to one version, and each pin satisfies pyproject.toml's requirement."""
    import tomllib

    from packaging.requirements import Requirement

    pins = {}
    for line in (ROOT / "action-constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{line}: a pin is NAME==VERSION"
            pins[name.lower()] = version
    deps = [Requirement(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]]
    for req in deps:
        assert req.name.lower() in pins, req.name
        assert req.specifier.contains(pins[req.name.lower()], prereleases=True), (req, pins[req.name.lower()])
    assert {"mpmath", "pyyaml"} <= set(pins)
    action = (ROOT / "action.yml").read_text()
    assert '-c "$ACTION_PATH/action-constraints.txt"' in action and "update-environment: false" in action
