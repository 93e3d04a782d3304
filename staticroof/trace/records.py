"""Structs in a traced kernel: not yet traceable, said plainly.

The runtime books an access to the array its pointer points into, element by element; a member
of an array of structs (`b[i].x`, which the analysis counts as the array `b[].x`) and a size
held in a struct (`p->n`, the size `p.n`) would need member-wise booking and struct arguments
built by the driver.  Until then a kernel that uses structs is refused with a TraceError naming
the construct, rather than run with counts that cannot match the analysis's names.
"""

from __future__ import annotations

import re

from pycparser import c_ast

from . import TraceError

# CUDA's vector types are structs in the trace's prelude, but element vectors to the analysis.
_VECTOR = re.compile(r"^(u?char|u?short|u?int|u?long|u?longlong|float|double|__half|half|__nv_bfloat16)[1-4]$|^dim3$")


def _struct_name(t, typedefs: dict, depth: int = 0) -> str | None:
    """The struct or union a declared type is (through pointers, arrays and typedefs), or None."""
    while isinstance(t, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl)):
        t = t.type
    if isinstance(t, (c_ast.Struct, c_ast.Union)):
        return t.name or "an anonymous struct"
    if isinstance(t, c_ast.IdentifierType) and len(t.names) == 1 and depth < 16:
        name = t.names[0]
        if _VECTOR.match(name) or name not in typedefs:
            return None
        inner = _struct_name(typedefs[name], typedefs, depth + 1)
        return name if inner is not None else None
    return None


def refuse_structs(fn: c_ast.FuncDef, ext) -> None:
    """TraceError if the kernel takes a struct by value or reaches a member of a struct (other than
    taking the address of one a pointer points at, `&args->t1`)."""
    typedefs = {n.name: n.type for n in ext if isinstance(n, c_ast.Typedef)}
    params = fn.decl.type.args.params if fn.decl.type.args else []
    for p in params:
        t = getattr(p, "type", None) if isinstance(p, c_ast.Decl) else None
        name = _struct_name(t, typedefs) if t is not None and not isinstance(t, c_ast.PtrDecl) else None
        if name is not None:
            raise TraceError(f"`{p.name}` is a struct ({name}) passed by value: such kernels cannot be traced yet")
    structs = {p.name for p in params if isinstance(p, c_ast.Decl) and _struct_name(p.type, typedefs) is not None}
    for n in ext:
        if isinstance(n, c_ast.Decl) and n.name and _struct_name(n.type, typedefs) is not None:
            structs.add(n.name)

    def visit(node):
        if isinstance(node, c_ast.Decl) and node.name and _struct_name(node.type, typedefs) is not None:
            structs.add(node.name)
        if isinstance(node, c_ast.UnaryOp) and node.op == "&" and _address_only(node.expr):
            return  # `&args->t1` handed to a timer: an address, no access
        if isinstance(node, c_ast.StructRef):
            root = node.name
            while isinstance(root, (c_ast.StructRef, c_ast.ArrayRef)):
                root = root.name
            if node.type == "->" or (isinstance(root, c_ast.ID) and root.name in structs):
                c = node.coord
                where = f"{c.file}:{c.line}: " if c is not None else ""
                raise TraceError(f"{where}struct member access: kernels using structs cannot be traced yet")
        for _, child in node.children():
            visit(child)

    visit(fn.body)


def _address_only(node) -> bool:
    """`p->t1` or `p->t.sub`: a member of the struct a pointer points at, reached without subscripts."""
    while isinstance(node, c_ast.StructRef):
        if node.type == "->":
            return isinstance(node.name, c_ast.ID)
        node = node.name
    return False
