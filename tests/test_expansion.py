"""expansion.expand: sympy.expand skipped where the expression is already a sum of monomials.

The claim is that a `plain` expression is its own expansion (sympy.expand(e) == e), so skipping
sympy.expand changes nothing.  Checked by hand on the shapes a count's formulas take, and on random
sums of monomials in sizes and floors (derandomized hypothesis) against sympy.expand itself: a
plain expression whose expansion differs would fail here.
"""

import sympy
from hypothesis import given, strategies as st

from staticroof.analysis.expansion import expand, plain

from helpers import quick

n, m, k = sympy.symbols("n m k")


def test_plain_shapes_by_hand():
    # a tiled GEMM's formula after expansion: rational coefficients, powers of sizes and floors
    e = 4 * m * n * sympy.floor(m / 32) * sympy.floor(n / 32 + sympy.Rational(31, 32)) \
        - 64 * m * sympy.floor(n / 32) ** 2 + sympy.Rational(1, 2) * k ** 3 - 7
    assert plain(e) and sympy.expand(e) == e and expand(e) is e
    assert plain(sympy.Integer(0)) and plain(n) and plain(sympy.floor(m * n / 32))
    # not plain: a sum inside a product (n**2 + n once expanded), a power of a sum, a negative
    # power (1/n), a floor of a product with a sum in it, another function, a float
    for e, expanded in [(n * (n + 1), n ** 2 + n), ((n + 1) ** 2, n ** 2 + 2 * n + 1),
                        (sympy.floor(n * (m + 1) / 2), sympy.floor(m * n / 2 + n / 2))]:
        assert not plain(e) and expand(e) == expanded == sympy.expand(e)
    for e in [1 / n + m, sympy.Max(n, m) * n, 0.5 * n, n ** k, sympy.sqrt(2) * n]:
        assert not plain(e) and expand(e) == sympy.expand(e)


_atoms = st.sampled_from([n, m, k, sympy.floor(n / 32), sympy.floor(n / 32 + sympy.Rational(31, 32)),
                          sympy.floor(m * n / 7 + sympy.Rational(3, 7)), sympy.floor(k / 2 + m / 3)])
_monomial = st.builds(lambda c, fs: sympy.Mul(c, *[a ** p for a, p in fs]),
                      st.fractions(min_value=-50, max_value=50, max_denominator=64).map(sympy.Rational),
                      st.lists(st.tuples(_atoms, st.integers(1, 3)), max_size=4))


@quick(deadline_s=10, max_examples=50)
@given(st.lists(_monomial, max_size=6))
def test_plain_sums_are_their_own_expansion(terms):
    e = sympy.Add(*terms)
    assert plain(e)  # sums of such monomials are plain however sympy combines them
    assert sympy.expand(e) == e


_leaf = st.one_of(_atoms, st.integers(-9, 9).map(sympy.Integer),
                  st.fractions(min_value=-5, max_value=5, max_denominator=8).map(sympy.Rational))
_tree = st.recursive(_leaf, lambda sub: st.one_of(
    st.lists(sub, min_size=2, max_size=3).map(lambda a: sympy.Add(*a)),
    st.lists(sub, min_size=2, max_size=3).map(lambda a: sympy.Mul(*a)),
    st.tuples(sub, st.integers(0, 3)).map(lambda a: sympy.Pow(*a))), max_leaves=10)


def test_multiplied_by_hand():
    """isl's shape, (64*k + 4*k*m)*floor(k/32 + 31/32) - 64*k*floor(k/32 + 31/32)**2 ... times a
    floor: multiplied out by hand, 64*k*f*g + 4*k*m*f*g - 64*k*f**2*g (f, g the two floors)."""
    from staticroof.analysis.expansion import multiplied

    f, g = sympy.floor(k / 32 + sympy.Rational(31, 32)), sympy.floor(m / 32)
    e = ((64 * k + 4 * k * m) * f - 64 * k * f ** 2) * g
    assert multiplied(e) == 64 * k * f * g + 4 * k * m * f * g - 64 * k * f ** 2 * g == sympy.expand(e)
    assert multiplied(sympy.floor(n * (m + 1) / 2) * n) is None  # the floor's argument expands too
    assert multiplied(n / (n + 1)) is None and multiplied(sympy.Integer(3)) is None


@quick(deadline_s=10, max_examples=50)
@given(_tree)
def test_expand_is_sympys(e):
    """expansion.expand gives sympy.expand's very tree (srepr: the structure, argument order
    included) on random nested sums, products and powers of sizes, floors and rationals."""
    assert sympy.srepr(expand(e)) == sympy.srepr(sympy.expand(e))
