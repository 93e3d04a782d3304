"""Conditions on the sizes: isl parameter sets spelled as the sympy conditions people read.

A piece of a count holds on a set of size values (`n >= 101`, `nk <= 511`, `m mod 4 = 1`); isl
keeps it as constraints over the sizes and integer divisions.  Each constraint becomes a relation
with its constant on the right (`n >= 101`, not `n - 101 >= 0`), an equality through a division a
`Mod` test, a basic set a conjunction and the set a disjunction.
"""

from __future__ import annotations

import islpy as isl
import sympy

from .. import floors
from ..memo import Bounded
from .isltext import qp_sympy


def param_names(space) -> list:
    """The isl parameters' names, in the space's order."""
    return [space.get_dim_name(isl.dim_type.param, k) for k in range(space.dim(isl.dim_type.param))]


_conditions: dict = Bounded(8192)  # (isl text of the set, the sizes its parameters stand for) -> condition


def set_condition(dom, namer) -> sympy.Basic:
    """A parameter set as a sympy condition on the sizes (existential floors kept as floors).

    Remembered per process by the set's isl text and what its parameters stand for: the pieces of
    an intensity lie on the domains of its traffic's pieces (W one piece: 92 conditions of a tensor
    contraction asked again), and kernels of one shape share them.  The text determines the
    answer: it prints every constraint of every basic set and every division as its floor, which
    is all that is read below, and And/Or put their arguments in their own order."""
    names = param_names(dom.get_space())
    syms = [namer.to_sympy(n) for n in names]
    key = (str(dom), tuple(syms))
    found = _conditions.get(key)
    if found is None:
        found = _conditions[key] = _condition(dom, names, syms)
    return found


def _condition(dom, names: list, syms: list) -> sympy.Basic:
    ors = []
    for bs in dom.get_basic_sets():
        # isl gives each division's argument: the div is its floor
        args = [_aff_expr(bs.get_div(k), names) for k in range(bs.dim(isl.dim_type.div))]
        if any(a is None for a in args):
            return sympy.Symbol(str(dom))  # not expressible: isl's own spelling
        to_syms = {sympy.Symbol(n): s for n, s in zip(names, syms, strict=True)}
        divs = [floors.floor(floors.xreplace(a, to_syms)) for a in args if a is not None]
        ands = []
        for c in bs.get_constraints():
            e = sympy.Integer(int(c.get_constant_val().to_python()))
            for k, s in enumerate(syms):
                e += int(c.get_coefficient_val(isl.dim_type.param, k).to_python()) * s
            for k, d in enumerate(divs):
                e += int(c.get_coefficient_val(isl.dim_type.div, k).to_python()) * d
            ands.append(_relation(sympy.expand(e), c.is_equality()))
        ors.append(sympy.And(*ands))
    return sympy.Or(*ors)


def _relation(e: sympy.Expr, equality: bool):
    """`e >= 0` (or `e = 0`) spelled as people write it: `n >= 101`, `n <= 100`, `Mod(n, 32) = 0`."""
    if equality:
        for f in e.atoms(sympy.floor):
            a = f.args[0]
            num, den = sympy.fraction(sympy.together(a))
            if den.is_Integer and (sympy.expand(e - (den * f - num)) == 0 or sympy.expand(e + (den * f - num)) == 0):
                return sympy.Eq(sympy.Mod(sympy.expand(num), den), 0)
    const = e.as_coeff_Add()[0] if e.as_coeff_Add()[0].is_Number else sympy.Integer(0)
    rest = e - const
    if equality:
        return sympy.Eq(rest, -const)
    terms = sympy.Add.make_args(rest)
    if all(t.as_coeff_Mul()[0] < 0 for t in terms):
        return sympy.Le(-rest, const)
    return sympy.Ge(rest, -const)


def _aff_expr(aff, names) -> sympy.Expr | None:
    text = str(aff)
    try:
        body = text[text.index("{") + 1: text.rindex("}")].strip()
        if body.startswith("[") and body.endswith("]"):
            body = body[1:-1]
        return qp_sympy("{ " + body + " }", tuple(names))
    except (ValueError, sympy.SympifyError, SyntaxError, TypeError):
        return None
