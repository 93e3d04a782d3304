"""Git, read-only: which files changed between two revisions, and a revision's files.

Everything goes through `git` run without a shell (arguments as a list, `-z` output, so no file
name is ever interpreted); blobs are read with one `git cat-file --batch` process per revision.
Nothing is checked out and the repository is never written to.
(`gitcmd`: git runs with nothing of the repository's configuration that executes or writes.)
"""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..gitcmd import git_command, git_env
from ..inputs import SOURCE_LIMIT, InputError, read_bytes


class GitError(Exception):
    """git is missing, this is no repository, or a revision does not exist: a usage error."""


def _git(root, *args, text=True) -> str:
    try:
        # names as the file system has them: bytes that are not UTF-8 kept (surrogateescape), as os.fsdecode
        p = subprocess.run([*git_command(root), *args], cwd=root, capture_output=True, timeout=120,
                           stdin=subprocess.DEVNULL, env=git_env(), encoding="utf-8" if text else None,
                           errors="surrogateescape" if text else None)
    except FileNotFoundError:
        raise GitError("git is not installed (staticroof diff reads the revisions with git)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took more than 120 s") from None
    if p.returncode != 0:
        err = p.stderr if text else p.stderr.decode("utf-8", "replace")
        raise GitError(err.strip().splitlines()[-1] if err.strip() else f"git {args[0]} failed")
    return p.stdout


def repo_root(start: Path) -> Path:
    try:
        return Path(_git(start, "rev-parse", "--show-toplevel").strip())
    except GitError as e:
        raise GitError(f"{start}: not inside a git repository ({e})") from None


def resolve(root: Path, rev: str) -> str:
    """The commit `rev` names (a branch, a tag, HEAD~2, a SHA)."""
    if not rev or rev.startswith("-"):
        raise GitError(f"`{rev}` is not a revision")
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").strip()
    except GitError:
        raise GitError(f"`{rev}` is not a commit of {root}") from None


@dataclass(frozen=True)
class Change:
    status: str  # A (added), D (deleted), M (modified), R (renamed), C (copied), T (type changed)
    old: str | None  # repo-relative path in BASE (None when added)
    new: str | None  # repo-relative path in HEAD (None when deleted)


def changes(root: Path, base: str, head: str | None) -> list[Change]:
    """The files that differ between `base` and `head` (None: the working tree, staged or not,
    and untracked files that are not ignored), with the renames git finds."""
    args = ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", base]
    if head is not None:
        args.append(head)
    fields = _git(root, *args, "--").split("\0")
    out, k = [], 0
    while k < len(fields) and fields[k]:
        status = fields[k][0]
        if status in "RC":
            out.append(Change(status, fields[k + 1], fields[k + 2]))
            k += 3
            continue
        path = fields[k + 1]
        out.append(Change(status, None if status == "A" else path, None if status == "D" else path))
        k += 2
    if head is None:
        for path in _git(root, "ls-files", "-z", "--others", "--exclude-standard").split("\0"):
            if path:
                out.append(Change("A", None, path))
    return out


def changed_lines(root: Path, base: str, head: str | None, old: str | None, new: str) -> list[int]:
    """The lines of `new` (in HEAD) that the change touched, ascending: each added or changed line, and
    for a deletion the line after it.  A file that is new in full is every line: [] (no hunks asked)."""
    if old is None:
        return []
    args = ["diff", "-U0", "--no-ext-diff", "--no-textconv", "--no-color", "-M", base]
    if head is not None:
        args.append(head)
    text = _git(root, *args, "--", *([old] if old == new else [old, new]))
    out: list[int] = []
    for m in re.finditer(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", text, re.M):
        start, count = int(m.group(1)), int(m.group(2) or 1)
        out.extend(range(start, start + count) if count else [start + 1])  # `+c,0`: removed after line c
    return sorted(set(out))


class Tree:
    """A revision's files (`rev`), or the working tree's (`rev` None): their repo-relative names
    and, on demand, their bytes."""

    def __init__(self, root: Path, rev: str | None):
        self.root, self.rev = root, rev
        self._blobs: dict = {}
        self._sizes: dict = {}
        self._batch: subprocess.Popen | None = None
        if rev is None:
            names = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
            self.paths = {n for n in names if n and (root / n).is_file() and not (root / n).is_symlink()}
        else:
            self.paths = set()
            # -l: each blob's size, so one larger than a source may be is never read (a 3 GB blob)
            for line in _git(root, "ls-tree", "-r", "-z", "-l", "--full-tree", rev).split("\0"):
                if not line:
                    continue
                meta, _, path = line.partition("\t")
                mode, kind, sha, size = meta.split()
                if kind == "blob" and mode in ("100644", "100755"):  # no links, no submodules
                    self.paths.add(path)
                    self._blobs[path] = sha
                    self._sizes[path] = int(size)

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when it is not in the tree or is larger than a source may be."""
        if path not in self.paths:
            return None
        if self.rev is None:
            try:
                return read_bytes(self.root / path, SOURCE_LIMIT)
            except InputError:
                return None
        if self._sizes.get(path, 0) > SOURCE_LIMIT:
            return None
        if self._batch is None:
            self._batch = subprocess.Popen([*git_command(self.root), "cat-file", "--batch"], cwd=self.root,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                           env=git_env())
        stdin, stdout = self._batch.stdin, self._batch.stdout
        assert stdin is not None and stdout is not None
        stdin.write(self._blobs[path].encode() + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3:
            raise GitError(f"git cat-file could not read {path} at {self.rev}")
        size = int(header[2])
        if size > SOURCE_LIMIT:  # never: ls-tree gave the size (a blob changed under us ends the batch)
            self._batch.kill()
            self.close()
            return None
        data = stdout.read(size)
        stdout.read(1)  # the newline after the contents
        return data

    def close(self) -> None:
        if self._batch is not None:
            if self._batch.stdin is not None:
                self._batch.stdin.close()
            self._batch.wait(30)
            if self._batch.stdout is not None:
                self._batch.stdout.close()
            self._batch = None

    def write(self, paths, dest: Path) -> None:
        """Write `paths` (those in the tree) under `dest`, at their repo-relative places."""
        for path in sorted(paths):
            data = self.read(path)
            if data is None:
                continue
            target = dest / path
            if not target.resolve().is_relative_to(dest.resolve()):
                continue  # never: git paths are relative and have no `..`
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


def includes(tree: Tree, path: str, include_dirs: list, cache: dict | None = None) -> set:
    """Every file of `tree` that `path` may include, transitively: for each `#include` line, each
    place the preprocessor could look (beside the including file for "...", beside the main file,
    the repository's -I folders).  A superset of what is compiled, which is what copying a revision
    and finding the files a header change reaches need."""
    from ..frontends.common.preprocess import INCLUDE_LINE
    from ..inputs import decode

    cache = {} if cache is None else cache
    main_dir = posixpath.dirname(path)
    seen, todo = set(), [path]
    while todo:
        p = todo.pop()
        if p not in cache:
            data = tree.read(p)
            try:
                cache[p] = [m.groups() for m in INCLUDE_LINE.finditer(decode(data))] if data is not None else []
            except InputError:
                cache[p] = []
        for kind, name in cache[p]:
            dirs = ([posixpath.dirname(p)] if kind == '"' else []) + [main_dir] + list(include_dirs)
            for d in dirs:
                cand = posixpath.normpath(posixpath.join(d, name))
                if cand in tree.paths and cand not in seen and not cand.startswith("../"):
                    seen.add(cand)
                    todo.append(cand)
    return seen


def relative_dirs(root: Path, dirs) -> tuple[list, list]:
    """(-I folders inside the repository as repo-relative paths, the others as they are)."""
    inside, outside = [], []
    real_root = root.resolve()
    for d in dirs:
        p = Path(os.path.abspath(d)).resolve()
        if p.is_relative_to(real_root):
            inside.append(p.relative_to(real_root).as_posix() or ".")
        else:
            outside.append(str(p))
    return inside, outside
