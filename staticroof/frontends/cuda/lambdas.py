"""Lambdas inside kernels, inlined at their calls on tokens (C has no closures).

`auto f = [&](float a) { return a * s; };` becomes declarations of one local per value parameter
(`float __sr_f1_a;`), and each call `f(x[i])` the comma expression `(__sr_f1_a = (x[i]), (__sr_f1_a *
s))`: the argument is evaluated once, as in C++, the captures are the enclosing function's own
variables (by reference or by value: the same reads), and the work is the body's.  A reference
parameter (`float &v`) or an `auto` one stands for its argument itself (substituted), so a write
through it reaches the argument.  A body of several statements is inlined where the call is a
statement of its own (`f(k);` -> `{ __sr_f1_k = (k); BODY }`) and has no `return`.  Any other call
(a lambda returning from a statement body, a lambda passed to a function) is left as the call of
an unknown function (SR105).
"""

from __future__ import annotations

from ..common.tokens import Token, match_close, retext, split_commas


class _Lambda:
    def __init__(self, name: str, params: list, body: list[Token], tag: str):
        self.name = name
        self.params = params  # (name, type tokens, substitute?)
        self.body = body
        self.tag = tag
        stmts = [t for t in body if t.text == ";"]
        self.expr = body[1:-1] if body and body[0].text == "return" and len(stmts) == 1 and body[-1].text == ";" \
            else None
        self.returns = any(t.text == "return" for t in body)

    def temp(self, p: str) -> str:
        return f"__sr_{self.tag}_{p}"


def _parse(tokens: list[Token], i: int, count: int) -> tuple | None:
    """`auto NAME = [..](..) -> R mutable { .. };` at i: (_Lambda, index after the `;`), or None."""
    n = len(tokens)
    j = i + 1 if tokens[i].text == "auto" else i + 2
    if j + 2 >= n or tokens[j].kind != "id" or tokens[j + 1].text != "=" or tokens[j + 2].text != "[":
        return None
    name = tokens[j].text
    k = match_close(tokens, j + 2) + 1
    params: list = []
    if k < n and tokens[k].text == "(":
        end = match_close(tokens, k)
        for part in split_commas(tokens[k + 1:end], angles=True):
            ids = [t for t in part if t.kind == "id"]
            if not ids or [t.text for t in part] == ["void"]:
                continue
            ty = [t for t in part[:part.index(ids[-1])] if t.text not in ("&", "&&", "const")]
            by_ref = any(t.text in ("&", "&&") for t in part)
            params.append((ids[-1].text, ty, by_ref or any(t.text == "auto" for t in ty)))
        k = end + 1
    while k < n and tokens[k].text != "{":  # -> R, mutable, noexcept, __device__
        if tokens[k].text in (";", "="):
            return None
        k += 1
    if k >= n:
        return None
    close = match_close(tokens, k)
    if close + 1 >= n or tokens[close + 1].text != ";":
        return None
    return _Lambda(name, params, tokens[k + 1:close], f"{name}{count}"), close + 2


def _substitute(body: list[Token], mapping: dict) -> list[Token]:
    out = []
    for k, t in enumerate(body):
        prev = body[k - 1].text if k else ""
        if t.kind == "id" and t.text in mapping and prev not in (".", "->"):
            out += [Token(x.kind, x.text, t.file, t.line, t.col) if x.kind == "punct" else x for x in mapping[t.text]]
        else:
            out.append(t)
    return out


def _call(lam: _Lambda, args: list[list[Token]], at: Token, statement: bool) -> list[Token] | None:
    if len(args) != len(lam.params):
        return None
    mapping, assigns = {}, []
    for (p, _ty, subst), a in zip(lam.params, args, strict=True):
        if subst:
            mapping[p] = retext(at, "(") + a + retext(at, ")")
        else:
            mapping[p] = retext(at, lam.temp(p))
            assigns.append(retext(at, f"{lam.temp(p)} = (") + a + retext(at, ")"))
    if lam.expr is not None:
        parts: list[Token] = retext(at, "(")
        for a in assigns:
            parts += a + retext(at, ",")
        return parts + retext(at, "(") + _substitute(lam.expr, mapping) + retext(at, "))")
    if statement and not lam.returns:
        parts = retext(at, "{")
        for a in assigns:
            parts += a + retext(at, ";")
        return parts + _substitute(lam.body, mapping) + retext(at, "}")
    return None


def inline_lambdas(tokens: list[Token]) -> list[Token]:
    if not any(t.text == "[" for t in tokens):
        return tokens
    out: list[Token] = []
    lambdas: dict = {}
    i, n, count = 0, len(tokens), 0
    while i < n:
        t = tokens[i]
        start = not out or out[-1].text in (";", "{", "}")
        if start and t.text in ("auto", "const") and i + 3 < n:
            parsed = _parse(tokens, i, count + 1)  # `auto NAME` or `const auto NAME`
            if parsed is not None:
                count += 1
                lam, i = parsed
                lam.body = inline_lambdas(lam.body)  # a lambda calling an earlier one
                for p, ty, subst in lam.params:
                    if not subst:
                        out += ty + retext(t, f"{lam.temp(p)};")
                lambdas[lam.name] = lam
                continue
        if t.kind == "id" and t.text in lambdas and i + 1 < n and tokens[i + 1].text == "(" \
                and not (out and out[-1].text in (".", "->")):
            end = match_close(tokens, i + 1)
            args = [inline_lambdas(a) for a in split_commas(tokens[i + 2:end])]
            statement = start and end + 1 < n and tokens[end + 1].text == ";"
            body = _call(lambdas[t.text], args, t, statement)
            if body is not None:
                out += body
                i = end + 2 if statement and lambdas[t.text].expr is None else end + 1
                continue
        out.append(t)
        i += 1
    return out
