"""staticroof.floors against sympy itself: `floor` must be the very expression sympy.floor makes
(== and srepr) and `xreplace` the very expression Basic.xreplace makes, on every floor and every
renaming the analysis of real kernels meets, so that a sympy whose floor evaluation changes fails
here instead of changing a formula.  The facts floors.py reads off without asking sympy are asked
here, of each affine argument, and must be what its docstring says."""

from __future__ import annotations

import pytest
import sympy
from sympy.core.cache import clear_cache

from staticroof import floors, pipeline
from staticroof.analysis import isltext, polyhedra

from helpers import ROOT

# kernels whose counts carry floors: tiles, divisions and remainders, a modulo-guarded init
FILES = ["tests/data/cuda/tile_div_mod.cu", "tests/data/real/cuda/idioms.cu", "tests/data/real/cuda/gemm.cu",
         "tests/data/real/cuda/reductions_cg.cu", "tests/data/cuda/conv1d_const.cu", "samples/transpose.cu",
         "tests/data/real/polybench/floyd-warshall.c"]

x, y, z = sympy.symbols("x y z")
k, j = sympy.symbols("k j", integer=True)
n = sympy.Symbol("n", integer=True, positive=True)  # more than integer=True: not integer_affine
half = sympy.Rational(1, 2)
BY_HAND = [
    x, -x, 3 * x, x / 4, x / 4 + sympy.Rational(3, 4), x / 4 + sympy.Rational(5, 4), x + 2, -x / 3 + 5,
    x / 2 + y / 3 + sympy.Rational(1, 6), sympy.floor(x / 2), -sympy.floor(x / 2), 2 * sympy.floor(x / 2),
    sympy.floor(x / 2) + 3, sympy.floor(x / 2) + half, sympy.floor(x / 2) - sympy.floor(y / 3) + 1,
    (x + 3 * sympy.floor(y / 4)) / 8, sympy.Dummy() / 2 + half,
    # integer multiples of integer symbols: drop_floors's v = P*w
    k, k + 1, k + half, 32 * k + sympy.Rational(3, 4), -k - sympy.Rational(1, 3), 2 * k - 3 * j + sympy.Rational(9, 4),
    sympy.Dummy("w", integer=True) + sympy.Rational(31, 32), 4 * k - 7,
    # neither: sympy.floor decides
    x * y / 2, x ** 2 / 3, x / y, sympy.ceiling(x / 2) + half, k / 2 + half, x + k, sympy.Float(0.5) * x,
    sympy.Rational(7, 2), sympy.Integer(-3), sympy.floor(k / 3) / 2, n + half, n / 2,
]


def _met() -> tuple:
    """Every argument given to floors.floor and every (expression, rule) given to floors.xreplace
    while the FILES are analyzed (the memos of isl's text emptied first, so that they are met)."""
    args: list = []
    renamings: list = []
    floor, xreplace = floors.floor, floors.xreplace

    def recording_floor(arg):
        args.append(arg)
        return floor(arg)

    def recording_xreplace(expr, rule):
        renamings.append((expr, rule))
        return xreplace(expr, rule)

    isltext.qp_sympy.cache_clear()
    polyhedra._pieces_cache.clear()
    mp = pytest.MonkeyPatch()
    mp.setattr(floors, "floor", recording_floor)  # the walker's floors too (a module global)
    mp.setattr(floors, "xreplace", recording_xreplace)
    try:
        for f in FILES:  # a kernel that raised would be reported failed, its floors never met
            assert not pipeline.run([ROOT / f]).failed, f
    finally:
        mp.undo()
    return args, renamings


@pytest.fixture(scope="module")
def met():
    return _met()


def _arguments(met) -> list:
    """The arguments met, those of every floor inside the renamed expressions, and BY_HAND."""
    args, renamings = met
    found = list(args)
    for expr, rule in renamings:
        for e in (expr, expr.xreplace(rule)):
            found += [f.args[0] for f in e.atoms(sympy.floor)]
    return list(dict.fromkeys(found + BY_HAND))


def test_floor_is_sympys_floor(met):
    args = _arguments(met)
    affine = [a for a in args if isinstance(a, sympy.Expr) and floors.affine(a)]
    integer = [a for a in args if isinstance(a, sympy.Expr) and floors.integer_affine(a)]
    # integer_affine arguments come from BY_HAND alone: drop_floors puts v = P*w in the floors
    # itself only where an argument is not linear in the variables (none of the FILES' are)
    assert len(affine) >= 60 and len(integer) >= 8 and len(args) > len(affine) + len(integer)  # every path
    for arg in args:
        clear_cache()  # sympy.floor evaluates afresh, not from what the fast path made
        got, want = floors.floor(arg), sympy.floor(arg)
        assert got == want and sympy.srepr(got) == sympy.srepr(want), arg


def test_the_facts_the_fast_path_reads_off(met):
    """What RoundFunction.eval asks of an affine argument, of its terms and of its symbolic part
    (the argument less its integer, then less every constant), answered as floors.py says."""
    i = sympy.I
    for arg in _arguments(met):
        if not (isinstance(arg, sympy.Expr) and floors.affine(arg)):
            continue
        clear_cache()
        assert not arg.is_real and not arg.is_integer and arg.is_finite is not False, arg
        terms = sympy.Add.make_args(arg)
        constant = sum((t for t in terms if t.is_Rational), sympy.S.Zero)
        integer = sum((t for t in terms if t.is_Integer), sympy.S.Zero)
        for e in (arg, arg - integer, arg - constant):
            assert not e.is_imaginary and not (i * e).is_real, e
        for t in terms:
            if not t.is_Rational:
                assert not t.is_imaginary and not t.is_integer and not t.is_number, t
            else:
                assert t.is_imaginary is False and t.is_number


def test_the_facts_the_integer_path_reads_off(met):
    """What RoundFunction.eval asks of an integer_affine argument and of its terms, answered as
    floors.py says."""
    i = sympy.I
    for arg in _arguments(met):
        if not (isinstance(arg, sympy.Expr) and floors.integer_affine(arg)):
            continue
        clear_cache()
        assert arg.is_real and not arg.is_zero and not arg.is_positive and not arg.is_negative, arg
        terms = sympy.Add.make_args(arg)
        constant = next((t for t in terms if t.is_Rational), sympy.S.Zero)
        assert arg.is_integer is constant.is_Integer, arg
        if constant.is_Integer:
            continue
        assert arg.is_finite is not False and not arg.is_imaginary and not (i * arg).is_real, arg
        assert constant.is_imaginary is False and constant.is_integer is False and constant.is_number
        for t in terms:
            if t is not constant:
                assert not t.is_imaginary and t.is_integer and not t.is_number, t


def test_xreplace_is_sympys_xreplace(met):
    _, renamings = met
    assert len(renamings) >= 50 and any(e.has(sympy.floor) for e, _ in renamings)
    for expr, rule in renamings:
        clear_cache()
        got, want = floors.xreplace(expr, rule), expr.xreplace(rule)
        assert got == want and sympy.srepr(got) == sympy.srepr(want), (expr, rule)


def test_affine_by_hand():
    """The arguments the fast path takes: rationals and rational multiples of plain symbols and of
    floors of such sums, at least one of them."""
    assert floors.affine(x / 4 + sympy.Rational(3, 4)) and floors.affine(-sympy.floor(x / 2))
    assert floors.affine((x + 3 * sympy.floor(y / 4)) / 8) and floors.affine(x)
    for arg in (x * y, x ** 2, x / y, sympy.ceiling(x), k + half, sympy.floor(k / 3), sympy.Float(0.5) * x,
                sympy.Integer(3), sympy.Rational(1, 2), sympy.floor(x * y) / 2):
        assert not floors.affine(arg), arg
    assert floors.integer_affine(k + half) and floors.integer_affine(2 * k - 3 * j + 1)
    for arg in (k / 2, k * j, x + k, n + 1, sympy.Integer(3), k ** 2):
        assert not floors.integer_affine(arg), arg
