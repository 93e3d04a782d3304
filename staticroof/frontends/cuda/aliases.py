"""Alias templates, `template <typename T> using Ptr = T *;`, substituted on tokens where they are
used (`Ptr<const float> x` -> `const float * x`; called from cuda.to_c).  A plain alias
(`using real = float;`) is a typedef (cuda.py), one of a class type the class model's
(classdefs.py).  The aliases of one file are read by :func:`begin`."""

from __future__ import annotations

from ..common.tokens import Token, match_angle, split_commas
from .headers import template_params

_ALIASES: dict = {}  # name -> (parameter names, body tokens)


def begin(items) -> None:
    _ALIASES.clear()
    for it in items:
        toks = it.tokens
        k = len(it.template) + 3  # after `template <typename T>`
        toks = toks[k:] if it.template and len(toks) > k and toks[k].text == "using" else []
        if not it.is_function and len(toks) > 3 and toks[2].text == "=":
            _ALIASES[toks[1].text] = ([p.name for p in template_params(it.template)], toks[3:-1])


def rewrite(tokens: list[Token], i: int):
    """At tokens[i]: an alias template's use `Name<args>` as its body with the arguments in place of
    its parameters (tokens, index after), or None."""
    t = tokens[i]
    if t.text not in _ALIASES or i + 1 >= len(tokens) or tokens[i + 1].text != "<":
        return None
    close = match_angle(tokens, i + 1)
    if close < 0:
        return None
    names, body = _ALIASES[t.text]
    args = dict(zip(names, split_commas(tokens[i + 2:close], angles=True), strict=False))
    out: list[Token] = []
    for b in body:
        out += args.get(b.text, [b]) if b.kind == "id" else [b]
    return [Token(b.kind, b.text, t.file, t.line, t.col) for b in out], close + 1
