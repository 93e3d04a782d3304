"""Counts and pieces at concrete sizes: the values of a count's isl parameters at given sizes, the
isl Points they make, and a count's exact value there (isl's own evaluation).

Split from pieces.py (the reading of Pieces at sizes, the summary's numbers, and the self-check all
come here): a parameter may stand for an expression in the sizes (a product), grid dimensions
not given cover the guards, and the same points recur across every count of a kernel, so each
isl Point is made once per (space, values).
"""

from __future__ import annotations

from fractions import Fraction

import islpy as isl

from ..ir import is_grid_size
from ..memo import Bounded
from .conditions import param_names

GRID = 10 ** 15  # grid dimensions in the covering model: far beyond every size


def param_values_by_name(space, namer, sizes: dict, grid_value: int):
    """({isl parameter: int}, whether a grid dimension was filled in) or None if a size is missing."""
    found = param_values_in_order(space, namer, sizes, grid_value)
    if found is None:
        return None
    _, values, filled = found
    return dict(zip(_params_of(space, namer)[1], values, strict=True)), filled


def param_values_in_order(space, namer, sizes: dict, grid_value: int):
    """(the space's text, the parameters' values in the space's order, whether a grid dimension
    was filled in) or None if a size is missing.  A parameter that stands for an expression in the
    sizes (a product) is evaluated by its compiled closure when every size in it is an int (the
    same exact integer arithmetic), else by sympy."""
    text, _, params = _params_of(space, namer)
    filled = False
    out = []
    for expr, symbols, objects, fast in params:
        values = []
        for s in symbols:
            v = sizes.get(s)
            if v is None:
                if not is_grid_size(s):
                    return None
                v = grid_value
                filled = True
            values.append(v)
        if expr is None:
            out.append(values[0])
            continue
        if fast is not None and all(type(v) is int for v in values):
            try:
                out.append(int(fast(values)))
                continue
            except (ArithmeticError, TypeError, ValueError):
                pass  # sympy says what it says of these values
        out.append(int(expr.xreplace(dict(zip(objects, values, strict=True)))))
    return text, tuple(out), filled


_params_cache: dict = Bounded(4096)


def _params_of(space, namer) -> tuple:
    """(the space's text, its parameters' names, [(sympy expression or None for a plain symbol,
    its symbol names sorted, the symbols, its compiled evaluator or None)] per parameter)."""
    # a namer only ever gains names (Namer.param), so a name it has means the same for its life: the
    # key is the namer itself (kept alive in the entry, so its id is not reused while cached)
    text = space.to_str() if hasattr(space, "to_str") else str(space)
    key = (text, id(namer))
    entry = _params_cache.get(key)
    if entry is not None and entry[0] is namer:
        return entry[1]
    from .evaluators import evaluator

    names = param_names(space)
    params = []
    for name in names:
        e = namer.to_sympy(name)
        syms = sorted(e.free_symbols, key=str)
        fast = None
        if not e.is_Symbol:
            try:
                fast = evaluator(e, syms, integers=True)
            except ValueError:
                fast = None
        params.append((None if e.is_Symbol else e, [s.name for s in syms], syms, fast))
    found = (text, names, params)
    _params_cache[key] = (namer, found)
    return found


def point_set(space, values: list, region):
    """The one-point parameter set of `space` at these parameter values (None when the point lies
    outside the region), made from an isl Point: the set `[n, m] -> { : n = 5 and m = 7 }` its
    text would parse to, in a tenth of the time of parsing it (and of the region's text)."""
    point = isl.Set.from_point(_isl_point(space, values))
    return None if point.intersect(region).is_empty() else point


_points: dict = Bounded(8192)  # (space text, parameter values) -> its isl Point


def isl_point_at(space, text: str, values: tuple):
    """_isl_point, once per (space, values): every count of a kernel is asked at the same points
    (isl values are never changed in place; islpy copies what an isl call takes)."""
    key = (text, values)
    pt = _points.get(key)
    if pt is None:
        pt = _points[key] = _isl_point(space, list(values))
    return pt


def _isl_point(space, values: list):
    """The isl Point of `space` whose parameters take these values, in order.  Each value is an isl
    Val made from a machine integer (Val.int_from_si: a third of the time islpy takes to convert a
    Python int itself), or past 64 bits (a product of grid dimensions) from its decimal string."""
    ctx = space.get_ctx()
    pt = isl.Point.zero(space)
    for k, v in enumerate(values):
        pt = pt.set_coordinate_val(isl.dim_type.param, k,
                                   isl.Val.int_from_si(ctx, v) if -2 ** 62 < v < 2 ** 62 else isl.Val(str(v)))
    return pt


def pw_value(pw, namer, sizes: dict):
    """The exact count at these sizes (int or Fraction), None when a size it needs is missing.  A
    grid dimension that is not given covers the guards: the value must not depend on it."""
    space = pw.get_domain_space()
    found = param_values_in_order(space, namer, sizes, GRID)
    if found is None:
        return None
    v = _eval(pw, space, found)
    if found[2]:  # an unknown grid dimension: the count must be the same on a larger grid
        if _eval(pw, space, param_values_in_order(space, namer, sizes, 3 * GRID + 7)) != v:
            return None
    return v


def _eval(pw, space, found):
    text, values, _ = found
    v = pw.eval(isl_point_at(space, text, values))
    return int(v.to_python()) if v.is_int() else exact_number(Fraction(str(v)))


def exact_number(v):
    f = Fraction(v) if not isinstance(v, Fraction) else v
    return int(f) if f.denominator == 1 else f
