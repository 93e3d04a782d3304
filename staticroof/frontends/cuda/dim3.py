"""The x, y, z of a `dim3` in host code, as token lists that hostexpr.Folder evaluates.

A launch's grid and block are dim3 values: `dim3(gx, gy)`, `{gx, gy, 1}`, a dim3 variable declared
before, an integer (`n / 256`: x, with y = z = 1), or a dim3 returned by a host helper
(`make_grid_2d(nx, ny, block)`), whose one `return dim3(...)` is inlined here with the call's
arguments (a dim3 argument's `.x` read through the caller's dim3).  A dim3 whose components cannot
be read (a helper the file does not define, a dim3 parameter whose value no caller gives) is
unknown in every component, `?`: never x alone with y = z = 1, which would count one row of blocks.
"""

from __future__ import annotations

from ..common.tokens import Token, match_close, split_commas

# calls that return an integer (hostexpr's min/max, ceil and casts, and library helpers that
# round a quotient up): `min(a, b)` as a grid is x, with y = z = 1
_INTEGER_CALLS = {"min", "max", "fmin", "fmax", "fminf", "fmaxf", "umin", "umax", "imin", "imax", "ceil", "ceilf",
                  "floor", "floorf", "trunc", "truncf", "round", "roundf", "static_cast", "int", "unsigned",
                  "size_t", "sizeof", "__SR_SIZE", "atoi", "atol", "stoi", "ceil_div", "div_up", "divUp", "iDivUp",
                  "DIVUP", "cdiv"}


def tok(t: Token, text: str) -> Token:
    """A token made at `t`'s place (for expressions the host code implies)."""
    return Token("num" if text[0].isdigit() else ("id" if text[0].isalpha() else "punct"), text, t.file, t.line, t.col)


def unknown(t: Token | None = None) -> list:
    """A dim3 none of whose components is known: `?` never folds."""
    t = t or Token("punct", "?", "", 0, 0)
    return [[tok(t, "?")] for _ in range(3)]


def dim3_parts(tokens: list[Token], dims: dict, folder=None) -> list:
    """The x, y, z expressions (token lists; fewer than three: the rest are 1) of a dim3 value.
    `folder` (hostexpr.Folder): its `funcs` are inlined where they return a dim3, its `returns`
    (name -> returns a dim3) say which other functions the file defines."""
    funcs = getattr(folder, "funcs", None) or {}
    returns = getattr(folder, "returns", None) or {}
    if len(tokens) == 1 and tokens[0].text in dims:
        return dims[tokens[0].text]
    if tokens and tokens[0].text == "dim3" and len(tokens) > 1 and tokens[1].text in ("(", "{"):
        return split_commas(tokens[2:match_close(tokens, 1)])
    if tokens and tokens[0].text == "{":
        return split_commas(tokens[1:match_close(tokens, 0)])
    call = _call(tokens)
    if call is not None:
        name, args = call
        fn = funcs.get(name)
        if fn is not None and fn.dim3:
            return inline(fn, args, dims, folder)
        if returns.get(name, name not in _INTEGER_CALLS and fn is None):
            return unknown(tokens[0])  # a dim3 helper not inlined, or one the file does not define
    return [tokens]


def _call(tokens: list[Token]):
    """(name, argument token lists) when `tokens` are one call `name(...)` (`std::` prefixes
    dropped), else None."""
    i = 0
    while i + 1 < len(tokens) and tokens[i + 1].text == "::":
        i += 2
    if i + 1 >= len(tokens) or tokens[i].kind != "id" or tokens[i + 1].text != "(":
        return None
    if match_close(tokens, i + 1) != len(tokens) - 1:
        return None
    return tokens[i].text, split_commas(tokens[i + 2:-1])


def inline(fn, args: list, dims: dict, folder) -> list:
    """The x, y, z of a call of a host function that returns a dim3: its return expression with
    each parameter replaced by the call's argument (a dim3 parameter's `.x` by the argument's x)."""
    if len(args) != len(fn.params):
        return unknown(args[0][0] if args and args[0] else None)
    local: dict = {}  # dim3 parameters and locals: name -> parts
    subst: dict = {}  # other parameters: name -> tokens
    for (name, _bits), arg in zip(fn.params, args, strict=True):
        if name in fn.dim3_params:
            local[name] = [members(p, dims) for p in dim3_parts(members(arg, dims), dims, folder)]
        else:
            subst[name] = members(arg, dims)
    for name, toks, bits in fn.lets:  # `int gx = (nx + block.x - 1) / block.x;`
        value = _replace(members(toks, local), subst)
        cast = "double" if bits == 53 else "float" if bits == 24 else "long"
        at = toks[0] if toks else None
        subst[name] = [tok(at, "("), tok(at, cast), tok(at, ")"), tok(at, "("), *value, tok(at, ")")] if at else value
    result = _replace(members(fn.result, local), subst)
    parts = dim3_parts(result, local, folder)
    if len(parts) == 1 and parts[0] is result:  # not a dim3 expression after all
        return unknown(result[0] if result else None)
    return parts


def _replace(tokens: list[Token], subst: dict) -> list[Token]:
    out: list = []
    for k, t in enumerate(tokens):
        if t.kind == "id" and t.text in subst and (k == 0 or tokens[k - 1].text not in (".", "->", "::")):
            out += [tok(t, "("), *subst[t.text], tok(t, ")")]
        else:
            out.append(t)
    return out


def members(tokens: list[Token], dims: dict) -> list[Token]:
    """`block.x` of a dim3 declared before, replaced by its (parenthesized) x expression; an
    omitted y or z is 1, as dim3's constructor makes it."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if (t.kind == "id" and t.text in dims and i + 2 < len(tokens) and tokens[i + 1].text == "."
                and tokens[i + 2].text in ("x", "y", "z")):
            part = (list(dims[t.text]) + [[], [], []])["xyz".index(tokens[i + 2].text)]
            part = part or [Token("num", "1", t.file, t.line, t.col)]
            out += [Token("punct", "(", t.file, t.line, t.col), *part, Token("punct", ")", t.file, t.line, t.col)]
            i += 3
            continue
        out.append(t)
        i += 1
    return out
