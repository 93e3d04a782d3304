"""result.drop_floors against the drop_floors it replaced (kept below as `reference`): on every
formula the analysis of several corpus files hands it, and on a few by hand that take its other
paths (a nested floor, a float, a negative power, small budgets), the new one must return the very
expression the old one did (== and srepr).  The new one reads each floor's argument once, builds
the candidate and both evaluators from ring polynomials (no exec'd code of a substituted tree, no
floors sorted by their text), and bounds the degrees on the tree itself; the reference is the code
as it was at 78d03df but for its names and for what it took from the modules under test: sympy's
xreplace and floor for staticroof.floors', sympy.Poly for expansion.polynomial and result._degrees,
helpers.exact_function for interpret.evaluator (in result._degrees_at_least), no time budget.  It
imports nothing from staticroof."""

from __future__ import annotations

from itertools import product

import pytest
import sympy

from staticroof import pipeline
from staticroof.analysis import isltext, polyhedra, result
from staticroof.analysis.expansion import expand

from helpers import ROOT, exact_function

# kernels whose counts carry floors: tiles, divisions and remainders, a modulo-guarded init
FILES = ["tests/data/cuda/tile_div_mod.cu", "tests/data/real/cuda/idioms.cu", "tests/data/real/cuda/gemm.cu",
         "tests/data/real/cuda/reductions_cg.cu", "tests/data/cuda/conv1d_const.cu", "samples/transpose.cu",
         "tests/data/real/polybench/floyd-warshall.c", "tests/data/ncu/rtx5070_kernels.cu",
         "tests/data/real/loops_suite.c", "samples/matmul_tiled.cu", "samples/reduce.cu"]

x, y = sympy.symbols("x y")
BY_HAND = [
    x * sympy.floor((x + sympy.floor(y / 4)) / 8) - x * sympy.floor(x / 8),  # nested: by substitution
    sympy.floor(x / 2) + sympy.floor(x / 2 + sympy.Rational(1, 2)),  # = x
    sympy.floor(x / 2) ** 2, 2 * sympy.floor(x / 2) + sympy.Float(0.5) * x, sympy.floor(x / 2) / y,
    sympy.floor(x * y / 2), x * sympy.floor(x / 3 + sympy.Rational(2, 3)) - x * sympy.floor(x / 3),
    sympy.floor(x / 4) * sympy.floor(y / 4) - sympy.floor(x / 4) * sympy.floor(y / 4 + sympy.Rational(3, 4)),
]


def reference(expr: sympy.Expr, budget: int = 4096) -> sympy.Expr:
    floors = list(expr.atoms(sympy.floor))
    if not floors:
        return expr
    variables = sorted(expr.free_symbols, key=str)
    periods: dict = {}
    for f in floors:
        arg = sympy.expand(f.args[0])
        for v in variables:
            c = arg.coeff(v)
            if not c.is_Rational:
                return expr
            if c.q > 1:
                periods[v] = sympy.ilcm(periods.get(v, 1), c.q)
    least = 1
    for v in variables:
        least *= int(periods.get(v, 1))
    if least > budget:
        return expr
    if any(not (a.is_Symbol or a.is_Number or isinstance(a, (sympy.Add, sympy.Mul, sympy.Pow, sympy.floor)))
           for a in sympy.preorder_traversal(expr)):
        return expr
    shifted = expr.xreplace({f: f.args[0] + sympy.Dummy() for f in floors})

    def count(degrees: dict) -> int:
        points = 1
        for v in variables:
            points *= int(periods.get(v, 1)) * (degrees[v] + 1)
        return points

    degrees = _reference_degree_bounds(shifted, variables)
    if degrees is None or count(degrees) > budget:
        least_degrees = _reference_degrees_at_least(shifted, variables)
        if least_degrees is not None and count(least_degrees) > budget:
            return expr
        degrees = _reference_degrees(shifted, variables)
        if degrees is None:
            return expr
        if count(degrees) > budget:
            return expr
    w = {v: sympy.Dummy(f"w_{v}", integer=True) for v in variables}
    scaled = expr.xreplace({v: periods.get(v, 1) * w[v] for v in variables})

    def integer_part(a):
        a = sympy.expand(a)
        const = a.as_coeff_Add()[0] if a.as_coeff_Add()[0].is_Rational else sympy.Integer(0)
        rest = a - const
        if all(rest.coeff(x).is_Integer for x in w.values()) and not (rest.free_symbols - set(w.values())):
            return rest + sympy.floor(const)
        return sympy.floor(a)

    candidate = scaled.replace(sympy.floor, integer_part)
    if candidate.atoms(sympy.floor):
        return expr
    candidate = sympy.expand(candidate.xreplace({w[v]: v / periods.get(v, 1) for v in variables}))
    (f_q, d_q), (f_p, d_p) = _reference_exact_function(expr, variables), _reference_exact_function(candidate, variables)
    axes = [[r + int(periods.get(v, 1)) * t for r in range(int(periods.get(v, 1))) for t in range(degrees[v] + 1)]
            for v in variables]
    for point in product(*axes):
        if f_q(point) * d_p != f_p(point) * d_q:
            return expr
    return candidate


def _reference_degree_bounds(e: sympy.Expr, variables: list) -> dict | None:
    wanted = set(variables)
    memo: dict = {}

    def walk(x):
        found = memo.get(x)
        if found is not None:
            return found
        if not (x.free_symbols & wanted):
            d: dict | None = {}
        elif x.is_Symbol:
            d = {x: 1}
        elif x.is_Add or x.is_Mul:
            d = {}
            for t in x.args:
                dt = walk(t)
                if dt is None:
                    return None
                for v, k in dt.items():
                    d[v] = max(d.get(v, 0), k) if x.is_Add else d.get(v, 0) + k
        elif x.is_Pow and x.exp.is_Integer and x.exp >= 0:
            base = walk(x.base)
            if base is None:
                return None
            d = {v: k * int(x.exp) for v, k in base.items()}
        else:
            return None
        memo[x] = d
        return d

    found = walk(e)
    return None if found is None else {v: found.get(v, 0) for v in variables}


def _reference_degrees(poly: sympy.Expr, variables: list) -> dict | None:
    """{v: the degree sympy.Poly(poly, v) has}, None when `poly` is no polynomial in some v."""
    try:
        return {v: sympy.Poly(poly, v).degree() for v in variables}
    except sympy.PolynomialError:
        return None


def _reference_degrees_at_least(poly: sympy.Expr, variables: list) -> dict | None:
    """{v: 1 if poly's value changes when only v does (from 3 + 2k to 10 + 2k; the floors' fresh
    constants at 5 + 3k), else 0}: a lower bound on each degree; None when it cannot be evaluated."""
    others = sorted(poly.free_symbols - set(variables), key=str)
    try:
        f = exact_function(poly, list(variables) + others)
        base = [3 + 2 * k for k in range(len(variables))] + [5 + 3 * k for k in range(len(others))]
        at_base = f(base)
        return {v: int(f(base[:k] + [base[k] + 7] + base[k + 1:]) != at_base) for k, v in enumerate(variables)}
    except (ValueError, ZeroDivisionError):
        return None


def _reference_exact_function(expr, variables):
    floors = sorted(expr.atoms(sympy.floor), key=str)
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
        arg = sympy.expand(f.args[0])
        d = 1
        for c in [arg.coeff(v) for v in variables] + [arg.as_coeff_Add()[0]]:
            d = sympy.ilcm(d, sympy.Rational(c).q)
        coeffs = [(index[v], int(arg.coeff(v) * d)) for v in variables if arg.coeff(v) != 0]
        const = arg.as_coeff_Add()[0]
        floor_args.append((coeffs, int(const * d) if const.is_Rational else 0, int(d)))
    denom = int(denom)
    n = len(variables)
    lines = [f"    {', '.join(f'v{k}' for k in range(n))}, = point" if n else "    pass"]
    for j, (coeffs, const, d) in enumerate(floor_args):
        lines.append(f"    v{n + j} = ({' + '.join([f'({c}) * v{k}' for k, c in coeffs] + [f'({const})'])}) // {d}")
    monomials = [" * ".join([f"({c})"] + [f"v{k}" if e == 1 else f"v{k} ** {e}" for k, e in enumerate(m) if e])
                 for c, m in terms]
    lines.append(f"    return {' + '.join(monomials) or '0'}")
    scope: dict = {}
    exec("def evaluate(point):\n" + "\n".join(lines), scope)  # built from integers, as result.py's
    return scope["evaluate"], denom


@pytest.fixture(scope="module")
def met() -> list:
    """Every formula given to drop_floors while the FILES are analyzed, then BY_HAND: finish is
    made afresh for the analysis (its memo, kept across a process's files, would hide the formulas
    another test met first) and the memos of isl's text are emptied, so that all are met."""
    found: list = []

    def finish(expr):  # result.finish without its memo
        found.append(expand(expr))
        return result._ceilings(result.drop_floors(found[-1]))

    isltext.qp_sympy.cache_clear()
    polyhedra._pieces_cache.clear()
    mp = pytest.MonkeyPatch()
    mp.setattr(result, "finish", finish)
    try:
        for f in FILES:
            assert not pipeline.run([ROOT / f]).failed, f
    finally:
        mp.undo()
    return list(dict.fromkeys(found + BY_HAND))


def test_drop_floors_is_the_reference(met):
    with_floors = [e for e in met if e.has(sympy.floor)]
    dropped = [e for e in with_floors if reference(e) != e]
    assert len(with_floors) >= 40 and len(dropped) >= 5  # both outcomes, on real formulas
    for expr in met:
        for budget in (4096, 300, 64):  # and the paths past a budget
            got, want = result.drop_floors(expr, budget), reference(expr, budget)
            assert got == want and sympy.srepr(got) == sympy.srepr(want), (expr, budget)


def test_by_hand():
    assert result.drop_floors(BY_HAND[1]) == x
    assert result.drop_floors(BY_HAND[6]) == BY_HAND[6]  # x if 3 | x, else 0: no polynomial
    for expr in BY_HAND:
        assert result.drop_floors(expr) == reference(expr), expr


def reference_ceilings(expr: sympy.Expr) -> sympy.Expr:
    """result._ceilings as it was at 78d03df (sympy's replace over the whole tree)."""
    def rewrite(arg):
        arg = sympy.expand(arg)
        const = arg.as_coeff_Add()[0] if arg.as_coeff_Add()[0].is_Rational else sympy.Integer(0)
        rest = arg - const
        k = sympy.Integer(1)
        for t in sympy.Add.make_args(rest):
            c = t.as_coeff_Mul()[0]
            if not c.is_Rational:
                return sympy.floor(arg)
            k = sympy.ilcm(k, c.q)
        if k > 1 and const == sympy.Rational(k - 1, k) and all(
                (t.as_coeff_Mul()[0] * k).is_Integer for t in sympy.Add.make_args(rest)):
            return sympy.ceiling(rest)
        return sympy.floor(arg)

    return expr.replace(sympy.floor, rewrite) if expr.has(sympy.floor) else expr


def test_ceilings_is_the_reference(met):
    """What finish hands _ceilings (drop_floors's result) and the formulas before it, the same
    expression as sympy's replace made (some with a ceiling spelled, some without)."""
    spelled = 0
    for expr in met + [sympy.floor(x / 4 + sympy.Rational(3, 4) + sympy.floor(y / 2)) * x]:
        for e in (expr, result.drop_floors(expr)):
            got, want = result._ceilings(e), reference_ceilings(e)
            assert got == want and sympy.srepr(got) == sympy.srepr(want), e
            spelled += got.has(sympy.ceiling)
    assert spelled >= 5
