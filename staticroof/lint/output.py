"""Lint findings as text (`file:line:col: CODE message`, as ruff and flake8 print them), JSON,
SARIF 2.1.0 (code scanning), GitHub Actions annotations, or per-rule counts (`--statistics`)."""

from __future__ import annotations

import json
from collections import Counter

from ..diagnostics import shown


def _where(f) -> tuple:
    loc = f.location
    return shown(loc.file), loc.line or 1, loc.col or 1


FORMATS = ("text", "json", "sarif", "github")


def _descriptions() -> dict:
    """{code: (name, description)} of every rule a lint run may report (its own, and the baseline
    comparison's RD codes), for SARIF's rule table."""
    from ..diff.compare import RULES as BASELINE_RULES
    from .registry import load

    out = {code: (r.name, f"{r.summary[0].upper()}{r.summary[1:]}: {' '.join(r.what.split())}")
           for code, r in load().items()}
    out.update(BASELINE_RULES)
    return out


def render(findings: list, fmt: str = "text", statistics: bool = False) -> str:
    if fmt in ("sarif", "github"):
        from ..reports import github, sarif
        from ..reports.annotation import from_findings

        annotations = from_findings(findings)
        return github.render(annotations) if fmt == "github" else sarif.render(annotations, _descriptions()) + "\n"
    if statistics:
        counts = Counter((f.code, f.name) for f in findings)
        if fmt == "json":
            return json.dumps([{"code": c, "name": name, "count": n} for (c, name), n in sorted(counts.items())],
                              indent=2) + "\n"
        return "".join(f"{n:>5}  {c}  {name}\n" for (c, name), n in sorted(counts.items()))
    if fmt == "json":
        out = []
        for f in findings:
            file, line, col = _where(f)
            out.append({"code": f.code, "name": f.name, "message": f.message, "file": file, "line": line,
                        "col": col, "kernel": f.kernel})
        return json.dumps(out, indent=2) + "\n"
    lines = [f"{file}:{line}:{col}: {f.code} {f.message}" for f in findings for file, line, col in [_where(f)]]
    if findings:
        lines.append(f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''}.")
    return "".join(line + "\n" for line in lines)
