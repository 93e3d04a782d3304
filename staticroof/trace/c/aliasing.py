"""The trace's own reading of C's aliasing rules, for the register rule (instrument.py): whether a
reference that does not change in its innermost loop may stay in a register across that loop.

It may not when the compiler must assume that a store in the loop changes what it reads, or that
its store changes what another load of the loop reads: the reference writes its pointer (or the
loop writes that pointer anywhere) and another pointer that may alias it is read or written in the
loop, or it reads and another pointer that may alias it is written in the loop.  Two pointers may
alias when both are pointer parameters of the function, neither is `restrict`, and their element
types may overlap under strict aliasing: compatible types, integers of one size (signed or not), or
either a byte (`char`).  The element types are compared by the C compiler itself
(`__builtin_types_compatible_p`), so typedefs need no reading here.  Written apart from the
analysis (staticroof.registers), whose rule the trace checks.
"""

from __future__ import annotations

from pycparser import c_ast

from .program import names_read, pointer_depth


def pointer_params(fn: c_ast.FuncDef) -> dict:
    """name -> (restrict?, pointer depth) of the function's pointer and array parameters."""
    out = {}
    args = fn.decl.type.args.params if fn.decl.type.args else []
    for p in args:
        if not isinstance(p, c_ast.Decl) or not p.name:
            continue
        t = p.type
        depth = pointer_depth(t)
        if depth == 0:
            continue
        quals = list(getattr(t, "quals", None) or []) + list(getattr(t, "dim_quals", None) or [])
        out[p.name] = ("restrict" in quals or "__restrict__" in quals or "__restrict" in quals, depth)
    return out


def derived_pointers(fn: c_ast.FuncDef, params: dict) -> dict:
    """Local pointers set once from a pointer parameter (`const float *row = att + t * T;`): name ->
    the parameter they point into (the element type and `restrict` are the parameter's)."""
    out: dict = {}

    def visit(n):
        if isinstance(n, c_ast.Decl) and n.name and isinstance(n.type, c_ast.PtrDecl) and n.init is not None:
            roots = {out.get(m, m) for m in names_read(n.init)} & set(params)
            if len(roots) == 1 and n.name not in params:
                out[n.name] = roots.pop()
        for _, child in n.children():
            visit(child)

    if fn.body is not None:
        visit(fn.body)
    return out


def pointer_name(node) -> str | None:
    """The variable an access indexes (`a` in `a[i][j]`, `*(a + i)`, `*a`), or None."""
    if isinstance(node, c_ast.ArrayRef):
        n = node.name
        while isinstance(n, c_ast.ArrayRef):
            n = n.name
        return n.name if isinstance(n, c_ast.ID) else None
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        e = node.expr
        while isinstance(e, c_ast.Cast):
            e = e.expr
        if isinstance(e, c_ast.ID):
            return e.name
        if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
            for side in (e.left, e.right):
                if isinstance(side, c_ast.ID):
                    return side.name
    return None


def _is_access(n) -> bool:
    return isinstance(n, c_ast.ArrayRef) or (isinstance(n, c_ast.UnaryOp) and n.op == "*")


def touched(*nodes) -> tuple[set, set]:
    """(pointers accessed, pointers written) under the nodes (a loop's body, condition and step); the
    element an atomic takes the address of (`atomicAdd(&y[i], v)`) counts as written."""
    used: set = set()
    written: set = set()

    def visit(n):
        if _is_access(n):
            used.add(pointer_name(n))
        if isinstance(n, c_ast.Assignment) and _is_access(n.lvalue):
            written.add(pointer_name(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and _is_access(n.expr):
            written.add(pointer_name(n.expr))
        elif isinstance(n, c_ast.UnaryOp) and n.op == "&" and _is_access(n.expr):
            used.add(pointer_name(n.expr))
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name.startswith("atomic"):
            for a in (n.args.exprs if n.args is not None else [])[:1]:
                if isinstance(a, c_ast.UnaryOp) and a.op == "&" and _is_access(a.expr):
                    written.add(pointer_name(a.expr))
        for _, child in n.children():
            visit(child)

    for node in nodes:
        if node is not None:
            visit(node)
    used.discard(None)
    written.discard(None)
    return used, written


def _element(name: str, depth: int) -> str:
    return "(" + "*" * depth + name + ")"


def may_alias_c(a: str, b: str, params: dict) -> str:
    """A C expression, true when elements of pointer parameters `a` and `b` may overlap."""
    ea, eb = _element(a, params[a][1]), _element(b, params[b][1])

    def integer(e):
        return f"(__builtin_classify_type({e}) == 1)"

    def byte(e):
        return f"({integer(e)} && sizeof({e}) == 1)"

    return (f"(__builtin_types_compatible_p(__typeof__({ea}), __typeof__({eb})) || {byte(ea)} || {byte(eb)} "
            f"|| ({integer(ea)} && {integer(eb)} && sizeof({ea}) == sizeof({eb})))")


def unheld_condition(name: str | None, kind: int, used: set, written: set, params: dict) -> str | None:
    """C for "the reference through `name` (a write when `kind`) must not stay in a register" in a
    loop touching `used` and writing `written`, or None when nothing in the loop can alias it."""
    if name is None or name not in params or params[name][0]:
        return None
    others = used if (kind or name in written) else written
    cands = sorted(b for b in others if b != name and b in params and not params[b][0])
    if not cands:
        return None
    return "(" + " || ".join(may_alias_c(name, b, params) for b in cands) + ")"
