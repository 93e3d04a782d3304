"""The trace report: static and executed numbers side by side, as text or JSON.

The text table prints counts as the analysis report does (thousands separators, a unit per row:
`FLOP` for W, `calls` for special functions, `B` for traffic); the JSON keeps plain numbers."""

from __future__ import annotations

import json
from fractions import Fraction

from .formula import number

_BYTES = ("read", "write", "loads", "stores")


def _num(v):
    if v is None:
        return None
    f = Fraction(v)
    return int(f) if f.denominator == 1 else float(f)


def unit(quantity: str) -> str:
    """The unit of a row: `x read`, `Q access` are bytes, `special sqrtf` calls, `W fp32` FLOPs."""
    if quantity.rsplit(" ", 1)[-1] in _BYTES or quantity.startswith("Q "):
        return "B"
    return "calls" if quantity.startswith("special ") else "FLOP"


def verdict(kernel, rows) -> str:
    if all(r.ok for r in rows):
        return "agree"
    return "DIFFER" if kernel.exact else "differ (approximate kernel)"


def _items(results):
    """(kernel, rows, error) for each result: rows None and `error` the reason for a kernel that
    could not be traced; a (kernel, rows) pair is a traced one."""
    for item in results:
        yield item if len(item) == 3 else (*item, None)


def render_json(results) -> str:
    """`results`: [(KernelSummary, rows)] or [(KernelSummary, rows or None, error or None)]."""
    kernels = []
    for k, rows, error in _items(results):
        entry = {"name": k.name, "file": k.file, "line": k.location.line, "sizes": k.sizes, "exact": k.exact}
        if error is not None:
            entry["error"] = error
        else:
            entry["rows"] = [{"quantity": r.quantity, "static": _num(r.static), "traced": _num(r.traced),
                              "ok": r.ok} for r in rows]
        kernels.append(entry)
    return json.dumps({"version": 1, "kernels": kernels}, indent=2)


def render_text(results) -> str:
    lines = []
    for k, rows, error in _items(results):
        sizes = "; ".join(f"{n} = {number(v) if v is not None else '?'}" for n, v in sorted(k.sizes.items()))
        if error is not None:
            lines += [f"{k.location}: {k.name}: not traced: {error}", ""]
            continue
        lines.append(f"{k.location}: {k.name} at {sizes or 'no sizes'}: {verdict(k, rows)}")
        lines.append(f"  {'quantity':<22}{'static':>16}{'traced':>16}")
        for r in rows:
            mark = "   <-" if not r.ok else ""
            static = "?" if r.static is None else number(r.static)
            lines.append(f"  {r.quantity:<22}{static:>16}{number(r.traced):>16} {unit(r.quantity)}{mark}".rstrip())
        lines.append("")
    return "\n".join(lines)
