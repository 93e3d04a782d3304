"""Lint findings as text (`file:line:col: CODE message`, as ruff and flake8 print them), JSON,
or per-rule counts (`--statistics`)."""

from __future__ import annotations

import json
from collections import Counter

from ..diagnostics import shown


def _where(f) -> tuple:
    loc = f.location
    return shown(loc.file), loc.line or 1, loc.col or 1


def render(findings: list, fmt: str = "text", statistics: bool = False) -> str:
    from .registry import load

    rules = load()
    if statistics:
        counts = Counter(f.code for f in findings)
        if fmt == "json":
            return json.dumps([{"code": c, "name": rules[c].name, "count": n} for c, n in sorted(counts.items())],
                              indent=2) + "\n"
        return "".join(f"{n:>5}  {c}  {rules[c].name}\n" for c, n in sorted(counts.items()))
    if fmt == "json":
        out = []
        for f in findings:
            file, line, col = _where(f)
            out.append({"code": f.code, "name": rules[f.code].name, "message": f.message, "file": file, "line": line,
                        "col": col, "kernel": f.kernel})
        return json.dumps(out, indent=2) + "\n"
    lines = [f"{file}:{line}:{col}: {f.code} {f.message}" for f in findings for file, line, col in [_where(f)]]
    if findings:
        lines.append(f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''}.")
    return "".join(line + "\n" for line in lines)
