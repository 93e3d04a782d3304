"""A domain's affine hull as substitutions: the sizes its equalities fix (n = 1, m = n), so that a
formula on a lower-dimensional piece of a count can be specialized there (pieces._on_hull) and
two formulas compared on it (pieces._agrees)."""

from __future__ import annotations

from functools import lru_cache

import islpy as isl
import sympy

from ..memo import Bounded
from .conditions import param_names

_MISSING = object()


def hull_solution(dom):
    """The equalities of the domain's affine hull solved for some parameters, or None.  Remembered
    by the domain's isl text (the pieces of a ratio lie on the domains of its counts' pieces, and
    the text is every constraint isl holds: the same text, the same hull); each caller gets its
    own dict."""
    key = str(dom)
    found = _hulls.get(key, _MISSING)
    if found is _MISSING:
        found = _hulls[key] = _hull_equalities(dom)
    return None if found is None else dict(found)


_hulls: dict = Bounded(8192)


def _hull_equalities(dom):
    names = param_names(dom.get_space())
    eqs = []
    for bs in dom.affine_hull().get_basic_sets():
        divs = bs.dim(isl.dim_type.div)
        for c in bs.get_constraints():
            if c.is_equality():
                if any(not c.get_coefficient_val(isl.dim_type.div, k).is_zero() for k in range(divs)):
                    continue  # m = 4 e + 1 says m mod 4 = 1, not m = 1
                e = sympy.Integer(int(c.get_constant_val().to_python()))
                for k, name in enumerate(names):
                    e += int(c.get_coefficient_val(isl.dim_type.param, k).to_python()) * sympy.Symbol(name)
                eqs.append(e)
    if not eqs:
        return None
    found = _solved(tuple(eqs))
    return None if found is None else tuple(found.items())


@lru_cache(maxsize=4096)
def _solved(eqs: tuple):
    """sympy's solution of the hull's equalities (the same ones recur across pieces and kernels).
    Where each equality fixes a size of its own (n - 1 = 0, 2m - 6 = 0) it is read off (_pinned)."""
    pinned = _pinned(eqs)
    if pinned is not None:
        return pinned
    syms = sorted({s for e in eqs for s in e.free_symbols}, key=str)
    sol = sympy.solve(list(eqs), syms, dict=True)
    if not sol:
        return None
    return dict(sol[0])


def _pinned(eqs: tuple) -> dict | None:
    """{size: value} when every equality is k*s + c = 0 (k, c rational) in a size s of its own, else
    None.  Then the system has that one solution, s = -c/k each, and sympy.solve returns it: the
    values are sympy numbers, which have one form.  Most hull equalities are such (a size at a
    constant: 33 of the 40 systems of a tensor contraction), and sympy.solve takes milliseconds for
    each (11% of that kernel's time)."""
    out: dict = {}
    for e in eqs:
        if len(e.free_symbols) != 1:
            return None
        (s,) = e.free_symbols
        const, term = e.as_independent(s, as_Add=True)
        k, rest = term.as_coeff_Mul()
        if rest != s or s in out or not (k.is_Rational and k != 0 and const.is_Rational):
            return None
        out[s] = -const / k
    return out
