"""A self-check on every exact result: its formulas against independent counts at concrete sizes.

Before a kernel is reported exact, two things are checked at a few size points: the sizes in force
and their neighbours, small sizes, and each constant the kernel's domains and the formulas'
conditions mention, one below, at and one above it (`n = 99, 100, 101` when the code says `100`),
every residue of a floor's divisor.

- **The formulas.**  Every piece shown (and a Min/Max/Piecewise as a whole) must give, at each
  point it claims, the exact count isl gives there.  This catches a wrong piece, a wrong condition,
  a floor dropped where it mattered, a bad Min/Max.
- **The counting.**  At points small enough, the loop IR is run (staticroof.analysis.interpret) and
  its counts (FLOPs per precision, special calls, distinct first-read and written elements, loads
  and stores per array) must equal isl's.  This catches a wrong domain, first access or
  delinearization.

A disagreement is an internal error (SR121) and the result is not reported exact.  The check stays
cheap: points are few, formulas are compiled once, and enumeration has a budget of statement
instances.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from ..diagnostics import Diagnostic
from ..ir import Guard, Loop, is_block_size, is_grid_size, walk
from ..memo import Bounded
from .counts import TooLarge
from .evaluators import evaluator
from .interpret import enumerate_counts
from .pieces import GRID, is_grid

_SMALL = (1, 2, 3, 5, 8, 37)
_MAX_POINTS = 30  # formula checks
_ENUM_POINTS = 3  # enumeration checks
_ENUM_BUDGET = 3000  # statement instances per enumeration
_CONSTANT_MAX = 10 ** 7


def check(result, summary, sizes_in_force: dict, weights: dict) -> list:
    """Diagnostics (SR121) for every disagreement found; [] when the result holds."""
    kernel = result.kernel
    if result.failed or not result.exact or summary.total is None:
        return []
    counts = _counts(result.total)
    quantities = _distinct(_quantities(summary.total))
    names = _size_names(counts, kernel)
    concrete = any(d.code in ("SR117", "SR118", "SR124") for d in kernel.diagnostics)
    known = {n: v for n, v in sizes_in_force.items() if v is not None}
    out = []
    if not concrete:
        # a single polynomial piece needs few points; pieces, floors and Min/Max get them all
        simple = {label for label, q in quantities.items()
                  if _simple(q[0] if isinstance(q, tuple) else q)}
        for k, point in enumerate(_formula_points(kernel, quantities, names, known)):
            chosen = quantities if k < 6 else {label: q for label, q in quantities.items() if label not in simple}
            if not chosen:
                break
            bad = _check_formulas(chosen, counts, point)
            if bad:
                out.append(_diag(kernel, bad, point))
                break
    memo: dict = {}  # the walks share their compiled statements
    for point in _enumeration_points(names, known, concrete):
        bad = _check_counts(kernel, counts, point, weights, memo)
        if bad:
            out.append(_diag(kernel, bad, point))
            break
    return out


def _simple(q) -> bool:
    return q.pieces is not None and q.pieces.single and not q.pieces.pieces[0].raw.has(sympy.floor)


def _diag(kernel, what: str, point: dict) -> Diagnostic:
    at = ", ".join(f"{k} = {v}" for k, v in sorted(point.items())) or "these sizes"
    return Diagnostic("SR121", f"`{kernel.name}`: self-check failed at {at}: {what}; the result is not "
                      "reported exact (please report this kernel)", kernel.location)


# ---------------------------------------------------------------------------------------------
# What is checked

def _counts(part) -> dict:
    """label -> (Count, scale): every base count of the part, in elements (and its byte scale)."""
    out = {}
    for p, c in part.flops.items():
        out[f"W {p}"] = (c, 1)
    for n, c in part.special.items():
        out[f"calls {n}"] = (c, 1)
    for name, t in part.arrays.items():
        for field in ("read", "write", "access_read", "access_write"):
            out[f"{name} {field}"] = (getattr(t, field), t.elem_bytes)
    for name, t in part.shared.items():
        for field in ("access_read", "access_write"):
            out[f"{name} shared {field}"] = (getattr(t, field), t.elem_bytes)
    return out


def _quantities(p) -> dict:
    """label -> Quantity for every formula shown (intensities as (W, Q) pairs)."""
    out = {"W": p.flops, "Q compulsory": p.compulsory, "Q access": p.access}
    for prec, q in p.by_precision.items():
        out[f"W {prec}"] = q
    for name, a in p.arrays.items():
        out[f"{name} read"] = a.read
        out[f"{name} write"] = a.write
        out[f"{name} access read"] = a.access_read
        out[f"{name} access write"] = a.access_write
    out["I"] = (p.intensity, p.flops, p.compulsory)
    out["I access"] = (p.intensity_access, p.flops, p.access)
    return out


def _check_key(q) -> tuple:
    """What _check_formulas reads of a quantity (an intensity: with its W's and Q's pieces)."""
    if isinstance(q, tuple):
        q, num, den = q
        return ("ratio", id(q.pieces), q.expr, q.holds, tuple(sorted(q.sizes.items())), id(num.pieces),
                id(den.pieces))
    return ("count", id(q.pieces), q.expr, tuple(sorted(q.sizes.items())))


def _distinct(quantities: dict) -> dict:
    """The quantities without those that repeat an earlier one's check (W and `W fp64` of a kernel
    in one precision, an array's reads and loads when every load is a first read: one Pieces object
    serves every count with the same isl text).  No answer changes: _check_formulas reads of a
    quantity only its pieces (its truth, the piece holding at a point, whether it is single), its
    formula, the sizes it was chosen for and, for an intensity, its condition and its W's and Q's
    pieces (_check_key), so a repeat gives the same verdict at every point as the first; and since
    the first comes earlier in the same order, a repeat is never the first disagreement reported."""
    out, seen = {}, set()
    for label, q in quantities.items():
        key = _check_key(q)
        if key not in seen:
            seen.add(key)
            out[label] = q
    return out


def _size_names(counts: dict, kernel) -> list:
    names = set()
    for c, _ in counts.values():
        if c.namer is None:
            continue
        for e in c.namer.params.values():
            names |= {s.name for s in e.free_symbols}
    for node in walk(kernel.body):
        exprs = []
        if isinstance(node, Loop):
            exprs = [node.start, node.cond]
        elif isinstance(node, Guard) and node.cond is not None:
            exprs = [node.cond]
        for e in exprs:
            names |= {s.name for s in sympy.sympify(e).free_symbols if s.name in kernel.sizes}
    return sorted(names)


# ---------------------------------------------------------------------------------------------
# Points

def _constants(kernel, quantities: dict) -> tuple[set, set]:
    """Integers the domains and the formulas' conditions compare sizes with, and floor divisors."""
    found = set()
    exprs = []
    for node in walk(kernel.body):
        if isinstance(node, Loop):
            exprs += [node.start, node.cond]
        elif isinstance(node, Guard) and node.cond is not None:
            exprs.append(node.cond)
    for q in quantities.values():
        if isinstance(q, tuple):  # an intensity's conditions are those of its W and Q
            continue
        exprs += [c for c, _ in q.piece_list() if c is not sympy.true]
        exprs.append(q.expr)
    divisors: set = set()
    for e in exprs:
        ints, qs = _numbers(e)
        found |= ints
        divisors |= qs
    return found, divisors


_numbers_of: dict = Bounded(8192)  # (type, expression) -> (its integers, its fractions' denominators)


def _numbers(e) -> tuple:
    """The integers (0 < |k| <= _CONSTANT_MAX, as |k|) and the denominators (<= 256) of the
    fractions in `e`, once per expression (the same bounds and formulas recur across kernels)."""
    key = (type(e), e)  # never 1 for True
    found = _numbers_of.get(key)
    if found is None:
        ints, qs = set(), set()
        for a in sympy.preorder_traversal(sympy.sympify(e)):
            if a.is_Integer and 0 < abs(int(a)) <= _CONSTANT_MAX:
                ints.add(abs(int(a)))
            elif a.is_Rational and not a.is_Integer and a.q <= 256:
                qs.add(int(a.q))
        found = _numbers_of[key] = (frozenset(ints), frozenset(qs))
    return found


def _formula_points(kernel, quantities: dict, names: list, known: dict):
    """Each size at its value in force (or 9), then one at a time: small values, each constant
    and its neighbours, every residue of each floor divisor; and all sizes small together."""
    free = [n for n in names if not is_grid_size(n)]
    constants, divisors = _constants(kernel, quantities)
    base = {n: known.get(n, 9) for n in free}
    candidates = set(_SMALL)
    for c in constants:
        candidates |= {c - 1, c, c + 1}
    for d in divisors:
        candidates |= {2 * d + r for r in range(d)}
    points = [dict(base)]
    for n in free:
        vals = sorted(v for v in candidates | {base[n] - 1, base[n] + 1} if v >= 1)
        for v in vals:
            points.append({**base, n: v})
    for v in _SMALL:
        points.append(dict.fromkeys(free, v))
    seen, out = set(), []
    for p in points:
        key = tuple(sorted(p.items()))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out[:_MAX_POINTS] if len(out) <= _MAX_POINTS else _spread(out, _MAX_POINTS)


def _spread(points: list, k: int) -> list:
    step = len(points) / k
    return [points[int(i * step)] for i in range(k)]


def _enumeration_points(names: list, known: dict, concrete: bool):
    free = [n for n in names if not is_grid_size(n)]
    if concrete:  # counted at the sizes in force, the launch's grid included
        yield dict(known)
        return
    points = [{n: known.get(n, v) if _fixed(n, known) else v for n in free} for v in (2, 3, 7)]
    if free:
        points += [{**points[1], n: v} for n, v in itertools.product(free, (9, 13))]
    if known and all(n in known for n in free):
        points.append({n: known[n] for n in free})
    yield from points[:_ENUM_POINTS]


def _fixed(name: str, known: dict) -> bool:
    """Launch sizes in force stay (a block of 256 threads); other sizes vary."""
    return name in known and is_block_size(name)


# ---------------------------------------------------------------------------------------------
# Checks

def _value(q, point: dict):
    """The exact count of a Quantity at a point (a covering grid), from isl."""
    return q.pieces.value(point) if q.pieces is not None else None


_compiled: dict = Bounded(4096)


def _compile(expr) -> tuple:
    """(its symbols sorted by name, each symbol's name and whether it is a grid dimension, its
    integer evaluator or None), once per formula or condition: the same ones come back at every
    point and in every kernel of a shape."""
    found = _compiled.get(expr)
    if found is None:
        syms = sorted(expr.free_symbols, key=str)
        try:
            f = evaluator(expr, syms, integers=True)  # points are ints
        except ValueError:
            f = None
        found = _compiled[expr] = (syms, [(s.name, is_grid(s)) for s in syms], f)
    return found


def _at(expr, point: dict):
    _, syms, f = _compile(expr)
    if f is None:
        return None
    values = []
    for name, grid in syms:
        if name in point:
            values.append(point[name])
        elif grid:
            values.append(GRID)
        else:
            return None
    try:
        return f(values)
    except (ValueError, ZeroDivisionError, TypeError):
        return None


def _check_formulas(quantities: dict, counts: dict, point: dict):
    for label, q in quantities.items():
        ratio = isinstance(q, tuple)
        truth: Fraction | None
        if ratio:
            q, num, den = q
            a, b = _value(num, point), _value(den, point)
            if a is None or b is None or b == 0:
                continue
            truth = Fraction(a) / Fraction(b)
        else:
            truth = _value(q, point)
        if truth is None or q.pieces is None:
            continue
        for expr in (_claims(q, point) if not ratio else _shown(q, point)):
            got = _at(expr, point)
            if got is not None and Fraction(got) != Fraction(truth):
                return f"{label}: the formula {expr} gives {got}, the exact count is {truth}"
    return None


def _claims(q, point: dict) -> list:
    """The formulas that claim to hold at `point`: the piece holding there, and the formula shown
    when it is written for every size (Min/Max, Piecewise, a single piece)."""
    out = []
    piece = q.pieces.at(point)
    if piece is not None:
        out.append(piece.expr)
    # a formula for every size, written for the sizes in force that were known (the others free)
    same = all(point.get(k, v) == v for k, v in q.sizes.items() if v is not None)
    if q.pieces.single or (same and isinstance(q.expr, (sympy.Piecewise, sympy.Min, sympy.Max))):
        out.append(q.expr)
    return out


def _shown(q, point: dict) -> list:
    """An intensity's formula as shown, where it claims to hold (its pieces are quotients of W's and
    Q's, which are checked piece by piece)."""
    same = all(point.get(k, v) == v for k, v in q.sizes.items() if v is not None)
    if isinstance(q.expr, sympy.Piecewise):
        return [q.expr] if same else []
    if q.holds is None:
        return [q.expr] if not q.piecewise or same else []
    return [q.expr] if _holds(q.holds, point) else []


_held: dict = Bounded(4096)  # (condition, point) -> whether it holds there


def _holds(cond, point: dict) -> bool:
    """Does the condition hold at the point (False when a size it needs is not in the point)?  The
    same conditions come back at the same points (every kernel of a shape): each is decided once."""
    key = (cond, tuple(sorted(point.items())))
    found = _held.get(key)
    if found is None:
        found = _held[key] = _decide(cond, point)
    return found


def _decide(cond, point: dict) -> bool:
    """Whether `cond` holds at `point`: by its compiled predicate where it has one and every size
    it names is an int of the point, else by sympy (xreplace, then bool)."""
    predicate = _predicate(cond)
    if predicate is not None:
        names, f = predicate
        values = [point.get(n) for n in names]
        if all(type(v) is int for v in values):
            try:
                return bool(f(values))
            except (ArithmeticError, TypeError, ValueError):
                pass  # sympy decides
    return _decide_sympy(cond, point)


def _decide_sympy(cond, point: dict) -> bool:
    values = {sympy.Symbol(k): v for k, v in point.items()}
    try:
        return bool(cond.xreplace(values))
    except TypeError:  # a size the condition needs is not in the point
        return False


def _predicate(cond):
    """A condition compiled to integer arithmetic (evaluators.evaluator), when that decides exactly
    what sympy decides at int sizes: every symbol in it a plain Symbol (the one sympy.Symbol(name)
    that _decide_sympy puts a value in for), no Piecewise (it may match no case).  Comparisons,
    And/Or/Not, Mod and floors of ints and Fractions are exact in Python as in sympy; a point
    lacking one of its sizes, and an evaluation that raises, go to sympy."""
    syms, named, f = _compile(cond)
    if f is None or cond.has(sympy.Piecewise) or \
            not all(type(s) is sympy.Symbol and s == sympy.Symbol(s.name) for s in syms):
        return None
    return [n for n, _ in named], f


def _grid_for(counts: dict, point: dict) -> dict:
    """Grid dimensions small enough to enumerate, covering the guards when a small grid does."""
    grid_names = set()
    for c, _ in counts.values():
        if c.namer is not None:
            for e in c.namer.params.values():
                grid_names |= {s.name for s in e.free_symbols if is_grid_size(s)}
    if not grid_names or grid_names <= set(point):
        return point
    target = {label: c.value(point) for label, (c, _) in counts.items()}
    for g in (1, 2, 4, 8, 16, 32, 64):
        trial = {**point, **dict.fromkeys(grid_names, g)}
        if all(c.value(trial) == target[label] for label, (c, _) in counts.items()):
            return trial
    return {**point, **dict.fromkeys(grid_names, 2)}


def _check_counts(kernel, counts: dict, point: dict, weights: dict, memo: dict | None = None):
    point = _grid_for(counts, point)
    work = [c.value(point) for label, (c, _) in counts.items() if not label.endswith(" write")]
    if None in work or sum(work) > 3 * _ENUM_BUDGET:  # too large to run: skip this point
        return None
    sizes = dict(point)
    for n in kernel.sizes:  # sizes no count mentions still bound loops the walk runs
        sizes.setdefault(n, 1)
    try:
        got = enumerate_counts(kernel, sizes, weights, _ENUM_BUDGET, memo)
    except TooLarge:
        return None
    except (ValueError, TypeError, ZeroDivisionError):
        return None
    observed = {}
    for p, v in got.flops.items():
        observed[f"W {p}"] = v
    for n, v in got.special.items():
        observed[f"calls {n}"] = v
    for name, a in got.arrays.items():
        observed.update({f"{name} read": a.first_read, f"{name} write": a.written,
                         f"{name} access_read": a.loads, f"{name} access_write": a.stores})
    for name, a in got.shared.items():
        observed.update({f"{name} shared access_read": a.loads, f"{name} shared access_write": a.stores})
    for label in sorted(set(counts) | set(observed)):
        count = counts[label][0] if label in counts else None
        v = count.value(point) if count is not None else 0
        if v is None:
            continue
        e = observed.get(label, 0)
        if Fraction(v) != Fraction(e):
            return f"{label}: isl counts {v}, running the loops gives {e}"
    return None
