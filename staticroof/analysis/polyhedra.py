"""Exact counting of integer points with isl/barvinok, and the bridge back to sympy.

Iteration domains and accessed-element sets of affine programs are (unions of projections of)
parametric polytopes; their sizes are piecewise quasi-polynomials in the size parameters.  We
do not reimplement that mathematics: isl builds the sets and barvinok counts them exactly.  This
module turns IR expressions into isl syntax, counts, and turns the counts into

- a *generic* sympy formula, the piece that holds when every size is large (what users read),
- exact integers at any concrete sizes (evaluated on the full piecewise result).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import islpy as isl
import sympy


class NotAffine(Exception):
    """An expression isl cannot represent (a product of loop variables, a data-dependent value)."""


_ISL_KEYWORDS = {"and", "or", "not", "mod", "floor", "ceil", "min", "max", "exists", "infty", "implies", "xor"}


class Namer:
    """Maps sympy symbols to isl names: sizes become `p_NAME` parameters, loop variables `cK` dims.

    A product of sizes (``N*M``) is not affine, so it becomes a parameter of its own; because the
    counts are polynomials in their parameters, substituting the product back is exact.
    """

    def __init__(self):
        self.params: dict[str, sympy.Expr] = {}  # isl name -> sympy expression (a symbol or a product)
        self.dims: dict[sympy.Symbol, str] = {}  # loop variable -> isl dim name (innermost binding)

    def param(self, expr: sympy.Expr) -> str:
        if isinstance(expr, sympy.Symbol):
            name = "p_" + re.sub(r"\W", "_", expr.name)
        else:
            name = "pp_" + re.sub(r"\W", "_", str(expr))  # N*M -> pp_M_N, N**2 -> pp_N__2
        self.params.setdefault(name, expr)
        return name

    def to_sympy(self, name: str) -> sympy.Expr:
        return self.params[name]

    def header(self) -> str:
        return "[" + ", ".join(self.params) + "]"


def aff(expr, namer: Namer) -> str:
    """Render an integer sympy expression in isl's affine syntax, or raise NotAffine."""
    expr = sympy.sympify(expr)
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
        return cond(_negate(c.args[0]), namer)
    if isinstance(c, sympy.Rel):
        lhs, rhs = aff(c.lhs, namer), aff(c.rhs, namer)
        op = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "="}.get(c.rel_op)
        if c.rel_op == "!=":
            return f"({lhs} < {rhs} or {lhs} > {rhs})"
        if op is None:
            raise NotAffine(f"unsupported relation {c}")
        return f"{lhs} {op} {rhs}"
    raise NotAffine(f"unsupported condition {c}")


def _negate(c):
    if isinstance(c, sympy.And):
        return sympy.Or(*[_negate(a) for a in c.args], evaluate=False)
    if isinstance(c, sympy.Or):
        return sympy.And(*[_negate(a) for a in c.args], evaluate=False)
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

_HUGE = 10 ** 15
_LARGE = 1_000_003  # every size at least this: the regime the formula describes


@dataclass
class Count:
    """A sum of weighted isl piecewise quasi-polynomials, kept symbolic until asked for numbers."""

    terms: list = field(default_factory=list)  # (weight, PwQPolynomial or int)
    namer: Namer = None

    def __add__(self, other: "Count") -> "Count":
        return Count(self.terms + other.terms, self.namer or other.namer)

    def scaled(self, w) -> "Count":
        return Count([(w * a, b) for a, b in self.terms], self.namer)

    @staticmethod
    def const(v) -> "Count":
        return Count([(v, 1)] if v else [])

    def generic(self) -> "sympy.Expr":
        """The formula valid for large sizes (sympy, in the user's size symbols)."""
        total = sympy.Integer(0)
        for w, pw in self.terms:
            total += w * (pw if isinstance(pw, int) else generic_expr(pw, self.namer))
        return sympy.expand(total)

    def pieces_ambiguous(self) -> bool:
        return any(not isinstance(pw, int) and generic_piece(pw, self.namer)[1] for _, pw in self.terms)

    def value(self, sizes: dict):
        """Exact value at concrete sizes (int or Fraction), or None if a size is missing."""
        total = 0
        for w, pw in self.terms:
            if isinstance(pw, int):
                total += w * pw
                continue
            v = evaluate(pw, self.namer, sizes)
            if v is None:
                return None
            total += w * v
        return total


def card(set_str: str, namer: Namer) -> Count:
    return Count([(1, _card(set_str))], namer)


def card_of(s, namer: Namer) -> Count:
    """The count of an isl set already built (a projection, a union's domain)."""
    return Count([(1, s.card())], namer)


@lru_cache(maxsize=4096)
def _card(set_str: str):
    return isl.Set(set_str).card()


def _param_symbols(space, namer: Namer):
    n = space.dim(isl.dim_type.param)
    return [space.get_dim_name(isl.dim_type.param, k) for k in range(n)]


@lru_cache(maxsize=4096)
def _qp_to_sympy(text: str, names: tuple):
    body = text[text.index("{") + 1: text.rindex("}")].strip()
    body = body.replace("^", "**")
    body = re.sub(r"(\d)\s*([A-Za-z_(])", r"\1*\2", body)  # isl writes `3p_n` inside floors
    loc = {n: sympy.Symbol(n) for n in names}
    loc["floor"] = sympy.floor
    return sympy.sympify(body, locals=loc)


def qp_expr(qp, namer: Namer) -> sympy.Expr:
    names = tuple(_param_symbols(qp.get_domain_space(), namer))
    e = _qp_to_sympy(str(qp), names)
    return e.xreplace({sympy.Symbol(n): namer.to_sympy(n) for n in names})


def _point(space, namer: Namer, values: dict):
    pt = isl.Point.zero(space)
    for k, name in enumerate(_param_symbols(space, namer)):
        pt = pt.set_coordinate_val(isl.dim_type.param, k, isl.Val(str(values[name])))
    return pt


def evaluate(pw, namer: Namer, sizes: dict):
    values = {}
    for name in _param_symbols(pw.get_domain_space(), namer):
        e = namer.to_sympy(name).subs(sizes)
        if e.free_symbols:
            return None
        values[name] = int(e)
    v = pw.eval(_point(pw.get_domain_space(), namer, values))
    return _val(v)


def _val(v):
    from fractions import Fraction
    f = Fraction(str(v))
    return int(f) if f.denominator == 1 else f


def generic_piece(pw, namer: Namer):
    """(sympy formula for large sizes, ambiguous?) — ambiguous when the large-size piece depends
    on how the sizes compare to each other (e.g. ``min(N, M)``)."""
    return _generic_piece(pw, namer)


_generic_cache: dict = {}


def _generic_piece(pw, namer):
    key = (str(pw), tuple(namer.params.items()))
    if key in _generic_cache:
        return _generic_cache[key]
    space = pw.get_domain_space()
    names = _param_symbols(space, namer)
    pieces = pw.get_pieces()
    # The pieces that matter for large sizes are those that contain points with every size
    # (and so every product of sizes) beyond any bound: intersect with "all sizes >= L".
    # A launch's grid is assumed to cover the work (CUDA's `if (i < n)` idiom): grid sizes are
    # taken far larger than every other size.
    bounds = []
    for n in names:
        if any(str(x).startswith("gridDim_") for x in namer.to_sympy(n).free_symbols):
            bounds.append(f"{n} >= {_HUGE}")
        else:
            bounds.append(f"{_LARGE} <= {n} <= {_HUGE // 1000}")
    large = " and ".join(bounds) or "1 = 1"
    region = isl.Set(f"[{', '.join(names)}] -> {{ : {large} }}")
    hits = [k for k, (dom, _qp) in enumerate(pieces) if not dom.intersect(region).is_empty()]
    if not hits:
        result = (sympy.Integer(0), False)
    else:
        exprs = [qp_expr(pieces[k][1], namer) for k in hits]
        first = exprs[0]
        ambiguous = any(sympy.expand(e - first) != 0 for e in exprs[1:])
        result = (first, ambiguous)
        if ambiguous:  # the count depends on how the sizes compare: say how, or say so
            conds = [_set_cond(pieces[k][0], namer) for k in hits]
            if all(c is not None for c in conds):
                result = (_piecewise(exprs, conds), False)
    _generic_cache[key] = result
    return result


def _set_cond(dom, namer: Namer):
    """A parameter-only isl set as a sympy condition (None if it needs existential variables)."""
    ors = []
    for bs in dom.get_basic_sets():
        if bs.dim(isl.dim_type.div):
            return None
        names = _param_symbols(bs.get_space(), namer)
        ands = []
        for c in bs.get_constraints():
            e = sympy.Integer(int(c.get_constant_val().to_python()))
            for k, name in enumerate(names):
                e += int(c.get_coefficient_val(isl.dim_type.param, k).to_python()) * namer.to_sympy(name)
            if not c.is_equality() and all(t.as_coeff_Mul()[0] >= 0 for t in sympy.Add.make_args(e)
                                           if t.free_symbols):
                continue  # holds for all large sizes (`n >= 1`): not what separates the pieces
            ands.append(sympy.Eq(e, 0) if c.is_equality() else e >= 0)
        ors.append(sympy.And(*ands))
    return sympy.Or(*ors)


def _piecewise(exprs, conds):
    """Min/Max when two pieces are split by comparing them, else a Piecewise."""
    if len(exprs) == 2 and isinstance(conds[0], sympy.Rel) and conds[0].rel_op in (">=", "<="):
        a, b = exprs
        c = conds[0]
        diff = sympy.expand(c.lhs - c.rhs) * (1 if c.rel_op == ">=" else -1)  # the piece holds when diff >= 0
        # `a` holds where a <= b (diff = b - a) or a < b (diff = b - a - 1): that is Min(a, b)
        if sympy.expand(diff - (b - a)) in (0, -1):
            return sympy.Min(a, b)
        if sympy.expand(diff - (a - b)) in (0, -1):
            return sympy.Max(a, b)
    return sympy.Piecewise(*[(e, c) for e, c in zip(exprs[:-1], conds[:-1])], (exprs[-1], True))


def generic_expr(pw, namer: Namer) -> sympy.Expr:
    return generic_piece(pw, namer)[0]
