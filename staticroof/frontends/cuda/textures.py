"""CUDA texture objects and fetches (the names are in `grammars/cuda.toml`: [textures] and the
intrinsics of kind "texture").

A texture object parameter (`cudaTextureObject_t tex`) is a read-only DRAM array named after the
parameter, like a `const T *`: its type is a pointer to an opaque "texture" element, so that each
fetch sees the object's memory through the element type it names, as a cast view (views.py):
`tex1Dfetch<float>(tex, i)` reads element i of `tex` as fp32 (4 B), and a texture read as float
only is reported as `tex (fp32)`.  The legacy texture reference `texture<float, 1> ref;` (file
scope) is a `float *ref` array, and `tex1Dfetch(ref, i)` reads its element i.

Surfaces (`cudaSurfaceObject_t`) are arrays the same way: `surf2Dwrite(v, surf, x * sizeof(float),
y)` writes element [y][x] (the x coordinate is in bytes), `surf2Dread` reads one; a fetch such as
`tex2D<float>(tex, x, y)` with integer coordinates reads texel [y][x] (point sampling).

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

import sympy
from pycparser import c_ast

from ..c.types import CType
from ..c.values import Val, node_location
from ..common.lowering import Acc
from ..common.tokens import Token, match_angle, match_close, split_commas

TEXTURE = CType("other", "texture")  # the opaque element of a texture object


def object_types(table: dict) -> dict:
    """Texture object type names -> their CType (a pointer to the opaque texture element)."""
    return {name: CType("ptr", base=TEXTURE) for name in table.get("textures", {}).get("objects", [])}


@lru_cache(maxsize=1)
def _fetches() -> frozenset:
    from .grammar import table

    return frozenset(n for n, e in table()["intrinsics"].items() if e["kind"] in ("texture", "surface"))


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
    from ...ir import Ref
    from ..c.views import convert, root_of

    carrier = args[0] if args else None
    elem = None
    if isinstance(carrier, c_ast.Cast):
        elem = low.tu.types.resolve(carrier.to_type).base
    obj = low.value(args[1], acc) if len(args) > 1 else None
    coords = [low.value(a, acc) for a in args[2:]]
    if obj is None or obj.array is None or not obj.ctype.is_pointer:
        low.diag("SR105", f"`{name}` on something that is not a texture object the analysis knows: the read is "
                 "not counted", node)
        return Val(elem if elem is not None and elem.kind != "void" else CType("float", "fp32"))
    if elem is None or elem.kind == "void":  # a legacy reference: its declared element type
        elem = obj.ctype.base
    if elem is None or elem.kind not in ("float", "int", "vector"):
        low.diag("SR105", f"`{name}`: the element type of this fetch is not known (give it: `{name}<float>(...)`); "
                 "the read is not counted", node)
        return Val(CType("float", "fp32"))
    view = convert(low, obj, CType("ptr", base=elem), node)
    if entry.get("coordinates") == "index" and len(coords) == 1 and view.array is not None:
        return low.load(low._subscript(view, coords, node), acc, node)
    if _integral(coords) and view.array is not None and name[-2:] in ("1D", "2D", "3D"):
        return low.load(_element(low, view, coords, node), acc, node)  # tex2D<float>(t, x, y), ints x, y
    why = (f"`{name}` reads at filtered coordinates: which texels, and how many, depends on the texture's extent, "
           "address and filter modes, which the kernel does not state")
    low.diag("SR101", f"`{root_of(view.array)}`: {why}; each fetch counts as a new element", node)
    loc = node_location(node, low.tu.path)
    for _ in range(elem.lanes if elem.is_vector else 1):  # a float4 fetch moves its 4 lanes
        acc.refs.append(Ref(view.array, None, "read", loc, why))
    return Val(elem, why=why)


def _integral(coords) -> bool:
    """Coordinates that are integers (`tex2D<float>(t, x, y)` with `int x, y`): with point
    sampling of unnormalized coordinates (what a kernel indexing texels by integers relies on)
    the fetch reads texel (x, y) itself."""
    return bool(coords) and all(c.ctype.is_int and c.expr is not None for c in coords)


def _element(low, view, coords, node):
    """The texel or surface element at (x, y, z): element [z][y][x] of the object's memory, whose
    extents the kernel does not state (distinct coordinates are distinct elements)."""
    arr = low.kernel.arrays[view.array]
    if len(coords) > 1 and len(arr.dims) < len(coords):
        arr.dims = (None,) * len(coords)
    return low._subscript(view, list(reversed(coords)), node)


def surface(low, name: str, entry: dict, node, args, acc):
    """`surf2Dwrite(v, s, x_bytes, y)`: a write of one element of v's type; `surf2Dread<T>(s, x_bytes,
    y)` / `surf2Dread(&v, s, x_bytes, y)`: a read.  The x coordinate is in bytes: element
    x_bytes / sizeof(element), which must be a whole number (else SR101, one new element)."""
    from ...ir import DTYPE_BYTES, Ref
    from ..c.views import convert, root_of

    carrier = args[0] if args else None
    elem = low.tu.types.resolve(carrier.to_type).base if isinstance(carrier, c_ast.Cast) else None
    rest = list(args[1:])
    if entry.get("op") == "write":
        v = low.value(rest.pop(0), acc)
        elem = v.ctype
    elif elem is None or elem.kind == "void":
        out = rest.pop(0)  # surf2Dread(&v, ...)
        target = out.expr if isinstance(out, c_ast.UnaryOp) and out.op == "&" else out
        elem = low.expr(target, Acc()).ctype
    obj = low.value(rest[0], acc) if rest else None
    coords = [low.value(a, acc) for a in rest[1:1 + int(name[4])]]
    if obj is None or obj.array is None or elem is None or elem.kind not in ("float", "int", "vector"):
        low.diag("SR105", f"`{name}` on a surface or element type the analysis does not know: not counted", node)
        return Val(elem if elem is not None and elem.kind in ("float", "int", "vector") else INT_T)
    size = DTYPE_BYTES.get(elem.prec, 4) * (elem.lanes if elem.is_vector else 1)
    x = coords[0].expr if coords and coords[0].ctype.is_int else None
    whole = x is not None and all(sympy.Rational(c, size).is_integer
                                  for c in sympy.expand(x).as_coefficients_dict().values())
    view = convert(low, obj, CType("ptr", base=elem), node)
    kind = "write" if entry.get("op") == "write" else "read"
    if (whole and x is not None and view.array is not None
            and all(c.ctype.is_int and c.expr is not None for c in coords)):
        coords[0] = Val(coords[0].ctype, sympy.expand(x / size))
        target = _element(low, view, coords, node)
        if kind == "read":
            return low.load(target, acc, node)
        low._store(node, target, Val(elem), acc, node)
        return Val(elem)
    why = f"`{name}`: the byte offset is not a whole number of {size}-byte elements"
    low.diag("SR101", f"`{root_of(view.array or obj.array)}`: {why}; each access counts as a new element", node)
    for _ in range(elem.lanes if elem.is_vector else 1):
        acc.refs.append(Ref(view.array or obj.array, None, kind, node_location(node, low.tu.path), why))
    return Val(elem)


INT_T = CType("int", "int32")
