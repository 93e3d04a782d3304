"""C structs and unions: their layout as a C compiler lays them out, and member access.

Layouts follow the System V x86-64 ABI (which CUDA shares): members at offsets rounded up to
their alignment, a struct's size rounded up to its largest alignment, unions sized by their
largest member, bit-fields packed into units of their declared type that they never straddle
(a zero-width one closes the unit; an unnamed one does not align the struct), anonymous
members' fields reachable from the parent.  `sizeof` and the reports' record sizes come from
here, so a lint can set the bytes a kernel touches against the bytes an array of structures
drags through the memory system.

Member access (the lowering's `_e_StructRef` delegates here) follows one model:
- A struct held in a variable (a by-value parameter, a local, a file-scope variable) is a set
  of member variables: an integer member of a parameter or global is the size `s.n` (`-D s.n=`),
  a pointer member points to the array `s.a`, an array member is the array `s.data`.
- A struct in memory (`p->x`, `b[i].x`) is reached through the kernel array of structs.  An
  integer member of the struct a pointer points at (`p->n`, index 0) is the size `p.n`, read once
  like a parameter, not traffic; every other member the kernel touches is its own array, indexed
  like the struct (plus the member's own subscripts), tagged with its parent, the struct's size
  and its offset (ir.Array): compulsory Q counts exactly the member bytes touched.  A pointer
  member of `p` points to the array `p->a`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import sympy
from pycparser import c_ast

from ...ir import DTYPE_BYTES
from ..common.lowering import Unsupported
from ..common.preprocess import SIZE_MARK
from .types import INT, CType
from .values import Val, Var, node_location

# ---------------------------------------------------------------------------------------------
# Layouts

@dataclass(frozen=True)
class Member:
    name: str | None  # None: an anonymous struct/union member or an unnamed bit-field
    ctype: CType
    offset: int | None  # bytes from the start of the struct (None: after a member of unknown size)
    size: int | None
    bits: int | None = None  # bit-field width
    bit_offset: int = 0  # bit-fields: the first bit within the byte at `offset`


@dataclass(frozen=True)
class Layout:
    key: str
    size: int | None  # None when some member's size is unknown
    align: int
    members: tuple
    union: bool = False


def _round(n: int, a: int) -> int:
    return -(-n // a) * a


def const_int(tu, node) -> int | None:
    """The value of an integer constant expression (array extents, bit-field widths), or None."""
    if isinstance(node, c_ast.Constant):
        if node.type == "char":
            return None
        try:
            text = node.value.rstrip("uUlL")
            return int(text, 8) if len(text) > 1 and text.startswith("0") and text.isdigit() else int(text, 0)
        except ValueError:
            return None
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name == SIZE_MARK:
        size, default = node.args.exprs
        value = tu.bindings.get(size.name) if tu is not None else None
        return value if value is not None else const_int(tu, default)
    if isinstance(node, c_ast.ID):
        return tu.enums.get(node.name) if tu is not None else None
    if isinstance(node, c_ast.Cast):
        return const_int(tu, node.expr)
    if isinstance(node, c_ast.UnaryOp):
        if node.op == "sizeof":
            t = tu.types.resolve(node.expr) if isinstance(node.expr, c_ast.Typename) else None
            sa = size_align(tu, t) if t is not None else None
            return sa[0] if sa else None
        v = const_int(tu, node.expr)
        return None if v is None else {"-": -v, "+": v, "~": ~v}.get(node.op)
    if isinstance(node, c_ast.BinaryOp):
        a, b = const_int(tu, node.left), const_int(tu, node.right)
        if a is None or b is None:
            return None
        ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "<<": lambda: a << b,
               ">>": lambda: a >> b, "/": lambda: int(a / b) if b else None,
               "%": lambda: a - int(a / b) * b if b else None}
        return ops[node.op]() if node.op in ops else None
    return None


def _vector_align(t: CType) -> int:
    elem = DTYPE_BYTES.get(t.prec, 4)
    size = elem * t.lanes
    return min(size, 16) if t.lanes in (2, 4) else elem


def size_align(tu, t: CType) -> tuple | None:
    """(sizeof, alignof) of a type, or None when unknown (an opaque type, a runtime extent)."""
    if t is None:
        return None
    if t.kind in ("float", "int"):
        n = DTYPE_BYTES.get(t.prec, 4)
        return n, n
    if t.kind == "vector":
        return DTYPE_BYTES.get(t.prec, 4) * t.lanes, _vector_align(t)
    if t.kind == "ptr":
        return 8, 8
    if t.kind == "array":
        inner = size_align(tu, t.pointee)
        if inner is None:
            return None
        n = 1
        for d in t.dims:
            v = const_int(tu, d) if d is not None else None
            if v is None:
                return None
            n *= v
        return n * inner[0], inner[1]
    if t.kind == "struct":
        lay = layout(tu, t)
        return None if lay is None or lay.size is None else (lay.size, lay.align)
    return None


def layout(tu, t: CType | None) -> Layout | None:
    """The layout of a struct or union type (None when its definition is not in the file)."""
    if t is None or t.kind != "struct":
        return None
    cache = tu.types.__dict__.setdefault("layouts", {})
    if t.prec in cache:
        return cache[t.prec]
    node = tu.types.records.get(t.prec)
    if node is None:
        return None
    cache[t.prec] = None  # a struct containing itself (only through a pointer) stays finite
    cache[t.prec] = lay = _lay_out(tu, t.prec, node)
    return lay


def _lay_out(tu, key: str, node) -> Layout:
    union = isinstance(node, c_ast.Union)
    members, align, bit, size, known = [], 1, 0, 0, True
    for d in node.decls or []:
        t = tu.types.resolve(d.type)
        sa = size_align(tu, t)
        if sa is None and t.kind == "array" and t.dims and t.dims[0] is None:
            inner = size_align(tu, t.base)  # a flexible array member: no size, its element's alignment
            sa = (0, inner[1]) if inner else None
        if sa is None:  # an opaque member: the offsets after it are unknown
            known = False
            members.append(Member(d.name, t, None, None))
            continue
        s, a = sa
        if d.bitsize is not None:
            w = const_int(tu, d.bitsize) or 0
            start = 0 if union else bit
            if w == 0:
                bit = _round(bit, a * 8)
                continue
            if start // (s * 8) != (start + w - 1) // (s * 8):  # never straddles a unit of its type
                start = _round(start, s * 8)
            members.append(Member(d.name, t, start // 8 if known else None, -(-w // 8), w, start % 8))
            if d.name:  # an unnamed bit-field does not align the struct
                align = max(align, a)
            bit = start + w if not union else bit
            size = max(size, -(-w // 8))
            continue
        off = 0 if union else _round(-(-bit // 8), a)
        members.append(Member(d.name, t, off if known else None, s))
        align = max(align, a)
        if union:
            size = max(size, s)
        else:
            bit = (off + s) * 8
    total = _round(size if union else -(-bit // 8), align) if known else None
    return Layout(key, total, align, tuple(members), union)


def find(tu, t: CType, name: str) -> tuple | None:
    """(offset | None, member type) of member `name`, looking through anonymous members."""
    lay = layout(tu, t)
    if lay is None:
        return None
    for m in lay.members:
        if m.name == name:
            return m.offset, m.ctype
        if m.name is None and m.ctype.kind == "struct":
            inner = find(tu, m.ctype, name)
            if inner is not None:
                off = None if m.offset is None or inner[0] is None else m.offset + inner[0]
                return off, inner[1]
    return None


def leaves(tu, t: CType, path=(), offset=0) -> list:
    """(path, offset, type) of every non-struct member: what a struct copy moves.  A union moves
    its largest member."""
    lay = layout(tu, t)
    if lay is None:
        return []
    members = [m for m in lay.members if m.name is not None or m.ctype.kind == "struct"]
    if lay.union and members:
        members = [max(members, key=lambda m: m.size or 0)]
    out = []
    for m in members:
        off = None if offset is None or m.offset is None else offset + m.offset
        sub = path + ((m.name,) if m.name else ())
        if m.ctype.kind == "struct":
            out += leaves(tu, m.ctype, sub, off)
        elif m.bits is None or m.name:
            out.append((sub, off, m.ctype))
    return out


def sizeof(tu, t: CType) -> int | None:
    sa = size_align(tu, t)
    return None if sa is None else sa[0]


# ---------------------------------------------------------------------------------------------
# Member access in the lowering

@dataclass
class StructVar:
    """A struct held in a variable: its members as variables, created when first used."""

    label: str  # how its members are named: `s` -> `s.n`, `s.data`
    kind: str  # "param" | "local" | "global"
    fields: dict = field(default_factory=dict)  # name -> Var


@dataclass
class InMemory:
    """A struct (or a struct member of one) in a kernel array: `p->inner`, `b[i].pos`."""

    array: str  # the array of structs
    index: tuple | None  # which struct (None: not affine)
    why: str
    path: tuple = ()  # member names from the struct to here
    offset: int | None = 0  # bytes from the struct's start
    root: CType | None = None  # the struct type of the array's elements


@dataclass
class SizeMember:
    """An integer member read as a size (`p->n` is `p.n`): a store to it is said, not followed."""

    name: str


@dataclass
class Slot:
    """A scalar member of a struct variable as an lvalue (so that `s.n = 4` updates `s.n`)."""

    owner: StructVar
    name: str


def variable(low, name: str, t: CType, kind: str):
    """The variable for a struct named `name` (a parameter, local or file-scope variable)."""
    return Var(t, record=StructVar(name, kind))


def member(low, node: c_ast.StructRef, base, acc):
    """The lowering of `base.field` / `base->field` (`base` already evaluated, not loaded)."""
    name = node.field.name
    if node.type == "->":
        if base.array is None:
            raise Unsupported(f"`->{name}` through a pointer the analysis does not know", node)
        base = low._subscript(base, [Val(INT, sympy.Integer(0))], node)
    t = base.ctype
    if t.kind != "struct":
        raise Unsupported(f"member `{name}` of something that is not a struct", node)
    found = find(low.tu, t, name)
    if found is None:
        raise Unsupported(f"`{name}` is not a member of a struct defined in this file", node)
    offset, mt = found
    where = base.record
    if base.element is not None:
        array, index, why = base.element
        where = InMemory(array, index, why, (), 0, t)
    if isinstance(where, StructVar):
        return _var_member(low, where, name, mt, node)
    if isinstance(where, InMemory):
        off = None if where.offset is None or offset is None else where.offset + offset
        return _memory_member(low, where, name, off, mt, node)
    raise Unsupported("member of a struct value the analysis does not track", node)


def _var_member(low, sv: StructVar, name: str, mt: CType, node):
    var = sv.fields.get(name)
    label = f"{sv.label}.{name}"
    if var is None:
        if mt.kind == "struct":
            var = Var(mt, record=StructVar(label, sv.kind))
        elif mt.is_int:
            var = Var(mt, value=low.size_symbol(label, origin="struct member")) \
                if sv.kind in ("param", "global") else Var(mt, why=f"`{label}` is not initialized or copied")
        elif mt.kind == "ptr":
            var = Var(mt, array=low.new_array(label, mt, "global", node))
        elif mt.kind == "array":
            dims = [low.dim_expr(x) for x in mt.all_dims()]
            const = all(x is not None and low.compile_time(x).is_Integer for x in dims)
            space = "global" if sv.kind == "global" or not const else "local"
            var = Var(mt, array=low.new_array(label, mt, space, node))
        else:
            var = Var(mt)
        sv.fields[name] = var
    if var.record is not None:
        return Val(var.ctype, record=var.record)
    if var.ctype.is_pointer and var.array is not None:
        if var.prefix is None:
            return Val(var.ctype, why=var.why or "pointer changes inside the loop", array=var.array, prefix=None)
        return Val(var.ctype, array=var.array, prefix=var.prefix, offset=var.offset)
    if var.ctype.is_int:
        return Val(var.ctype, var.value, var.why, record=Slot(sv, name))
    return Val(var.ctype, record=Slot(sv, name))


def _const_index(low, where: InMemory) -> bool:
    """Is this the struct a pointer points at, the same in every iteration (`p->n`, `p[0].n`)?"""
    return (where.index is not None and not where.why and len(where.index) >= 1
            and all(sympy.sympify(e) == 0 for e in where.index))


def _memory_member(low, where: InMemory, name: str, offset, mt: CType, node):
    path = where.path + (name,)
    dotted = ".".join(path)
    if mt.kind == "struct":
        return Val(mt, record=replace(where, path=path, offset=offset))
    single = _const_index(low, where)
    if mt.is_int and single:
        size = f"{where.array}.{dotted}".replace("->", ".").replace("[]", "")  # bindable: -D p.q.n=
        return Val(mt, low.size_symbol(size, origin="struct member"), record=SizeMember(size))
    if mt.kind == "ptr":
        target = _array(low, f"{where.array}->{dotted}", mt, node, None, None)
        if single:
            return Val(mt, array=target, prefix=(), offset=0)
        why = where.why or f"`{where.array}[].{dotted}` is a pointer read from each struct"
        return Val(mt, array=target, prefix=None, why=why)
    lanes = mt.lanes if mt.is_vector and mt.lanes > 1 else 0
    member_t = CType("array", base=mt.base, dims=mt.dims) if mt.kind == "array" else mt
    arr = _member_array(low, where, path, dotted, member_t, offset, lanes, node)
    index = where.index
    if mt.kind == "array":
        prefix = tuple(index) if index is not None else None
        return Val(mt, array=arr, prefix=prefix, offset=0, why=where.why if index is None else "")
    if index is not None and lanes:
        index = tuple(index) + (sympy.Integer(0),)
    return Val(mt, element=(arr, index, where.why))


def _array(low, name, t, node, dims, space="global"):
    """The kernel array named `name`, created on first use."""
    if name in low.kernel.arrays:
        return name
    made = low.new_array(name, t, space or "global", node)
    if dims is not None:
        low.kernel.arrays[made].dims = dims
    return made


def _member_array(low, where: InMemory, path, dotted, mt: CType, offset, lanes, node) -> str:
    """The array of one member of an array of structs: one per (parent array, member path)."""
    for name, a in low.kernel.arrays.items():
        if a.parent == where.array and a.member == dotted:
            return name
    parent = low.kernel.arrays[where.array]
    outer = tuple(parent.dims) if parent.dims else (None,)
    inner = tuple(low.dim_expr(d) for d in mt.all_dims()) if mt.kind == "array" else ()
    dims = outer + inner + ((sympy.Integer(lanes),) if lanes else ())
    single = _const_index(low, where)
    label = f"{where.array}->{dotted}" if single else f"{where.array}[].{dotted}"
    name = low.new_array(label, mt, parent.space, node)
    arr = low.kernel.arrays[name]
    arr.dims = dims
    arr.parent, arr.member, arr.member_offset = where.array, dotted, offset
    arr.record_bytes = sizeof(low.tu, where.root) if where.root is not None else None
    return name


# ---------------------------------------------------------------------------------------------
# Whole structs: copies, stores, declarations

def _leaf_refs(low, where: InMemory, kind: str, acc, node, limit: int = 256) -> None:
    """Every member a struct copy moves, read or written, as references to the member arrays."""
    from ...ir import Ref

    t = where.root
    assert t is not None  # set by both constructors (member(), _in_memory())
    sub_t = t
    for name in where.path:  # the type at this path
        found = find(low.tu, sub_t, name)
        assert found is not None  # the path was built member by member (member())
        sub_t = found[1]
    for path, off, lt in leaves(low.tu, sub_t):
        if lt.kind == "ptr" or (lt.is_int and _const_index(low, where)):
            continue  # pointers and the sizes of a pointed-at struct are not data
        full = where.path + path
        dotted = ".".join(full)
        lanes = lt.lanes if lt.is_vector and lt.lanes > 1 else 0
        base_off = None if where.offset is None or off is None else where.offset + off
        arr = _member_array(low, where, full, dotted, lt, base_off, lanes, node)
        extents = []
        if lt.kind == "array":
            extents = [const_int(low.tu, d) if d is not None else None for d in lt.all_dims()]
        if lanes:
            extents.append(lanes)
        if None in extents or _count(extents) > limit:
            low.diag("SR101", f"copy of `{where.array}` moves the array member `{dotted}`, which is not counted", node)
            continue
        for sub in _indices(extents):
            index = None if where.index is None else tuple(where.index) + sub
            acc.refs.append(Ref(arr, index, kind, node_location(node, low.tu.path), where.why))


def _count(extents) -> int:
    n = 1
    for e in extents:
        n *= e
    return n


def _indices(extents):
    if not extents:
        yield ()
        return
    for k in range(extents[0]):
        for rest in _indices(extents[1:]):
            yield (sympy.Integer(k),) + rest


def _in_memory(v) -> InMemory | None:
    if v.element is not None and v.ctype.kind == "struct":
        array, index, why = v.element
        return InMemory(array, index, why, (), 0, v.ctype)
    return v.record if isinstance(v.record, InMemory) else None


def load(low, v, acc, node):
    """A struct in memory used as a value (copied): every member is read."""
    where = _in_memory(v)
    if where is not None:
        _leaf_refs(low, where, "read", acc, node)
        return Val(v.ctype, why=f"copy of a struct from `{where.array}`")
    return v


def store(low, lnode, target, v, acc, node):
    """`target = v` where target is a struct or a member of a struct variable."""
    from .views import convert

    where = _in_memory(target)
    if where is not None:
        _leaf_refs(low, where, "write", acc, node)
        return v
    rec = target.record
    if isinstance(rec, SizeMember):
        low.diag("SR102", f"store to the struct member read as the size `{rec.name}`: every read of it is "
                 "counted as that size, before and after this store", node)
        return v
    if isinstance(rec, StructVar):
        rec.fields = _copied_fields(v)
        return v
    if isinstance(rec, Slot):
        old = rec.owner.fields.get(rec.name)
        t = old.ctype if old is not None else target.ctype
        if t.is_int:
            rec.owner.fields[rec.name] = Var(t, value=v.expr if v.ctype.is_int else None,
                                             why=v.why if v.ctype.is_int else "converted from a float")
        elif t.is_pointer:
            v = convert(low, v, t, node)
            rec.owner.fields[rec.name] = Var(t, array=v.array, prefix=v.prefix, offset=v.offset, why=v.why)
        else:
            rec.owner.fields[rec.name] = Var(t)
        return v
    return Val(v.ctype)


def _copied_fields(v) -> dict:
    """The members of a struct variable after `s = v`: a copy of another variable's (by value), or
    unknown (a struct read from memory or returned by a call)."""
    if isinstance(v.record, StructVar):
        return {k: _copy_var(x) for k, x in v.record.fields.items()}
    return {}


def _copy_var(var):
    if isinstance(var.record, StructVar):
        return replace(var, record=StructVar(var.record.label, var.record.kind, {
            k: _copy_var(x) for k, x in var.record.fields.items()}))
    return replace(var)


def argument(v, name: str) -> StructVar | None:
    """The members of a struct passed by value to an inlined function: a copy of the caller's
    (named as the caller names them, so `p.n` stays one size), or unknown (copied from memory)."""
    if v.ctype.kind != "struct":
        return None
    if isinstance(v.record, StructVar):
        return StructVar(v.record.label, v.record.kind, _copied_fields(v))
    return StructVar(name, "copy")


def declare(low, d: c_ast.Decl, t: CType) -> None:
    """`struct S s;`, `S s = b[i];`, `S s = {1, 2};`, `S s = other;`: a local struct variable."""
    sv = StructVar(d.name, "local")
    if isinstance(d.init, c_ast.InitList):
        _initialize(low, sv, t, d.init)
    elif d.init is not None:
        v = load(low, low.expr(d.init, low.acc), low.acc, d.init)
        sv.fields = _copied_fields(v)
        if not sv.fields:  # copied from memory or a call: integer members are unknown
            sv.kind = "copy"
    low.bind(d.name, Var(t, record=sv))


def _initialize(low, sv: StructVar, t: CType, init: c_ast.InitList) -> None:
    """Members from an initializer list: positional and designated (`.n = 4`)."""
    lay = layout(low.tu, t)
    names = [m.name for m in lay.members if m.name] if lay is not None else []
    k = 0
    for e in init.exprs:
        name = None
        if isinstance(e, c_ast.NamedInitializer) and len(e.name) == 1 and isinstance(e.name[0], c_ast.ID):
            name = e.name[0].name
            k = names.index(name) + 1 if name in names else k
            e = e.expr
        elif k < len(names):
            name, k = names[k], k + 1
        if isinstance(e, c_ast.InitList) or name is None:
            continue
        v = low.value(e, low.acc)
        found = find(low.tu, t, name)
        if found is None:  # `.bogus = 2`
            raise Unsupported(f"`.{name}` in an initializer is not a member of a struct defined in this file", e)
        mt = found[1]
        if mt.is_int:
            sv.fields[name] = Var(mt, value=v.expr if v.ctype.is_int else None, why=v.why or "converted")
    for name in names[k:] if not any(isinstance(e, c_ast.NamedInitializer) for e in init.exprs) else []:
        found = find(low.tu, t, name)  # `names` are the layout's own: always found
        if found is not None and found[1].is_int:  # members an initializer list leaves out are zero
            sv.fields[name] = Var(found[1], value=sympy.Integer(0))


def invalidate(var, name: str):
    """A struct variable assigned inside a loop: its integer members are unknown there."""
    if not isinstance(var.record, StructVar):
        return var
    out = {}
    for k, x in var.record.fields.items():
        if isinstance(x.record, StructVar):
            out[k] = invalidate(x, f"{name}.{k}")
        elif x.ctype.is_int:
            out[k] = replace(x, value=None, why=f"`{name}.{k}` changes inside the loop")
        elif x.ctype.is_pointer and x.array is not None:
            out[k] = replace(x, prefix=None)
        else:
            out[k] = x
    return replace(var, record=StructVar(var.record.label, var.record.kind, out))


def tag_typedefs(items) -> str:
    """`typedef struct Params Params;` for every `struct Params {...};` of a C++ file (C++ names a
    struct by its tag alone), unless the file already typedefs that name."""
    tags: list = []
    typedefs: set = set()
    for it in items:
        texts = [t.text for t in it.tokens]
        if "typedef" in texts:
            typedefs.update(texts[k - 1] for k, x in enumerate(texts) if x == ";" and k > 0)
        elif not it.is_function and len(texts) > 2 and texts[0] in ("struct", "union") and texts[2] == "{":
            tags.append((texts[0], texts[1]))
    text = "".join(f"typedef {kw} {tag} {tag};\n" for kw, tag in dict.fromkeys(tags) if tag not in typedefs)
    # not under the prelude's file name: the trace keeps these declarations when it compiles the file
    return '#line 1 "<cuda-struct-tags>"\n' + text if text else ""


__all__ = ["Layout", "Member", "layout", "size_align", "sizeof", "find", "leaves", "member", "variable",
           "argument", "declare", "load", "store", "invalidate", "tag_typedefs"]


def unknown(var: Var, name: str, why: str) -> Var:
    """`var` with what a changing value leaves unknown: an integer's value, a struct's members, a
    pointer's position (anything else, a float, carries no value)."""
    if var.ctype.is_int:
        return replace(var, value=None, why=f"`{name}` {why}")
    if var.record is not None:
        return invalidate(var, name)
    if var.ctype.is_pointer and var.array is not None:
        return replace(var, prefix=None)
    return var
