"""isl's quasi-polynomial text to sympy (analysis/isltext.qp_sympy): the fast reader must build the
very expression sympy's own parser builds (same tree, same printing), since every formula shown
comes from it, and fall back to sympy's parser for text it does not know."""

from __future__ import annotations

import re

import islpy as isl
import pytest
import sympy

from staticroof.analysis import isltext as P


def _sympify(text: str, names: tuple) -> sympy.Expr:
    """What qp_sympy did before it had a reader of its own: sympy's parser on the rewritten text."""
    body = text[text.index("{") + 1: text.rindex("}")].strip()
    if not body:
        return sympy.Integer(0)
    body = re.sub(r"(?<!\w)(\d+)\s*([A-Za-z_(])", r"\1*\2", body.replace("^", "**"))
    return sympy.sympify(body, locals={**{n: sympy.Symbol(n) for n in names}, "floor": sympy.floor})


def _counted(set_text: str) -> str:
    return str(isl.Set(set_text).card().get_pieces()[0][1])


TEXTS = [
    # as isl prints counts: coefficients, powers, nested sums, floors with an offset
    "[p_n] -> { (-6 + 3 * p_n) }",
    "[p_N] -> { 4096 * floor((p_N)/32)^3 }",
    "[p_n] -> { 8 * floor((2 + p_n)/3) }",
    "[p_m, p_n] -> { (8 * p_m + (8 + 8 * p_m) * p_n) }",
    "[pp_bx_gx, p_nx, p_ny] -> { ((16 - 8 * p_nx) + (-8 + 4 * p_nx) * p_ny) }",
    "[p_n] -> { ((1/2 * p_n) + 1/2 * p_n^2) }",
    "[p_LEN_1D] -> { 3p_LEN_1D + floor((2p_LEN_1D)/5) }",  # `3p` is 3*p, `_1D` is part of a name
    # Python's precedence, which sympify follows: -a^2 is -(a^2), powers are right-associative
    "[p_n] -> { -p_n^2 }",
    "[p_n] -> { p_n^2^2 }",
    "[p_n, p_m] -> { 2^-1 * p_n - -3 * p_m }",
    "[p_n] -> { p_n * (3 - p_n) / 7 }",
    "[p_n] -> {  }",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_reader_builds_what_sympify_builds(text, monkeypatch):
    names = tuple(re.findall(r"\w+", text[1:text.index("]")]))

    def no_fallback(*args, **kwargs):
        raise AssertionError("the reader gave up on text it should read")

    P.qp_sympy.cache_clear()
    monkeypatch.setattr(P.sympy, "sympify", no_fallback)
    got = P.qp_sympy(text, names)
    monkeypatch.undo()
    want = _sympify(text, names)
    assert sympy.srepr(got) == sympy.srepr(want) and str(got) == str(want)


def test_counts_isl_prints_are_read_exactly():
    """Every third i of 0 <= i < n: ceil(n/3) = floor((n + 2)/3) elements (n = 7: i = 0, 3, 6)."""
    text = _counted("[p_n] -> { [i] : 0 <= i < p_n and i mod 3 = 0 }")
    P.qp_sympy.cache_clear()
    e = P.qp_sympy(text, ("p_n",))
    assert e.xreplace({sympy.Symbol("p_n"): 7}) == 3 and e.xreplace({sympy.Symbol("p_n"): 9}) == 3
    # a triangle: n(n+1)/2 pairs j <= i < n (n = 4: 10)
    text = _counted("[p_n] -> { [i, j] : 0 <= j <= i < p_n }")
    assert sympy.srepr(P.qp_sympy(text, ("p_n",))) == sympy.srepr(_sympify(text, ("p_n",)))
    assert P.qp_sympy(text, ("p_n",)).xreplace({sympy.Symbol("p_n"): 4}) == 10


def test_text_the_reader_does_not_know_goes_to_sympy():
    """A name isl never writes for these counts (not a parameter): sympy's parser, as before."""
    P.qp_sympy.cache_clear()
    e = P.qp_sympy("[p_n] -> { p_n + p_other }", ("p_n",))
    assert e == sympy.Symbol("p_n") + sympy.Symbol("p_other")
