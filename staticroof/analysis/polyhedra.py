"""Exact counting of integer points with isl/barvinok, and the bridge back to sympy.

Iteration domains and accessed-element sets of affine programs are (unions of projections of)
parametric polytopes; their sizes are piecewise quasi-polynomials in the size parameters.  We
do not reimplement that mathematics: isl builds the sets and barvinok counts them exactly.  This
module turns IR expressions into isl syntax (named by staticroof.analysis.isltext.Namer), counts,
and turns the counts into

- pieces over the sizes a kernel can run at, each a sympy formula with its condition
  (staticroof.analysis.pieces), and
- exact integers at any concrete sizes (evaluated on the full piecewise result).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import islpy as isl
import sympy

from ..memo import Bounded
from .budget import check
from .isltext import Namer


class NotAffine(Exception):
    """An expression isl cannot represent (a product of loop variables, a data-dependent value)."""


_ISL_KEYWORDS = {"and", "or", "not", "mod", "floor", "ceil", "min", "max", "exists", "infty", "implies", "xor"}


_WIDEST = 2**64  # the widest constant an index or bound holds (an unsigned long long)


def aff(expr, namer: Namer) -> str:
    """Render an integer sympy expression in isl's affine syntax, or raise NotAffine."""
    expr = sympy.sympify(expr)
    if any(abs(int(c)) > _WIDEST for c in expr.atoms(sympy.Integer)):
        # no C integer is this wide (a compile error); barvinok's counting overflows on it (a crash)
        raise NotAffine(f"a constant past 64 bits in {sympy.sstr(expr)[:80]}")
    if expr.is_Integer:
        return str(int(expr))
    if expr.is_Symbol:
        if expr in namer.dims:
            return namer.dims[expr]
        return namer.param(expr)
    if expr.is_Add:
        return "(" + " + ".join(aff(a, namer) for a in expr.args) + ")"
    if expr.is_Mul:
        coeff, rest = expr.as_coeff_Mul()
        if coeff.is_Rational and not coeff.is_Integer:
            raise NotAffine(f"non-integer coefficient in {expr}")
        if rest.free_symbols & set(namer.dims):
            if rest.is_Symbol or isinstance(rest, (sympy.floor, sympy.Mod)) or rest.is_Add:
                return f"({int(coeff)}*{aff(rest, namer)})"
            raise NotAffine(f"{expr} is not affine in the loop variables")
        if rest.is_Symbol or isinstance(rest, (sympy.floor, sympy.Mod)) or rest.is_Add:
            return f"({int(coeff)}*{aff(rest, namer)})"
        if all(f.is_Symbol or (f.is_Pow and f.base.is_Symbol and f.exp.is_Integer and f.exp > 0)
               for f in sympy.Mul.make_args(rest)):
            return f"({int(coeff)}*{namer.param(rest)})"
        raise NotAffine(f"{expr} is not affine")
    if expr.is_Pow and expr.base.is_Symbol and expr.exp.is_Integer and expr.exp > 1:
        if expr.base in namer.dims:
            raise NotAffine(f"{expr} is not affine in the loop variables")
        return namer.param(expr)
    if isinstance(expr, sympy.floor):
        num, den = sympy.fraction(sympy.together(expr.args[0]))
        if den.is_Integer and den > 0:
            return f"floor(({aff(sympy.expand(num), namer)})/{int(den)})"
        raise NotAffine(f"{expr}: division by a non-constant")
    if isinstance(expr, sympy.Mod):
        a, m = expr.args
        if m.is_Integer and m > 0:
            return f"(({aff(a, namer)}) mod {int(m)})"
        raise NotAffine(f"{expr}: modulo by a non-constant")
    raise NotAffine(f"{expr} is not affine")


def cond(c, namer: Namer) -> str:
    """Render a sympy boolean over affine expressions as an isl constraint string."""
    if c is True or c == sympy.true:
        return "1 = 1"
    if c is False or c == sympy.false:
        return "1 = 0"
    if isinstance(c, sympy.And):
        return "(" + " and ".join(cond(a, namer) for a in c.args) + ")"
    if isinstance(c, sympy.Or):
        return "(" + " or ".join(cond(a, namer) for a in c.args) + ")"
    if isinstance(c, sympy.Not):
        return cond(negate(c.args[0]), namer)
    if isinstance(c, sympy.Rel):
        lhs, rhs = aff(c.lhs, namer), aff(c.rhs, namer)
        op = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "="}.get(c.rel_op)
        if c.rel_op == "!=":
            return f"({lhs} < {rhs} or {lhs} > {rhs})"
        if op is None:
            raise NotAffine(f"unsupported relation {c}")
        return f"{lhs} {op} {rhs}"
    raise NotAffine(f"unsupported condition {c}")


def negate(c):
    if isinstance(c, sympy.And):
        return sympy.Or(*[negate(a) for a in c.args], evaluate=False)
    if isinstance(c, sympy.Or):
        return sympy.And(*[negate(a) for a in c.args], evaluate=False)
    if isinstance(c, sympy.Not):
        return c.args[0]
    if c == sympy.true:
        return sympy.false
    if c == sympy.false:
        return sympy.true
    if isinstance(c, sympy.Rel):
        flip = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}[c.rel_op]
        return sympy.Rel(c.lhs, c.rhs, flip, evaluate=False)
    raise NotAffine(f"unsupported condition {c}")


# ---------------------------------------------------------------------------------------------
# Counts: piecewise quasi-polynomials with a generic formula and exact evaluation


@dataclass
class Count:
    """A sum of weighted isl piecewise quasi-polynomials, kept symbolic until asked for numbers."""

    terms: list = field(default_factory=list)  # (weight, PwQPolynomial or int)
    namer: Namer | None = None

    def __add__(self, other: Count) -> Count:
        return Count(self.terms + other.terms, self.namer or other.namer)

    def scaled(self, w) -> Count:
        return Count([(w * a, b) for a, b in self.terms], self.namer)

    @staticmethod
    def const(v) -> Count:
        return Count([(v, 1)] if v else [])

    def pw(self):
        """The whole count as one isl piecewise quasi-polynomial (isl refines the pieces)."""
        cached = self.__dict__.get("_pw")
        if cached is not None and cached[0] == len(self.terms):
            return cached[1]
        weights: dict = {}  # identical terms (the same counted set) are added once, weights summed
        polys: dict = {}
        for w, pw in self.terms:
            key = ("int", pw) if isinstance(pw, int) else id(pw)
            weights[key] = weights.get(key, 0) + _fraction(w)
            polys[key] = pw
        used = [key for key, w in weights.items() if w]
        common = {weights[key] for key in used}
        if len(used) > 1 and len(common) == 1:
            # w*A + w*B + ... as w*(A + B + ...): the sum of the same terms at weight 1 is made once
            # (an array's accesses, then every array's bytes at 4 bytes an element), see _unit_sum
            total = _unit_sum(tuple(used), tuple(polys[key] for key in used))
            w = common.pop()
            total = total if w == 1 else total.scale_val(isl.Val(str(w)))
        else:
            total = _weighted_sum([(weights[key], polys[key]) for key in used])
        self.__dict__["_pw"] = (len(self.terms), total)
        return total

    def pieces(self, scale=1, finish=lambda e: e):
        """Every piece over the sizes a kernel can run at (see staticroof.analysis.pieces)."""
        from .pieces import Pieces

        return _pieces(self, scale, finish, Pieces)

    def generic(self) -> sympy.Expr:
        """One formula for the sizes a kernel runs at (see Pieces.formula; its condition dropped)."""
        return self.pieces().formula()[0]

    def value(self, sizes: dict):
        """Exact value at concrete sizes (int or Fraction), or None if a size is missing (a grid
        dimension that is not given is taken as covering the guards)."""
        from .points import pw_value

        key = (len(self.terms), tuple(sorted(sizes.items())))
        memo = self.__dict__.setdefault("_values", {})
        if key not in memo:  # the self-check asks for the same counts at the same points
            memo[key] = pw_value(self.pw(), self.namer or Namer(), sizes)
        return memo[key]


def _weighted_sum(terms: list):
    """The sum of weighted counts, as isl adds them (each pair of pieces: the sum on the common
    domain, gisted there), coalesced."""
    total = None
    for w, pw in terms:
        if isinstance(pw, int):
            pw = isl.PwQPolynomial(f"{{ {pw} }}")
        pw = pw.scale_val(isl.Val(str(w)))
        total = pw if total is None else total.add(pw)
    return isl.PwQPolynomial("{ 0 }") if total is None else total.coalesce()


# the keys of Count.pw's terms -> (their counts, kept alive while their ids are keys; the sum)
_UNIT: dict = Bounded(4096)


def _unit_sum(keys: tuple, polys: tuple):
    """The sum of these counts at weight 1, made once per process for the same count objects.

    Count.pw of w*A + w*B is this sum scaled by w, and that is the very object _weighted_sum makes
    from the scaled terms: isl adds two piecewise quasi-polynomials piece pair by piece pair, on
    the intersection of their domains (which scaling does not change), as the sum of the two
    quasi-polynomials gisted on that domain (the gist substitutes the equalities of the domain and
    of the integer divisions, which are the same whatever the coefficients: it commutes with
    multiplying by w), and drops a piece whose sum is zero (w*q is zero exactly when q is, w not
    0); coalescing merges pieces whose quasi-polynomials are equal (w*p = w*q exactly when p = q).
    So every step commutes with the scaling by w, and the polynomials are exact rationals: the
    same pieces, domains and coefficients either way.  The saving: an array's access count A + B
    is summed for the array and again, at 4 bytes an element, for the kernel's total; a sum whose
    quasi-polynomials carry many floors is costly to gist (0.33 s of a 14-floor initialization)."""
    found = _UNIT.get(keys)
    if found is None or any(a is not b for a, b in zip(found[0], polys, strict=True)):
        found = _UNIT[keys] = (polys, _weighted_sum([(1, pw) for pw in polys]))
    return found[1]


def _fraction(w):
    from fractions import Fraction

    return Fraction(str(w)) if isinstance(w, float) else Fraction(w)


_pieces_cache: dict = Bounded(4096)


def _pieces(count: Count, scale, finish, cls):
    """Pieces of a count, cached on the count's isl text (the same count is read many times)."""
    pw = count.pw()
    key = (str(pw), tuple(count.namer.params.items()) if count.namer else (), str(scale), finish)
    if key not in _pieces_cache:
        _pieces_cache[key] = cls.of(pw, count.namer or Namer(), scale, finish)
    return _pieces_cache[key]


def card(set_str: str, namer: Namer) -> Count:
    check()
    return Count([(1, _card(set_str))], namer)


def card_of(s, namer: Namer) -> Count:
    """The count of an isl set already built (a projection, a union's domain)."""
    check()
    return Count([(1, s.card())], namer)


@lru_cache(maxsize=4096)
def _card(set_str: str):
    return set_card(isl.Set(set_str))


INCLUSION_EXCLUSION_MAX = 5  # basic sets; 2**k - 1 intersections at most


def set_card(s):
    """The number of points of `s`, as a piecewise quasi-polynomial.

    A union of overlapping basic sets with divisibility constraints (`(i + j) % 13 == 0 || (i + j)
    % 7 == 0 || ...`) is counted by inclusion-exclusion: every intersection of lattices is one
    lattice (period 91, 1001, ...), counted in a few terms.  isl's own count first makes the union
    disjoint, and each complement of a lattice (`% 13 != 0`) splits into one piece per residue: for
    three such conditions that is minutes of counting and a formula of thousands of terms, for the
    same function."""
    parts = s.get_basic_sets()
    if not 2 <= len(parts) <= INCLUSION_EXCLUSION_MAX or not any(b.dim(isl.dim_type.div) for b in parts):
        return s.card()
    if all(parts[a].intersect(parts[b]).is_empty() for a in range(len(parts)) for b in range(a)):
        return s.card()  # already disjoint: isl counts each part as it is
    terms: list = []
    minus = isl.Val(-1)

    def add(k: int, common, size: int) -> None:  # every intersection of parts[k:] with `common`
        for j in range(k, len(parts)):
            inter = parts[j] if common is None else common.intersect(parts[j])
            if inter.is_empty():
                continue  # and so is every intersection containing it
            c = isl.Set.from_basic_set(inter).card()
            terms.append(c if size % 2 == 0 else c.scale_val(minus))
            add(j + 1, inter, size + 1)

    add(0, None, 0)
    if not terms:
        return s.card()
    # Summed pairwise, not one after another: isl's add refines the pieces of both operands, so a
    # running total that has gathered every term's floors makes each later add costlier (the last
    # of the 7 terms of floyd-warshall's `% 13 || % 7 || % 11`: 0.35 s); a balanced tree keeps the
    # operands small (0.28 -> 0.18 s there, the same isl text).
    while len(terms) > 1:
        terms = [terms[k].add(terms[k + 1]) if k + 1 < len(terms) else terms[k] for k in range(0, len(terms), 2)]
    return terms[0].coalesce()
