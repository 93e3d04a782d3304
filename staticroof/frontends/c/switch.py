"""`switch` statements as guards.

`switch (e) { case 1: A; case 2: B; break; default: D; }` runs, for each value of `e`, the
statements from the matching label on until the first `break` (falling through the labels in
between).  So each label position is an entry whose *run* is the statements from there to the
first `break`; the entries' conditions (`e == 1`, `e == 2`, otherwise) are disjoint, and the
switch is the chain `if (e == 1) {A; B} else if (e == 2) {B} else {D}`.  A `break` inside an `if`
within a case splits the rest like an early exit: `if (c) {X; break;} rest` is
`if (c) {X} else {rest}`.

When `e` is an affine integer the conditions are exact guards; otherwise (a value read from data)
every case's statements are counted once, each, under a data-dependent guard (SR104): an upper
bound on any one path, since one path runs a subset of them.
"""

from __future__ import annotations

import sympy
from pycparser import c_ast

from ...ir import Guard
from ..common.lowering import Acc, Unsupported, affine as _affine
from .values import node_location

_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)
_MAX_ITEMS = 2000  # runs duplicated by conditional breaks: beyond this, give up (SR123)


def lower(low, node: c_ast.Switch) -> None:
    v = low.value(node.cond, low.acc)
    low.emit(node)
    items = _items(node.stmt)
    flat: list = []
    entries: list = []  # (position in flat, [label values])
    default = None
    for it in items:
        if isinstance(it, (c_ast.Case, c_ast.Default)):
            pos = len(flat)
            if not entries or entries[-1][0] != pos:
                entries.append((pos, []))
            if isinstance(it, c_ast.Default):
                default = pos
            else:
                entries[-1][1].append(it.expr)
            flat.extend(it.stmts or [])
        elif entries:
            flat.append(it)
        elif isinstance(it, (c_ast.Decl, c_ast.DeclList)):
            low.statement(_uninitialized(it))  # in scope for the cases; its initializer never runs
    why = low.opaque_reason([v.expr]) if v.ctype.is_int and v.expr is not None else ""
    conds: list | None = None
    if v.ctype.is_int and v.expr is not None and not why:
        conds = []
        for _pos, labels in entries:
            eqs = []
            for label in labels:
                c = low.value(label, Acc())
                if not c.ctype.is_int or c.expr is None:
                    raise Unsupported("`case` label that is not an integer constant", label)
                lhs, rhs = low.compared(v.expr, c.expr, label)
                if not _affine(lhs - rhs, low.loop_syms, allow_size_products=True):
                    conds = None
                    break
                eqs.append(sympy.Eq(lhs, rhs))
            if conds is None:
                break
            conds.append(sympy.Or(*eqs) if eqs else sympy.false)
    loc = node_location(node, low.tu.path)
    if conds is None:
        if why:
            low.diag("SR113", f"`switch` value not decidable without the launch configuration: {why}; every "
                     "case is counted", node.cond)
        else:
            low.diag("SR104", "`switch` value depends on data; every case's statements are counted once", node.cond)
        body = low.nested([_strip(s) for s in flat], scope=True, loop_body=low.in_loop_body)
        if body:
            low.out.append(Guard(None, body, [], loc))
        return
    chain = _run(low, flat[default:]) if default is not None else []
    for (pos, _labels), cond in reversed(list(zip(entries, conds, strict=True))):
        if pos == default:
            continue  # its other labels run the default's statements too: the chain's last `else`
        then = _run(low, flat[pos:])
        if cond == sympy.true:
            chain = then
        elif cond == sympy.false:
            pass
        elif then or chain:
            chain = [Guard(cond, then, chain, loc)]
    low.out.extend(chain)


def _run(low, items) -> list:
    """The lowered statements from a label to the first `break` (conditional breaks as guards)."""
    run, _ = _cut(list(items), [0])
    return low.nested(run, scope=True, loop_body=low.in_loop_body)


def _cut(items, budget) -> tuple[list, bool]:
    """(statements up to the first `break`, whether every path reaches one)."""
    budget[0] += len(items)
    if budget[0] > _MAX_ITEMS:
        raise Unsupported("`switch` with too many conditional `break`s", items[0] if items else None)
    for k, it in enumerate(items):
        rest = items[k + 1:]
        if isinstance(it, c_ast.Break):
            return items[:k], True
        if isinstance(it, c_ast.Compound):
            inner, broke = _cut(list(it.block_items or []) + rest, budget)
            return items[:k] + [c_ast.Compound(inner, it.coord)], broke
        if isinstance(it, c_ast.Label):
            inner, broke = _cut([it.stmt] + rest, budget)
            return items[:k] + inner, broke
        if isinstance(it, c_ast.If) and _has_break(it):
            then, t_broke = _cut(_items(it.iftrue) + rest, budget)
            orelse, e_broke = _cut(_items(it.iffalse) + rest, budget)
            new = c_ast.If(it.cond, c_ast.Compound(then, it.coord), c_ast.Compound(orelse, it.coord), it.coord)
            return items[:k] + [new], t_broke and e_broke
        if _has_break(it):
            raise Unsupported(f"`break` inside a `{type(it).__name__.lower()}` within a `switch` case", it)
    return items, False


def _strip(node):
    """`node` with the `break`s of the enclosing switch removed (every case counted once)."""
    if isinstance(node, c_ast.Break):
        return c_ast.EmptyStatement(node.coord)
    if isinstance(node, c_ast.Compound):
        return c_ast.Compound([_strip(s) for s in node.block_items or []], node.coord)
    if isinstance(node, c_ast.If) and _has_break(node):
        return c_ast.If(node.cond, _strip(node.iftrue) if node.iftrue is not None else None,
                        _strip(node.iffalse) if node.iffalse is not None else None, node.coord)
    if isinstance(node, c_ast.Label):
        return c_ast.Label(node.name, _strip(node.stmt), node.coord)
    return node


def _has_break(node) -> bool:
    """Does `node` contain a `break` of the enclosing switch (not of a loop or switch inside it)?"""
    if node is None:
        return False
    if isinstance(node, c_ast.Break):
        return True
    if isinstance(node, _LOOPS):
        return False
    return any(_has_break(child) for _, child in node.children())


def _items(stmt) -> list:
    if stmt is None:
        return []
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


def _uninitialized(decl):
    if isinstance(decl, c_ast.DeclList):
        return c_ast.DeclList([_uninitialized(d) for d in decl.decls], decl.coord)
    return c_ast.Decl(decl.name, decl.quals, decl.align, decl.storage, decl.funcspec, decl.type, None,
                      decl.bitsize, decl.coord)
