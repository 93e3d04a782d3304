"""Run the selected lint rules over files: analysis, rules, then the filters a project sets
(`select`/`ignore`, `per-file-ignores`, `staticroof: ignore[...]` comments).

Each file is analyzed on its own, so one file's findings depend only on that file (and the headers
it includes, the options and the configuration): that is what makes them cacheable per file.
"""

from __future__ import annotations

import fnmatch
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Location
from .registry import Finding, load, matches
from .settings import Settings

if TYPE_CHECKING:
    from ..options import AnalysisOptions

# Unreadable input (a binary file) and a -D value a size cannot take: usage errors (exit 2), as
# `analyze` treats them, not findings.
USAGE = ("SR003", "SR007")


def selected_rules(settings: Settings) -> list:
    return [r for code, r in load().items() if matches(code, settings.select) and not matches(code, settings.ignore)]


def analyze_file(path: Path, options: AnalysisOptions, store=None, config_path=None):
    """One file through the pipeline (and the analysis cache `store`, when given), placed under the
    machine's roofline when there is one."""
    from ..cache.runner import run

    report = run([path], options, cache=store, config_path=config_path)
    if options.machine is not None:
        from ..roofline import MachineError
        from ..roofline.place import place

        for k in report.kernels:
            try:
                k.roofline = place(k, options.machine, options.unit)
            except MachineError:
                k.roofline = None  # no roof for this kernel's precision: RF302 cannot say anything
    return report


def check_file(path: Path, options: AnalysisOptions, settings: Settings, rules: list, store=None,
               config_path=None) -> tuple[list, list, bool]:
    """(findings before suppressions, the file's usage errors such as SR007, whether the result is
    worth keeping: not after an internal error or a preprocessor that ran out of time or memory)."""
    from ..cache.runner import transient

    report = analyze_file(path, options, store, config_path)
    return findings_of(path, report, options, settings, rules) + (not transient(report),)


def findings_of(path: Path, report, options: AnalysisOptions, settings: Settings, rules: list) -> tuple[list, list]:
    """(the rules' findings on a file's report, its usage errors)."""
    from .context import FileContext

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
    return [replace(f, name=names[f.code].name) for f in findings], usage


def kernel_findings(kernels, options: AnalysisOptions, settings: Settings, prefixes=("RF1", "RF2")) -> dict:
    """{(file, kernel name): [(code, message)]}: the findings of the selected rules with these code
    prefixes on `kernels` (summaries placed under the options' machine), after the project's
    filters and suppression comments; what `diff` compares per kernel (RD105).  Read from the
    current folder, as `lint` reads them."""
    from .context import FileContext

    rules = [r for r in selected_rules(settings) if r.code.startswith(tuple(prefixes))]
    by_file: dict = {}
    for k in kernels:
        by_file.setdefault(k.file, []).append(k)
    out: dict = {}
    suppressions = Suppressions()
    for file, ks in by_file.items():
        ctx = FileContext(file, ks, [], settings, options.machine, options.unit)
        found = []
        for r in rules:
            try:
                found.extend(r.check(ctx))
            except Exception:  # a rule's bug costs its findings (lint reports it as RF902)
                continue
        for f in keep(found, file, settings, suppressions):
            if f.kernel is not None:
                out.setdefault((file, f.kernel), []).append((f.code, f.message))
    return out


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
            from ..frontends.common.comments import suppressions
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


def lint_files(files: list, options: AnalysisOptions, settings: Settings, store=None,
               config_path=None) -> tuple[list, list]:
    """(findings to report, usage errors) for `files`, each read from the cache `store` (a
    cache.Cache, or None) when it holds the file's entry, else analyzed, checked and stored.  The
    rules, and with them the analysis, are imported only when the cache misses a file; the files
    it misses are checked on up to `options.jobs` processes (staticroof/workers.py)."""
    from functools import partial

    from ..cache.runner import warm_up
    from ..workers import run_all
    from . import cached

    keys = [_key(path, options, settings, config_path) if store is not None else None for path in files]
    parts: list = [store.get(cached.KIND, key, decode=cached.decode) if store is not None and key else None
                   for key in keys]
    missed = [i for i, part in enumerate(parts) if part is None]
    if missed:
        rules = selected_rules(settings)
        checked = run_all(partial(_check, options=options, settings=settings, rules=rules, store=store,
                                  config_path=config_path), [files[i] for i in missed], options.jobs,
                          partial(_lost, options=options, settings=settings, rules=rules), warm=warm_up)
        for i, (found, bad, keepable) in zip(missed, checked, strict=True):
            parts[i] = (found, bad)
            # stored only if the file and its headers did not change while it was analyzed
            if store is not None and keys[i] and keepable and _key(files[i], options, settings, config_path) == keys[i]:
                store.put(cached.KIND, keys[i], cached.encode(found, bad))
    findings, usage = [], []
    for found, bad in parts:
        findings.extend(found)
        usage.extend(bad)
    return findings, usage


def _check(path, options: AnalysisOptions, settings: Settings, rules: list, store,
           config_path) -> tuple[list, list, bool]:
    """One file's reported findings, usage errors and whether to store them (in a worker or here)."""
    raw, bad, keepable = check_file(path, options, settings, rules, store, config_path)
    return keep(raw, str(path), settings, Suppressions()), bad, keepable


def _lost(path, why: str, options: AnalysisOptions, settings: Settings, rules: list) -> tuple[list, list, bool]:
    """A file whose worker died: the rules see an internal error (SR099) of that file, as when the
    analysis itself fails; not stored."""
    from ..cache.runner import lost

    raw, bad = findings_of(path, lost(path, why), options, settings, rules)
    return keep(raw, str(path), settings, Suppressions()), bad, False


def _key(path, options: AnalysisOptions, settings: Settings, config_path):
    """The lint entry's key for `path` (cache.file_key: the file, its headers, the configuration's
    bytes, staticroof itself, and the options here), or None when the file cannot be read as text."""
    from ..cache import file_key
    from ..cache.runner import stub_dirs
    from .cached import KIND, key_options

    return file_key(path, KIND, key_options(options, settings), options.include_dirs, config_path, stub_dirs(path))
