"""Baseline files: the kernels' numbers at one point in time, for a review without git history
(`staticroof baseline PATH... -o FILE` writes one; `staticroof lint --baseline FILE` compares).

A baseline is JSON: per kernel the readable numbers (the `diff --format json` side records) and
the exact numbers and formulas in the cache's codec (reading it never evaluates text, so a
baseline committed by anyone is safe to read).  Kernels are matched by file, relative to the
baseline's folder, and name; the comparison is `diff`'s (staticroof.diff.compare).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .compare import DEFAULT_FAIL_UNDER, Metrics, compare, metrics

VERSION = 1


class BaselineError(Exception):
    pass


def analyze(files, options, store=None, config_path=None) -> list:
    """The KernelSummaries of `files`, placed under the options' machine."""
    from ..cache import runner

    report = runner.run(files, options, cache=store, config_path=config_path)
    place_all(report.kernels, options.machine, options.unit)
    return report.kernels


def place_all(kernels, machine, unit) -> None:
    if machine is None:
        return
    from ..roofline import MachineError
    from ..roofline.place import place

    for k in kernels:
        try:
            k.roofline = place(k, machine, unit)
        except MachineError:
            k.roofline = None


def _relative(file: str, folder: Path) -> str:
    """`file` relative to the baseline's folder (`../src/gemm.c`), so a baseline moves with its
    repository; absolute only where no relative path exists (another drive)."""
    try:
        return Path(os.path.relpath(os.path.abspath(file), os.path.abspath(folder))).as_posix()
    except ValueError:
        return Path(os.path.abspath(file)).as_posix()


def write(path: Path, kernels, options) -> int:
    from ..cache import codec
    from ..reports.diff import side

    folder = Path(os.path.abspath(path)).parent
    records = []
    for k in kernels:
        m = metrics(k)
        m.file = _relative(m.file, folder)
        rec = side(m)
        assert rec is not None
        rec["exact_values"] = codec.dump([m.W, m.Q, m.I, m.W_expr, m.Q_expr, m.I_expr, m.attainable, m.time])
        records.append(rec)
    from .. import __version__

    doc = {"version": VERSION, "staticroof": __version__,
           "machine": options.machine.name if options.machine is not None else None, "kernels": records}
    Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return len(records)


def load(path: Path) -> dict:
    """{(file relative to the baseline's folder, kernel name): [Metrics]}; BaselineError when the
    file is not a baseline."""
    from ..cache import codec
    from ..inputs import InputError, read_text

    try:
        doc = json.loads(read_text(path, 64 * 1024 * 1024))
    except (InputError, ValueError, RecursionError) as e:
        raise BaselineError(f"{path}: not a baseline file ({e})") from None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("kernels"), list):
        raise BaselineError(f"{path}: not a version {VERSION} baseline file (write one with `staticroof baseline`)")
    out: dict = {}
    for k, rec in enumerate(doc["kernels"]):
        try:
            m = Metrics(str(rec["file"]), str(rec["name"]), int(rec.get("line", 0)), int(rec.get("col", 0)),
                        rec.get("status") != "ok", bool(rec.get("exact", True)))
            if not m.failed:
                values = codec.load(rec["exact_values"])  # a baseline written before the time floor has 7
                (m.W, m.Q, m.I, m.W_expr, m.Q_expr, m.I_expr, m.attainable) = values[:7]
                m.time = values[7] if len(values) > 7 else None
                m.machine, m.precision, m.bound = rec.get("machine"), rec.get("precision"), rec.get("bound")
                sizes = rec.get("sizes", {})
                if not isinstance(sizes, dict) or not all(isinstance(v, int) for v in sizes.values()):
                    raise ValueError("sizes must map names to integers")
                m.sizes = {str(n): v for n, v in sizes.items()}
            else:
                m.why = str(rec.get("why", ""))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise BaselineError(f"{path}: kernel record {k} is malformed ({type(e).__name__}: {e})") from None
        out.setdefault((m.file, m.name), []).append(m)
    return out


def against(baseline: dict, folder: Path, kernels, fail_under: float = DEFAULT_FAIL_UNDER) -> list:
    """KernelDiffs of `kernels` (summaries, placed as the baseline's were) against the baseline;
    kernels the baseline does not have are left out (they are new)."""
    out = []
    seen: dict = {}
    for k in kernels:
        m = metrics(k)
        key = (_relative(m.file, folder), m.name)
        olds = baseline.get(key, [])
        i = seen.get(key, 0)
        seen[key] = i + 1
        if i < len(olds):
            out.append(compare(olds[i], m, fail_under))
    return out


def lint_findings(baseline_path: Path, files, options, store=None, config_path=None,
                  fail_under: float = DEFAULT_FAIL_UNDER) -> list:
    """lint Findings (RD101-RD103) for the kernels of `files` that regressed against the baseline
    file (BaselineError when it is not one).  The files are analyzed through the cache."""
    from ..diagnostics import Location
    from ..lint.registry import Finding
    from ..reports.diff import diff_annotations
    from .compare import RULES, DiffResult

    base = load(baseline_path)
    kernels = analyze(files, options, store, config_path)
    diffs = against(base, Path(os.path.abspath(baseline_path)).parent, kernels, fail_under)
    out = []
    for a in diff_annotations(DiffResult("baseline", "now", kernels=[d for d in diffs if d.regression])):
        out.append(Finding(a.code, f"{a.message} (against {baseline_path})", Location(a.file, a.line, a.col),
                           a.message.split(":")[0], name=RULES[a.code][0]))
    return out
