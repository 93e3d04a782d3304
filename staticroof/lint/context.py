"""What a lint rule sees: one file's analysis results, the settings and the machine.

Rules format numbers the way the text report does (a formula in the sizes, then its value at the
sizes in force), through the helpers here, so every message reads alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..roofline.machines import Machine
from .settings import Settings


@dataclass
class FileContext:
    path: str
    kernels: list  # analysis.summary.KernelSummary, failed ones included (drivers left out)
    file_diagnostics: list
    settings: Settings
    machine: Machine | None = None
    unit: str | None = None

    def analyzed(self):
        """The kernels with counts (and the IR they were counted from)."""
        return [k for k in self.kernels if not k.failed and k.total is not None and k.ir is not None]


def number(v) -> str:
    if v is None:
        return "?"
    f = Fraction(v)
    if f.denominator == 1:
        return f"{int(f):,}"
    x = float(f)
    return f"{x:.4g}"


def amount(expr, value, unit: str = "B") -> str:
    """`8*n = 8,000,000 B`, `12 B`, or `8*n B` when a size is unknown."""
    import sympy

    expr = sympy.sympify(expr)
    if expr.is_Number:
        return f"{number(expr if value is None else value)} {unit}"
    if value is None:
        return f"{expr} {unit}"
    return f"{expr} = {number(value)} {unit}"


def quantity(q, unit: str = "B") -> str:
    return amount(q.expr, q.value, unit)


def value_of(expr, sizes: dict):
    """An exact number for `expr` at `sizes`, or None where a size it needs is unknown."""
    import sympy

    expr = sympy.sympify(expr)
    known = {s: sizes[s.name] for s in expr.free_symbols if sizes.get(s.name) is not None}
    v = expr.xreplace({s: sympy.Integer(x) for s, x in known.items()})
    if not v.is_Number:
        return None
    return Fraction(int(v.p), int(v.q)) if v.is_Rational else float(v)
