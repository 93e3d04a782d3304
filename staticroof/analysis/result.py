"""What the analyses produce: exact counts per precision, per array and per top-level loop nest.

Counts stay :class:`~staticroof.analysis.polyhedra.Count` objects (symbolic, piecewise-exact)
until :func:`evaluate` turns them into formulas and numbers at the sizes the user gave.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

import sympy

from ..ir import Kernel
from .polyhedra import Count


@dataclass
class ArrayTraffic:
    name: str
    dtype: str
    elem_bytes: int
    read: Count = field(default_factory=Count)  # distinct elements whose first access is a read
    write: Count = field(default_factory=Count)  # distinct elements written
    access_read: Count = field(default_factory=Count)  # dynamic loads (register rule applied)
    access_write: Count = field(default_factory=Count)  # dynamic stores


@dataclass
class Part:
    """Counts for the whole kernel or for one top-level loop nest."""

    flops: dict = field(default_factory=dict)  # precision -> Count (specials weighted in)
    special: dict = field(default_factory=dict)  # function name -> Count of calls
    arrays: dict = field(default_factory=dict)  # name -> ArrayTraffic
    shared: dict = field(default_factory=dict)  # on-chip arrays: name -> ArrayTraffic (access level only)


@dataclass
class KernelResult:
    kernel: Kernel
    total: Part
    nests: list  # (label, Location, Part)
    failed: bool = False  # the kernel could not be analyzed at all

    @property
    def diagnostics(self):
        return self.kernel.diagnostics

    @property
    def exact(self) -> bool:
        return not self.failed and not any(d.approximate for d in self.kernel.diagnostics)


@dataclass
class Quantity:
    """A count as the reports see it: a formula and, when the sizes are known, its exact value."""

    expr: sympy.Expr
    value: Optional[object]  # int or Fraction, None when a size is unknown

    @property
    def number(self):
        if self.value is None:
            return None
        return int(self.value) if Fraction(self.value).denominator == 1 else float(self.value)


def quantity(count: Count, sizes: dict, scale=1) -> Quantity:
    expr = sympy.expand(count.generic() * scale)
    value = count.value(sizes)
    if value is None:
        partial = expr.subs(sizes)
        if not partial.free_symbols:
            value = int(partial) if partial.is_Integer else Fraction(str(partial))
    else:
        value = value * scale
    return Quantity(expr, value)


def ratio(num: Quantity, den: Quantity) -> Quantity:
    if den.expr == 0:
        return Quantity(sympy.nan, None)
    expr = sympy.factor(sympy.cancel(num.expr / den.expr))
    value = None
    if num.value is not None and den.value is not None and den.value != 0:
        value = Fraction(num.value) / Fraction(den.value)
    elif expr.is_Rational:
        value = Fraction(int(expr.p), int(expr.q))
    return Quantity(expr, value)
