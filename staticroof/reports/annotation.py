"""One message at one place in a file: what the SARIF, GitHub and Markdown reports show, whoever
made it (a `diff` regression, a lint finding)."""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("error", "warning", "note")


@dataclass(frozen=True)
class Annotation:
    code: str  # RD101, RF202, ...
    message: str
    file: str | None = None  # relative to the repository root where possible
    line: int = 0  # 1-based; 0 when unknown
    col: int = 0
    level: str = "warning"  # "error" | "warning" | "note" (SARIF's levels; GitHub's notice is "note")
    title: str = ""  # a short heading (the rule's name)


def from_findings(findings, level: str = "warning") -> list:
    """Annotations of lint findings (anything with `code`, `message`, `location` and `name`)."""
    from ..diagnostics import shown

    out = []
    for f in findings:
        loc = f.location
        out.append(Annotation(f.code, f.message, shown(loc.file) if loc else None, loc.line if loc else 0,
                              loc.col if loc else 0, level, getattr(f, "name", "") or ""))
    return out
