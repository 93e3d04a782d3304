"""Integers narrower than `int` (`char`, `short`, `uint8_t`, ...): a value past the type's range wraps.

A count may rest on a narrow integer only where it provably stays in range.  A constant stored in
one takes the value the conversion gives (modulo 2**bits, as GCC and nvcc define it for signed types
too).  Any other value stored in one may wrap, which the count cannot follow: SR128, approximate.  A
narrow loop counter whose loop must pass the type's largest value (`for (unsigned char i = 0; i <
300; i++)`) wraps and never ends: SR128 as well; one whose bound is a size is counted for the sizes
that fit, and the note (SR129) names that condition (`npix <= 32767`); given sizes that break it
make the result approximate (SR128).
"""

from __future__ import annotations

import sympy

from .types import CType

_WIDTHS = {"int8": 8, "uint8": 8, "int16": 16, "uint16": 16}


def int_range(t: CType) -> tuple | None:
    """(lowest, highest) value of a narrow integer type, None for `int` and wider (and `bool`)."""
    bits = _WIDTHS.get(t.prec) if t.is_int else None
    if bits is None:
        return None
    if t.prec.startswith("u"):
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def type_name(t: CType) -> str:
    return {"int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short"}[t.prec]


def stored(low, t: CType, expr, name: str, node):
    """The value a variable of type `t` holds after `expr` is stored in it (see the module)."""
    rng = int_range(t)
    if rng is None or expr is None:
        return expr
    lo, hi = rng
    expr = sympy.sympify(expr)
    if expr.is_Integer:
        return sympy.Integer((int(expr) - lo) % (hi - lo + 1) + lo)
    low.diag("SR128", f"`{name}` is `{type_name(t)}` ({lo}..{hi}): the value `{_readable(expr)}` stored in it is not "
             "provably in that range, and past it the value wraps; counted as if it never does", node)
    return expr


def check_counter(low, node, name: str, t: CType, start, step: int, cond, placeholder) -> None:
    """A narrow loop counter (see the module): SR128 when its loop must pass the type's range (at the
    sizes in force, or at every size), the SR129 note naming the sizes it is counted for otherwise."""
    rng = int_range(t)
    if rng is None:
        return
    lo, hi = rng
    what = f"the loop counter `{name}` is `{type_name(t)}` ({lo}..{hi})"
    start = sympy.sympify(start)
    if not start.is_Integer:
        low.diag("SR128", f"{what} and starts at `{start}`: whether it passes {hi if step > 0 else lo} and wraps "
                 "is not known; counted as if it never does", node)
        return
    s = int(start)
    last = s + step * ((hi - s) // step) if step > 0 else s - (-step) * ((s - lo) // -step)
    goes_on = cond.xreplace({placeholder: sympy.Integer(last)})  # the loop would step past the range
    if goes_on == sympy.false:
        return
    at_sizes = goes_on.xreplace(low.size_values(goes_on.free_symbols)) if goes_on != sympy.true else goes_on
    if at_sizes == sympy.true:
        low.diag("SR128", f"{what}: the loop runs past {last} (its condition still holds there), so `{name}` wraps "
                 "and the loop never ends; counted as if it stopped at the condition", node)
        return
    fits = _readable(sympy.Not(goes_on))
    low.diag("SR129", f"{what}: counted for sizes where the loop ends before it wraps ({fits})", node)


def _readable(e):
    """`e` as its reader wrote it: loop variables by their names, a condition on one size solved for it."""
    e = e.xreplace({d: sympy.Symbol(d.name) for d in e.atoms(sympy.Dummy)})
    if isinstance(e, sympy.core.relational.Relational) and len(e.free_symbols) == 1:
        try:
            solved = sympy.solve(e, next(iter(e.free_symbols)))
        except (NotImplementedError, ValueError, TypeError):
            return e
        if isinstance(solved, sympy.core.relational.Relational):
            return solved
        if isinstance(solved, sympy.And):  # `(-oo < n) & (n <= 255)`: the finite side
            finite = [a for a in solved.args if not a.has(sympy.oo, -sympy.oo)]
            return finite[0] if len(finite) == 1 else solved
    return e
