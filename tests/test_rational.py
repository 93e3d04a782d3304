"""staticroof.analysis.rational: ratios of counts in one polynomial ring (issue #15, speed).

factor_cancel must be sympy.factor(sympy.cancel(e)) itself (the reports print it), factor_list
must give sympy's factors, and equal_ratios must answer as sympy.together does; all are checked
against sympy on hand-derived ratios and on random ones (hypothesis, derandomized) in sizes and floors of them."""

from __future__ import annotations

import sympy
from hypothesis import given, strategies as st
from sympy import QQ, ZZ
from sympy.polys.rings import ring, sring

from staticroof.analysis.rational import _multiplied_out, equal_ratios, factor_cancel, factor_list, factor_ratio

from helpers import quick

N, M = sympy.symbols("N M")
F4 = sympy.floor(N / 4 + sympy.Rational(3, 4))  # ceiling(N/4), as isl writes it
F128 = sympy.floor(M / 128 + sympy.Rational(1, 64))


def _sympy(e):
    return sympy.factor(sympy.cancel(e))


def test_factor_cancel_hand_derived():
    """(2N**2 - 2)/(4N + 4) = 2(N - 1)(N + 1)/(4(N + 1)) = (N - 1)/2.
    W/Q of an axpy whose counts are one quasi-polynomial X = N*F4 - 4*F4**2 + N: 2X/(12X) = 1/6.
    (1 - N)*M/(2 - 2*N*M): the factors 1 - N and 1 - N*M have negative leading coefficients,
    normalized to N - 1 and N*M - 1; the signs cancel: M*(N - 1)/(2*(N*M - 1)).
    24*N*F4/(8*F4**2 + 8*F4) = 3N/(F4 + 1): the floor is a factor like a size."""
    cases = [
        ((2 * N ** 2 - 2) / (4 * N + 4), (N - 1) / 2),
        (2 * (N * F4 - 4 * F4 ** 2 + N) / (12 * (N * F4 - 4 * F4 ** 2 + N)), sympy.Rational(1, 6)),
        ((1 - N) * M / (2 - 2 * N * M), M * (N - 1) / (2 * (N * M - 1))),
        (24 * N * F4 / (8 * F4 ** 2 + 8 * F4), 3 * N / (F4 + 1)),
    ]
    for e, value in cases:
        got = factor_cancel(e)
        assert sympy.srepr(got) == sympy.srepr(_sympy(e))
        assert sympy.simplify(got - value) == 0


def test_factor_cancel_falls_back_outside_the_ring():
    """1/(1/N + 1): fraction() leaves 1/N in the denominator (not a polynomial): sympy's own
    path, N/(N + 1).  A float coefficient, a constant and zero go to sympy too."""
    assert factor_cancel(1 / (1 / N + 1)) == N / (N + 1)
    for e in (sympy.Float(0.5) * N / (N + 1), sympy.Rational(3, 4), sympy.Integer(0) / (N + 1)):
        assert sympy.srepr(factor_cancel(e)) == sympy.srepr(_sympy(e))


def test_factor_ratio_hand_derived():
    """W/Q given as two sums, never divided: gemm_accum's 2N**2M/(8N**2 + 16NM) is NM/(4(N + 2M))
    (2N**2M = 2N * NM and 8N**2 + 16NM = 8N(N + 2M): the N cancels, a generator 2N/(8N) would
    lose to Mul's own cancellation); N/2 over 3N/4 + 3/4 is 2N/(3(N + 1)) (rational coefficients:
    the constant 4/(2*3) = 2/3); an axpy's 2X over 12X is 1/6; 0 over N + 1 is 0 and 3 over 4 is
    3/4 (no generator: factor_cancel's own path).  Each is factor_cancel(a / b)'s very expression."""
    big = N * F4 - 4 * F4 ** 2 + N
    cases = [
        (2 * N ** 2 * M, 8 * N ** 2 + 16 * N * M, N * M / (4 * (N + 2 * M))),
        (N / 2, 3 * N / 4 + sympy.Rational(3, 4), 2 * N / (3 * (N + 1))),
        (2 * big, 12 * big, sympy.Rational(1, 6)),
        (2 * N, 8 * N, sympy.Rational(1, 4)),
        (sympy.Integer(0), N + 1, sympy.Integer(0)),
        (sympy.Integer(3), sympy.Integer(4), sympy.Rational(3, 4)),
        (sympy.Float(0.5) * N, N + 1, None),
    ]
    for a, b, value in cases:
        got = factor_ratio(a, b)
        assert sympy.srepr(got) == sympy.srepr(factor_cancel(a / b)) == sympy.srepr(_sympy(a / b))
        if value is not None:
            assert sympy.simplify(got - value) == 0


def test_equal_ratios_hand_derived():
    """1/6 = 2X/(12X) (1*12X = 6*2X); (2X + 1)/(12X) is not (12X != 12X + 6);
    (F4**2 - 1)/(F4 + 1) = F4 - 1; against F4 + 1 it is not (F4**2 - 1 != F4**2 + 2F4 + 1).
    floor((N + 1)(N + 2)/4) is floor(N**2/4 + 3N/4 + 1/2) once its argument is expanded.
    None: no denominator, or 1/N inside a sum, or a float coefficient."""
    big = N * F4 - 4 * F4 ** 2 + N
    assert equal_ratios(sympy.Rational(1, 6), 2 * big / (12 * big)) is True
    assert equal_ratios(sympy.Rational(1, 6), (2 * big + 1) / (12 * big)) is False
    assert equal_ratios((F4 ** 2 - 1) / (F4 + 1), F4 - 1) is True
    assert equal_ratios((F4 ** 2 - 1) / (F4 + 1), F4 + 1) is False
    g = sympy.floor(N ** 2 / 4 + 3 * N / 4 + sympy.Rational(1, 2))
    assert equal_ratios(N * sympy.floor((N + 1) * (N + 2) / 4) / (N + 1), N * g / (N + 1)) is True
    assert equal_ratios(2 * big, big + big) is None
    assert equal_ratios(1 / (1 / N + 1), N / (N + 1)) is None
    assert equal_ratios(sympy.Float(0.5) * N / (N + 1), N / (2 * N + 2)) is None


_atoms = st.sampled_from([N, M, F4, F128, sympy.Integer(1)])
_coeffs = st.sampled_from([sympy.Integer(k) for k in (-3, -1, 1, 2, 5)] + [sympy.Rational(1, 3), sympy.Rational(-7, 4)])


@st.composite
def _polys(draw):
    """A sum of 1-3 terms, each a coefficient times 1-3 atoms, sometimes squared."""
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        t = draw(_coeffs)
        for _ in range(draw(st.integers(1, 3))):
            t *= draw(_atoms) ** draw(st.integers(1, 2))
        terms.append(t)
    return sympy.Add(*terms)


@quick(deadline_s=10, max_examples=20)
@given(_polys(), _polys(), _polys())
def test_factor_cancel_is_sympys(p, q, common):
    """Random ratios p*c/(q*c) (a shared factor c to cancel) give sympy's very expression."""
    if q == 0 or common == 0:
        return
    e = p * common / (q * common)
    assert sympy.srepr(factor_cancel(e)) == sympy.srepr(_sympy(e))


@quick(deadline_s=10, max_examples=20)
@given(_polys(), _polys(), _polys())
def test_factor_ratio_is_factor_cancels(p, q, common):
    """Random p*c over q*c, never divided, give factor_cancel's (and so sympy's) very expression."""
    if q == 0 or common == 0 or sympy.expand(q * common) == 0:
        return
    a, b = p * common, q * common
    assert sympy.srepr(factor_ratio(a, b)) == sympy.srepr(factor_cancel(a / b)) == sympy.srepr(_sympy(a / b))


@quick(deadline_s=10, max_examples=20)
@given(_polys(), _polys(), _polys(), st.booleans())
def test_equal_ratios_is_togethers(p, q, common, same):
    """p/q against (p*c)/(q*c) (equal) or (p*c + 1)/(q*c) (equal only if q*c = 0... never: q, c
    non-zero): the answer is sympy.together's."""
    if q == 0 or common == 0 or sympy.expand(q * common) == 0:
        return
    a, b = p / q, (p * common + (0 if same else 1)) / (q * common)
    got = equal_ratios(a, b)
    num, _ = sympy.fraction(sympy.together(sympy.expand(a - b)))
    assert got is None or got == (sympy.expand(num) == 0)


def _same_factors(f):
    """factor_list(f) and sympy's f.factor_list(): the same coefficient and factors (any order)."""
    mine, theirs = factor_list(f), f.factor_list()
    return mine[0] == theirs[0] and sorted(mine[1], key=str) == sorted(theirs[1], key=str)


def test_factor_list_hand_derived():
    """Read off without factoring:
    8*na*nb*nc + 8*na*nb*nd + 8*nc*nd = 8 * (na*nb*nc + na*nb*nd + nc*nd): linear in na, a = nb*nc
    + nb*nd = nb*(nc + nd) and b = nc*nd share no factor (nb, nc + nd against nc, nd): irreducible.
    -6*x**2*y - 6*x**3 = -6 * x**2 * (x + y): a monomial x**2, then x + y (total degree 1).
    -y + 1 = -1 * (y - 1): the leading coefficient (of y) made positive, the sign in c.
    x*y/2 + x/3 (over QQ) = 1/6 * x * (3y + 2): the integer primitive factor.
    -6*x**2*y, a single term: -6 (not factored) and x**2, y; u/2 over QQ: 1/2 and u.
    Left to sympy: x*y + x + y + 1 = (x + 1)(y + 1) (a = y + 1 and b = y + 1 share y + 1), and
    x**2 - y**2 (degree 2 in both): each gives sympy's factors."""
    _, na, nb, nc, nd = ring("na,nb,nc,nd", ZZ)
    q = 8 * na * nb * nc + 8 * na * nb * nd + 8 * nc * nd
    assert factor_list(q) == (8, [(na * nb * nc + na * nb * nd + nc * nd, 1)])
    S, x, y = ring("x,y", ZZ)
    assert factor_list(-6 * x ** 2 * y - 6 * x ** 3) == (-6, [(x, 2), (x + y, 1)])
    assert factor_list(-y + 1) == (-1, [(y - 1, 1)])
    _, u, v = ring("u,v", QQ)
    assert factor_list(u * v / 2 + u / 3) == (QQ(1, 6), [(u, 1), (3 * v + 2, 1)])
    assert factor_list(-6 * x ** 2 * y) == (-6, [(x, 2), (y, 1)]) and factor_list(u / 2) == (QQ(1, 2), [(u, 1)])
    assert _same_factors(-6 * x ** 2 * y) and _same_factors(u / 2) and _same_factors(S(-4))
    for f in (x * y + x + y + 1, x ** 2 - y ** 2, -6 * x ** 2 * y - 6 * x ** 3, -y + 1, S(5), x ** 3):
        assert _same_factors(f)
    assert _same_factors(q) and _same_factors(u * v / 2 + u / 3)


@quick(deadline_s=10, max_examples=60)
@given(st.lists(st.lists(st.tuples(st.integers(-5, 5), st.integers(0, 2), st.integers(0, 2), st.integers(0, 1)),
                         min_size=1, max_size=4), min_size=1, max_size=3),
       st.sampled_from([1, -1, 6]), st.booleans())
def test_factor_list_is_sympys(factors, scale, rational):
    """Products of 1-3 random polynomials in x, y, z (powers up to 2, 2, 1: many linear in some
    generator, some with a shared factor), times a constant, over ZZ or QQ: sympy's factors."""
    R, x, y, z = ring("x,y,z", QQ if rational else ZZ)
    f = R(scale)
    for terms in factors:
        f *= sum((R(c) / (2 if rational else 1) * x ** i * y ** j * z ** k for c, i, j, k in terms), R.zero)
    if f:
        assert _same_factors(f)


def _sring(parts):
    ring_, polys = sring(parts)
    return ring_.symbols, ring_.domain, polys


def test_multiplied_out_hand_derived():
    """_multiplied_out is sring: (N + 1)**2*M/3 and N**2 - (N - 1)*(N + 1) = 1 give generators
    (M, N) in sring's order and QQ (the 1/3); N*F4 - 4*F4**2 + N over 12 times itself, ZZ with
    generators N and F4; floor((N + 1)*(N + 2)/4) is a generator once its argument is expanded
    (floor(N**2/4 + 3N/4 + 1/2)); N - N + M leaves N out (its terms cancel, sring never sees it);
    1/N is no polynomial (None: sring decides), nor is a float coefficient."""
    big = N * F4 - 4 * F4 ** 2 + N
    cases = [[(N + 1) ** 2 * M / 3, N ** 2 - (N - 1) * (N + 1)], [big, 12 * big],
             [sympy.floor((N + 1) * (N + 2) / 4) * N, N + 1], [N - N + M, 2 * M]]
    for parts in cases:
        ring_, polys = _multiplied_out(parts)
        assert (ring_.symbols, ring_.domain, polys) == _sring(parts)
    assert _multiplied_out(cases[0])[0].domain == QQ and _multiplied_out(cases[1])[0].domain == ZZ
    assert _multiplied_out([N - N + M, 2 * M])[0].symbols == (M,)
    assert _multiplied_out([1 / N + 1, N]) is None and _multiplied_out([sympy.Float(0.5) * N, N]) is None
    found = _multiplied_out([2 * N, 4])  # a Python int, read as sring reads it
    assert (found[0].symbols, found[0].domain, found[1]) == _sring([2 * N, 4])


@quick(deadline_s=10, max_examples=30)
@given(_polys(), _polys(), _polys())
def test_multiplied_out_is_srings(p, q, c):
    """Unexpanded products (p*c, a power of q, p + q*c) of random polynomials in sizes and floors:
    the same generators, domain and polynomials as sring."""
    parts = [p * c, (q + 1) ** 2, p + q * c]
    found = _multiplied_out(parts)
    if found is not None:
        assert (found[0].symbols, found[0].domain, found[1]) == _sring(parts)
