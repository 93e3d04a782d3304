"""Function and template headers on tokens: a header's parameters cleaned for C (no references, no
default arguments) and a `template <...>` list's parameters; shared by the lowering, the class
definitions and the CUDA trace."""

from __future__ import annotations

from dataclasses import dataclass

from ..common.tokens import Token
from .hostexpr import fold


def clean_params(head: list[Token], references: set | None = None) -> list[Token]:
    """In a function header: drop references (`float &x`) and default arguments (`int n = 0`).  The
    (file, line, column) of each parameter that is a writable reference to a non-pointer (`float &yi`)
    is added to `references`: a call binds it to its argument, so the callee's stores reach the caller
    (a copy would lose them)."""
    if references is not None:
        references |= writable_references(head)
    out, depth, skipping = [], 0, False
    for t in head:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                skipping = False
        if depth == 1 and t.text == "," and skipping:
            skipping = False
        if skipping:
            continue
        if depth == 1 and t.text == "=":
            skipping = True
            continue
        if depth == 1 and t.text in ("&", "&&"):
            continue
        out.append(t)
    return out


def writable_references(head: list[Token]) -> set:
    """Where the names of `head`'s writable scalar reference parameters are (see clean_params)."""
    found: set = set()
    depth, cur = 0, list[Token]()
    for t in head:
        if t.text in ("(", "<", "["):
            depth += 1
            if depth == 1 and t.text == "(":
                cur = []
                continue
        elif t.text in (")", ">", "]", ">>"):
            depth -= 2 if t.text == ">>" else 1
        if depth == 0 or (depth == 1 and t.text == ","):
            texts = [x.text for x in cur]
            if "=" in texts:
                cur, texts = cur[:texts.index("=")], texts[:texts.index("=")]
            if "&" in texts and not {"const", "*", "(", "&&", "["} & set(texts) and cur[-1].kind == "id" \
                    and texts.index("&") < len(texts) - 1:
                found.add((cur[-1].file, cur[-1].line, cur[-1].col))
            cur = []
            if depth == 0 and t.text == ")":
                break
            continue
        cur.append(t)
    return found


@dataclass
class TemplateParam:
    name: str
    is_type: bool
    default: object = None  # int for non-type parameters, type spelling for type parameters


def template_params(tokens: list[Token]) -> list[TemplateParam]:
    params: list[TemplateParam] = []
    cur: list[Token] = []
    depth = 0
    for t in tokens + [Token("punct", ",", "", 0, 0)]:
        if t.text in ("<", "("):
            depth += 1
        elif t.text in (">", ")"):
            depth -= 1
        if t.text == "," and depth == 0:
            if cur:
                eq = next((k for k, x in enumerate(cur) if x.text == "="), len(cur))
                names = [x for x in cur[:eq] if x.kind == "id"]
                if names:
                    is_type = cur[0].text in ("typename", "class")
                    default = None
                    if eq < len(cur):
                        default = fold(cur[eq + 1:], {}) if not is_type else " ".join(x.text for x in cur[eq + 1:])
                    params.append(TemplateParam(names[-1].text, is_type, default))
            cur = []
        else:
            cur.append(t)
    return params
