"""Statement-level recovery: a construct the lowering does not model costs the statement it is in.

The lowering raises `Unsupported` wherever it meets something it cannot model.  Caught here, per
source statement, the statement is dropped from the IR (everything it had emitted is taken back),
an SR123 warning names the construct and what was not counted, and lowering goes on with the next
statement: one `goto`, one call through a function pointer, costs that statement and never the
kernel.  A loop or `if` whose header fails is dropped whole (its body's own failures are caught
at the body's statements, so only a header failure reaches the loop's level).

A dropped statement leaves the variables it declares or assigns *unknown* rather than stale, so a
later use fails (or becomes a non-affine warning) on its own instead of silently using a value the
dropped statement would have changed.  SR123 marks the result approximate, so a dropped write is
never part of an exact result.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from ..common.lowering import Unsupported
from .values import Var, assigned_names

_COMPOUND = {c_ast.For: "`for` loop", c_ast.While: "`while` loop", c_ast.DoWhile: "`do` loop",
             c_ast.If: "`if` statement", c_ast.Switch: "`switch` statement"}


def guarded(low, node, lower_one):
    """`lower_one(node)` with recovery: its result, or None when the statement was dropped."""
    out, n_out = low.out, len(low.out)
    acc = low.acc
    snapshot = (dict(acc.flops), dict(acc.special), list(acc.refs), list(acc.scalars))
    n_scopes, depth, loop_syms = len(low.scopes), low.depth, set(low.loop_syms)
    in_loop_body = low.in_loop_body
    try:
        return lower_one(node)
    except (Unsupported, RecursionError) as e:
        del out[n_out:]
        low.out = out
        acc.flops, acc.special, acc.refs, acc.scalars = snapshot
        low.acc = acc
        del low.scopes[n_scopes:]
        low.depth, low.loop_syms, low.in_loop_body = depth, loop_syms, in_loop_body
        low.cond_why = ""
        _report(low, node, e)
        _forget(low, node)
        return None


def _report(low, node, e) -> None:
    what = f"unsupported {e}" if isinstance(e, Unsupported) else "expression nesting too deep"
    where = getattr(e, "node", None) or node
    kind = _COMPOUND.get(type(node))
    line = getattr(getattr(node, "coord", None), "line", 0)
    if kind is not None:
        dropped = f"the whole {kind} at line {line} is not counted (its work and traffic)"
    elif where is not node and line:
        dropped = f"the statement at line {line} is not counted (its work and traffic)"
    else:
        dropped = "this statement is not counted (its work and traffic)"
    low.diag("SR123", f"{what}: {dropped}", where)


def _forget(low, node) -> None:
    """Variables the dropped statement declares or assigns are unknown from here on."""
    line = getattr(getattr(node, "coord", None), "line", 0)
    why = f"set by a statement that is not modeled (line {line})"
    decls = node.decls if isinstance(node, c_ast.DeclList) else [node] if isinstance(node, c_ast.Decl) else []
    for d in decls:
        if d.name and not isinstance(d.type, c_ast.FuncDecl):
            t = low.tu.types.resolve(d.type)
            low.bind(d.name, Var(t, value=None, why=f"`{d.name}` is {why}"))
    assigned, declared = assigned_names(node)
    for name in assigned - declared:
        var = low.lookup(name)
        if var is None:
            continue
        if var.ctype.is_int:
            low._assign_in_scope(name, replace(var, value=None, why=f"`{name}` is {why}"))
        elif var.ctype.is_pointer and var.array is not None:
            low._assign_in_scope(name, replace(var, prefix=None, why=f"`{name}` is {why}"))
