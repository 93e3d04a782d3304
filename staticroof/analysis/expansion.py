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
    """sympy.expand(e): `e` itself where it is plain (then sympy.expand(e) == e), multiplied out
    in a ring where it is a polynomial in symbols and floors of plain arguments (multiplied),
    else sympy's."""
    if plain(e):
        return e
    found = multiplied(e)
    return sympy.expand(e) if found is None else found


def multiplied(e: sympy.Expr) -> sympy.Expr | None:
    """sympy.expand(e) for a polynomial with rational coefficients in symbols and floors of plain
    arguments (isl's nested products of floors), by sparse ring arithmetic; None for anything else.

    Why it is the same expression: such an `e` is one polynomial over Q in those generators, and
    a polynomial has one set of monomials with non-zero coefficients, whichever exact arithmetic
    multiplies it out.  sympy.expand distributes every product over sums and collects like terms
    (Add's flatten adds their coefficients exactly); it leaves each floor as it is, its argument
    being plain (see plain).  So it returns Add(c1*m1, c2*m2, ...) over that set, and so does the
    ring's as_expr: Add and Mul put their arguments in one canonical order whatever order they
    come in, so the two trees are equal.  The ring only skips the tree rewriting in between
    (half a second on a tiled GEMM's 70 formulas)."""
    gens: dict = {}

    def atoms(x) -> bool:
        if x.is_Rational:
            return True
        if x.is_Symbol or isinstance(x, sympy.floor):
            if isinstance(x, sympy.floor) and not plain(x.args[0]):
                return False
            gens.setdefault(x, None)
            return True
        if x.is_Add or x.is_Mul:
            return all(atoms(a) for a in x.args)
        return bool(x.is_Pow and x.exp.is_Integer and x.exp >= 0 and atoms(x.base))

    if not atoms(e) or not gens:
        return None
    found = polynomial(e, sorted(gens, key=sympy.default_sort_key))
    return None if found is None else found.as_expr()


def polynomial(e: sympy.Expr, gens: list, other=None):
    """`e` as an element of the ring Q[gens] (sympy's sparse PolyElement), multiplied out there, or
    None when it is not built of sums, products, non-negative integer powers, rationals and the
    generators themselves (a generator may be any expression: a symbol, a floor).  `other`, if
    given, rewrites any other sub-expression into one that is (read in its place), and `e` may
    be a list: then the list of their polynomials, in one ring."""
    from sympy.polys.domains import QQ
    from sympy.polys.rings import ring

    if not gens:
        return None
    space, *elements = ring(gens, QQ)
    index = dict(zip(gens, elements, strict=True))
    memo: dict = {}

    def walk(x):
        found = memo.get(x)
        if found is not None:
            return found
        if x in index:
            r = index[x]
        elif x.is_Rational:
            r = space(QQ(int(x.p), int(x.q)))
        elif x.is_Add or x.is_Mul:
            r = space(0 if x.is_Add else 1)
            for t in x.args:
                r = r + walk(t) if x.is_Add else r * walk(t)
        elif x.is_Pow and x.exp.is_Integer and x.exp >= 0:
            r = walk(x.base) ** int(x.exp)
        elif other is not None:
            r = walk(other(x))
        else:
            raise _NotPolynomial
        memo[x] = r
        return r

    try:
        return [walk(x) for x in e] if isinstance(e, list) else walk(e)
    except _NotPolynomial:
        return None


class _NotPolynomial(Exception):
    pass


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
