"""Between sympy and isl's text: the names sizes and loop variables take in isl (Namer), and isl's
quasi-polynomial text read back as sympy (qp_sympy).

Its own module because both directions are needed by polyhedra (which writes and counts isl sets),
conditions and pieces (which read counts and their domains back as formulas), and polyhedra in
turn hands its counts to pieces and points: the naming and the reading are what they share.
"""

from __future__ import annotations

import re
from functools import lru_cache

import sympy

from .. import floors


class Namer:
    """Maps sympy symbols to isl names: sizes become `p_NAME` parameters, loop variables `cK` dims.

    A product of sizes (``N*M``) is not affine, so it becomes a parameter of its own; because the
    counts are polynomials in their parameters, substituting the product back is exact.
    """

    def __init__(self):
        self.params: dict[str, sympy.Expr] = {}  # isl name -> sympy expression (a symbol or a product)
        self.dims: dict[sympy.Symbol, str] = {}  # loop variable -> isl dim name (innermost binding)

    def param(self, expr: sympy.Expr) -> str:
        if isinstance(expr, sympy.Symbol):
            name = "p_" + re.sub(r"\W", "_", expr.name)
        else:
            name = "pp_" + re.sub(r"\W", "_", str(expr))  # N*M -> pp_M_N, N**2 -> pp_N__2
        self.params.setdefault(name, expr)
        return name

    def to_sympy(self, name: str) -> sympy.Expr:
        return self.params[name]

    def header(self) -> str:
        return "[" + ", ".join(self.params) + "]"


@lru_cache(maxsize=8192)
def qp_sympy(text: str, names: tuple) -> sympy.Expr:
    """isl's text of a quasi-polynomial (`[p_n] -> { (3 * p_n + floor((p_n)/4)) }`) as sympy, in
    symbols named after the isl parameters."""
    body = text[text.index("{") + 1: text.rindex("}")].strip()
    if not body:
        return sympy.Integer(0)
    body = body.replace("^", "**")
    # isl writes `3p_n` inside floors; a digit inside a name (`p_LEN_1D`) is not a coefficient
    body = re.sub(r"(?<!\w)(\d+)\s*([A-Za-z_(])", r"\1*\2", body)
    loc = {n: sympy.Symbol(n) for n in names}
    try:
        return _Reader(body, loc).expression()
    except _Unread:  # text the reader does not know: sympy's own parser
        loc["floor"] = sympy.floor
        return sympy.sympify(body, locals=loc)


class _Unread(Exception):
    pass


_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(\*\*|[-+*/(),]))")


class _Reader:
    """isl's quasi-polynomial text, read as `sympify` reads it (Python's grammar, integers as
    sympy Integers) and built with the same operations in the same order, so that the
    expression is the very one `sympify` makes; a few hundred times faster than sympy's parser,
    which tokenizes Python source."""

    def __init__(self, text: str, names: dict):
        self.tokens: list = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise _Unread(text)
            number, name, op = m.groups()
            self.tokens.append(("n", sympy.Integer(int(number))) if number else
                               ("s", name) if name else ("o", op))
            pos = m.end()
        self.names = names
        self.k = 0

    def _peek(self):
        return self.tokens[self.k] if self.k < len(self.tokens) else ("end", None)

    def _take(self, op: str) -> bool:
        if self._peek() == ("o", op):
            self.k += 1
            return True
        return False

    def expression(self):
        e = self._sum()
        if self.k != len(self.tokens):
            raise _Unread("trailing text")
        return e

    def _sum(self):  # arith: term (('+' | '-') term)*
        e = self._term()
        while True:
            if self._take("+"):
                e = e + self._term()
            elif self._take("-"):
                e = e - self._term()
            else:
                return e

    def _term(self):  # term: factor (('*' | '/') factor)*
        e = self._factor()
        while True:
            if self._take("*"):
                e = e * self._factor()
            elif self._take("/"):
                e = e / self._factor()
            else:
                return e

    def _factor(self):  # factor: ('+' | '-') factor | power
        if self._take("-"):
            return -self._factor()
        if self._take("+"):
            return +self._factor()
        return self._power()

    def _power(self):  # power: atom ['**' factor]
        e = self._atom()
        if self._take("**"):
            return e ** self._factor()
        return e

    def _atom(self):
        kind, value = self._peek()
        self.k += 1
        if kind == "n":
            return value
        if kind == "o" and value == "(":
            e = self._sum()
            if not self._take(")"):
                raise _Unread("unbalanced")
            return e
        if kind == "s" and value == "floor" and self._take("("):
            e = self._sum()
            if not self._take(")"):
                raise _Unread("unbalanced")
            return floors.floor(e)  # sympy.floor(e), without its assumption queries
        if kind == "s" and value in self.names:
            return self.names[value]
        raise _Unread(f"unexpected {value}")
