"""Formulas told apart by their exact values at points, before any symbolic work.

Two formulas whose values differ at one point differ: that is a proof, and it costs a few exact
evaluations where the symbolic comparison (expanding both, putting a ratio over one denominator)
costs seconds on a tiled kernel's pieces.  Only a difference is ever concluded here; agreement is
left to the symbolic checks of staticroof.analysis.pieces.
"""

from __future__ import annotations

import zlib
from fractions import Fraction
from functools import lru_cache

import islpy as isl
import sympy

from ..memo import Bounded


def differ_opaque(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Whether a and b differ as rational functions of the sizes and of their floors taken as
    independent unknowns (what _equal decides): their exact values differ at a point where each
    size and each distinct floor (any other function, once its arguments are expanded) is given
    its own small value.  Cheap; False when no point was told apart."""
    for k in range(2):
        memo: dict = {}
        try:
            if _value(a, k, memo) != _value(b, k, memo):
                return True
        except (ZeroDivisionError, TypeError, ValueError):
            continue
    return False


def _value(e, k: int, memo: dict) -> Fraction:
    found = memo.get(e)
    if found is not None:
        return found
    if e.is_Rational:
        v = Fraction(int(e.p), int(e.q))
    elif e.is_Number:  # a float or an infinity: no exact value
        raise TypeError(e)
    elif e.is_Symbol:
        v = Fraction(_small(e.name, k))
    elif e.is_Add:
        v = sum((_value(t, k, memo) for t in e.args), Fraction(0))
    elif e.is_Mul:
        v = Fraction(1)
        for t in e.args:
            v *= _value(t, k, memo)
    elif e.is_Pow and e.exp.is_Integer:
        v = _value(e.base, k, memo) ** int(e.exp)
    else:  # an opaque term, as sympy.expand leaves it
        x = sympy.expand(e)
        v = _value(x, k, memo) if x != e else Fraction(_opaque(x, k) if not x.has(sympy.Float) else _small(str(x), k))
    memo[e] = v
    return v


@lru_cache(maxsize=8192)
def _opaque(x: sympy.Expr, k: int) -> int:
    """_small(str(x), k), remembered: printing a floor is most of a comparison, and the same floors
    come back in every comparison of a kernel's pieces.  Equal objects print alike, but for a Float,
    whose printing == does not determine (it ignores the precision): those are not remembered."""
    return _small(str(x), k)


def _small(name: str, k: int) -> int:
    return 2 + zlib.crc32(f"{k}:{name}".encode()) % 997


def fingerprint(raw: sympy.Expr, names: list | None = None):
    """The formula's exact values at two fixed points (every size a different large number), or
    None when it cannot be evaluated there.  Given the parameters `names` of the formula's domain
    (all its symbols among them), it is evaluated by the evaluator differ_at_a_point compiles for
    it, in all of them: the symbols it does not read change no value (each symbol's value is a
    function of its name alone), so the fingerprint is the one in its own symbols."""
    syms = None
    if names is not None:
        every = _sorted_symbols(tuple(names))
        if raw.free_symbols <= set(every):
            syms = every
    if syms is None:
        syms = tuple(sorted(raw.free_symbols, key=str))
    try:
        f = compiled(raw, syms)
        return tuple(f([_probe(s.name, k) for s in syms]) for k in (1, 2))
    except (ValueError, TypeError, ZeroDivisionError):
        return None


def _probe(name: str, k: int) -> int:
    return 1_000_003 * k + 7919 * sum(ord(c) * (j + 1) for j, c in enumerate(name)) % 999_983


def zero_at(difference, a: sympy.Expr, b: sympy.Expr, values: dict) -> bool:
    """Is a - b zero at these integer values of every parameter?  a and b evaluated exactly there,
    compiled once per formula, rather than their difference rebuilt by substitution at each point;
    the substitution into difference() (the expansion of a - b, the same values) where they cannot
    be evaluated."""
    syms = tuple(sorted(values, key=str))
    point = [values[x] for x in syms]
    try:
        return compiled(a, syms)(point) == compiled(b, syms)(point)
    except (ValueError, TypeError, ZeroDivisionError):
        return difference().xreplace(values) == 0


def differ_at_a_point(raw: sympy.Expr, piece, names: list) -> bool:
    """Do `raw` and `piece`'s formula take different values at some point of its domain?  Both are
    evaluated exactly at isl's sample point of the domain and, while they agree, at the other
    points more_points picks in it: a difference at any point of the domain proves that `raw` does
    not hold on all of it.  False when no point told them apart or they cannot be evaluated."""
    dom = piece.domain
    if dom.is_empty():
        return False
    syms = _sorted_symbols(tuple(names))
    try:
        f, g = compiled(raw, syms), compiled(piece.raw, syms)
    except (ValueError, TypeError):
        return False
    own = _own_values(piece, syms, g)
    for k, values in enumerate(_points(piece, names)):
        if k == len(own):
            point = [values[x.name] for x in syms]
            try:
                own.append((point, g(point)))
            except (ValueError, TypeError, ZeroDivisionError):
                own.append((point, _FAILED))
        point, mine = own[k]
        if mine is _FAILED:
            continue  # no value of the piece's formula here: nothing to compare (f is never needed)
        try:
            if f(point) != mine:
                return True
        except (ValueError, TypeError, ZeroDivisionError):
            continue
    return False


_FAILED = object()  # the piece's formula could not be evaluated at that point


def _own_values(piece, syms: tuple, g) -> list:
    """[(point in `syms` order, the piece's formula there or _FAILED)] for the points _points has
    given so far, filled as far as a comparison asks and kept on the piece: a piece is compared
    with every other formula of its count at the same points, and its own formula's values there
    never change (the piece, its formula and its domain never change; `g` is its formula compiled
    in `syms`, which the key holds).  Both evaluations were pure, so evaluating the piece's formula
    once per point rather than once per comparison changes no answer."""
    held = piece._values
    if held is None or held[0] is not syms:
        held = piece._values = (syms, [])
    return held[1]


@lru_cache(maxsize=1024)
def _sorted_symbols(names: tuple) -> tuple:
    """The parameters as sympy symbols, sorted by their printed names (the order of the compiled
    evaluators' arguments), once per tuple of names: making and printing symbols was a fifth of a
    comparison."""
    return tuple(sorted((sympy.Symbol(n) for n in names), key=str))


def _points(piece, names: list):
    """The points of the piece's domain ({isl parameter: int}) that _domain_points gives, made as
    far as a comparison asks and remembered: on the piece (its formula is compared with many) and
    by the domain's text, since the counts of one kernel (each array's reads and writes, W) split
    on the same domains: laplace3d.cu asked 170 times for the points of 13 domains.  Which points
    are used never changes an answer, only how soon a difference is seen (any point of the domain
    proves one)."""
    if piece._probes is None:
        key = (str(piece.domain), tuple(names))
        piece._probes = _SHARED.get(key)
        if piece._probes is None:
            piece._probes = _SHARED[key] = [[], _domain_points(piece.domain, names)]
    holder = piece._probes
    found = holder[0]
    k = 0
    while True:
        if k == len(found):
            if holder[1] is None:
                return
            nxt = next(holder[1], None)
            if nxt is None:
                holder[1] = None
                return
            found.append(nxt)
        yield found[k]
        k += 1


_SHARED: dict = Bounded(4096)  # (domain text, names) -> [points found so far, the generator of the rest or None]


def _domain_points(dom, names: list):
    """isl's sample point of the domain, then the points more_points adds from it."""
    point = dom.sample_point()
    if point.is_void():
        return
    first = _values(point, names)
    yield first
    yield from more_points(dom, names, first)


def _values(point, names: list) -> dict:
    """{isl parameter: int} of an isl point."""
    return {n: int(point.get_coordinate_val(isl.dim_type.param, k).to_python()) for k, n in enumerate(names)}


_SPREAD = (101, 263, 37, 577, 1031, 17, 419, 53)  # offsets from the sample point: distinct primes, past a tile
_MORE = 6  # points beyond the sample point
_STEPS = (-13, -5, 7, 19)


def more_points(dom, names: list, first: dict):
    """Other points of `dom` than `first` (one of its points), one at a time.  For each of a few
    sets of the parameters, isl's sample point of the domain's part where those parameters are at
    least the first point's plus a distinct offset (up to _MORE such points); then their
    neighbours along each axis that are in the domain (isl decides).  isl's sample point alone is
    often a corner (k = 1, m = 1) and the others lie on faces (m = k + 31), where the formulas of
    a tiled kernel's pieces split by a floor's value may coincide; points away from them tell the
    formulas apart.  Every point is in the domain, which is all a difference there needs to prove."""
    n = len(names)
    groups = [tuple(range(n))] + [(k,) for k in range(n)] + \
        ([tuple(j for j in range(n) if j != k) for k in range(n)] if n > 2 else [])
    header = f"[{', '.join(names)}]"
    corners = [first]
    seen = {tuple(first[x] for x in names)}
    for g, group in enumerate(groups):
        if len(corners) > _MORE:
            break
        cons = " and ".join(f"{names[k]} >= {first[names[k]] + _SPREAD[(g + k) % len(_SPREAD)]}" for k in group)
        point = dom.intersect(isl.Set(f"{header} -> {{ : {cons} }}")).sample_point()
        if point.is_void():
            continue
        values = _values(point, names)
        if tuple(values[x] for x in names) not in seen:
            seen.add(tuple(values[x] for x in names))
            corners.append(values)
            yield values
    inside = membership(dom)
    for corner in corners:
        for k in range(n):
            for step in _STEPS:
                near = tuple(corner[y] + (step if j == k else 0) for j, y in enumerate(names))
                if near in seen or near[k] < 1:
                    continue
                seen.add(near)
                if inside(near):
                    yield dict(zip(names, near, strict=True))


def membership(dom):
    """A test of whether a point (its parameters' values, in order) lies in the parameter set
    `dom`.  A set without existentially quantified variables is the union of its basic sets, each
    the conjunction of its constraints (an equality: the affine form is 0; an inequality: it is at
    least 0), so evaluating those forms in integers decides membership exactly, as isl's subset
    test of the one-point set does, without building an isl set for each point (a third of a
    GEMM's analysis went to 70 such tests per pair of pieces that agree).  A set with integer
    divisions (`n % 32 = 0`) is left to isl."""
    space = dom.get_space()
    n = dom.dim(isl.dim_type.param)
    forms: list = []  # per basic set: [(is equality, coefficients, constant)]
    divided = False
    for bs in dom.get_basic_sets():
        if bs.dim(isl.dim_type.div) or bs.dim(isl.dim_type.set):
            divided = True
            break
        cons = []
        for c in bs.get_constraints():
            coefficients = tuple(int(c.get_coefficient_val(isl.dim_type.param, k).to_python()) for k in range(n))
            cons.append((c.is_equality(), coefficients, int(c.get_constant_val().to_python())))
        forms.append(cons)
    if divided:
        def by_isl(near: tuple) -> bool:
            pt = isl.Point.zero(space)
            for j, v in enumerate(near):
                pt = pt.set_coordinate_val(isl.dim_type.param, j, v if -2 ** 62 < v < 2 ** 62 else isl.Val(str(v)))
            return isl.Set.from_point(pt).is_subset(dom)
        return by_isl

    def by_forms(near: tuple) -> bool:
        for cons in forms:
            for eq, coefficients, constant in cons:
                v = constant + sum(a * x for a, x in zip(coefficients, near, strict=True))
                if v != 0 if eq else v < 0:
                    break
            else:
                return True
        return False
    return by_forms


@lru_cache(maxsize=4096)
def compiled(expr: sympy.Expr, syms: tuple):
    """evaluators.evaluator of `expr` in `syms`, compiled once per formula (each is compared with
    every other piece of its count)."""
    from .evaluators import evaluator

    return evaluator(expr, list(syms), integers=True)  # every caller gives ints
