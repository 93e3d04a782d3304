"""staticroof.reports.spelling: the reports' text of a formula or condition is str()'s (issue #15,
speed: floors and ceilings spelled once, each object printed once)."""

from __future__ import annotations

import sympy

from staticroof.reports import spelling


def test_spelling_is_strs_hand_derived():
    """-1024*N*ceiling(C/128)**2 + 64*N*ceiling(C/128)*ceiling(C/4) (an access count of a row
    reduction: the ceilings recur, remembered after the first); a condition with a floor, a Mod;
    the same formula built twice (equal objects, one spelling); a Float inside a floor at two
    depths, which StrPrinter spells by its depth (never remembered: str's text at each depth,
    floor(x + 0.5) alone and inside a product); a plain int."""
    C, N, x = sympy.symbols("C N x")
    q = -1024 * N * sympy.ceiling(C / 128) ** 2 + 64 * N * sympy.ceiling(C / 128) * sympy.ceiling(C / 4)
    cond = sympy.And(sympy.floor(C / 4) >= 3, sympy.Eq(sympy.Mod(C, 32), 0), N <= 79)
    f = sympy.floor(x + sympy.Float(0.5))
    for e in (q, cond, -1024 * N * sympy.ceiling(C / 128) ** 2 + 64 * N * sympy.ceiling(C / 128) * sympy.ceiling(C / 4),
              f, 3 * f * N, sympy.Integer(0), sympy.true, 7):
        assert spelling.text(e) == str(e)
    assert spelling.text(q) == "-1024*N*ceiling(C/128)**2 + 64*N*ceiling(C/128)*ceiling(C/4)"
    assert sympy.ceiling(C / 128) in spelling._printer()._rounded
    assert f not in spelling._printer()._rounded
