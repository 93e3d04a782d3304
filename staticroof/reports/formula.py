"""Formulas, numbers and conditions as people read them: `n <= 100 and m >= 3`, not sympy's
`(m >= 3) & (n <= 100)`; a piecewise count inline as `(n if n <= 100; 100 if n >= 101)`; a count
with thousands separators, `134,217,728`, wherever it stands alone (inside a formula sympy's
spelling is kept: there a comma would read as an argument separator, `Min(400000, 4*n)`).

sympy is imported by the functions that read a formula's structure, not with the module: the
numbers and the diagnostics of a cached report are printed without it."""

from __future__ import annotations

import math
from fractions import Fraction


def number(v) -> str:
    """A value as the text reports print it: an integer with separators (`12,582,912`), a fraction
    to 4 significant digits below 1 (`0.08333`) and to 2 decimals above (`170.67`)."""
    if v is None:
        return ""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    f = Fraction(v)
    if f.denominator == 1:
        return f"{int(f):,}"
    x = float(f)
    return f"{x:.4g}" if abs(x) < 1 else f"{x:,.2f}"


def expr(e) -> str:
    """A formula: sympy's spelling, or the number with separators when the formula is an integer."""
    if isinstance(e, int) or getattr(e, "is_Integer", False):
        return f"{int(e):,}"
    from .spelling import text

    return text(e)


def condition(c) -> str:
    """A sympy condition on the sizes in plain words (`and`, `or`, `=`, `mod`)."""
    import sympy

    if c is None or c == sympy.true:
        return "always"
    if isinstance(c, sympy.And):
        return " and ".join(_grouped(a) for a in _ordered(c.args))
    if isinstance(c, sympy.Or):
        return " or ".join(_grouped(a) for a in _ordered(c.args))
    if isinstance(c, sympy.Not):
        return f"not ({condition(c.args[0])})"
    if isinstance(c, sympy.Eq):
        return f"{_side(c.lhs)} = {_side(c.rhs)}"
    if isinstance(c, sympy.Ne):
        return f"{_side(c.lhs)} != {_side(c.rhs)}"
    if isinstance(c, sympy.Rel):
        return f"{_side(c.lhs)} {c.rel_op} {_side(c.rhs)}"
    return str(c)


def _side(e) -> str:
    import sympy

    if isinstance(e, sympy.Mod):
        return f"{e.args[0]} mod {e.args[1]}"
    return str(e)


def _ordered(args):
    return sorted(args, key=str)


def _grouped(c) -> str:
    import sympy

    text = condition(c)
    return f"({text})" if isinstance(c, (sympy.And, sympy.Or)) else text


def inline(q) -> str:
    """A quantity's formula on one line: a Piecewise as `(e1 if c1; e2 if c2)`, a formula that holds
    only for some sizes with its condition."""
    import sympy

    if isinstance(q.expr, sympy.Piecewise):
        return "(" + "; ".join(f"{expr(e)} if {condition(c)}" for c, e in q.piece_list()) + ")"
    if q.holds is not None:
        return f"({expr(q.expr)} if {condition(q.holds)}{others(q)})"
    return expr(q.expr)


def others(q) -> str:
    """`; 1 of 12 pieces` when a formula is one of many (the JSON lists them all)."""
    n = len(q.pieces.pieces) if q.piecewise else 1
    return f"; 1 of {n} pieces" if n > 2 else ""
