"""Piecewise counts: every piece of a count over the sizes a kernel can run at, with its condition.

A count is a piecewise quasi-polynomial in the sizes: `for (i = 0; i < n && i < 100; i++)` runs
`n` times for n <= 100 and `100` times above; `i < n - 100` runs `n - 100` times from n = 101 and
never below.  Showing the piece for large sizes as if it held everywhere prints wrong numbers marked
exact, so here every piece is kept with its domain (a set of size values, from isl) and

- pieces with the same formula are merged, and a piece absorbs another whose points it also
  describes (`n - 1` holds at n = 1 too, where the count is 0): proven on the smaller piece's affine
  hull or by evaluating it point by point, never assumed;
- the formula shown is the single piece, or `Min`/`Max` of the pieces when isl proves each piece is
  the least (greatest) of all on its own domain, or else a `Piecewise`;
- the formula for given sizes is the piece whose domain holds them.

The region the formulas describe: every size at least 1 (numbers at any size are still exact, from
the full count), and in the covering-grid model of a CUDA launch every grid dimension far beyond
every other size (the grid covers the guards).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import islpy as isl
import sympy

from .. import floors
from ..ir import is_grid_size
from ..memo import Bounded
from .budget import check
from .conditions import param_names, set_condition
from .expansion import expand
from .hulls import hull_solution
from .isltext import Namer, qp_sympy
from .minmax import lattice
from .points import GRID, exact_number, isl_point_at, param_values_by_name, param_values_in_order, point_set, pw_value
from .probes import differ_at_a_point, differ_opaque, fingerprint, zero_at
from .rational import equal_ratios, factor_cancel

SIZE_CAP = 10 ** 12  # every other size stays below GRID / 1000 when the grid is in a count
PLAUSIBLE = 8  # below this a size is degenerate for the formula shown (a stencil on a 2x2 grid)
MANY = 3  # more pieces than this and no sizes: show the piece at TYPICAL sizes, with its condition
TYPICAL = 16
_ENUMERATE = 64  # a bounded piece with at most this many points may be checked point by point
ABSORB_MAX = 16  # more pieces than this are grouped by formula only


def is_grid(expr: sympy.Expr) -> bool:
    return any(is_grid_size(s) for s in sympy.sympify(expr).free_symbols)


class Piece:
    """One piece: its domain (an isl set of size values, parameters only, inside the region), its
    formula in isl parameter symbols (`raw`: p_n, pp_M_N, ...) and in the user's sizes (`expr`,
    made on first use by `make` when given: most pieces of an intensity are never shown)."""

    __slots__ = ("domain", "raw", "_expr", "_make", "_probes", "_values")

    def __init__(self, domain, raw, expr=None, make=None):
        self.domain, self.raw, self._expr, self._make = domain, raw, expr, make
        self._probes = None  # [points of the domain found so far, the rest to come] for differ_at_a_point
        self._values = None  # (symbols, raw's values at those points) for differ_at_a_point

    @property
    def expr(self):
        if self._expr is None and self._make is not None:
            self._expr = self._make(self.raw)
        return self._expr


class Pieces:
    """A count over the region, as disjoint pieces; `namer` maps isl parameters to sizes.

    A Pieces is never changed once made, and one object serves every count with the same isl
    text (polyhedra._pieces): what is read from it at given sizes is remembered (`_memo`), since
    the summary, the self-check and the reports ask the same questions many times."""

    def __init__(self, pieces: list, region, namer, pw=None):
        self.pieces = pieces
        self.region = region
        self.namer = namer
        self.pw = pw  # the full count (every size, not only the region), for exact numbers
        self._memo: dict = {}
        self._inside: list | None = None  # per piece: 1 on its domain in the region (see _at)
        self._grid_params: list | None = None  # per region parameter: whether it is a grid dimension

    def _remembered(self, key, compute):
        found = self._memo.get(key, _MISSING)
        if found is _MISSING:
            found = self._memo[key] = compute()
        return found

    # -- construction ------------------------------------------------------------------------

    @staticmethod
    def of(pw, namer, scale=1, finish=lambda e: e) -> Pieces:
        """The pieces of an isl piecewise quasi-polynomial, times `scale`; `finish` rewrites each
        formula (floors dropped where proven, ceilings spelled)."""
        check()
        if scale != 1:
            pw = pw.scale_val(isl.Val(str(Fraction(scale))))
        region = region_of(pw.get_domain_space(), namer)
        names = param_names(pw.get_domain_space())
        raw_pieces = []
        covered = None
        for dom, qp in pw.intersect_params(region).get_pieces():
            dom = dom.coalesce()
            covered = dom if covered is None else covered.union(dom)
            raw_pieces += _split_floors(dom, qp_sympy(str(qp), tuple(names)))
        rest = region if covered is None else region.subtract(covered).coalesce()
        if not rest.is_empty():
            raw_pieces.append((rest, sympy.Integer(0)))
        pieces = _merge([Piece(d, r, None) for d, r in raw_pieces])
        if len(pieces) == 2:
            pieces = _resplit(pieces, region)
        out: list = []
        prints: list = []  # each formula's exact values at two points: formulas that differ there differ
        for p in pieces:
            p = _on_hull(p)
            expr = finish(expand(floors.xreplace(_expanded(p.raw), _to_user(p.raw, namer))))  # raw's, once
            # a single piece is compared with nothing: its fingerprint (a compiled evaluator) is never read
            fp = fingerprint(expr) if len(pieces) > 1 else None
            same = next((k for k, q in enumerate(out) if (fp is None or prints[k] is None or prints[k] == fp)
                         and sympy.expand(q.expr - expr) == 0), None)
            if same is None:  # pieces equal once products of sizes are multiplied out merge too
                out.append(Piece(p.domain, p.raw, expr))
                prints.append(fp)
            else:
                q = out[same]
                out[same] = Piece(q.domain.union(p.domain).coalesce(), q.raw, q.expr)
        return Pieces(out, region, namer, pw)

    def combine(self, other: Pieces, op, finish=lambda e: e) -> Pieces:
        """op(self, other) on the common refinement of both (pieces with equal results merged; `op`
        need not simplify, `finish` simplifies each distinct result once)."""
        namer = _joint(self.namer, other.namer)
        out = []
        for a in self.pieces:
            for b in other.pieces:
                d = a.domain.intersect(b.domain)
                if d.is_empty():
                    continue
                piece = _on_hull(Piece(d.coalesce(), op(a.raw, b.raw), None))
                if piece.raw is sympy.nan or piece.raw.has(sympy.zoo):  # 0/0: no intensity where nothing is done
                    continue
                out.append(piece)
        # the formulas are simplified once per group, not once per refined piece
        grouped = [Piece(p.domain, p.raw, make=lambda raw: finish(floors.xreplace(raw, _to_user(raw, namer))))
                   for p in _group(out)]
        return Pieces(grouped, self.region.intersect(other.region), namer, None)

    # -- reading -----------------------------------------------------------------------------

    @property
    def single(self) -> bool:
        return len(self.pieces) == 1

    def formula(self) -> tuple:
        """(one formula, the condition it needs or None): the single piece; the piece that covers
        every plausible size (all at least PLAUSIBLE) with its condition, when the others only
        describe degenerate sizes (a stencil on a 2x2 grid); Min/Max of the pieces; with more than
        MANY pieces the one at TYPICAL sizes, with its condition; else a Piecewise."""
        return self._remembered("formula", self._formula)

    def _formula(self) -> tuple:
        if self.single:
            return self.pieces[0].expr, None
        main = self.main()
        if main is not None:
            return main.expr, self.condition(main)
        closed = self._min_max()
        if closed is not None:
            return closed, None
        if len(self.pieces) > MANY:  # a wall of pieces helps nobody: the one at typical sizes
            sizes = {s.name: TYPICAL for e in self.namer.params.values() for s in e.free_symbols}
            typical = self.at(sizes)
            if typical is not None:
                return typical.expr, self.condition(typical)
        conds = [self.condition(p) for p in self.pieces]
        return sympy.Piecewise(*[(p.expr, c) for p, c in zip(self.pieces[:-1], conds[:-1], strict=True)],
                               (self.pieces[-1].expr, True), evaluate=False), None

    def main(self) -> Piece | None:
        """The only piece with points where every size is at least PLAUSIBLE, if there is one."""
        if "_main" not in self.__dict__:
            plausible = self.region.intersect(_at_least(self.region.get_space(), self.namer, PLAUSIBLE))
            hits = [p for p in self.pieces if not p.domain.intersect(plausible).is_empty()]
            self._main = hits[0] if len(hits) == 1 else None
        return self._main

    def condition(self, piece: Piece):
        """Where `piece` holds, as a sympy condition on the sizes (what the region implies left out)."""
        # keyed on the piece itself (kept alive by the key), never on a recycled id
        return self._remembered(("condition", piece),
                                lambda: set_condition(piece.domain.gist(self.region), self.namer))

    def at(self, sizes: dict) -> Piece | None:
        """The piece holding at these sizes (grid dimensions covering), None when a size is missing
        or the sizes lie outside the region (a size below 1)."""
        return self._remembered(("at", _key(sizes)), lambda: self._at(sizes))

    def _at(self, sizes: dict) -> Piece | None:
        """The piece holding at `sizes`, decided by isl at one integer point: each piece's domain
        in the region is the domain of a quasi-polynomial 1 (`_indicators`), and the point lies in
        the domain exactly where its value is not 0 (isl's pw_qpolynomial_eval tests membership of
        the point, existential divisions included).  That is the first piece whose domain, with
        the region, holds the point: what `_at_by_sets` finds by intersecting sets, a tenth of the
        cost.  Pieces whose domains are in another parameter space than the region keep that."""
        space = self.region.get_space()
        found = param_values_in_order(space, self.namer, {k: v for k, v in sizes.items() if not is_grid_size(k)}, GRID)
        if found is None:
            return None
        text, values, _ = found
        if self.single:  # the region is a box: no isl needed
            flags = self._grid_flags(space)
            grid = any(flags)
            inside = all(v >= GRID if g else 1 <= v and (not grid or v <= SIZE_CAP)
                         for g, v in zip(flags, values, strict=True))
            return self.pieces[0] if inside else None
        indicators = self._indicators(space)
        if indicators is None:
            return self._at_by_sets(sizes)
        point = isl_point_at(space, text, values)
        return next((p for p, one in zip(self.pieces, indicators, strict=True) if not one.eval(point).is_zero()),
                    None)

    def _at_by_sets(self, sizes: dict) -> Piece | None:
        """_at for several pieces by intersecting each domain with the point's set (the reference)."""
        point = self._point_set(sizes)
        if point is None:
            return None
        return next((p for p in self.pieces if not p.domain.intersect(point).is_empty()), None)

    def _grid_flags(self, space) -> list:
        """For each parameter of the region, in order: is it a grid dimension (or a product with
        one)?  Fixed for the Pieces' life (a namer's names keep their meaning)."""
        if self._grid_params is None:
            self._grid_params = [is_grid(self.namer.to_sympy(n)) for n in param_names(space)]
        return self._grid_params

    def _indicators(self, space) -> list | None:
        """Per piece, the quasi-polynomial 1 on its domain intersected with the region (None when
        a domain is not in the region's space: then sets decide)."""
        if self._inside is None:
            out = []
            for p in self.pieces:
                dom = p.domain.intersect(self.region)
                if not (dom.get_space().is_equal(space) and p.domain.get_space().is_equal(space)):
                    self._inside = []
                    break
                out.append(isl.PwQPolynomial.alloc(dom, isl.QPolynomial.one_on_domain(dom.get_space())))
            else:
                self._inside = out
        return self._inside or None  # [] when sets decide: there are always several pieces here

    def value(self, sizes: dict):
        """The exact count at these sizes (int or Fraction), None when a size it needs is missing.
        A grid dimension that is not given covers the guards: the value must not depend on it."""
        return self._remembered(("value", _key(sizes)), lambda: self._value(sizes))

    def _value(self, sizes: dict):
        if self.pw is not None:
            v = pw_value(self.pw, self.namer, sizes)
            if v is not None:
                return v
        # a size the count mentions is unknown: every piece left at the known sizes may still
        # give the same number (Q = 8n whatever the repetition blockDim_y >= 1)
        known = self._known(sizes)
        pieces = self.pieces if known is None else [p for p in self.pieces if not p.domain.intersect(known).is_empty()]
        values = {sympy.Symbol(k): v for k, v in sizes.items() if v is not None}
        found = {sympy.sympify(sympy.sympify(p.expr).xreplace(values)) for p in pieces}  # a bare symbol gives an int
        if len(found) == 1:
            (v,) = found
            if v.is_Number:
                return exact_number(v)
        return None

    def expr_at(self, sizes: dict) -> tuple:
        """(the formula to show at these sizes, the condition it needs or None).  With every size
        known it is the piece that holds there; with some known, the formula for the pieces that
        remain (its condition with the known values put in); with none, the whole region's."""
        return self._remembered(("expr_at", _key(sizes)), lambda: self._expr_at(sizes))

    def _expr_at(self, sizes: dict) -> tuple:
        if self.single:
            return self.pieces[0].expr, None
        piece = self.at(sizes)
        if piece is not None:  # the plausible regime's piece needs no condition at sizes inside it
            return piece.expr, None if piece is self.main() else self.condition(piece)
        known = self._known(sizes)
        if known is None:
            return self.formula()
        rest = Pieces([Piece(p.domain.intersect(known).coalesce(), p.raw, p.expr) for p in self.pieces
                       if not p.domain.intersect(known).is_empty()], self.region.intersect(known), self.namer)
        if not rest.pieces:
            return self.formula()
        expr, cond = rest.formula()
        values = {sympy.Symbol(k): v for k, v in sizes.items() if v is not None}
        if cond is not None:
            cond = cond.xreplace(values)
            cond = None if cond == sympy.true else cond
        if isinstance(expr, sympy.Piecewise):
            expr = sympy.Piecewise(*[(e, c.xreplace(values)) for e, c in expr.args], evaluate=False)
        return expr, cond

    def _known(self, sizes: dict):
        """The region's points that have the given sizes (None when no parameter is known)."""
        space = self.region.get_space()
        names = param_names(space)
        cons = []
        for n in names:
            e = self.namer.to_sympy(n)
            if is_grid(e) or any(s.name not in sizes or sizes[s.name] is None for s in e.free_symbols):
                continue
            cons.append(f"{n} = {int(e.xreplace({s: sizes[s.name] for s in e.free_symbols}))}")
        if not cons:
            return None
        return isl.Set(f"[{', '.join(names)}] -> {{ : {' and '.join(cons)} }}")

    # -- internals ---------------------------------------------------------------------------

    def _point_set(self, sizes: dict):
        space = self.region.get_space()
        grid = {k for k in sizes if is_grid_size(k)}  # the formulas are for a covering grid
        values = param_values_by_name(space, self.namer, {k: v for k, v in sizes.items() if k not in grid}, GRID)
        if values is None:
            return None
        return point_set(space, [values[0][n] for n in param_names(space)], self.region)

    def _min_max(self):
        """Max (Min) of the pieces when isl proves each piece is the greatest (least) on its domain."""
        for kind, cmp in ((sympy.Max, "<"), (sympy.Min, ">")):
            if all(_never(p.domain, p.raw - q.raw, cmp) for p in self.pieces for q in self.pieces if q is not p):
                return lattice(kind, [p.expr for p in self.pieces])
        return None


_MISSING = object()


def _key(sizes: dict) -> tuple:
    return tuple(sorted(sizes.items()))


# ---------------------------------------------------------------------------------------------
# The region and points

def _joint(a, b):
    """A namer that knows the parameters of both (a count of nothing has an empty one)."""
    if not b.params or set(b.params) <= set(a.params):
        return a
    if not a.params:
        return b
    joint = Namer()
    joint.params.update(a.params)
    joint.params.update(b.params)
    return joint


def _at_least(space, namer, k: int):
    names = param_names(space)
    cons = [f"{n} >= {k}" for n in names if not is_grid(namer.to_sympy(n))]
    return isl.Set(f"[{', '.join(names)}] -> {{ : {' and '.join(cons) or '1 = 1'} }}")


def region_of(space, namer):
    """Every size at least 1; grid dimensions (and products with them) at least GRID, and then
    every other size at most SIZE_CAP."""
    names = tuple(param_names(space))
    return _region(names, tuple(is_grid(namer.to_sympy(n)) for n in names))


@lru_cache(maxsize=4096)
def _region(names: tuple, grid: tuple):
    """The region of parameters `names` (grid[k]: names[k] is a grid dimension), made once per
    process: every count of a kernel, and every kernel of the same sizes, has the same one (isl
    sets are values: nothing changes one in place)."""
    cons = []
    for n, g in zip(names, grid, strict=True):
        if g:
            cons.append(f"{n} >= {GRID}")
        elif any(grid):
            cons.append(f"1 <= {n} <= {SIZE_CAP}")
        else:
            cons.append(f"{n} >= 1")
    return isl.Set(f"[{', '.join(names)}] -> {{ : {' and '.join(cons) or '1 = 1'} }}")


# ---------------------------------------------------------------------------------------------
# Formulas

def _to_user(raw: sympy.Expr, namer) -> dict:
    return {s: namer.to_sympy(s.name) for s in raw.free_symbols}


def _split_floors(dom, raw: sympy.Expr, limit: int = 3) -> list:
    """[(domain, formula)]: a floor that takes at most `limit` values on the domain is replaced by
    each of them on the part of the domain where it takes it (`floor(nk/512)` is 0 for nk < 512
    and 1 at nk = 512), so formulas valid on a piece read as polynomials where they are."""
    floors = raw.atoms(sympy.floor)
    names = param_names(dom.get_space()) if floors else []
    header = f"[{', '.join(names)}]"
    for f in sorted(floors, key=str) if len(floors) > 1 else floors:  # one floor: no printing to sort
        text = _isl_affine(f)
        if text is None:
            continue
        try:
            values = isl.Set(f"{header} -> {{ [v] : v = {text} }}").intersect_params(dom)
        except isl.Error:
            continue
        n = values.dim(isl.dim_type.param)
        values = values.move_dims(isl.dim_type.set, 1, isl.dim_type.param, 0, n).project_out(isl.dim_type.set, 1, n)
        box = _box(values)
        if box is None or box[0][1] - box[0][0] >= limit:
            continue
        out = []
        for v in range(box[0][0], box[0][1] + 1):
            part = dom.intersect(isl.Set(f"{header} -> {{ : {text} = {v} }}")).coalesce()
            if not part.is_empty():
                out += _split_floors(part, expand(raw.xreplace({f: sympy.Integer(v)})), limit)
        return out
    return [(dom, raw)]


def _group(pieces: list) -> list:
    """Pieces with the same formula become one (their domains united).  Formulas are first told
    apart by their exact values at two probe points (cheap), and only those that agree there are
    compared symbolically."""
    if len(pieces) < 2:  # nothing to group: no fingerprint is ever compared (most counts)
        return list(pieces)
    out: list = []
    buckets: dict = {}
    for p in pieces:
        key = fingerprint(p.raw, param_names(p.domain.get_space()))
        for k in buckets.get(key, ()):
            q = out[k]
            if _equal(p.raw, q.raw):
                out[k] = Piece(q.domain.union(p.domain).coalesce(), q.raw, q.expr)
                break
        else:
            buckets.setdefault(key, []).append(len(out))
            out.append(p)
    return out


def _equal(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Symbolic equality of two quasi-polynomials or ratios of them (floors as opaque terms).
    Formulas whose exact values differ at a small point are unequal without the symbolic check
    (formulas that agree at the large fingerprint points often differ only at small sizes, and
    putting a ratio over one denominator is the slow part)."""
    if differ_opaque(a, b):
        return False
    crossed = equal_ratios(a, b)  # ratios: multiplied out, not put over one denominator
    if crossed is not None:
        return crossed
    d = sympy.expand(a - b)
    if d == 0 or d.is_polynomial():
        return d == 0
    num, _ = sympy.fraction(sympy.together(d))
    return sympy.expand(num) == 0


def _merge(pieces: list) -> list:
    """Group equal formulas, then let a piece absorb each other piece it agrees with (proven).
    Absorbing only makes formulas nicer to read: with more than ABSORB_MAX pieces it is skipped,
    and each (formula, piece) pair is tried once.  The ranks and the pairs tried are keyed on the
    pieces themselves (kept alive by the keys), never on their ids: a piece dropped by a merge
    frees its id for a later merged piece, which would then inherit a rank or a failed trial that
    was never its own (which pieces absorb which would follow the memory allocator)."""
    pieces = _group(pieces)
    if len(pieces) > ABSORB_MAX:
        return pieces
    rank: dict = {}  # piece -> sort key: the largest domains absorb (unbounded, more dimensions)
    tried: set = set()  # (formula, piece) found not to agree
    changed = True
    while changed and len(pieces) > 1:
        changed = False
        for p in pieces:
            if p not in rank:
                rank[p] = (_box(_as_points(p.domain)) is None, _hull_dim(p.domain))
        order = sorted(range(len(pieces)), key=lambda k: rank[pieces[k]], reverse=True)
        for a in order:
            for b in order:
                key = (pieces[a].raw, pieces[b])
                if a == b or key in tried:
                    continue
                if not _agrees(pieces[a].raw, pieces[b]):
                    tried.add(key)
                    continue
                merged = Piece(pieces[a].domain.union(pieces[b].domain).coalesce(), pieces[a].raw, None)
                rank[merged] = rank[pieces[a]]
                pieces = [merged if k == a else p for k, p in enumerate(pieces) if k != b]
                changed = True
                break
            if changed:
                break
    return pieces


def _resplit(pieces: list, region) -> list:
    """Two pieces whose formulas agree on a strip of the boundary (at ni = 1 both linearized-index
    counts are 4*nk) re-split by one of their own constraints, so each condition is one inequality
    where that is true: `nk <= 511` / `nk >= 512` rather than `ni = 1 or (ni >= 2 and nk >= 512)`."""
    a, b = pieces
    halves = _halves(a.domain, b.domain, region)
    if halves is None:
        return pieces
    for inside, outside, part in halves:
        for first, second, k in ((a, b, 0), (b, a, 1)):
            if _agrees(first.raw, Piece(part(k, 0), second.raw, None)) and \
                    _agrees(second.raw, Piece(part(k, 1), first.raw, None)):
                return [Piece(inside, first.raw, None), Piece(outside, second.raw, None)]
    return pieces


_HALVES: dict = Bounded(4096)  # (both domains' and the region's text) -> what _halves found for them


def _halves(a, b, region):
    """_resplit's candidate splits of the region for two piece domains: None when each domain is
    one basic set of at most one constraint past the region (nothing to re-split), else
    [(inside, outside, part)] for each non-equality constraint of either domain (gisted on the
    region), in that order, where both halves are non-empty; part(0, 0) is inside & b, part(0, 1)
    outside & a, part(1, 0) inside & a, part(1, 1) outside & b, made on first use.  Remembered by
    the sets' text: they are isl functions of the three sets alone, and the counts of one kernel
    (each array's reads, writes and accesses) split on the same two domains with other formulas
    (laplace3d.cu: 8 counts, one pair of domains)."""
    key = (str(a), str(b), str(region))
    if key in _HALVES:
        return _HALVES[key]
    found: list | None = None
    if not (all(len(d.get_basic_sets()) == 1 for d in (a, b)) and
            all(len(d.gist(region).get_basic_sets()[0].get_constraints()) <= 1 for d in (a, b))):
        found = []
        for d in (a, b):
            for bs in d.gist(region).get_basic_sets():
                for c in bs.get_constraints():
                    if c.is_equality():
                        continue
                    inside = region.intersect(isl.Set.from_basic_set(isl.BasicSet.from_constraint(c))).coalesce()
                    outside = region.subtract(inside).coalesce()
                    if not (inside.is_empty() or outside.is_empty()):
                        found.append((inside, outside, _parts(inside, outside, a, b)))
    _HALVES[key] = found
    return found


def _parts(inside, outside, a, b):
    made: dict = {}

    def part(k: int, side: int):
        if (k, side) not in made:
            made[(k, side)] = (inside if side == 0 else outside).intersect((b, a)[k] if side == 0 else (a, b)[k])
        return made[(k, side)]

    return part


def _on_hull(piece: Piece) -> Piece:
    """A piece on a lower-dimensional domain (THREADS = 2048) with its formula specialized there."""
    subs = hull_solution(piece.domain)
    if not subs:
        return piece
    raw = floors.xreplace(piece.raw, subs)
    raw = factor_cancel(raw) if raw.is_rational_function() and sympy.denom(raw) != 1 else expand(raw)
    return Piece(piece.domain, raw, piece.expr)


def _as_points(dom):
    """A parameter set as a set of points (its parameters become set dimensions)."""
    return dom.move_dims(isl.dim_type.set, 0, isl.dim_type.param, 0, dom.dim(isl.dim_type.param))


def _hull_dim(dom) -> int:
    hull = dom.affine_hull()
    eqs = sum(1 for bs in hull.get_basic_sets() for c in bs.get_constraints() if c.is_equality())
    return dom.dim(isl.dim_type.param) - eqs


def _agrees(raw: sympy.Expr, piece: Piece) -> bool:
    """Does the formula `raw` give `piece`'s values on all of `piece`'s domain?

    Each test below proves that it does, and the answer is whether one of them does.  A test on
    the expansion of the difference (zero, or zero on the domain's affine hull) is skipped where
    differ_opaque shows that expansion is not zero (the two are different polynomials in the
    sizes and floors: its values at a point differ), as _equal does: the expansions are the slow
    part, and the pieces of a tiled kernel that agree on a domain (k = 1, m <= 31: floors constant
    there) seldom agree as polynomials."""
    if differ_at_a_point(raw, piece, param_names(piece.domain.get_space())):
        return False  # cheap: exact evaluations at a few points of the domain, before any expansion
    found: list = []

    def difference():
        if not found:
            found.append(sympy.expand(_expanded(raw) - _expanded(piece.raw)))
        return found[0]

    if not differ_opaque(raw, piece.raw) and difference() == 0:
        return True
    if piece.domain.is_empty():
        return True
    # on the affine hull of the domain (n = 1, or m = n), the difference may vanish identically
    subs = hull_solution(piece.domain)
    if subs and not differ_opaque(raw.xreplace(subs), piece.raw.xreplace(subs)):
        if sympy.expand(difference().xreplace(subs)) == 0:
            return True
    # a small bounded domain: point by point
    dom = piece.domain
    points = _as_points(dom)
    box = _box(points)
    if box is None:
        return False
    size = 1
    for lo, hi in box:
        size *= hi - lo + 1
    if size > _ENUMERATE:
        return False
    names = param_names(dom.get_space())
    values: list = []
    points.foreach_point(lambda pt: values.append(
        {sympy.Symbol(names[k]): int(pt.get_coordinate_val(isl.dim_type.set, k).to_python())
         for k in range(len(names))}))
    return all(zero_at(difference, raw, piece.raw, v) for v in values)


@lru_cache(maxsize=4096)
def _expanded(e: sympy.Expr) -> sympy.Expr:
    """sympy.expand(e) (expansion.expand: the same, faster), once per formula: _merge compares
    each piece's formula with every other piece, and expanding isl's nested products of floors
    was most of it.  The difference of two expanded polynomials (in sizes and floors as atoms)
    expands to what the difference expands to: expansion is the sum of the monomials with their
    coefficients collected, the same either way."""
    return expand(e)


def _box(points):
    """[(min, max)] of each dimension of a set of points, or None when one is unbounded."""
    out = []
    for k in range(points.dim(isl.dim_type.set)):
        lo, hi = points.dim_min_val(k), points.dim_max_val(k)
        if not (lo.is_int() and hi.is_int()):
            return None
        out.append((int(lo.to_python()), int(hi.to_python())))
    return out


def _never(dom, diff: sympy.Expr, cmp: str) -> bool:
    """Is `diff cmp 0` false everywhere on `dom` (isl proves the set empty)?  Only for affine `diff`."""
    diff = sympy.expand(diff)
    if diff == 0:
        return True
    floors = list(diff.atoms(sympy.floor))
    plain = diff.xreplace({f: sympy.Dummy() for f in floors})
    try:
        if sympy.Poly(plain, *plain.free_symbols).total_degree() > 1 if plain.free_symbols else False:
            return False
    except sympy.PolynomialError:
        return False
    if any(not c.is_Integer for c in sympy.Poly(plain, *plain.free_symbols).coeffs()) if plain.free_symbols \
            else not plain.is_Integer:
        return False
    names = param_names(dom.get_space())
    text = _isl_affine(diff)
    if text is None:
        return False
    try:
        bad = isl.Set(f"[{', '.join(names)}] -> {{ : {text} {cmp} 0 }}")
    except isl.Error:
        return False
    return dom.intersect(bad).is_empty()


@lru_cache(maxsize=8192)
def _isl_affine(e: sympy.Expr) -> str | None:
    """An integer affine expression (floors of affine/constant allowed) in isl syntax.  Remembered
    (a function of the expression alone): the same floors recur in every piece of every count."""
    if e.is_Integer:
        return str(int(e))
    if e.is_Symbol:
        return e.name
    if e.is_Add:
        parts = [_isl_affine(a) for a in e.args]
        return None if None in parts else "(" + " + ".join(p for p in parts if p is not None) + ")"
    if e.is_Mul:
        c, rest = e.as_coeff_Mul()
        inner = _isl_affine(rest)
        return None if inner is None or not c.is_Integer else f"({int(c)}*{inner})"
    if isinstance(e, sympy.floor):
        num, den = sympy.fraction(sympy.together(e.args[0]))
        inner = _isl_affine(sympy.expand(num))
        return None if inner is None or not den.is_Integer else f"floor(({inner})/{int(den)})"
    return None
