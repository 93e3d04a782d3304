"""CUDA texture objects and fetches (the names are in `grammars/cuda.toml`: [textures] and the
intrinsics of kind "texture").

A texture object parameter (`cudaTextureObject_t tex`) is a read-only DRAM array named after the
parameter, like a `const T *`: its type is a pointer to an opaque "texture" element, so that each
fetch sees the object's memory through the element type it names, as a cast view (views.py):
`tex1Dfetch<float>(tex, i)` reads element i of `tex` as fp32 (4 B), and a texture read as float
only is reported as `tex (fp32)`.  The legacy texture reference `texture<float, 1> ref;` (file
scope) is a `float *ref` array, and `tex1Dfetch(ref, i)` reads its element i.

Filtered fetches (`tex2D<float>(tex, u, v)`, ...) take float coordinates: which texels they read,
and how many (linear filtering blends 2, 4 or 8), depends on the texture's extent, address and
filter modes, which the kernel does not state.  Each is a data-dependent read (SR101, approximate),
one new element per fetch: only the statement is uncertain, never the kernel.

The element type travels through the C rewrite as a typed null pointer in front of the arguments
(`tex1Dfetch<float>(tex, i)` is parsed as `tex1Dfetch((float *)0, tex, i)`; without template
arguments, `(void *)0`).
"""

from __future__ import annotations

from functools import lru_cache

from pycparser import c_ast

from .ctypes_ import CType
from .tokens import Token, match_angle, match_close, split_commas

TEXTURE = CType("other", "texture")  # the opaque element of a texture object


def object_types(table: dict) -> dict:
    """Texture object type names -> their CType (a pointer to the opaque texture element)."""
    return {name: CType("ptr", base=TEXTURE) for name in table.get("textures", {}).get("objects", [])}


@lru_cache(maxsize=1)
def _fetches() -> frozenset:
    from .cuda import table

    return frozenset(n for n, e in table()["intrinsics"].items() if e["kind"] == "texture")


# ---------------------------------------------------------------------------------------------
# C++ to C on tokens (called from cuda.to_c)

def _tok(like: Token, text: str, kind: str = "punct") -> Token:
    return Token(kind, text, like.file, like.line, like.col)


def rewrite(tokens: list, i: int, convert):
    """At tokens[i]: a fetch `f<T>(args)` as `f((T *)0, args)`, or a legacy texture reference
    declaration `texture<T, ...> name` as `T *name`.  Returns (C tokens, index after), or None
    when tokens[i] is neither.  `convert` rewrites nested C++ (the arguments, T)."""
    t = tokens[i]
    n = len(tokens)
    if t.kind != "id":
        return None
    if t.text == "texture" and i + 1 < n and tokens[i + 1].text == "<":
        close = match_angle(tokens, i + 1)
        if close < 0 or close + 1 >= n or tokens[close + 1].kind != "id":
            return None
        args = split_commas(tokens[i + 2:close], angles=True) or [[]]
        return [*convert(args[0]), _tok(t, "*")], close + 1
    if t.text not in _fetches():
        return None
    elem, j = [], i + 1
    if j < n and tokens[j].text == "<":
        close = match_angle(tokens, j)
        if close < 0:
            return None
        elem, j = convert(tokens[j + 1:close]), close + 1
    if j >= n or tokens[j].text != "(":
        return None
    end = match_close(tokens, j)
    inner = convert(tokens[j + 1:end])
    carrier = [_tok(t, "("), *(elem or [_tok(t, "void", "id")]), _tok(t, "*"), _tok(t, ")"), _tok(t, "0", "num")]
    comma = [_tok(t, ",")] if inner else []
    return [t, _tok(t, "("), *carrier, *comma, *inner, _tok(t, ")")], end + 1




# ---------------------------------------------------------------------------------------------
# Lowering a fetch

def fetch(low, name: str, entry: dict, node, args, acc):
    """The value of a texture fetch (`args` begin with the element-type carrier, see above)."""
    from . import c as C
    from ..ir import Ref
    from .views import convert, root_of

    carrier = args[0] if args else None
    elem = None
    if isinstance(carrier, c_ast.Cast):
        elem = low.tu.types.resolve(carrier.to_type).base
    obj = low.value(args[1], acc) if len(args) > 1 else None
    coords = [low.value(a, acc) for a in args[2:]]
    if obj is None or obj.array is None or not obj.ctype.is_pointer:
        low.diag("SR105", f"`{name}` on something that is not a texture object the analysis knows: the read is "
                 "not counted", node)
        return C.Val(elem if elem is not None and elem.kind != "void" else CType("float", "fp32"))
    if elem is None or elem.kind == "void":  # a legacy reference: its declared element type
        elem = obj.ctype.base
    if elem is None or elem.kind not in ("float", "int", "vector"):
        low.diag("SR105", f"`{name}`: the element type of this fetch is not known (give it: `{name}<float>(...)`); "
                 "the read is not counted", node)
        return C.Val(CType("float", "fp32"))
    view = convert(low, obj, CType("ptr", base=elem), node)
    if entry.get("coordinates") == "index" and len(coords) == 1 and view.array is not None:
        return low.load(low._subscript(view, coords, node), acc, node)
    why = (f"`{name}` reads at filtered coordinates: which texels, and how many, depends on the texture's extent, "
           "address and filter modes, which the kernel does not state")
    low.diag("SR101", f"`{root_of(view.array)}`: {why}; each fetch counts as a new element", node)
    loc = C._loc(node, low.tu.path)
    for _ in range(elem.lanes if elem.is_vector else 1):  # a float4 fetch moves its 4 lanes
        acc.refs.append(Ref(view.array, None, "read", loc, why))
    return C.Val(elem, why=why)
