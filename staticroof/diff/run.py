"""`staticroof diff`'s work: pick the files, lay out BASE (and HEAD) in a temporary folder,
analyze both sides, pair the kernels.

A file is analyzed when git reports it changed (a rename pairs its old and new names), and also
when it includes, directly or not, a header that changed.  BASE's files (the changed sources and
every file they may include) are written from git's objects into a temporary folder, removed
afterwards; HEAD is the working tree unless a revision is named.  Each side is analyzed from its
own root with repo-relative names, so the reports show `src/gemm.c`, headers resolve inside the
side's own tree, and the content-hash cache recognises a side it has seen before.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

from ..diagnostics import line_name, shown
from . import git
from .compare import DEFAULT_FAIL_UNDER, DiffResult, compare, match, metrics


def _supported(path: str | None) -> bool:
    from ..frontends import supported

    return path is not None and supported(Path(path))


def pairs_to_analyze(changes: list, old: git.Tree, new: git.Tree, include_dirs: list) -> list:
    """[(BASE path or None, HEAD path or None)] of the sources whose results may differ."""
    pairs = []
    for c in changes:
        old_path = c.old if _supported(c.old) else None
        new_path = c.new if _supported(c.new) else None
        if old_path or new_path:
            pairs.append((old_path, new_path))
    # any changed file may be included (a .h, a .cuh, a .hpp): the sources that reach one are analyzed
    headers = {p for c in changes for p in (c.old, c.new) if p}
    if headers:
        taken = {p for pair in pairs for p in pair if p}
        cache_old: dict = {}
        cache_new: dict = {}
        for s in sorted(p for p in old.paths & new.paths if _supported(p) and p not in taken):
            if (git.includes(old, s, include_dirs, cache_old) | git.includes(new, s, include_dirs, cache_new)) \
                    & headers:
                pairs.append((s, s))
    return pairs


def _analyze_side(root: Path, paths: list, options, include_dirs: list, store, config_path,
                  settings=None) -> tuple[dict, list]:
    """({path: [Metrics]}, file-level notes) of `paths` analyzed from `root`; with lint `settings`,
    each Metrics holds the RF1xx/RF2xx findings at its kernel."""
    import dataclasses

    from ..cache import runner

    machine = options.machine
    out: dict = {p: [] for p in paths}
    notes: list = []
    if not paths:
        return out, notes
    with contextlib.chdir(root):
        # the include folders as seen from the side's root (repository-relative inside it)
        report = runner.run([Path(p) for p in paths], dataclasses.replace(options, include_dirs=include_dirs),
                            cache=store, config_path=config_path)
        if machine is not None:
            from ..roofline import MachineError
            from ..roofline.place import place

            for k in report.kernels:
                try:
                    k.roofline = place(k, machine, options.unit)
                except MachineError:
                    k.roofline = None
        found: dict = {}
        if settings is not None:  # read in the side's root: its suppression comments, its per-file-ignores
            from ..lint.engine import kernel_findings

            found = kernel_findings(report.kernels, options, settings)
    seen = set()
    aliases = {line_name(p): p for p in paths}
    for k in report.kernels:
        # a header's kernel is reported under the header, once, however many analyzed files include it
        m = metrics(k)
        m.findings = tuple(found.get((k.file, k.name), ()))
        file = aliases.get(k.file, shown(k.file))  # an odd name's #line alias undone (also from the cache)
        key = (Path(file).as_posix(), m.name, m.line, m.col)
        if key not in seen:
            seen.add(key)
            m.file = key[0]
            out.setdefault(key[0], []).append(m)
    for d in report.file_diagnostics:
        if d.severity == "error":
            notes.append(f"{d.location}: {d.code} {d.message}")
    return out, notes


def run(base: str, head: str | None, options, cwd: Path, store=None, config_path=None,
        fail_under: float = DEFAULT_FAIL_UNDER, settings=None, lint_fails: bool = True) -> DiffResult:
    """Compare the kernels of BASE and HEAD (None: the working tree).  `settings`: the lint settings
    whose RF1xx/RF2xx findings are compared (None: none are), `lint_fails`: whether a new one is a
    regression.  GitError for a bad repository or revision."""
    root = git.repo_root(cwd)
    base_commit = git.resolve(root, base)
    head_commit = git.resolve(root, head) if head is not None else None
    result = DiffResult(base, head or "working tree", base_commit, head_commit or "",
                        options.machine.name if options.machine is not None else None, fail_under)
    inside, outside = git.relative_dirs(root, options.include_dirs)
    old_tree, new_tree = git.Tree(root, base_commit), git.Tree(root, head_commit)
    work = Path(tempfile.mkdtemp(prefix="staticroof-diff-"))
    try:
        pairs = pairs_to_analyze(git.changes(root, base_commit, head_commit), old_tree, new_tree, inside)
        old_paths = sorted({o for o, _ in pairs if o and o in old_tree.paths})
        new_paths = sorted({n for _, n in pairs if n and n in new_tree.paths})
        old_root = work / "base"
        _lay_out(old_tree, old_paths, inside, old_root)
        new_root = root
        if head_commit is not None:
            new_root = work / "head"
            _lay_out(new_tree, new_paths, inside, new_root)
        old_tree.close()
        new_tree.close()
        dirs = inside + outside
        old_kernels, old_notes = _analyze_side(old_root, old_paths, options, dirs, store, config_path, settings)
        new_kernels, new_notes = _analyze_side(new_root, new_paths, options, dirs, store, config_path, settings)
    finally:
        old_tree.close()
        new_tree.close()
        shutil.rmtree(work, ignore_errors=True)
    result.notes = [f"{base}: {n}" for n in old_notes] + new_notes
    # kernels reported under a header's name (included by an analyzed file) pair under that header
    taken = {p for pair in pairs for p in pair if p}
    for h in sorted((set(old_kernels) | set(new_kernels)) - taken):
        pairs.append((h if h in old_kernels else None, h if h in new_kernels else None))
    result.files = [n or o for o, n in pairs]
    for o, n in pairs:
        found = [compare(old_m, new_m, fail_under, lint_fails)
                 for old_m, new_m in match(old_kernels.get(o, []) if o else [], new_kernels.get(n, []) if n else [])]
        for d in found:
            if o and n and o != n:
                d.old_file = o
        if n and any(d.regression for d in found):
            _changed_lines(found, root, base_commit, head_commit, o, n)
        result.kernels.extend(found)
    return result


def _changed_lines(found: list, root: Path, base: str, head: str | None, old: str | None, new: str) -> None:
    """Each regressed kernel's first changed line inside it (from its line to the next kernel's), so
    the annotation sits on the change a reviewer reads; none when git gives no hunk inside."""
    try:
        lines = git.changed_lines(root, base, head, old, new)
    except git.GitError:
        return
    starts = sorted({d.new.line for d in found if d.new is not None and d.new.line})
    for d in found:
        if not d.regression or d.new is None or not d.new.line:
            continue
        later = [s for s in starts if s > d.new.line]
        end = later[0] if later else float("inf")
        inside = [x for x in lines if d.new.line <= x < end]
        d.changed_line = inside[0] if inside else None


def _lay_out(tree: git.Tree, paths: list, include_dirs: list, dest: Path) -> None:
    needed = set(paths)
    cache: dict = {}
    for p in paths:
        needed |= git.includes(tree, p, include_dirs, cache)
    dest.mkdir(parents=True, exist_ok=True)
    tree.write(needed, dest)
