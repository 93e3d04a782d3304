"""Lint findings through the content-hash cache (staticroof/cache): one entry of kind "lint" per
file, holding what `lint` prints for it, so a run on unchanged files reads a few small JSON files
and imports nothing of the analysis (no sympy, no isl).

The key (cache.file_key) covers the file, every header it includes, the configuration file's
bytes and staticroof itself; the options part here adds everything else a file's findings depend
on: the analysis options, the machine, and the rule selection and thresholds.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Location
from .registry import Finding

KIND = "lint"


def key_options(options, settings) -> dict:
    """Everything but the file and the configuration bytes that a file's findings depend on: the
    analysis options and the machine they are placed under (AnalysisOptions.placement_fields), and
    the lint settings."""
    return {**options.placement_fields(), "select": settings.select, "ignore": settings.ignore,
            "per_file_ignores": settings.per_file_ignores, "root": str(settings.root) if settings.root else None,
            "min_intensity": settings.min_intensity, "ridge_factor": settings.ridge_factor}


def _loc(loc: Location | None):
    return None if loc is None else [loc.file, loc.line, loc.col]


def _unloc(v) -> Location | None:
    if v is None:
        return None
    file, line, col = v
    if not (isinstance(file, str) and isinstance(line, int) and isinstance(col, int)):
        raise ValueError("not a location")
    return Location(file, line, col)


def encode(findings: list, usage: list) -> dict:
    return {"findings": [{"code": f.code, "message": f.message, "location": _loc(f.location), "kernel": f.kernel,
                          "also": [_loc(a) for a in f.also], "name": f.name} for f in findings],
            "usage": [{"code": d.code, "message": d.message, "location": _loc(d.location)} for d in usage]}


def decode(payload) -> tuple[list, list]:
    """(findings, usage diagnostics) from an entry; raises on anything malformed (a miss)."""
    findings = []
    for f in payload["findings"]:
        text = [f["code"], f["message"], f["name"]]
        if not all(isinstance(t, str) for t in text) or not (f["kernel"] is None or isinstance(f["kernel"], str)):
            raise ValueError("not a finding")
        where = _unloc(f["location"])
        if where is None:
            raise ValueError("a finding has a location")
        findings.append(Finding(f["code"], f["message"], where, f["kernel"],
                                tuple(_unloc(a) for a in f["also"]), f["name"]))
    usage = []
    for d in payload["usage"]:
        if not (isinstance(d["code"], str) and isinstance(d["message"], str)):
            raise ValueError("not a diagnostic")
        usage.append(Diagnostic(d["code"], d["message"], _unloc(d["location"])))
    return findings, usage
