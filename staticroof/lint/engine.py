"""Run the selected lint rules over files: analysis, rules, then the filters a project sets
(`select`/`ignore`, `per-file-ignores`, `staticroof: ignore[...]` comments).

Each file is analyzed on its own, so one file's findings depend only on that file (and the headers
it includes, the options and the configuration): that is what makes them cacheable per file.
"""

from __future__ import annotations

import fnmatch
from dataclasses import replace
from pathlib import Path

from ..diagnostics import Location
from .registry import Finding, load, matches
from .settings import Options, Settings

# Unreadable input (a binary file) and a -D value a size cannot take: usage errors (exit 2), as
# `analyze` treats them, not findings.
USAGE = ("SR003", "SR007")


def selected_rules(settings: Settings) -> list:
    return [r for code, r in load().items() if matches(code, settings.select) and not matches(code, settings.ignore)]


def analyze_file(path: Path, options: Options, store=None, config_path=None):
    """One file through the pipeline (and the analysis cache `store`, when given), placed under the
    machine's roofline when there is one."""
    from ..cache.runner import run

    l1 = options.machine.smem_bytes_per_sm if options.machine is not None else None
    cache = options.cache_bytes or (options.machine.l2_bytes if options.machine is not None else None)
    report = run([path], options.defines, options.include_dirs, options.weights, None, options.launches, cache, l1,
                 False, options.kernel_sizes, cache=store, config_path=config_path)
    if options.machine is not None:
        from ..roofline import MachineError
        from ..roofline.place import place

        for k in report.kernels:
            try:
                k.roofline = place(k, options.machine, options.unit)
            except MachineError:
                k.roofline = None  # no roof for this kernel's precision: RF302 cannot say anything
    return report


def check_file(path: Path, options: Options, settings: Settings, rules: list, store=None,
               config_path=None) -> tuple[list, list, bool]:
    """(findings before suppressions, the file's usage errors such as SR007, whether the result is
    worth keeping: not after an internal error or a preprocessor that ran out of time or memory)."""
    from ..cache.runner import transient
    from .context import FileContext

    report = analyze_file(path, options, store, config_path)
    ctx = FileContext(str(path), report.kernels, report.file_diagnostics, settings, options.machine, options.unit)
    findings = []
    for r in rules:
        try:
            findings.extend(r.check(ctx))
        except Exception as e:  # a rule's bug costs its findings, never the run
            findings.append(Finding("RF902", f"lint rule {r.code} failed on this file: {type(e).__name__}: {e}",
                                    Location(str(path))))
    usage = [d for d in report.file_diagnostics if d.code in USAGE]
    names = load()
    return [replace(f, name=names[f.code].name) for f in findings], usage, not transient(report)


def ignored_by_file(code: str, path: str, settings: Settings) -> bool:
    if not settings.per_file_ignores:
        return False
    p = Path(path).resolve()
    root = Path(settings.root).resolve() if settings.root else Path.cwd().resolve()
    try:
        rel = p.relative_to(root).as_posix()
    except ValueError:
        rel = p.as_posix()
    for glob, codes in settings.per_file_ignores.items():
        hit = fnmatch.fnmatch(rel, glob) or ("/" not in glob and fnmatch.fnmatch(p.name, glob))
        if hit and matches(code, codes):
            return True
    return False


class Suppressions:
    """`staticroof: ignore[...]` comments, read once per file a finding points into."""

    def __init__(self):
        self._by_file: dict = {}

    def _of(self, file: str) -> dict:
        if file not in self._by_file:
            from ..diagnostics import shown
            from ..frontends import language_of
            from ..frontends.comments import suppressions
            from ..inputs import InputError, read_text

            try:
                self._by_file[file] = suppressions(read_text(shown(file)), language_of(shown(file)))
            except (InputError, OSError):
                self._by_file[file] = {}
        return self._by_file[file]

    def covers(self, f: Finding) -> bool:
        for loc in (f.location, *f.also):
            if loc is None or not loc.line:
                continue
            codes = self._of(loc.file).get(loc.line, set())
            if codes is None or matches(f.code, codes):
                return True
        return False


def keep(findings: list, path: str, settings: Settings, suppressions: Suppressions) -> list:
    """The findings the project wants reported, deduplicated and in file order."""
    out, seen = [], set()
    for f in findings:
        key = (f.code, f.message, f.location)
        if key in seen or not matches(f.code, settings.select) or matches(f.code, settings.ignore):
            continue
        seen.add(key)
        if ignored_by_file(f.code, path, settings) or suppressions.covers(f):
            continue
        out.append(f)
    return sorted(out, key=lambda f: (str(f.location.file), f.location.line, f.location.col, f.code))
