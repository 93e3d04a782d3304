"""sympy.expand, skipped where the expression is already a sum of monomials.

The formulas of a count are expanded when they are read from isl, and again when their parameters
are renamed to the user's sizes and when they are finished (floors dropped, ceilings spelled).
Expanding an expression that is already expanded costs as much as the first expansion (sympy's
mul hint puts every term over a denominator with `fraction` to find out nothing changes): 1.1 s of
a tiled GEMM's 5 s.  `expand` below returns such an expression as it is, which is what
sympy.expand returns for it (see plain).
"""

from __future__ import annotations

import sympy


def expand(e: sympy.Expr) -> sympy.Expr:
    """sympy.expand(e): `e` itself where it is plain (then sympy.expand(e) == e), else sympy's."""
    return e if plain(e) else sympy.expand(e)


def plain(e: sympy.Expr) -> bool:
    """Is `e` a sum of monomials that sympy.expand leaves as they are?

    A monomial here is a product of rationals and factors b**k, k a positive integer and b a
    symbol or a floor of a plain argument (a floor of a sum of monomials in symbols alone).  Why
    sympy.expand(e) == e then: expand applies each hint to the tree bottom-up (deep), and rebuilds
    a node only when a hint changed one of its arguments (Expr._expand_hint compares with !=).  On
    such a tree no hint changes anything: `mul` distributes a product over a sum factor (a product
    here has none; the rational coefficient and positive powers leave `fraction` a denominator of
    1), `multinomial` expands a power of a sum (bases here are symbols and floors), `power_exp` a
    power with a sum exponent (exponents here are integers), `power_base` a power of a product
    (none), `log` a logarithm (none), and a floor's argument is itself plain, so deep expansion
    leaves it, and the floor, as they are.  Anything else (a sum inside a product or a power, a
    negative or symbolic exponent, another function, a float) is left to sympy.expand."""
    return all(_monomial(t, True) for t in sympy.Add.make_args(e))


def _monomial(t, floors: bool) -> bool:
    for f in sympy.Mul.make_args(t):
        if f.is_Rational:
            continue
        base = f
        if f.is_Pow:
            if not (f.exp.is_Integer and f.exp > 0):
                return False
            base = f.base
        if base.is_Symbol:
            continue
        if floors and isinstance(base, sympy.floor) and \
                all(_monomial(a, False) for a in sympy.Add.make_args(base.args[0])):
            continue
        return False
    return True
