"""Induction variables: integers and pointers a loop advances by the same amount every trip.

`for (r = 0; r < rows; ++r) { s += *p; p += cols; }` reads `p[0]` at `p0 + cols*r`: `p` is an
induction variable of the loop, and in the body it is `p0 + cols*t` (t the trip number) until
its increment, `p0 + cols*(t + 1)` after it.  So are the second variable of a loop that steps two
(`for (a = a0, b = b0; a <= aEnd; a += aStep, b += bStep)`) and a pointer walked with `*p++`.
This module finds them (syntax only); the lowering gives them their closed form (statements.py).
It also reads `while (i < n) { ...; i += step; }` as the `for` loop it is (while_as_for).

A variable is an induction variable of a loop when it is advanced by the same amount every trip, by
increments the loop does not change (one or several: `j++; a[j] = ...; j++;`), at points every trip
reaches: in a statement at the top level
of the body (not under an `if`, an inner loop, `?:`, `&&` or `||`), in a body without `break`,
`continue`, `return` or `goto` (which could skip the increment), and is assigned nowhere else in
the body, nor declared in it, nor has its address taken.  Anything else stays "changes inside the
loop" (approximate), as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from .values import body_items, loop_step, multiplicative_step, nodes

_EXITS = (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto)
_NESTED = (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Compound, c_ast.Label)
_SAFE = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.Cast, c_ast.StructRef, c_ast.Typename,
         c_ast.TypeDecl, c_ast.IdentifierType, c_ast.PtrDecl)


@dataclass(frozen=True)
class Induction:
    name: str
    sign: int  # +1 or -1
    amount: c_ast.Node | None  # the increment's expression; None for ++/--


def split_next(node: c_ast.For, cond_names: set) -> tuple:
    """(the counter's increment, [the other increments]) of a `for` whose increment is a comma list
    (`a += aStep, b += bStep`): the counter is the one variable the condition reads."""
    nxt = node.next
    if not isinstance(nxt, c_ast.ExprList):
        return nxt, []
    counters = [e for e in nxt.exprs if _target(e) in cond_names]
    if not counters:
        return nxt, []
    # `i < j` with `i++, j--`: the first steps the loop, the other is an induction the condition reads
    return counters[0], [e for e in nxt.exprs if e is not counters[0]]


def while_as_for(node: c_ast.While) -> c_ast.For | None:
    """`while (cond) { body; v op= e; }` as `for (; cond; v op= e) { body }`, or None.

    The two are the same loop when the last statement of the body is the one change of a variable
    the condition reads (an additive or multiplicative step, see values.loop_step), the body changes
    it nowhere else nor takes its address, and no `continue` of this loop skips the increment (a `for`
    would run it).  CUDA by Example's grid-stride `while (tid < n) {...; tid += blockDim.x *
    gridDim.x;}` and the tree reduction's `while (i != 0) {...; i /= 2;}` are such loops."""
    items = body_items(node.stmt)
    if not items or node.cond is None:
        return None
    last = items[-1]
    name = loop_step(last)[0] or multiplicative_step(last)[0]
    if name is None or name not in {n.name for n in nodes(node.cond) if isinstance(n, c_ast.ID)}:
        return None
    rest = items[:-1]
    if any(_target(n) == name for item in rest for n in nodes(item)):
        return None
    if any(isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID) and n.expr.name == name
           for item in rest for n in nodes(item)):
        return None
    if any(_continues(item) for item in rest):
        return None
    body = c_ast.Compound(rest, coord=node.stmt.coord)
    return c_ast.For(None, node.cond, last, body, coord=node.coord)


def _continues(node) -> bool:
    """Whether a `continue` under `node` belongs to the loop around it (not to a loop inside it)."""
    if isinstance(node, c_ast.Continue):
        return True
    if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile)):
        return False
    return any(_continues(child) for _, child in node.children())


def increment(n) -> Induction | None:
    """The induction an increment expression makes (`b += bStep`), or None."""
    return _increment(n)


def find(body, extra_next: list, loop_name: str) -> list[Induction]:
    """The induction variables of a loop with body `body` (a statement) and extra increments from its
    header (`extra_next`, run at the end of each trip), its counter being `loop_name`."""
    items = body_items(body)
    if any(isinstance(n, _EXITS) for item in items for n in nodes(item)):
        return []
    counts: dict = {}
    for item in items + list(extra_next):
        for n in nodes(item):
            name = _target(n)
            if name is not None:
                counts[name] = counts.get(name, 0) + 1
    declared = {n.name for item in items for n in nodes(item) if isinstance(n, c_ast.Decl)}
    addressed = {n.expr.name for item in items for n in nodes(item)
                 if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID)}
    changed = set(counts) | {loop_name}
    out = []
    candidates = [n for item in items if not isinstance(item, _NESTED) for n in _top(item)]
    candidates += list(extra_next)
    increments = [i for i in (_increment(n) for n in candidates) if i is not None]
    per_name: dict = {}
    for ind in increments:
        per_name[ind.name] = per_name.get(ind.name, 0) + 1
    for ind in increments:
        # every change of the variable is such an increment (`j++; a[j] = ...; j++;` steps it twice)
        if counts.get(ind.name) != per_name[ind.name] or ind.name in declared | addressed | {loop_name}:
            continue
        if ind.amount is not None and not _invariant(ind.amount, changed):
            continue
        out.append(ind)
    names = {i.name for i in out}
    return [i for i in out if sum(1 for j in out if j.name == i.name) == per_name[i.name] and i.name in names]


def _top(node):
    """The nodes of a statement evaluated on every execution of it (not under ?:, && or ||)."""
    yield node
    if isinstance(node, c_ast.TernaryOp) or (isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||")):
        return
    for _, child in node.children():
        yield from _top(child)


def _target(n) -> str | None:
    """The variable an assignment or increment changes, if it is a plain name."""
    if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
        return n.lvalue.name
    if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and isinstance(n.expr, c_ast.ID):
        return n.expr.name
    return None


def _increment(n) -> Induction | None:
    if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and isinstance(n.expr, c_ast.ID):
        return Induction(n.expr.name, 1 if "+" in n.op else -1, None)
    if not (isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID)):
        return None
    name = n.lvalue.name
    if n.op in ("+=", "-="):
        return Induction(name, 1 if n.op == "+=" else -1, n.rvalue)
    r = n.rvalue
    if n.op == "=" and isinstance(r, c_ast.BinaryOp) and r.op in ("+", "-"):
        if isinstance(r.left, c_ast.ID) and r.left.name == name:
            return Induction(name, 1 if r.op == "+" else -1, r.right)
        if r.op == "+" and isinstance(r.right, c_ast.ID) and r.right.name == name:
            return Induction(name, 1, r.left)
    return None


def _invariant(expr, changed: set) -> bool:
    """Is `expr` the same on every trip: names the loop does not change, no calls, no memory reads?"""
    for n in nodes(expr):
        if not isinstance(n, _SAFE):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("*", "&", "++", "--", "p++", "p--"):
            return False
        if isinstance(n, c_ast.ID) and n.name in changed:
            return False
        if isinstance(n, c_ast.StructRef) and n.type == "->":
            return False
    return True
