"""C++ local references, `float &r = y[i]; r += a * x[i];`: another name for what they are bound to.

C has no references, so on tokens (:func:`rewrite`, from statements.prepare):

- a reference to a variable or a member (`double &s = sum;`, `auto &u = this->u_;`) is that name
  itself: the declaration goes and each later use in its block reads `(sum)`;
- any other (`float &r = y[i];`, `auto &row = a[i];`) becomes `auto r = __sr_ref(y[i]);`, and
  the lowering (:func:`declare`) evaluates the expression once, where it is declared, as C++
  binds a reference: an array element is then what `r` names (its reads and stores are the
  element's), a row or pointer is a pointer variable.  Anything else (a function's result) is
  unsupported.

A reference the rewrite cannot follow (several in one declaration, a name declared again inside
its block) is left as it is: the function's syntax error says so.
"""

from __future__ import annotations

from pycparser import c_ast

from ..c.values import Val, Var
from ..common.lowering import Unsupported
from ..common.tokens import Token, match_angle

MARK = "__sr_ref"
_STARTS = (";", "{", "}")
_NOT_TYPES = {"return", "if", "else", "while", "for", "do", "case", "goto", "sizeof", "delete", "throw", "switch",
              "break", "continue", "default", "new", "co_return", "co_yield", "typedef", "using"}


def _t(like: Token, text: str, kind: str = "punct") -> Token:
    return Token(kind, text, like.file, like.line, like.col)


def rewrite(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        if not out or out[-1].text in _STARTS:
            found = _declaration(tokens, i)
            if found is not None:
                amp, end = found
                name = tokens[amp + 1]
                expr = tokens[amp + 3:end]
                block = _block_end(tokens, end + 1)
                if _is_path(expr):
                    rest = _substituted(tokens[end + 1:block], name.text, expr)
                    if rest is not None:
                        out += rewrite(rest)
                        i = block
                        continue
                elif not any(t.text == "," for t in _top_level(expr)):
                    out += [_t(tokens[i], "auto", "id"), name, _t(name, "="), _t(name, MARK, "id"), _t(name, "("),
                            *expr, _t(name, ")"), tokens[end]]
                    i = end + 1
                    continue
        out.append(tokens[i])
        i += 1
    return out


def _declaration(tokens: list[Token], i: int):
    """At a statement's start: (index of the `&`, index of the `;`) of `TYPE &NAME = EXPR;`, or None."""
    n = len(tokens)
    j = i
    while j < n and (tokens[j].kind == "id" or tokens[j].text in ("::", "*")):
        if tokens[j].kind == "id" and tokens[j].text in _NOT_TYPES:
            return None
        if j + 1 < n and tokens[j + 1].text == "<" and tokens[j].kind == "id":
            close = match_angle(tokens, j + 1)
            if close < 0:
                return None
            j = close
        j += 1
    if j == i or j + 3 >= n or tokens[j].text != "&" or tokens[j + 1].kind != "id" or tokens[j + 2].text != "=":
        return None
    depth = 0
    for k in range(j + 3, n):
        x = tokens[k].text
        depth += x in ("(", "[", "{")
        depth -= x in (")", "]", "}")
        if depth < 0:
            return None
        if depth == 0 and x == ";":
            return (j, k) if k > j + 3 else None
    return None


def _top_level(expr: list[Token]) -> list[Token]:
    out, depth = [], 0
    for t in expr:
        depth += t.text in ("(", "[", "{")
        depth -= t.text in (")", "]", "}")
        if depth == 0:
            out.append(t)
    return out


def _is_path(expr: list[Token]) -> bool:
    """`name`, `s.a`, `p->a`, `this->a`: a variable or member, no call and no subscript."""
    if len(expr) % 2 == 0 or expr[0].kind != "id":
        return False
    return all((k % 2 == 1 and t.text in (".", "->")) or (k % 2 == 0 and t.kind == "id") for k, t in enumerate(expr))


def _block_end(tokens: list[Token], i: int) -> int:
    """The index of the `}` closing the block that `tokens[i]` is in (len(tokens) at the top)."""
    depth = 0
    for k in range(i, len(tokens)):
        x = tokens[k].text
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return k
    return len(tokens)


def _substituted(rest: list[Token], name: str, expr: list[Token]) -> list[Token] | None:
    """`rest` with each use of `name` as `(expr)`; None where `name` may be declared again."""
    out: list[Token] = []
    for k, t in enumerate(rest):
        if t.kind != "id" or t.text != name or (k > 0 and rest[k - 1].text in (".", "->", "::")):
            out.append(t)
            continue
        if k > 0 and (rest[k - 1].kind == "id" or rest[k - 1].text in ("*", "&", ">")) and \
                rest[k - 1].text not in ("return", "case", "sizeof"):
            return None  # `float r`, `T *r`: a declaration of another `r`
        out += [_t(t, "(")] + [_t(t, x.text, x.kind) for x in expr] + [_t(t, ")")]
    return out


def declare(low, d: c_ast.Decl) -> bool:
    """`auto r = __sr_ref(e);` (see the module docstring): r bound to what e is; False for any
    other declaration."""
    init = d.init
    if not (isinstance(init, c_ast.FuncCall) and isinstance(init.name, c_ast.ID) and init.name.name == MARK
            and init.args is not None and len(init.args.exprs) == 1):
        return False
    v = low.expr(init.args.exprs[0], low.acc)
    if v.element is not None:
        var = Var(v.ctype)
        low.bind(d.name, var)
        if not hasattr(low, "references"):
            low.references = {}
        low.references[d.name] = (var, v)
        return True
    if v.array is not None:  # a row, or a pointer variable
        low.bind(d.name, Var(v.ctype, array=v.array, prefix=v.prefix, offset=v.offset, why=v.why))
        return True
    raise Unsupported(f"the reference `{d.name}` is bound to something that is not a variable or an array element",
                      d)


def element(low, node: c_ast.ID) -> Val | None:
    """The array element a reference names, where `node` is one (the reference in scope, not a
    variable of the same name declared after it)."""
    found = getattr(low, "references", {}).get(node.name)
    if found is None or low.lookup(node.name) is not found[0]:
        return None
    return found[1]
