"""C++ to C on tokens: the rewrite that lets pycparser parse a kernel's CUDA C++ (see frontend.py's
step 3), and the CUDA built-in types the rewritten C declares.  Each construct's own rewrite lives
in its module (classes, textures, aliases, ctors); this walks the tokens and dispatches."""

from __future__ import annotations

from ..c.types import FLOAT, CType
from ..common.tokens import Token, match_angle, match_close
from . import aliases as AL, classes as CL, containers as CN, ctors as CT, textures as TX
from .grammar import table


def builtin_types() -> dict:
    out = {"__half": FLOAT["fp16"], "half": FLOAT["fp16"], "__nv_bfloat16": FLOAT["bf16"],
           "nv_bfloat16": FLOAT["bf16"]}
    for name, (prec, lanes) in table()["vector_types"].items():
        kind_prec = prec
        out[name] = CType("vector", kind_prec, lanes=lanes)
    out.update(TX.object_types(table()))  # cudaTextureObject_t: see textures.py
    return out


# ---------------------------------------------------------------------------------------------
# C++ to C on tokens

_CASTS = ("static_cast", "reinterpret_cast", "const_cast", "dynamic_cast")
_RENAME = {"constexpr": "const", "auto": "__sr_auto", "nullptr": "0", "true": "1", "false": "0",
           "bool": "_Bool", "__restrict__": "restrict", "__restrict": "restrict"}


def new_token(like: Token, text: str, kind: str = "punct") -> Token:
    return Token(kind, text, like.file, like.line, like.col)


def to_c(tokens: list[Token], templates: set, type_renames: dict) -> list[Token]:
    """Rewrite the C++ that kernels use into C, token by token (locations kept)."""
    q = table()["qualifiers"]
    drop, shared, constant = set(q["drop"]), set(q["shared"]), set(q["constant"])
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        x = t.text
        if t.kind == "pragma":
            if not x.startswith("unroll") and not x.startswith("nounroll"):
                out.append(t)
            i += 1
            continue
        if x in ("__launch_bounds__", "__maxnreg__") and i + 1 < n and tokens[i + 1].text == "(":
            i = match_close(tokens, i + 1) + 1
            continue
        if x in drop:
            i += 1
            continue
        if x == "extern" and i + 1 < n and tokens[i + 1].kind == "str":
            i += 2
            continue
        if x in shared:
            out.append(new_token(t, "register", "id"))
            i += 1
            continue
        if x in constant:
            i += 1
            continue
        if x == "template" and i + 1 < n and tokens[i + 1].text == "<":
            close = match_angle(tokens, i + 1)
            i = close + 1 if close > 0 else i + 1
            continue
        cls = CL.rewrite(tokens, i, out, lambda toks: to_c(toks, templates, type_renames), type_renames)
        if cls is not None:  # classes, their constructors and static members (classes.py)
            out, i = out + cls[0], cls[1]
            continue
        cont = CN.rewrite(tokens, i, lambda toks: to_c(toks, templates, type_renames))
        if cont is not None:  # `std::vector<double>` -> a typedef of `double *` (containers.py)
            out, i = out + cont[0], cont[1]
            continue
        fetch = TX.rewrite(tokens, i, lambda toks: to_c(toks, templates, type_renames))
        if fetch is not None:  # tex1Dfetch<float>(tex, i), texture<float, 1> ref (textures.py)
            out += fetch[0]
            i = fetch[1]
            continue
        if x in _CASTS and i + 1 < n and tokens[i + 1].text == "<":
            close = match_angle(tokens, i + 1)
            if close > 0 and close + 1 < n and tokens[close + 1].text == "(":
                end = match_close(tokens, close + 1)
                ty = to_c(tokens[i + 2:close], templates, type_renames)
                inner = to_c(tokens[close + 2:end], templates, type_renames)
                out += [new_token(t, "("), new_token(t, "("), *ty, new_token(t, ")"), new_token(t, "("), *inner,
                        new_token(t, ")"), new_token(t, ")")]
                i = end + 1
                continue
        alias = AL.rewrite(tokens, i)
        if alias is not None:  # `Ptr<const float>` -> `const float *` (aliases.py)
            tokens, i, n = alias[0] + tokens[alias[1]:], 0, len(alias[0]) + n - alias[1]
            continue
        ctor = CT.rewrite(tokens, i, out, lambda toks: to_c(toks, templates, type_renames), type_renames) or \
            CT.braced_arguments(tokens, i, lambda toks: to_c(toks, templates, type_renames))
        if ctor is not None:  # `uint(x)`, `float2(a, b)`, `half2 v(0.f, 0.f);` (ctors.py)
            out, i = out + ctor[0], ctor[1]
            continue
        if x == "::":
            if out and out[-1].kind == "id":
                out.pop()  # `ns::name` and `Class::name` keep the last name
            i += 1
            continue
        if t.kind == "id" and i + 1 < n and tokens[i + 1].text == "<" and (x in templates or x in ("min", "max")):
            close = match_angle(tokens, i + 1)
            if close > 0 and close + 1 < n and tokens[close + 1].text == "(":
                out.append(t)
                i = close + 1  # drop explicit template arguments of a call
                continue
        if x in type_renames:
            out.append(new_token(t, type_renames[x], "id"))
            i += 1
            continue
        if x in _RENAME:
            out.append(new_token(t, _RENAME[x], "id" if _RENAME[x][0].isalpha() or _RENAME[x][0] == "_" else "num"))
            i += 1
            continue
        out.append(t)
        i += 1
    return out
