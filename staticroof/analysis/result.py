"""What the analyses produce: exact counts per precision, per array and per top-level loop nest.

Counts stay :class:`~staticroof.analysis.polyhedra.Count` objects (symbolic, piecewise-exact)
until :func:`evaluate` turns them into formulas and numbers at the sizes the user gave.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import sympy

from .. import floors as fast_floors
from ..ir import Kernel
from .budget import check
from .expansion import expand, polynomial
from .polyhedra import Count
from .rational import factor_cancel, factor_ratio

if TYPE_CHECKING:
    from .pieces import Pieces


@dataclass
class ArrayTraffic:
    name: str
    dtype: str
    elem_bytes: int
    read: Count = field(default_factory=Count)  # distinct elements whose first access is a read
    write: Count = field(default_factory=Count)  # distinct elements written
    access_read: Count = field(default_factory=Count)  # dynamic loads (register rule applied)
    access_write: Count = field(default_factory=Count)  # dynamic stores


@dataclass
class Part:
    """Counts for the whole kernel or for one top-level loop nest."""

    flops: dict = field(default_factory=dict)  # precision -> Count (specials weighted in)
    special: dict = field(default_factory=dict)  # function name -> Count of calls
    arrays: dict = field(default_factory=dict)  # name -> ArrayTraffic
    shared: dict = field(default_factory=dict)  # on-chip arrays: name -> ArrayTraffic (access level only)
    bounds: list = field(default_factory=list)  # bounds.StatementBound, for the cache-bounded Q


@dataclass
class KernelResult:
    kernel: Kernel
    total: Part
    nests: list  # (label, Location, Part)
    failed: bool = False  # the kernel could not be analyzed at all

    @property
    def diagnostics(self):
        return self.kernel.diagnostics

    @property
    def exact(self) -> bool:
        return not self.failed and not any(d.approximate for d in self.kernel.diagnostics)


@dataclass
class Quantity:
    """A count as the reports see it: the formula to show, its exact value at the sizes in force,
    and every piece when the count is piecewise in the sizes.

    `expr` is the piece that holds at the sizes in force (`holds` says where), or, when a size is
    unknown, one formula for every size >= 1 (a single piece, Min/Max, or a Piecewise)."""

    expr: sympy.Expr
    value: int | Fraction | None  # None when a size is unknown
    pieces: Pieces | None = field(default=None, repr=False)
    holds: sympy.Basic | None = None  # the condition `expr` needs, when it is one piece of several
    sizes: dict = field(default_factory=dict, repr=False)  # the sizes `expr` was chosen for

    @property
    def number(self):
        if self.value is None:
            return None
        return int(self.value) if Fraction(self.value).denominator == 1 else float(self.value)

    @property
    def piecewise(self) -> bool:
        return self.pieces is not None and not self.pieces.single

    def piece_list(self) -> list:
        """[(condition, formula)] for every piece (one piece: condition True)."""
        if self.pieces is None or self.pieces.single:
            return [(sympy.true, self.expr)]
        return [(self.pieces.condition(p), p.expr) for p in self.pieces.pieces]


def drop_floors(expr: sympy.Expr, budget: int = 4096) -> sympy.Expr:
    """`expr` without its floors when that is the same function (proved, not sampled).

    A quasi-polynomial such as `cols*floor(cols/32 + 31/32) - cols*floor(cols/32) + ...` is often a
    plain polynomial in disguise.  On each residue class of its variables modulo the floors'
    periods it is a polynomial of degree <= d, so agreeing with the floor-free candidate on a
    (d+1)^k grid of points in every class proves the two equal.  Skipped past `budget` points:
    4,096 covers a floor of period 1024 (a block of 256 threads doing 4 items each) at degree 3,
    and the points are evaluated in integer arithmetic (a few microseconds each)."""
    parts = _parts(expr)
    if parts is None:
        return expr  # something but sums, products, powers, floors, numbers and symbols
    floors, symbols = parts
    if not floors:
        return expr
    variables = sorted(symbols, key=str)
    periods: dict = {}
    linear: dict = {}  # floor -> (its expanded argument, {v: coefficient}, constant), read once
    for f in floors:
        linear[f] = _read_floor(f, variables)
        for v, c in linear[f][1].items():
            if not c.is_Rational:
                return expr
            if c.q > 1:
                periods[v] = sympy.ilcm(periods.get(v, 1), c.q)
    least = 1  # the points of the check below at degree 0 in every variable
    for v in variables:
        least *= int(periods.get(v, 1))
    if least > budget:
        return expr

    def count(degrees: dict) -> int:
        points = 1
        for v in variables:
            points *= int(periods.get(v, 1)) * (degrees[v] + 1)
        return points

    # per class, floor(a) = a - c for a constant c: the degree in each variable is that of `expr`
    # with every floor(a) written a + t (t a fresh constant), `shifted`.  Decided before the
    # candidate is built: a proof past the budget needs no candidate (the answer is `expr` either
    # way).  Bounds on the degrees, read off the tree (a floor as its argument, which is what
    # a + t reads), decide the same (more points prove the same equality: see _degree_bounds)
    # without expanding the formula; the exact degrees only where the bounds are past the
    # budget or cannot be read
    degrees = _degree_bounds(expr, variables)
    if degrees is None or count(degrees) > budget:
        shifted = expr.xreplace({f: f.args[0] + sympy.Dummy() for f in floors})
        least_degrees = _degrees_at_least(shifted, variables)
        if least_degrees is not None and count(least_degrees) > budget:
            return expr  # the exact degrees are at least these: past the budget too
        degrees = _degrees(shifted, variables)
        if degrees is None:
            return expr
        if count(degrees) > budget:
            return expr
    candidate, ring = _candidate(expr, variables, periods, linear)
    if candidate is None:
        return expr
    from itertools import product

    # each side's numerator over its own positive denominator: a/b = c/d exactly when a*d = c*b,
    # compared in integers (no Fraction made per point: most of this loop's time was in them)
    (f_q, d_q), (f_p, d_p) = _exact_function(expr, variables, linear), _exact_function(candidate, variables, {}, ring)
    axes = [[r + int(periods.get(v, 1)) * t for r in range(int(periods.get(v, 1))) for t in range(degrees[v] + 1)]
            for v in variables]
    for k, point in enumerate(product(*axes)):
        if not k % 64:
            check()
        if f_q(point) * d_p != f_p(point) * d_q:
            return expr
    return candidate


def _read_floor(f, variables: list) -> tuple:
    """A floor's argument as drop_floors and _exact_function read it: (expanded, {v: its
    coefficient} for every variable, its rational constant or 0)."""
    arg = sympy.expand(f.args[0])
    head = arg.as_coeff_Add()[0]
    return arg, {v: arg.coeff(v) for v in variables}, head if head.is_Rational else sympy.Integer(0)


def _parts(expr: sympy.Expr) -> tuple | None:
    """(its floors, its symbols) where `expr` is built of sums, products, powers, floors, numbers
    and symbols alone (what drop_floors can read; else None): expr.atoms(sympy.floor) and
    expr.free_symbols (over such nodes, the symbols in the tree) in one walk over its distinct
    nodes, instead of three over every node."""
    floors: set = set()
    symbols: set = set()
    seen: set = set()
    stack = [expr]
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if x.is_Symbol:
            symbols.add(x)
        elif x.is_Number:
            continue
        elif isinstance(x, (sympy.Add, sympy.Mul, sympy.Pow, sympy.floor)):
            if isinstance(x, sympy.floor):
                floors.add(x)
            stack.extend(x.args)
        else:
            return None
    return list(floors), symbols


def _candidate(expr: sympy.Expr, variables: list, periods: dict, linear: dict) -> tuple:
    """The floor-free candidate of drop_floors: the polynomial `expr` is on the residue class where
    every variable is a multiple of its period, expanded, and that polynomial as an element of
    the ring Q[variables] where it was multiplied out (else None); (None, None) where it has no
    such polynomial.

    Where every floor's argument is a rational plus rational multiples of the variables (the
    arguments isl writes), v = P*w makes each argument an integer combination of the w plus its
    constant c, so its floor is the argument less c plus floor(c): that polynomial in the variables
    is multiplied out in a ring (expansion.multiplied's argument: one polynomial over Q, one
    expanded tree, the one sympy.expand gives).  Anything else (a nested floor, a product of
    variables inside a floor) is built by substitution (_candidate_by_substitution)."""
    shift: dict = {}
    for f, (arg, _, const) in linear.items():
        for t in sympy.Add.make_args(arg):
            if not (t.is_Rational or (t.is_Symbol or (t.is_Mul and len(t.args) == 2 and t.args[0].is_Rational
                                                      and t.args[1].is_Symbol))):
                return _candidate_by_substitution(expr, variables, periods), None
        shift[f] = arg - const + sympy.floor(const)
    try:  # a node neither polynomial nor a floor (a float, a negative power): no key in `shift`
        p = polynomial(expr, variables, other=shift.__getitem__)
    except KeyError:
        p = None
    if p is None:
        return _candidate_by_substitution(expr, variables, periods), None
    return p.as_expr(), p


def _candidate_by_substitution(expr: sympy.Expr, variables: list, periods: dict) -> sympy.Expr | None:
    """drop_floors's candidate built as its definition says: v = P*w in `expr`, each floor whose
    argument is then an integer combination of the w plus a constant c written as that
    combination plus floor(c), w = v/P again, expanded; None where a floor is left."""
    w = {v: sympy.Dummy(f"w_{v}", integer=True) for v in variables}
    scaled = fast_floors.xreplace(expr, {v: periods.get(v, 1) * w[v] for v in variables})  # expr.xreplace, faster

    def integer_part(a):
        a = sympy.expand(a)
        const = a.as_coeff_Add()[0] if a.as_coeff_Add()[0].is_Rational else sympy.Integer(0)
        rest = a - const
        if all(rest.coeff(x).is_Integer for x in w.values()) and not (rest.free_symbols - set(w.values())):
            return rest + sympy.floor(const)
        return sympy.floor(a)

    candidate = scaled.replace(sympy.floor, integer_part)
    if candidate.atoms(sympy.floor):
        return None
    return sympy.expand(candidate.xreplace({w[v]: v / periods.get(v, 1) for v in variables}))


def _degree_bounds(e: sympy.Expr, variables: list) -> dict | None:
    """{v: an upper bound on the degree of `e` in v} from its tree (a sum: the largest of its
    terms', a product: the sum of its factors', a power: times the exponent, a floor: its
    argument's), or None when some part is not plainly a polynomial in the variables.

    A floor is read as its argument, which is what drop_floors needs: on each residue class
    floor(a) is a - c for a constant c, and a - c has a's degrees.  Any part free of the variables
    has degree 0 whatever it is (1/t, sqrt(2)); that is asked (free_symbols, a walk of the part)
    only of parts that are not sums, products, powers, floors, numbers or symbols, so that the
    walk stays linear in the tree's size."""
    wanted = set(variables)
    memo: dict = {}

    def walk(x):
        found = memo.get(x)
        if found is not None:
            return found
        if x.is_Number:
            d: dict | None = {}
        elif x.is_Symbol:
            d = {x: 1} if x in wanted else {}
        elif x.is_Add or x.is_Mul:
            d = {}
            for t in x.args:
                dt = walk(t)
                if dt is None:
                    return None
                for v, k in dt.items():
                    d[v] = max(d.get(v, 0), k) if x.is_Add else d.get(v, 0) + k
        elif type(x) is sympy.floor:
            d = walk(x.args[0])
            if d is None:
                return None
        elif x.is_Pow and x.exp.is_Integer and x.exp >= 0:
            base = walk(x.base)
            if base is None:
                return None
            d = {v: k * int(x.exp) for v, k in base.items()}
        elif not (x.free_symbols & wanted):
            d = {}
        else:
            return None
        memo[x] = d
        return d

    found = walk(e)
    return None if found is None else {v: found.get(v, 0) for v in variables}


def _degrees_at_least(poly: sympy.Expr, variables: list) -> dict | None:
    """{v: 1 or 0}, a lower bound on the degree of the polynomial `poly` in each variable, from two
    exact evaluations per variable: a polynomial of degree 0 in v takes the same value whatever v
    is, so values that differ when only v changes prove degree >= 1 in v (equal values prove
    nothing: the bound says 0).  None when `poly` cannot be evaluated.  What drop_floors needs to
    see that the exact degrees (an expansion: seconds on a tiled GEMM's floors) are past its budget."""
    from .evaluators import evaluator

    others = sorted(poly.free_symbols - set(variables), key=str)  # the floors' fresh constants
    order = list(variables) + others
    try:
        f = evaluator(poly, order, integers=True)
        base = [3 + 2 * k for k in range(len(variables))] + [5 + 3 * k for k in range(len(others))]
        at_base = f(base)
        least = {}
        for k, v in enumerate(variables):
            moved = list(base)
            moved[k] += 7
            least[v] = int(f(moved) != at_base)
    except (ValueError, TypeError, ZeroDivisionError):
        return None
    return least


def _degrees(poly: sympy.Expr, variables: list) -> dict | None:
    """{v: degree of `poly` in v} for a polynomial expression, from its expansion (the degree
    sympy.Poly(poly, v) has: expand collects like monomials exactly, so a power of v survives only
    when its coefficient is not zero); None when it is not a polynomial in the variables.  Building
    a Poly in one variable over every other symbol was seconds on the floors of a tiled GEMM.
    Where the expression is built of sums, products and powers of symbols and rationals, the
    same polynomial is multiplied out in a ring instead (_ring_degrees), ten times faster."""
    found = _ring_degrees(poly, variables)
    if found is not None:
        return found
    terms = sympy.Add.make_args(sympy.expand(poly))
    if terms == (sympy.Integer(0),):
        return {v: sympy.Poly(poly, v).degree() for v in variables}  # -oo, as sympy says
    degrees = dict.fromkeys(variables, 0)
    wanted = set(variables)
    for t in terms:
        for base, e in t.as_powers_dict().items():
            if base in wanted:
                if not (e.is_Integer and e >= 0):
                    return None
                degrees[base] = max(degrees[base], int(e))
            elif (base.free_symbols | e.free_symbols) & wanted:
                return None
    return degrees


def _ring_degrees(poly: sympy.Expr, variables: list) -> dict | None:
    """{v: degree of `poly` in v}, what _degrees reads off sympy.expand, from the same polynomial
    multiplied out in Q[every symbol] (sparse ring arithmetic, no canonical sympy trees built).

    Why it is the same: a polynomial over Q has one set of monomials with non-zero coefficients,
    whichever exact arithmetic multiplies it out; expand collects like monomials exactly (as
    _degrees relies on), and the ring does too (its elements are that set).  So the largest exponent
    of v among them is the same number.  None where the tree has anything but sums, products,
    non-negative integer powers, symbols and rationals (sympy's path decides), and for the zero
    polynomial (whose degrees _degrees gives as -oo)."""
    syms = sorted(poly.free_symbols | set(variables), key=str)
    p = polynomial(poly, syms)
    if not p:
        return None
    where = {v: syms.index(v) for v in variables}
    return {v: max(m[where[v]] for m in p.keys()) for v in variables}


def _exact_function(expr, variables, linear: dict | None = None, ring=None):
    """A fast exact evaluator of a quasi-polynomial, as (numerator, denominator): the numerator at
    a point is an integer and the denominator a positive integer, the value their quotient
    (integer arithmetic throughout: floors of rational affine arguments become integer floor
    divisions).  `linear`, if given, is drop_floors's reading of each floor's argument (expanded,
    {v: coefficient}, constant), made once there; else it is read here the same way.  `ring`, if
    given, is `expr` (floor-free) already multiplied out in Q[variables], what the ring below is.

    Each floor's value is its argument's coefficients times the variables plus its constant, and
    the numerator the polynomial in the variables and the floors, whatever order the floors
    take: the values are exact, so any order computes the same numbers."""
    floors = list(expr.atoms(sympy.floor))
    # its monomials and coefficients: from the ring where it is a polynomial over Q in these
    # generators (the same ones sympy.Poly finds: a polynomial has one set of them; a floor is a
    # generator as a whole, what it is when written as a fresh symbol), else Poly's
    if ring is not None and not floors:
        ring_poly = ring
    else:
        ring_poly = polynomial(expr, list(variables) + floors) if expr.free_symbols <= set(variables) else None
    if ring_poly is not None:
        pairs = [(m, sympy.Rational(int(c.numerator), int(c.denominator))) for m, c in ring_poly.terms()]
    else:
        fresh = [sympy.Dummy() for _ in floors]
        plain = expr.xreplace(dict(zip(floors, fresh, strict=True)))
        poly = sympy.Poly(plain, *(list(variables) + fresh))
        pairs = list(zip(poly.monoms(), poly.coeffs(), strict=True))
    denom = 1
    for _, c in pairs:
        denom = sympy.ilcm(denom, sympy.Rational(c).q)
    terms = [(int(c * denom), m) for m, c in pairs]
    index = {v: k for k, v in enumerate(variables)}
    floor_args = []
    for f in floors:
        _, coeffs, const = (linear.get(f) if linear else None) or _read_floor(f, variables)
        d = 1
        for c in [*coeffs.values(), const]:
            d = sympy.ilcm(d, sympy.Rational(c).q)
        floor_args.append(([(index[v], int(c * d)) for v, c in coeffs.items() if c != 0], int(const * d), int(d)))
    denom = int(denom)
    # the same integer arithmetic as straight-line code (one Python function, compiled once):
    # v0.. are the point's coordinates, then each floor's value; a monomial is its coefficient
    # times the powers its exponents name (x**0 = 1 left out)
    n = len(variables)
    lines = [f"    {', '.join(f'v{k}' for k in range(n))}, = point" if n else "    pass"]
    for j, (coeffs, const, d) in enumerate(floor_args):
        lines.append(f"    v{n + j} = ({' + '.join([f'({c}) * v{k}' for k, c in coeffs] + [f'({const})'])}) // {d}")
    monomials = [" * ".join([f"({c})"] + [f"v{k}" if e == 1 else f"v{k} ** {e}" for k, e in enumerate(m) if e])
                 for c, m in terms]
    lines.append(f"    return {' + '.join(monomials) or '0'}")
    scope: dict = {}
    exec("def evaluate(point):\n" + "\n".join(lines), scope)  # the code is built above from integers
    return scope["evaluate"], denom


def _ceilings(expr: sympy.Expr) -> sympy.Expr:
    """floor(a/k + (k-1)/k) is ceiling(a/k) for integer a: the spelling people write."""
    def rewrite(arg):
        arg = sympy.expand(arg)
        const = arg.as_coeff_Add()[0] if arg.as_coeff_Add()[0].is_Rational else sympy.Integer(0)
        rest = arg - const
        k = sympy.Integer(1)
        for t in sympy.Add.make_args(rest):
            c = t.as_coeff_Mul()[0]
            if not c.is_Rational:
                return fast_floors.floor(arg)
            k = sympy.ilcm(k, c.q)
        if k > 1 and const == sympy.Rational(k - 1, k) and all(
                (t.as_coeff_Mul()[0] * k).is_Integer for t in sympy.Add.make_args(rest)):
            return sympy.ceiling(rest)
        return fast_floors.floor(arg)

    floors = expr.atoms(sympy.floor)
    if not floors:
        return expr
    if any(f.args[0].has(sympy.floor) for f in floors):
        return expr.replace(sympy.floor, rewrite)
    # no floor inside another: replace would call rewrite on each floor (once per occurrence) and
    # rebuild each node above a changed one with func(*args), which is what xreplace does with
    # each distinct floor's rewrite (only those that changed: replace keeps a node its rewrite
    # gives back equal), and returns `expr` itself where none changed
    rule = {}
    for f in floors:
        new = rewrite(f.args[0])
        if new != f:
            rule[f] = new
    return expr.xreplace(rule) if rule else expr


def _memo(f):
    """`f` remembered per argument tuple (sympy expressions are immutable and hashable): kernels of
    one run share their sizes' names, so the same formulas come back (W = 2*n, Q = 24*n)."""
    table: dict = {}

    def remembered(*args):
        found = table.get(args)
        if found is None:
            if len(table) > 8192:  # one process may analyze many files
                table.clear()
            found = table[args] = f(*args)
        return found

    remembered.__doc__ = f.__doc__
    return remembered


@_memo
def finish(expr: sympy.Expr) -> sympy.Expr:
    """A formula as people read it: floors dropped where provably equal, ceilings spelled."""
    return _ceilings(drop_floors(expand(expr)))


def quantity(count: Count, sizes: dict, scale=1) -> Quantity:
    pieces = count.pieces(scale, finish)
    value = pieces.value(sizes)
    expr, holds = pieces.expr_at(sizes)
    return Quantity(expr, value, pieces, holds, dict(sizes))


@_memo
def _divide(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    if b == 0:
        return sympy.nan
    if a == 0 and _somewhere_not_zero(b):
        return factor_cancel(sympy.Integer(0))
    return factor_ratio(a, b)


def _somewhere_not_zero(b: sympy.Expr) -> bool:
    """Does `b`, over symbols without assumptions, take a non-zero value at some point?  Then 0/b
    is 0, which is what sympy's 0/b gives, without asking it.

    sympy makes 0/b the product 0 * b**-1, which is 0 unless b**-1 is known to be infinite, that is
    unless b is known to be zero (Mul.flatten asks each factor's is_finite: on a long count of an
    integer-only kernel, W = 0 over its Q, 0.3 s of assumption queries).  sympy's assumptions are
    sound: over symbols that may take any complex value, b.is_zero is True only where b is zero at
    every value, and a non-zero exact value at one point (fingerprint's) shows it is not.  False
    (sympy decides) where a symbol carries assumptions or b cannot be evaluated there."""
    from .probes import fingerprint

    if any(s.assumptions0 != {"commutative": True} for s in b.free_symbols):
        return False
    values = fingerprint(b)
    return values is not None and any(v != 0 for v in values)


def _quotient(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    return sympy.nan if b == 0 else a / b


@_memo
def _tidy(e: sympy.Expr) -> sympy.Expr:
    return factor_cancel(e)


def ratio(num: Quantity, den: Quantity) -> Quantity:
    value = None
    if num.value is not None and den.value is not None:
        if den.value == 0:  # nothing moves at these sizes: no intensity
            return Quantity(sympy.nan, None)
        value = Fraction(num.value) / Fraction(den.value)
    if num.pieces is not None and den.pieces is not None and (num.piecewise or den.piecewise):
        pieces = num.pieces.combine(den.pieces, _quotient, _tidy)
        if not pieces.pieces:
            return Quantity(sympy.nan, None)
        expr, holds = pieces.expr_at(num.sizes)
        if value is None and expr.is_Rational:
            value = Fraction(int(expr.p), int(expr.q))
        return Quantity(expr, value, pieces, holds, num.sizes)
    if den.expr == 0:
        return Quantity(sympy.nan, None)
    expr = _divide(num.expr, den.expr)
    if value is None and expr.is_Rational:
        value = Fraction(int(expr.p), int(expr.q))
    return Quantity(expr, value)
