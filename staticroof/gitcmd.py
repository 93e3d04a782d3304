"""How staticroof runs git: read-only, with nothing of the repository's configuration that executes
or writes (issue #30 §2: a repository's `.git/config` is not to be trusted).  No fsmonitor, no hooks,
no clean/smudge/process filters (each driver the configuration names is blanked), no external diff or
text conversion, no pager, no system configuration, and no optional locks, so the index is never
refreshed on disk.  `diff` reads revisions through it; the caches ask it whether git tracks them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# Options that turn off what a repository's configuration could run or write (see the docstring).
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.attributesFile=/dev/null",
         "-c", "core.pager=cat", "-c", "diff.external=", "-c", "core.untrackedCache=false", "--no-optional-locks")
_FILTER_KEYS = ("clean", "smudge", "process")


def git_env() -> dict:
    """The environment git runs in: the caller's, without system configuration, prompts or pagers."""
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_ATTR_NOSYSTEM="1", GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    return env


_drivers_blanked: dict = {}


def git_command(root) -> list[str]:
    """`git` and the options that make it safe in `root`: _SAFE, and every filter driver that the
    configuration seen from `root` names blanked (an empty command is no filter)."""
    key = str(root)
    if key not in _drivers_blanked:
        try:
            p = subprocess.run(["git", *_SAFE, "config", "--name-only", "--get-regexp", r"^filter\."], cwd=root,
                               capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=git_env())
            names = {line.rsplit(".", 1)[0][len("filter."):] for line in p.stdout.splitlines()
                     if line.startswith("filter.") and "." in line[len("filter."):]}
        except (OSError, subprocess.TimeoutExpired):
            names = set()
        blank: list[str] = []
        for name in sorted(names):
            blank += [x for k in _FILTER_KEYS for x in ("-c", f"filter.{name}.{k}=")]
            blank += ["-c", f"filter.{name}.required=false"]
        _drivers_blanked[key] = blank
    return ["git", *_SAFE, *_drivers_blanked[key]]


def tracked(folder: Path) -> bool:
    """Does git track anything under `folder` (a cache: a committed one could be forged)?  False
    outside a repository."""
    if not folder.exists():
        return False
    try:
        p = subprocess.run([*git_command(folder.parent), "ls-files", "--", str(folder)], cwd=folder.parent,
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=git_env())
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and bool(p.stdout.strip())
