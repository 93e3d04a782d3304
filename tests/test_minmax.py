"""staticroof.analysis.minmax: Max/Min of a count's pieces must be sympy's evaluated expression itself
(the reports print it); checked on hand-derived pieces and on random ones (hypothesis,
derandomized) against sympy.Max/sympy.Min with its evaluation."""

from __future__ import annotations

import sympy
from hypothesis import given, strategies as st

from staticroof.analysis.minmax import lattice

from helpers import quick

N, R, M = sympy.symbols("n R8 m")


def _same(kind, exprs):
    got, want = lattice(kind, exprs), kind(*exprs)
    assert sympy.srepr(got) == sympy.srepr(want)
    return got


def test_the_pieces_of_a_stencil_and_the_comparisons_sympy_decides():
    """A 1-D stencil of radius R8 over i in [R8, n - R8): W = 6(n - 2 R8) for n > 2 R8, else 0:
    Max(0, 6n - 12 R8), the two pieces' difference is not constant: built directly.  n against
    n - 1 differ by 1 (sympy drops n - 1: Max is n), 0 against 5 (5), two equal pieces (one),
    floor(n/4) (not a polynomial), a positive symbol (Max(0, p) is p): each is sympy's own."""
    assert _same(sympy.Max, [sympy.Integer(0), 6 * N - 12 * R]) == sympy.Max(0, 6 * N - 12 * R, evaluate=False)
    assert _same(sympy.Min, [N * M, 100 * M, sympy.Integer(7)]).args == tuple(sympy.ordered([N * M, 100 * M, 7]))
    assert _same(sympy.Max, [N, N - 1]) == N
    assert _same(sympy.Max, [sympy.Integer(0), sympy.Integer(5)]) == 5
    assert _same(sympy.Max, [N + 1, N + 1]) == N + 1
    _same(sympy.Max, [sympy.floor(N / 4), N - 3])
    p = sympy.Symbol("p", positive=True)
    assert _same(sympy.Max, [sympy.Integer(0), p]) == p
    _same(sympy.Max, [sympy.Float(0.5) * N, N - 2])


_atoms = st.sampled_from([N, M, R, sympy.Integer(1)])
_coeffs = st.sampled_from([sympy.Integer(k) for k in (-12, -2, -1, 0, 1, 3, 6)] + [sympy.Rational(1, 2)])


@st.composite
def _polys(draw):
    """A sum of 1-3 terms, each a coefficient times 1-2 atoms (0 and constants included)."""
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        t = draw(_coeffs)
        for _ in range(draw(st.integers(1, 2))):
            t *= draw(_atoms)
        terms.append(t)
    return sympy.Add(*terms)


@quick(deadline_s=10, max_examples=40)
@given(st.lists(_polys(), min_size=2, max_size=4), st.booleans())
def test_lattice_is_sympys(exprs, least):
    """Random pieces, built directly or by sympy: the very same expression."""
    _same(sympy.Min if least else sympy.Max, exprs)
