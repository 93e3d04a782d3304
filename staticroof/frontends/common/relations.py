"""Comparisons of sympy values, decided without sympy's assumptions where the answer is known.

sympy's relational classes (`sympy.Lt(a, b)`, ...) decide a comparison through its assumptions
system: about 0.1 ms for two numbers (a numerical evaluation of a - b), and up to 3 ms for a guard
like `32*blockIdx + threadIdx < n` on symbols made afresh for each kernel (the realness of every
subexpression is deduced from scratch).  The front ends build such comparisons for every guard,
loop bound and host condition.  Two cases are decided here, with the same result sympy gives:

* Two Rationals (Integers included) are p1/q1 and p2/q2 in lowest terms with q1, q2 > 0, so
  p1/q1 < p2/q2 exactly when p1*q2 < p2*q1, in Python's exact integers (likewise for the other
  relations): `sympy.true` or `sympy.false`, the objects sympy returns.

* An inequality (Lt, Le, Gt, Ge) whose sides are Rationals or polynomials in canonical form over
  symbols without assumptions, one side at least not a number: sympy leaves it unevaluated,
  `cls(lhs, rhs, evaluate=False)`.  Why: sympy's inequality (`_Inequality.__new__`, then `is_ge`)
  raises only if a side's `is_extended_real` is False, decides by number only if both sides are
  numbers (`is_comparable`), and otherwise only if both sides are known to be extended real; it
  returns the unevaluated relation in every other case.  A side that is a non-constant polynomial
  with rational coefficients is neither known real nor known non-real by any sound deduction: it is
  real at a rational point, and along a line through that point on which it is not constant it is
  a non-constant polynomial of one complex variable, which takes every complex value (the
  fundamental theorem of algebra), i.e. a non-real one, when its symbols may be any complex number
  (a symbol without assumptions).  `_canonical_polynomial` accepts only the form sympy's own
  arithmetic gives a sum of monomials (distinct monomials with nonzero rational coefficients, each
  a product of distinct symbols to positive integer powers), in which having a symbol means being
  non-constant.  Eq and Ne are left to sympy (it may decide them structurally).
"""

from __future__ import annotations

import operator

import sympy

_DECIDE = {sympy.Lt: operator.lt, sympy.Le: operator.le, sympy.Gt: operator.gt, sympy.Ge: operator.ge,
           sympy.Eq: operator.eq, sympy.Ne: operator.ne}
_INEQUALITIES = (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge)
_PLAIN = {"commutative": True}  # the assumptions of sympy.Symbol(name) and sympy.Dummy(name)


def relation(cls, lhs, rhs):
    """`cls(lhs, rhs)` for a sympy relational class `cls` (Lt, Le, Gt, Ge, Eq, Ne)."""
    if isinstance(lhs, sympy.Rational) and isinstance(rhs, sympy.Rational):
        return sympy.true if _DECIDE[cls](lhs.p * rhs.q, rhs.p * lhs.q) else sympy.false
    if cls in _INEQUALITIES:
        a, b = _polynomial_side(lhs), _polynomial_side(rhs)
        if a is not None and b is not None and (a or b):
            return cls(lhs, rhs, evaluate=False)
    return cls(lhs, rhs)


def _polynomial_side(e) -> bool | None:
    """True for a non-constant polynomial in canonical form over symbols without assumptions,
    False for a Rational, None for anything else."""
    if isinstance(e, sympy.Rational):
        return False
    return True if _canonical_polynomial(e) else None


def _canonical_polynomial(e) -> bool:
    """Is `e` a sum of distinct monomials, at least one with a symbol (see the module docstring)?"""
    if isinstance(e, sympy.Add):
        seen = set()
        constant = False
        for term in e.args:
            if isinstance(term, sympy.Rational):
                if constant or term == 0:
                    return False
                constant = True
                continue
            key = _monomial(term)
            if key is None or key in seen:
                return False
            seen.add(key)
        return bool(seen)
    return _monomial(e) is not None


def _monomial(e):
    """The symbols part of a monomial c * x1**k1 * ... (c a nonzero Rational, distinct plain symbols,
    positive integer powers) as a frozenset of (symbol, power), or None if `e` is not one."""
    factors = e.args if isinstance(e, sympy.Mul) else (e,)
    powers = {}
    coefficient = False
    for f in factors:
        if isinstance(f, sympy.Rational):
            if coefficient or f == 0:
                return None
            coefficient = True
            continue
        base, k = (f.base, f.exp) if isinstance(f, sympy.Pow) else (f, sympy.Integer(1))
        if not (isinstance(base, sympy.Symbol) and base.assumptions0 == _PLAIN):
            return None
        if not (isinstance(k, sympy.Integer) and k > 0) or base in powers:
            return None
        powers[base] = int(k)
    return frozenset(powers.items()) if powers else None


_INEQUALITY_TYPES = tuple(_INEQUALITIES)
_OPERATORS = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "==": sympy.Eq, "!=": sympy.Ne}


def rel(lhs, rhs, op: str):
    """`sympy.Rel(lhs, rhs, op)` for an operator "<", "<=", ">", ">=", "==" or "!="."""
    return relation(_OPERATORS[op], sympy.sympify(lhs), sympy.sympify(rhs))


def substitute(cond, subs: dict):
    """`cond.xreplace(subs)` for a condition: the same walk as sympy's (`Basic._xreplace`: a key of
    `subs` is replaced, a node whose arguments changed is rebuilt from them, any other is kept),
    but an inequality is rebuilt through `relation` (what its class would give, see above) and
    And, Or and Not through their own classes, as xreplace rebuilds them."""
    return _replace(cond, subs)[0]


_CONNECTIVES = (sympy.And, sympy.Or, sympy.Not)


def _replace(e, subs: dict):
    if not isinstance(e, _INEQUALITY_TYPES + _CONNECTIVES):
        return e._xreplace(subs)
    if e in subs:
        return subs[e], True
    if not subs:
        return e, False
    parts = [_replace(a, subs) for a in e.args]
    if not any(changed for _, changed in parts):
        return e, False
    args = [value for value, _ in parts]
    if isinstance(e, _INEQUALITY_TYPES):
        return relation(type(e), sympy.sympify(args[0]), sympy.sympify(args[1])), True
    return e.func(*args), True
