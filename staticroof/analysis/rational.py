"""Ratios of counts (intensities, formulas on a piece's hull) done in one polynomial ring.

`sympy.factor(sympy.cancel(e))` on a ratio of two long quasi-polynomials spends most of its time
rewriting expressions (signsimp, factor_terms, together, gcd_terms) around the two polynomial steps
that decide its result, and comparing two ratios with `sympy.together` does the same.  Here the
numerator and denominator go into one ring of polynomials over the rationals whose generators are
the sizes and the floor terms, once, and the answer is read from the ring: the same expression, or
the same yes/no, several times faster (80 ratios of a tensor contraction: 0.79 -> 0.26 s).

Both need the numerator and denominator that `sympy.fraction` splits off to be polynomials in sizes
and floors with rational coefficients: `fraction` does not put a sum over one denominator (in
`1/n + 1` the `1/n` would be a generator of the ring, not the inverse of `n`), so where a generator
is anything but a symbol or a floor, or a coefficient is not rational, the caller is told (None)
and sympy's own path decides.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import sympy
from sympy.core.mul import _keep_coeff
from sympy.polys.domains import QQ, ZZ
from sympy.polys.orderings import lex
from sympy.polys.polyerrors import BasePolynomialError
from sympy.polys.polyutils import _sort_gens
from sympy.polys.rings import PolyRing, sring

from .expansion import polynomial


def _in_ring(parts: list):
    """(ring, [polynomial of each part]) when every part is a polynomial in symbols and floors with
    rational coefficients (expanded as sympy.expand does, floor arguments too), else None."""
    found = _multiplied_out(parts)
    if found is None:
        try:
            found = sring(parts)
        except BasePolynomialError:
            return None
    ring, polys = found
    if not (ring.domain.is_ZZ or ring.domain.is_QQ) or \
            any(not (g.is_Symbol or isinstance(g, sympy.floor)) for g in ring.symbols):
        return None
    return ring, polys


@lru_cache(maxsize=8192)
def _text(g: sympy.Expr) -> str:
    """str(g), which _sort_gens orders generators by: printing a floor is slow, and the same
    floors come back (equal objects print alike; no Float, which prints by its depth, gets here)."""
    return str(g)


class _Printed:
    """A generator as _sort_gens sees it (it orders by str() alone), its text printed once."""

    __slots__ = ("of", "text")

    def __init__(self, of, text: str):
        self.of, self.text = of, text

    def __str__(self) -> str:
        return self.text


def _multiplied_out(parts: list):
    """sring(parts), the same ring and polynomials, by ring arithmetic on the expression trees
    instead of sympy.expand; None where a part is not plainly a polynomial in symbols and floors
    with rational coefficients (sring decides there).

    Why it is the same: sring expands each part and reads its terms; its generators are the bases
    of the terms' factors (symbols, and floors as expand leaves them), ordered by _sort_gens, its
    domain ZZ when every coefficient is an integer and QQ when one is not, each polynomial the
    sum of its terms.  Here a floor is expanded alone (what expand does to it inside the tree: its
    argument expanded, the floor rebuilt, as every pass of expand reaches it the same way), kept
    as a generator if it stays a floor and read as the expression it became otherwise; sums,
    products and powers of symbols, floors and rationals are then multiplied out in the ring,
    which gives each polynomial's unique sum of monomials: the expansion's terms, collected as
    expand collects them.  A generator whose terms all cancel is left out as sring never sees it,
    and generators that print alike (two Dummy of one name) go to sring: their order is a tie."""
    parts = [sympy.sympify(x) for x in parts]  # as sring reads them (an int is Integer); a sympy object is itself
    atoms: dict = {}
    stack = list(parts)
    while stack:
        x = stack.pop()
        if x.is_Rational:
            continue
        if x.is_Symbol:
            atoms[x] = None
        elif x.is_Add or x.is_Mul:
            stack.extend(x.args)
        elif x.is_Pow and x.exp.is_Integer and x.exp >= 0:
            stack.append(x.base)
        elif isinstance(x, sympy.floor) and not x.has(sympy.Float):
            y = x.expand()
            if y == x:
                atoms[x] = None
            else:
                stack.append(y)
        else:
            return None
    if not atoms:
        return None
    texts = {g: _text(g) for g in atoms}
    if len(set(texts.values())) != len(texts):
        return None
    gens = tuple(t.of for t in _sort_gens([_Printed(g, texts[g]) for g in atoms]))
    # a floor that is not a generator expanded to something else: read that in its place
    polys = polynomial(parts, list(gens), other=lambda floor: floor.expand())
    if polys is None:
        return None
    used = [k for k in range(len(gens)) if any(m[k] for f in polys for m in f)]
    integers = all(c.denominator == 1 for f in polys for c in f.values())
    if not used:
        return None  # every part a constant: sring's own answer
    ring = PolyRing([gens[k] for k in used], ZZ if integers else QQ, lex)
    dom = ring.domain
    out = [ring.from_dict({tuple(m[k] for k in used): dom.convert_from(c, QQ) for m, c in f.items()}) for f in polys]
    return ring, out


def factor_cancel(e: sympy.Expr) -> sympy.Expr:
    """`sympy.factor(sympy.cancel(e))`, the very same expression, for a ratio of polynomials in the
    sizes and their floors (anything else goes to sympy).

    Why it is the same: both depend on `e` only as a rational function of its generators.  cancel
    gives P/Q with P and Q coprime in Z[generators]; factor then splits P and Q into irreducible
    factors, each primitive with a positive leading coefficient in the lexicographic order of its
    own generators (sorted by one fixed key, so a factor's leading term is the same in any ring
    that contains it), and returns `_keep_coeff(c, Mul(f1**k1, ...))`, exponents negative for Q's,
    c the rational constant that makes the product equal to e.  Factorization in Z[generators] is
    unique up to sign, fixed by that normalization, so factoring any numerator and denominator of e
    (PolyElement.factor_list, which factor calls too) and cancelling the factors they share gives
    the same factors, exponents and c; the expression is built by the same _keep_coeff."""
    num, den = sympy.fraction(e)
    found = _in_ring([num, den])
    if found is None or not found[0].ngens or not found[1][0] or not found[1][1]:
        return sympy.factor(sympy.cancel(e))  # not for the ring, a constant, zero or 0/0
    return _factored(*found)


def factor_ratio(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """`factor_cancel(a / b)`, the very same expression, without building a / b where a and b are
    polynomials in the sizes and their floors (an intensity W/Q: sympy's quotient of two long sums,
    `Add._eval_power` trying to pull a factor out of 1/Q, then `fraction` taking it apart again, was
    as long as the factoring).

    Why it is the same: a and b are then a numerator and a denominator of the rational function
    a / b, and factor_cancel's answer depends only on that function (its docstring: factoring any
    numerator and denominator gives the same factors, exponents and constant).  The ring of a and b
    may have generators that a / b lost to an automatic cancellation (n in 2n/(4n)): a polynomial's
    factors are the same in any ring that contains it, since sring orders generators by one fixed
    key.  Where a or b is no such polynomial, or a constant, zero (b = 0 is the caller's), a / b
    goes to factor_cancel as before."""
    found = _in_ring([a, b])
    if found is None or not found[0].ngens or not found[1][0] or not found[1][1]:
        return factor_cancel(a / b)
    return _factored(*found)


def _factored(ring, polys) -> sympy.Expr:
    """p/q (polys = [p, q], coprime or not) in lowest terms, factored as sympy.factor writes it."""
    p, q = polys
    cp, fp = factor_list(p)
    cq, fq = factor_list(q)
    exponents: Counter = Counter()
    for f, k in fp:
        exponents[f] += k
    for f, k in fq:
        exponents[f] -= k
    coeff = ring.domain.to_sympy(cp) / ring.domain.to_sympy(cq)
    return _keep_coeff(coeff, sympy.Mul(*[f.as_expr() ** k for f, k in exponents.items() if k]))


def factor_list(f):
    """`f.factor_list()` for a polynomial of the ring, the same (coefficient, [(factor, exponent)])
    up to the order of the list, read off without factoring where f is a monomial times one factor
    that is linear in some generator (the counts' polynomials mostly are: 4*(na*nb*nc + na*nb*nd +
    nc*nd) is linear in na), and from sympy otherwise.

    Why it is the same: sympy's factors are the generators x_i dividing every term (exponent: the
    least x_i degree of the terms; a single term c * x^J is only those, c not factored), and the
    irreducible factors of what is left, each primitive in
    Z[generators] (integer coefficients without a common divisor) with a positive leading
    coefficient in the ring's lexicographic order; the coefficient c makes the product equal to f.
    Factorization there is unique, so that normalization fixes each factor.  Here f = c * x^J * g
    with g primitive, positive leading coefficient and no generator dividing all its terms.  g = 1
    leaves the monomial.  Otherwise g is irreducible, and so its own only factor, when g = a*x + b
    for a generator x not in a or b and gcd(a, b) is a constant: a factor of g has x degree 0 or 1;
    one of degree 0 divides a and b, so it divides their gcd, a constant, and since g is primitive
    it is a unit (b is not 0: a term without x exists, as x does not divide every term).  Where no
    generator gives such a split (degree 2 or more in each, or a common divisor) sympy decides."""
    ring = f.ring
    dom = ring.domain
    if not (dom.is_ZZ or dom.is_QQ) or not f:
        return f.factor_list()
    n = ring.ngens
    if len(f) == 1:  # a term c * x^J: the generators with their exponents (c is not factored)
        ((m, c),) = f.items()
        return c, [(ring.gens[i], m[i]) for i in range(n) if m[i]]
    monoms = list(f.keys())
    J = tuple(min(m[i] for m in monoms) for i in range(n))
    g = f
    if dom.is_QQ:
        _, g = g.clear_denoms()  # integer coefficients (still in the ring's domain)
    g = g.quo_ground(g.content())
    if dom.is_negative(g.LC):
        g = -g
    if any(J):
        g = ring.from_dict({tuple(a - b for a, b in zip(m, J, strict=True)): c for m, c in g.items()})
    coeff = dom.quo(f.LC, g.LC)  # x^J * g has g's leading coefficient (a monomial keeps lex order)
    factors = [(ring.gens[i], J[i]) for i in range(n) if J[i]]
    if g.is_ground:
        return coeff, factors
    if not _irreducible(g):
        return f.factor_list()
    return coeff, factors + [(g, 1)]


def _irreducible(g) -> bool:
    """True when g (primitive, no generator dividing every term, not constant) is shown
    irreducible by a split g = a*x + b with gcd(a, b) constant (see factor_list); False when no
    generator gives one (g may still be irreducible)."""
    ring = g.ring
    monoms = list(g.keys())
    for i in range(ring.ngens):
        if max(m[i] for m in monoms) != 1:
            continue
        a = ring.from_dict({m[:i] + (0,) + m[i + 1:]: c for m, c in g.items() if m[i] == 1})
        b = ring.from_dict({m: c for m, c in g.items() if m[i] == 0})
        if a.is_ground or b.is_ground or a.gcd(b).is_ground:
            return True
    return False


def equal_ratios(a: sympy.Expr, b: sympy.Expr) -> bool | None:
    """Whether a - b is zero as a rational function of the sizes and their floors, for ratios
    (a = p/q, b = r/s, one of q, s not 1), by multiplying out: p/q = r/s iff p*s = r*q in the ring
    (q and s not zero), without putting a - b over one denominator (is 1/6 = 2X/(12X) for a long
    quasi-polynomial X: 0.6 s with sympy.together, 0.05 s here).  None where that does not apply:
    both denominators 1, parts that are not polynomials in sizes and floors, a zero denominator."""
    (p, q), (r, s) = sympy.fraction(a), sympy.fraction(b)
    if q == 1 and s == 1:
        return None
    found = _in_ring([p, q, r, s])  # sring expands them as sympy.expand does
    if found is None:
        return None
    p, q, r, s = found[1]
    if not q or not s:
        return None
    return p * s == r * q
