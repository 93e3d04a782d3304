"""C++'s constructor syntax on non-class types, rewritten to C on tokens (called from cuda.to_c).

- a functional cast, `T(e)` where T names a type (a keyword type, a template type parameter, or a
  typedef the file or a header in reach declares: `uint(x)`, `size_t(n)`, `real_t(i)`) in an
  expression -> `((T)(e))`;
- a vector type constructed from its lanes, `float2(a, b)`, `half2(0.f, 0.f)` -> the CUDA function
  that builds it (`make_float2(a, b)`, `make_half2(...)`), whose cost the table gives (0 FLOPs);
- a constructor-style local, `T v(args);` (`half2 acc(0.f, 0.f);`, `uint k(i);`) -> `T v = T(args);`,
  then as above.

Which names are types is read once per file by :func:`begin` (typedefs and `using X =` aliases of
non-class types; a struct's tag or a function is never one).  Class types are classes.py's."""

from __future__ import annotations

from ..common.tokens import Token, match_close, split_commas
from .grammar import table

_KEYWORD_TYPES = {"float", "double", "int", "unsigned", "long", "short", "char", "bool", "half", "__half",
                  "__nv_bfloat16", "nv_bfloat16"}
_EXPR_BEFORE = {"=", "(", ",", "return", "+", "-", "*", "/", "%", "?", ":", "<", ">", "<=", ">=", "==", "!=",
                "&&", "||", "!", "[", "+=", "-=", "*=", "/="}
_STATEMENT_BEFORE = {";", "{", "}", "const"}

_TYPES: set = set()


def _tok(like: Token, text: str, kind: str = "punct") -> Token:
    return Token(kind, text, like.file, like.line, like.col)


def typedef_names(tokens: list[Token]) -> set:
    """The names `typedef` and `using X =` declare for non-class types in `tokens` (a typedef of a
    struct, union, enum or function pointer is left out: `T(e)` is no cast to those)."""
    out = set()
    n = len(tokens)
    k = 0
    while k < n:
        x = tokens[k].text
        if x == "using" and k + 3 < n and tokens[k + 2].text == "=" and tokens[k + 1].kind == "id":
            j = k + 3
            while j < n and tokens[j].text != ";":
                j += 1
            body = {t.text for t in tokens[k + 3:j]}
            if not body & {"struct", "class", "union", "enum", "<", "(", "{"}:
                out.add(tokens[k + 1].text)
            k = j
            continue
        if x == "typedef":
            j = k + 1
            while j < n and tokens[j].text not in (";", "{", "("):
                j += 1
            if j < n and tokens[j].text == ";" and tokens[j - 1].kind == "id" and \
                    not {t.text for t in tokens[k + 1:j]} & {"struct", "class", "union", "enum"}:
                out.add(tokens[j - 1].text)
            k = j
            continue
        k += 1
    return out


_PARAMS: dict = {}  # function -> the type tokens of each parameter (without const, &, the name)


def begin(tokens: list[Token], items=()) -> None:
    """Read the file's type names (see the module docstring) and its functions' parameter types."""
    _TYPES.clear()
    _TYPES.update(typedef_names(tokens))
    _PARAMS.clear()
    for it in items:
        if it.is_function and it.name and "(" in [h.text for h in it.header]:
            head = it.header
            k = max(j for j, h in enumerate(head) if h.text == "(" and j and head[j - 1].text == it.name)
            params = split_commas(head[k + 1:match_close(head, k)], angles=True)
            _PARAMS[it.name] = [[p for p in par[:-1] if p.text not in ("const", "&", "__restrict__", "volatile")]
                                for par in params]


def _vector_maker(name: str) -> str | None:
    """`make_float2` for float2, `make_half2` for __half2, `make_bfloat162` for nv_bfloat162."""
    if name not in table()["vector_types"]:
        return None
    base = name.lstrip("_")
    base = base[3:] if base.startswith("nv_") else base
    maker = f"make_{base}"
    return maker if maker in table()["intrinsics"] else None


def rewrite(tokens: list[Token], i: int, out: list[Token], convert, type_renames: dict):
    """At tokens[i]: a functional cast, a vector construction or a constructor-style local, as C
    (tokens, index after); else None.  `convert(tokens)` rewrites the arguments."""
    t = tokens[i]
    x = t.text
    n = len(tokens)
    if t.kind != "id" or not (x in _KEYWORD_TYPES or x in type_renames or x in _TYPES
                              or x in table()["vector_types"]):
        return None
    prev = out[-1].text if out else ""
    if i + 1 < n and tokens[i + 1].text in ("(", "{") and (not out or prev in _EXPR_BEFORE):
        end = match_close(tokens, i + 1)
        inner = convert(tokens[i + 2:end])
        maker = _vector_maker(x)
        if maker is not None:
            if len(split_commas(inner)) > 1:
                return [_tok(t, maker, "id"), _tok(t, "("), *inner, _tok(t, ")")], end + 1
            return None
        ty = type_renames.get(x, "_Bool" if x == "bool" else x)
        return [_tok(t, "("), _tok(t, "("), _tok(t, ty, "id"), _tok(t, ")"), _tok(t, "("), *inner, _tok(t, ")"),
                _tok(t, ")")], end + 1
    if (i + 2 < n and tokens[i + 1].kind == "id" and tokens[i + 2].text == "{" and prev in _STATEMENT_BEFORE
            and x not in type_renames):  # `float2 w{c, 0.0f};` -> `float2 w = {c, 0.0f};`
        return [_tok(t, type_renames.get(x, x), "id"), tokens[i + 1], _tok(t, "=")], i + 2
    if (i + 2 < n and tokens[i + 1].kind == "id" and tokens[i + 2].text == "(" and prev in _STATEMENT_BEFORE
            and x not in type_renames):
        end = match_close(tokens, i + 2)
        after = tokens[end + 1].text if end + 1 < n else ""
        if after in (";", ",") and not _declares_function(tokens[i + 3:end]):
            call = [t, *tokens[i + 2:end + 1]]  # `T v(args)` -> `T v = T(args)`
            ctor = rewrite(call, 0, [_tok(t, "=")], convert, type_renames)
            if ctor is not None:
                name = type_renames.get(x, "_Bool" if x == "bool" else x)
                return [_tok(t, name, "id"), tokens[i + 1], _tok(t, "="), *ctor[0]], end + 1
    return None


def braced_arguments(tokens: list[Token], i: int, convert):
    """At tokens[i], a call of a function of this file with a brace-initialized argument
    (`cmul({x[i], 1.0f}, w)`): the call with each such argument built as its parameter's type
    (`make_float2(x[i], 1.0f)`, `((float)(x))`) as (tokens, index after); else None."""
    t = tokens[i]
    params = _PARAMS.get(t.text)
    if params is None or i + 1 >= len(tokens) or tokens[i + 1].text != "(":
        return None
    end = match_close(tokens, i + 1)
    args = split_commas(tokens[i + 2:end])
    if not any(a and a[0].text == "{" for a in args):
        return None
    out = [t, tokens[i + 1]]
    for k, a in enumerate(args):
        if k:
            out.append(_tok(a[0] if a else t, ","))
        if a and a[0].text == "{" and k < len(params) and len(params[k]) == 1:
            built = rewrite([params[k][0], _tok(a[0], "("), *a[1:-1], _tok(a[0], ")")], 0, [], convert, {})
            if built is not None:
                out += built[0]
                continue
        out += convert(a)
    return out + [tokens[end]], end + 1


def _declares_function(inner: list[Token]) -> bool:
    """`float f(float a, int b);` or `float g();`: a function declarator, not constructor arguments."""
    if not inner:
        return True
    for arg in split_commas(inner, angles=True):
        ids = [k for k, a in enumerate(arg) if a.kind == "id"]
        if any(k + 1 in ids for k in ids) or (arg and (arg[0].text in _KEYWORD_TYPES or arg[0].text in _TYPES)):
            return True
    return False
