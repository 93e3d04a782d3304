"""`std::vector<T>`, `std::span<T>` and `std::array<T, N>` in C++ code, read as the arrays they hold.

Numerical C++ passes its data as `const std::vector<double> &x` and keeps it in `std::vector`
members; what decides W and Q is only the elements a loop reads and writes.  So:

- on tokens (:func:`rewrite`, called from cuda.to_c), the type becomes a typedef of its own,
  `__sr_vec_1` for `typedef double *__sr_vec_1;` (a vector or span: a pointer to its elements)
  or `typedef double __sr_arr_1[3];` (an array of a literal extent), so that every declarator of
  `std::vector<double> u_, unew_;` is one, and a reference parameter is the pointer (references
  are dropped from headers).  The typedefs are emitted before the first chunk that uses them
  (:func:`pending`), after the declarations of the types they name;
- in the lowering (:func:`call`), the member functions that read: `x.data()` is the pointer,
  `x[i]`, `x.at(i)`, `x.front()`, `x.back()` elements, `x.size()` the size `x.size` (a symbol
  of its own, bindable with `-D x.size=`; an array's extent where it is a literal; unknown for
  a row of a `vector<vector<T>>`, whose rows each have their own).  A member
  function that changes the size or the elements wholesale (`push_back`, `resize`, `assign`,
  `fill`, `swap`, ...) is unsupported: its traffic and the sizes after it are not modeled.

A local vector constructed (`std::vector<double> t(n);`, `= x;`) is storage of its own whose
initialization is not counted (SR123: approximate); a local span views what it is given.
"""

from __future__ import annotations

import sympy
from pycparser import c_ast

from ..c.types import INT
from ..c.values import Val
from ..common.lowering import Unsupported
from ..common.tokens import Token, integer_literal, match_angle, match_close, split_commas

CONSTRUCTED = "__sr_container"  # a local std::vector's construction (see _declarators)
EXTENT = "__sr_extent"  # `for (double v : x)` over what is not a local array: its element count (statements.py)
_KINDS = {"vector": "vec", "span": "span", "array": "arr", "valarray": "vec"}
_READERS = ("data", "size", "at", "front", "back", "empty")
_CHANGERS = ("push_back", "emplace_back", "pop_back", "resize", "reserve", "clear", "assign", "insert", "erase",
             "emplace", "swap", "fill", "shrink_to_fit")


class _Typedefs:
    """The container typedefs of one file: (kind, element, extent) -> name, and those not emitted yet."""

    def __init__(self):
        self.names: dict = {}
        self.pending: list = []


_DEFS = _Typedefs()


def begin() -> None:
    global _DEFS
    _DEFS = _Typedefs()


def rewrite(tokens: list[Token], i: int, convert):
    """At tokens[i]: `vector<T>` (its `std::` already dropped) as its typedef's name (tokens,
    index after), or None.  `convert(tokens)`: cuda.to_c of the element type."""
    t = tokens[i]
    kind = _KINDS.get(t.text)
    n = len(tokens)
    if kind is None or i + 1 >= n or tokens[i + 1].text != "<" or (i > 0 and tokens[i - 1].text in (".", "->")):
        return None
    close = match_angle(tokens, i + 1)
    if close < 0 or (close + 1 < n and tokens[close + 1].text in ("::", "(", "{")):
        return None  # `vector<T>::size_type`, a temporary `array<T, 3>{...}`: not a declaration's type
    inner = list(tokens[i + 2:close])
    after: list[Token] = []
    if tokens[close].text == ">>":  # `vector<vector<double>>`: one `>` is an inner list's, or an outer one's
        gt = Token("punct", ">", t.file, t.line, t.col)
        opened = sum(x.text == "<" for x in inner) - sum(x.text == ">" for x in inner) - 2 * sum(
            x.text == ">>" for x in inner)
        if opened > 0:
            inner.append(gt)
        else:
            after = [gt]
    args = split_commas(inner, angles=True)
    if not args:
        return None
    elem = " ".join(x.text for x in convert(args[0]))
    extent = None
    if kind == "arr" and len(args) > 1 and len(args[1]) == 1 and args[1][0].kind == "num":
        extent = integer_literal(args[1][0].text)
    if kind == "arr" and extent is None:
        kind = "vec"  # `array<T, N>` of a template parameter's extent: its elements, extent unknown
    key = (kind, elem, extent)
    name = _DEFS.names.get(key)
    if name is None:
        name = f"__sr_{kind}_{len(_DEFS.names) + 1}"
        _DEFS.names[key] = name
        _DEFS.pending.append(f"typedef {elem} {name}[{extent}];\n" if kind == "arr" else f"typedef {elem} *{name};\n")
    out = [Token("id", name, t.file, t.line, t.col)] + after
    if kind in ("vec", "span") and not after and _starts_statement(tokens, i):
        return _declarators(tokens, close + 1, out, kind)
    return out, close + 1


def _starts_statement(tokens: list[Token], i: int) -> bool:
    k = i - 1
    if k >= 1 and tokens[k].text == "::" and tokens[k - 1].text == "std":
        k -= 2
    while k >= 0 and tokens[k].text in ("const", "static", "constexpr"):
        k -= 1
    return k < 0 or tokens[k].text in (";", "{", "}")


def _declarators(tokens: list[Token], j: int, out: list[Token], kind: str):
    """A local `std::vector<T> a(n), b = x;`: each declarator initialized becomes storage of its
    own, `a = malloc(__sr_container())` (its construction, and a copy's reads, are not counted:
    :func:`construct`); a span's `s(x)` / `s = x` views its first argument.  (tokens, index after)."""
    n = len(tokens)
    while j + 1 < n and tokens[j].kind == "id" and tokens[j + 1].text in ("(", "{", "=", ",", ";"):
        name, x = tokens[j], tokens[j + 1].text
        out.append(name)
        if x in ("(", "{", "="):
            if x == "=":
                k = j + 2
                depth = 0
                while k < n and not (depth == 0 and tokens[k].text in (",", ";")):
                    depth += tokens[k].text in ("(", "[", "{")
                    depth -= tokens[k].text in (")", "]", "}")
                    k += 1
                init, end = tokens[j + 2:k], k
            else:
                end = match_close(tokens, j + 1) + 1
                init = tokens[j + 2:end - 1]
            first = split_commas(init)[:1] if kind == "span" and x != "{" else []
            if first and first[0]:
                out += [_like(name, "="), _like(name, "("), *first[0], _like(name, ")")]
            else:
                out += [_like(name, "="), _like(name, "malloc", "id"), _like(name, "("),
                        _like(name, CONSTRUCTED, "id"), _like(name, "("), _like(name, ")"), _like(name, ")")]
            j = end
        else:
            j += 1
        if j < n and tokens[j].text == ",":
            out.append(tokens[j])
            j += 1
            continue
        break
    return out, j


def _like(t: Token, text: str, kind: str = "punct") -> Token:
    return Token(kind, text, t.file, t.line, t.col)


def construct(low, node: c_ast.FuncCall) -> Val:
    """`__sr_container()`: a local std::vector constructed (sized, filled or copied): new storage,
    whose initialization the analysis does not count (SR123, approximate)."""
    low.diag("SR123", "a local std::vector is constructed here: its elements' initialization (a fill, or a "
             "copy's reads and writes) is not counted", node)
    return Val(INT, why="a std::vector's construction")


def pending() -> str:
    """The typedefs registered since the last call, to write before the chunk that uses them."""
    if not _DEFS.pending:
        return ""
    text = '#line 1 "<staticroof-cuda-prelude>"\n' + "".join(_DEFS.pending)
    _DEFS.pending.clear()
    return text


def extent(low, node: c_ast.FuncCall, acc):
    """`__sr_extent(x)`, the trip count of a range-for over x: an array's first extent, or a
    container's size (a range-for over a pointer is no C++, so a pointer here is a container)."""
    args = node.args.exprs if node.args is not None else []
    base = low.expr(args[0], acc) if len(args) == 1 else None
    if base is None or base.ctype.kind not in ("ptr", "array") or base.array is None:
        raise Unsupported("a range-for over something that is not an array or a std::vector", node)
    if base.ctype.kind == "array" and base.ctype.dims and not base.prefix:
        n = low.dim_expr(base.ctype.dims[0])
        if n is not None:
            return Val(INT, n)
    size = _size(low, base)
    return Val(INT, size, why="" if size is not None else "a range-for over one row of a nested container "
               "(each row has its own size)")


def call(low, node: c_ast.FuncCall, acc):
    """`x.m(args)` on a container (anything of pointer or array type: C++ has no other member
    calls on those): its value, or None when the base is not one."""
    ref = node.name
    if not isinstance(ref, c_ast.StructRef) or ref.type != ".":
        return None
    m = ref.field.name
    if m not in _READERS and m not in _CHANGERS:
        return None
    base = low.expr(ref.name, acc)
    if base.ctype.kind not in ("ptr", "array") or base.array is None:
        return None
    where = _spelled(ref.name)
    if m in _CHANGERS:
        raise Unsupported(f"`{where}.{m}()` changes the container's elements or size, which is not modeled", node)
    args = node.args.exprs if node.args is not None else []
    if m == "data":
        return base
    if m == "empty":
        return Val(INT, why=f"`{where}.empty()`")
    size = _size(low, base)
    unknown = f"`{where}.size()`: the size of one row of a nested container (each row has its own)"
    if m == "size":
        return Val(INT, size, why="" if size is not None else unknown)
    if m == "at" and len(args) == 1:
        return low._subscript(base, [low.value(args[0], acc)], node)
    if m == "front":
        return low._subscript(base, [Val(INT, sympy.Integer(0))], node)
    if m == "back":
        return low._subscript(base, [Val(INT, size - 1 if size is not None else None, why=unknown)], node)
    raise Unsupported(f"`{where}.{m}` with {len(args)} arguments", node)


def _size(low, base: Val):
    """The element count: an array's literal extent, else the size symbol `<array>.size`; None
    (unknown) for a row of a nested container (`rows[i].size()`: each row has its own) or a
    container reached through pointer arithmetic."""
    if base.prefix is None or base.offset != 0:
        return None
    if base.ctype.kind == "array" and len(base.ctype.dims) == 1 and not base.prefix:
        extent = low.dim_expr(base.ctype.dims[0])
        if extent is not None and extent.is_Integer:
            return extent
    if base.prefix:
        return None
    return low.size_symbol(f"{base.array}.size", origin="container size")


def _spelled(node) -> str:
    if isinstance(node, c_ast.ID):
        return node.name
    if isinstance(node, c_ast.StructRef):
        return f"{_spelled(node.name)}{node.type}{node.field.name}"
    return "..."
