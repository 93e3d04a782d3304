"""Cast views of buffers: `float *s = (float *)src` with `unsigned char *src`.

An access moves the bytes of the type it is made through, so a pointer converted to another
element type (a cast, or C's implicit conversion from `void *`) reaches a *view* of the buffer:
an array of the view's element type whose indices are in the view's elements.  While lowering,
each view is its own array, named `src as fp32`; once the kernel is lowered
(:func:`resolve_views`):

- a buffer reached through one element type only (all its accesses go through `(float *)src`) is
  the buffer itself with that element type: the report shows `src (fp32)`;
- a buffer reached through two element types (bytes and floats, floats and doubles) aliases
  itself in a way the counting rules do not model: SR110 says so, and each view is counted as a
  separate array (an upper bound on the distinct bytes).

Integer types of one width are one view (`int *` and `unsigned *` move the same bytes); vector
types are views of their lane type (`float4 *` over a `float *` buffer is the buffer itself,
4 lanes per element, as before), and an integer vector over a floating-point buffer is the raw bits
of the elements it covers (`int4 *` over floats: 4 floats, over `__nv_bfloat16`: 8).
"""

from __future__ import annotations

from dataclasses import replace

import sympy

from ...ir import DTYPE_BYTES, Array, Stmt, walk
from .values import node_location

SEP = " as "


def dtype_of(ctype) -> str | None:
    """The dtype of the elements a pointer of `ctype` reaches (vectors: their lanes'), or None
    for `void *`, structs and other types that do not decide a size."""
    elem = ctype.base if ctype.kind == "ptr" else ctype.element()
    if elem is None:
        return None
    if elem.kind in ("float", "int", "vector") and elem.prec in DTYPE_BYTES:
        return elem.prec
    return None


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    ints = ("int", "uint", "bool")
    return a.startswith(ints) and b.startswith(ints) and DTYPE_BYTES[a] == DTYPE_BYTES[b]


def root_of(name: str) -> str:
    return name.split(SEP)[0]


def convert(low, v, to, node):
    """`v` (a pointer value into an array) seen as a pointer of type `to`: the same array when the
    element types agree, else the view of the buffer with `to`'s element type, its offset converted
    into the view's elements.  A conversion that cannot be expressed exactly (an offset that is
    not a whole number of the view's elements, a row pointer into a multi-dimensional array) is an
    unknown pointer, with SR110."""
    if v.ctype.kind == "class" and to.is_pointer:  # `T *s = SharedMemory<T>();`: its `operator T *()`
        v = replace(low.class_conversion(v, to, node), ctype=to)
    if v.array is None or not to.is_pointer:
        return v
    if to.kind == "ptr" and to.base is not None and to.base.kind == "class":
        covered = _class_bits(low, to.base, low.kernel.arrays[v.array].dtype)
        if covered is not None:  # `*reinterpret_cast<const x128 *>(x + i)`: the elements it covers
            return replace(v, ctype=covered)
    view_t = dtype_of(to)
    kernel = low.kernel
    cur = kernel.arrays[v.array]
    if view_t is None or _same(view_t, cur.dtype):
        return replace(v, ctype=to)
    covered = _bits_of(to, cur.dtype)
    if covered is not None:
        return replace(v, ctype=covered)
    root = root_of(v.array)
    base = kernel.arrays[root]
    name = root if _same(view_t, base.dtype) else f"{root}{SEP}{view_t}"
    if name not in kernel.arrays:
        kernel.arrays[name] = Array(name, view_t, (), base.space, _location(low, node))
    if v.prefix is None:
        return replace(v, ctype=to, array=name)
    if v.prefix:
        low.diag("SR110", f"`{root}`: a row of a multi-dimensional array seen as `{view_t}` elements is not "
                 "modeled; its accesses count as new elements", node)
        return replace(v, ctype=to, array=name, prefix=None, why="cast of a row pointer")
    offset = sympy.expand(sympy.sympify(v.offset) * DTYPE_BYTES[cur.dtype] / DTYPE_BYTES[view_t])
    if not all(c.is_integer for c in offset.as_coefficients_dict().values()):
        low.diag("SR110", f"`{root}`: an offset in {cur.dtype} elements that is not provably a whole number of "
                 f"{view_t} elements; the accesses through this cast count as new elements", node)
        return replace(v, ctype=to, array=name, prefix=None, why="offset not a whole number of elements")
    return replace(v, ctype=to, array=name, offset=offset)


def _bits_of(to, dtype: str):
    """An integer (vector) pointer over a floating-point buffer moves raw bits: `int4 *` over
    floats is the 16 bytes of 4 consecutive floats (the 128-bit load of vectorized kernels), so it
    is a pointer to a vector of the buffer's own elements: each access reads the elements it covers
    and the buffer keeps its type.  None when the widths do not divide."""
    elem = to.base if to.kind == "ptr" else to.element()
    if elem is None or elem.kind not in ("int", "vector") or dtype not in _FLOATS:
        return None
    if elem.kind == "vector" and elem.prec in _FLOATS:
        return None
    total = DTYPE_BYTES.get(elem.prec, 0) * (elem.lanes if elem.kind == "vector" else 1)
    size = DTYPE_BYTES[dtype]
    if not total or total % size:
        return None
    from .types import CType

    lanes = total // size
    return CType("ptr", base=CType("vector", dtype, lanes=lanes) if lanes > 1 else CType("float", dtype))


_FLOATS = ("fp64", "fp32", "fp16", "bf16", "fp8")


def _class_bits(low, cls, dtype: str):
    """A pointer to a class object over a buffer of numbers (`(const x128 *)x`): a pointer to a
    vector of the buffer's elements as many as the object's bytes cover, or None.  The object's bytes
    come from the lowering's `class_sizeof` (the CUDA front end's class model; C has no classes)."""
    size = DTYPE_BYTES.get(dtype)
    try:
        total = low.class_sizeof(cls)
    except Exception:  # a class the file does not define: the access is what the lowering says
        return None
    if not size or not total or total % size:
        return None
    from .types import CType

    lanes = total // size
    elem = CType("float", dtype) if dtype in _FLOATS else CType("int", dtype)
    return CType("ptr", base=CType("vector", dtype, lanes=lanes) if lanes > 1 else elem)


def _location(low, node):
    return node_location(node, low.tu.path)


def resolve_views(kernel, body: list) -> None:
    """After lowering: a buffer reached through one view only becomes that view (its name, the
    view's element type); a buffer reached through several is SR110, each view its own array."""
    views = [n for n in kernel.arrays if SEP in n]
    if not views:
        return
    used = {r.array for s in _stmts(body) for r in s.refs}
    for root in sorted({root_of(n) for n in views}):
        mine = [n for n in views if root_of(n) == root]
        reached = [n for n in [root] + mine if n in used]
        for n in mine:
            if n not in used:
                del kernel.arrays[n]
        if len(reached) == 1 and reached[0] != root:
            view = kernel.arrays.pop(reached[0])
            base = kernel.arrays[root]
            kernel.arrays[root] = Array(root, view.dtype, (), base.space, base.location)
            _rename(body, reached[0], root)
        elif len(reached) > 1:
            types = " and as ".join(kernel.arrays[n].dtype for n in reached)
            where = next(kernel.arrays[n].location for n in reached if n != root)
            kernel.diag("SR110", f"`{root}` is accessed both as {types} (a cast view of one buffer): the views alias, "
                        f"which is not modeled; each is counted as its own array ({', '.join(reached)})", where)


def _stmts(nodes):
    return (n for n in walk(nodes) if isinstance(n, Stmt))


def _rename(body, old: str, new: str) -> None:
    for s in _stmts(body):
        for r in s.refs:
            if r.array == old:
                r.array = new
