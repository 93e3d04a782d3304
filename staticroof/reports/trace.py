"""The trace report: static and executed numbers side by side, as text or JSON."""

from __future__ import annotations

import json
from fractions import Fraction


def _num(v):
    if v is None:
        return None
    f = Fraction(v)
    return int(f) if f.denominator == 1 else float(f)


def verdict(kernel, rows) -> str:
    if all(r.ok for r in rows):
        return "agree"
    return "DIFFER" if kernel.exact else "differ (approximate kernel)"


def render_json(results) -> str:
    """`results`: [(KernelSummary, rows)]."""
    return json.dumps({"version": 1, "kernels": [{
        "name": k.name, "file": k.file, "line": k.location.line, "sizes": k.sizes, "exact": k.exact,
        "rows": [{"quantity": r.quantity, "static": _num(r.static), "traced": _num(r.traced), "ok": r.ok}
                 for r in rows]} for k, rows in results]}, indent=2)


def render_text(results) -> str:
    lines = []
    for k, rows in results:
        sizes = ", ".join(f"{n}={v}" for n, v in sorted(k.sizes.items()))
        lines.append(f"{k.location}: {k.name} at {sizes or 'no sizes'}: {verdict(k, rows)}")
        lines.append(f"  {'quantity':<22}{'static':>16}{'traced':>16}")
        for r in rows:
            mark = "" if r.ok else "   <-"
            lines.append(f"  {r.quantity:<22}{_num(r.static)!s:>16}{_num(r.traced)!s:>16}{mark}")
        lines.append("")
    return "\n".join(lines)
