"""The C front end's values during lowering (variables, expression values) and small pure helpers on
pycparser's AST: public, as every C module, the CUDA front end and the C trace use them (from here,
not through `frontend.py`, which imports those modules)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy
from pycparser import c_ast

from ... import costs
from ...diagnostics import Location
from ..common.tokens import integer_literal
from .types import FLOAT, CType


@dataclass
class Var:
    ctype: CType
    value: sympy.Expr | None = None  # integers: symbolic value; None = unknown
    why: str = ""  # integers: why the value is unknown
    array: str | None = None  # pointers/arrays: the kernel array they point into
    prefix: tuple | None = ()  # subscripts already applied (a row pointer `A[i]`); None: not known
    offset: object = 0  # added to the next subscript (`x + k`)
    key: str | None = None  # floating-point locals: a name unique in the kernel (see ir.Stmt.scalars)
    record: object = None  # structs: their members (structs.StructVar)
    scalar_array: bool = False  # a `__shared__` scalar: element 0 of a one-element array (cuda.py)
    alias: tuple | None = None  # a C++ reference bound to an array element: (array, index, reason)


@dataclass
class Val:
    ctype: CType
    expr: sympy.Expr | None = None
    why: str = ""
    array: str | None = None
    prefix: tuple | None = ()  # as Var's
    offset: object = 0
    element: tuple | None = None  # an lvalue array element: (array, index tuple | None, reason)
    record: object = None  # a struct or a struct member (structs.StructVar, InMemory, Slot)


def node_location(node, fallback: str = "") -> Location | None:
    c = getattr(node, "coord", None)
    if c is None:
        return Location(fallback) if fallback else None
    return Location(c.file or fallback, c.line or 0, c.column or 0)


def node_location_or_file(node, path: str) -> Location:
    """`node`'s location; the file's when the node has none."""
    c = getattr(node, "coord", None)
    return Location(path) if c is None else Location(c.file or path, c.line or 0, c.column or 0)


def value_of(var: Var | None):
    return var.value if var is not None else None


def contains(node, types) -> bool:
    if isinstance(node, types):
        return True
    return any(contains(child, types) for _, child in node.children())


def parameters(fn: c_ast.FuncDef) -> list:
    """A function definition's parameter declarations by position, named or not, without a
    variadic `...` (`f(void)` has one, unnamed, of type void)."""
    decl = fn.decl.type
    return [p for p in (decl.args.params if decl.args is not None else []) if not isinstance(p, c_ast.EllipsisParam)]


def named_arguments(low, fn: c_ast.FuncDef, args, vals):
    """(parameter, argument node, its value, parameter type) for each named parameter of `fn` that a
    call passes an argument to, in order (an unnamed one, `int /*stride*/` or `void`, binds nothing)."""
    # not strict: default arguments and a variadic tail make the lengths differ
    for p, a, v in zip(parameters(fn), args, vals, strict=False):
        if p.name is not None:
            yield p, a, v, low.tu.types.resolve(p.type)


def is_reference(low, param) -> bool:
    """Whether a parameter is a writable C++ reference (`float &y`, see TranslationUnit.references)."""
    c = param.coord
    return c is not None and (c.file, c.line, c.column) in low.tu.references


def called_names(node) -> set:
    out = set()

    def visit(n):
        if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID):
            out.add(n.name.name)
        for _, child in n.children():
            visit(child)

    visit(node)
    return out


def assigned_root(node) -> str | None:
    """The struct variable an assignment to `s.a.b` changes (None through `->` or a subscript)."""
    while isinstance(node, c_ast.StructRef) and node.type == ".":
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else None


def nodes(node):
    """Every node under `node`, itself first (depth first)."""
    yield node
    for _, child in node.children():
        yield from nodes(child)


def assigned_names(node) -> tuple[set, set]:
    """(names assigned, names declared) anywhere under `node`."""
    assigned, declared = set(), set()

    def visit(n):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, (c_ast.ID, c_ast.StructRef)):
            assigned.add(assigned_root(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and isinstance(
                n.expr, (c_ast.ID, c_ast.StructRef)):
            assigned.add(assigned_root(n.expr))
        elif isinstance(n, c_ast.Decl) and n.name:
            declared.add(n.name)
        for _, child in n.children():
            visit(child)

    visit(node)
    return assigned, declared


STATEMENT_GROUPS = itertools.count(1)  # source-statement ids (see ir.Stmt.group)


SCALAR_KEYS = itertools.count(1)  # floating-point locals (see Var.key)


COMPARISONS = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "==": sympy.Eq, "!=": sympy.Ne}


def exit_of(node):
    """"return" or "continue" if `node` always ends with one, else None."""
    if isinstance(node, c_ast.Return):
        return "return"
    if isinstance(node, c_ast.Continue):
        return "continue"
    if isinstance(node, c_ast.Compound) and node.block_items:
        return exit_of(node.block_items[-1])
    return None


def body_items(stmt) -> list:
    if stmt is None:
        return []
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


def without_exit(node) -> list:
    """The branch without its final `return`/`continue` (a returned expression is still evaluated)."""
    if isinstance(node, (c_ast.Return, c_ast.Continue)):
        return [node.expr] if isinstance(node, c_ast.Return) and node.expr is not None else []
    items = list(node.block_items or [])
    last = items.pop()
    if isinstance(last, c_ast.Return) and last.expr is not None:
        items.append(last.expr)
    return [c_ast.Compound(items, node.coord)]


def pointer_lanes(ptr: CType) -> int:
    """Array elements per step of a pointer (4 for `float4 *` into a float array)."""
    elem = ptr.base if ptr.kind == "ptr" else ptr.element()
    return elem.lanes if elem is not None and elem.is_vector else 1


def lane_indices(index, ctype: CType):
    """The element indices a load/store of `ctype` at `index` touches (a vector touches several)."""
    if index is None or not ctype.is_vector or ctype.lanes == 1:
        return [index]
    return [index[:-1] + (index[-1] + k,) for k in range(ctype.lanes)]


_ALLOCATORS = ("malloc", "calloc", "realloc", "aligned_alloc", "alloca")


def is_allocation(node, tu=None) -> bool:
    """Whether `node` returns fresh memory: a call of malloc and its kind, or of a function of the file
    that wraps one (`polybench_alloc_data`, `xmalloc`: it returns a pointer and calls one)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if not (isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID)):
        return False
    name = node.name.name
    return name in _ALLOCATORS or (tu is not None and name in allocators(tu))


def allocators(tu) -> set:
    """The functions of the file that wrap an allocation (see is_allocation), found once per file."""
    found = getattr(tu, "_allocators", None)
    if found is None:
        found = set()
        for name, fn in tu.funcs.items():
            if isinstance(fn.decl.type.type, c_ast.PtrDecl) and any(
                    isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in _ALLOCATORS
                    for n in nodes(fn.body)):
                found.add(name)
        tu._allocators = found
    return found


def loop_step(nxt):
    """(loop variable name, step) from a for-loop increment, or (None, None)."""
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID):
        if nxt.op in ("++", "p++"):
            return nxt.expr.name, 1
        if nxt.op in ("--", "p--"):
            return nxt.expr.name, -1
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID):
        name = nxt.lvalue.name
        if nxt.op in ("+=", "-="):
            return name, _signed(nxt.rvalue, -1 if nxt.op == "-=" else 1)
        if nxt.op == "=" and isinstance(nxt.rvalue, c_ast.BinaryOp) and nxt.rvalue.op in ("+", "-"):
            r = nxt.rvalue
            if isinstance(r.left, c_ast.ID) and r.left.name == name:
                return name, _signed(r.right, -1 if r.op == "-" else 1)
            if r.op == "+" and isinstance(r.right, c_ast.ID) and r.right.name == name:
                return name, _signed(r.left, 1)
    return None, None


def multiplicative_step(nxt):
    """(name, op, factor) for `s >>= c`, `s <<= c`, `s *= c`, `s /= c` or `s = s op c`, else Nones."""
    ops = {">>=": ">>", "<<=": "<<", "*=": "*", "/=": "/"}
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID):
        name, r = nxt.lvalue.name, nxt.rvalue
        if nxt.op in ops and isinstance(r, c_ast.Constant) and r.type == "int":
            v = integer_literal(r.value)
            return (name, ops[nxt.op], v) if v is not None else (None, None, None)
        if (nxt.op == "=" and isinstance(r, c_ast.BinaryOp) and r.op in (">>", "<<", "*", "/")
                and isinstance(r.left, c_ast.ID) and r.left.name == name
                and isinstance(r.right, c_ast.Constant) and r.right.type == "int"
                and integer_literal(r.right.value) is not None):
            return name, r.op, integer_literal(r.right.value)
    return None, None, None


def _signed(node, sign):
    if isinstance(node, c_ast.Constant) and node.type == "int" and integer_literal(node.value) is not None:
        return sign * integer_literal(node.value)
    if sign == 1:
        return node
    return c_ast.UnaryOp("-", node, node.coord)


def char_value(text: str) -> int:
    body = text.strip("'")
    if body.startswith("\\"):
        esc = {"n": 10, "t": 9, "0": 0, "r": 13, "\\": 92, "'": 39}
        return esc.get(body[1:2], 0)
    return ord(body[0]) if body else 0


def basic_sizeof(t: CType) -> int:
    from ...ir import DTYPE_BYTES

    if t.kind == "array":
        return 8
    if t.kind == "ptr":
        return 8
    if t.kind in ("float", "int"):
        return DTYPE_BYTES.get(t.prec, 4)
    return 1


def guess_math_type(name: str, vals) -> CType:
    if name.endswith("f") and name[:-1] in costs.table():
        return FLOAT["fp32"]
    return FLOAT["fp64"]

