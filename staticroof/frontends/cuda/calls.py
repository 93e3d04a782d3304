"""The lowering of the calls that the C++ rewrites (coop.py, cxx.py) leave in a kernel's C.

- `__sr_cg_reduce(v, lane, N, flops)`: `cg::reduce` over a tile of N lanes combines N values with
  N - 1 operations per tile.  They are charged to the tile's lane 0 (a guard `lane == 0`, lane
  being `thread_rank() % N`), so W is exact whatever the block size: per tile, N - 1 adds.  Where
  the lane is not an index the analysis knows (the block size is not known), each thread is
  charged (N - 1)/N, exact when every tile is full, as `cg::reduce` requires (all the tile's
  threads take part).  flops is 1 for `cg::plus`, 0 for comparisons (`cg::less`, `cg::greater`)
  and bitwise operators, -1 for an operator staticroof does not know (SR142, not counted).
- `__sr_cg_opaque("what")`: a group property that is data (the rank in a coalesced group).
- cuRAND draws (`curand_uniform(&state)`): one special call each, the state in registers.
- `__sr_asm(n)`: an inline PTX statement (SR140); `__sr_asm_out()`: a value one of its
  outputs receives (unknown).
"""

from __future__ import annotations

from dataclasses import replace

import sympy
from pycparser import c_ast

from ...ir import Guard, Stmt
from ..c.types import FLOAT, INT, VOID, CType
from ..c.values import Val, Var, node_location
from ..common.lowering import Acc, Unsupported
from ..common.tokens import integer_literal


def _int(node) -> int:
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        return -_int(node.expr)
    v = integer_literal(node.value)
    if v is None:
        raise ValueError(f"{node.value[:24]}: no integer literal of 64 bits")
    return v


def reduce(low, name, entry, node, args, acc):
    v = low.value(args[0], acc)
    n, flops = _int(args[2]), _int(args[3])
    out = Val(v.ctype, why="a reduction over the group's lanes (values from other threads)")
    if flops < 0:
        low.diag("SR142", "`cg::reduce` with an operator staticroof does not know: its work is not counted", node)
        return out
    if not flops or not v.ctype.is_float:
        return out
    if n <= 0:
        low.diag("SR142", "`cg::reduce` over a group whose size is not known (a coalesced or untyped "
                 "group): its N - 1 operations per group are not counted", node)
        return out
    if n == 1:
        return out
    lane = c_ast.BinaryOp("==", args[1], c_ast.Constant("int", "0"), node.coord)
    cond = low.condition(lane, Acc())
    low.cond_why = ""
    prec = v.ctype.prec
    if cond is None:  # the lane is not an index here: (N - 1)/N per thread (every tile full)
        acc.flop(prec, sympy.Rational(n - 1, n))
        return out
    saved = low.acc
    low.acc = acc
    low.emit(node)  # what the statement did before the reduction comes first
    low.out.append(Guard(cond, [Stmt({prec: (n - 1) * flops}, {}, [], node_location(node, low.tu.path), low.group)], [],
                         node_location(node, low.tu.path)))
    acc.reset()
    low.acc = acc if saved is acc else saved
    return out


def opaque(low, name, entry, node, args, acc):
    what = args[0].value.strip('"') if args and isinstance(args[0], c_ast.Constant) else name
    return Val(INT, why=f"{what} is not an index staticroof knows (which threads it holds is data or unstated)")


def asm(low, name, entry, node, args, acc):
    for a in args:  # the input operands are evaluated before the PTX runs: their reads count
        low.value(a, acc)
    low.diag("SR140", "inline PTX (`asm`): its work and memory traffic are not counted; its outputs are "
             "unknown values", node)
    return Val(INT, why="an output of inline PTX")


def asm_out(low, name, entry, node, args, acc):
    return Val(INT, why="an output of inline PTX")


def rng(low, name, entry, node, args, acc):
    """A cuRAND draw: one special call in its precision; the state argument is registers."""
    for k, a in enumerate(args):
        if k != entry.get("state"):
            low.value(a, acc)
    prec, lanes = entry.get("precision"), entry.get("lanes", 1)
    if prec in FLOAT:
        acc.special[(name, prec)] = acc.special.get((name, prec), 0) + 1
        t = CType("vector", prec, lanes=lanes) if lanes > 1 else FLOAT[prec]
        return Val(t, why=f"a random number (`{name}`)")
    if prec == "int":
        t = CType("vector", "uint32", lanes=lanes) if lanes > 1 else INT
        return Val(t, why=f"a random number (`{name}`)")
    return Val(VOID)


def inline_call(low, name, node, args, acc):
    """A call of a function the file defines, inlined; an integer function whose body is one
    `return e;` (a `constexpr` helper such as `ceil_div(n, 256)`) also gives its value, e with the
    arguments' values, so that its result can be a size or an index as the compiler folds it."""
    v = low._inline(name, node, args, acc)
    if v.expr is not None or not v.ctype.is_int:
        return v
    callee = low.tu.funcs[name]
    items = callee.body.block_items or []
    if len(items) != 1 or not isinstance(items[0], c_ast.Return) or items[0].expr is None:
        return v
    decl = callee.decl.type
    params = [p for p in (decl.args.params if decl.args is not None else []) if getattr(p, "name", None)]
    if len(params) != len(args):
        return v
    bindings = {}
    for p, a in zip(params, args, strict=True):
        value = low.value(a, Acc())  # integer arguments: no reads, nothing counted twice
        if not value.ctype.is_int or value.expr is None or not low.tu.types.resolve(p.type).is_int:
            return v
        bindings[p.name] = Var(INT, value=value.expr)
    try:
        e = low.sub_lowering(callee, bindings).value(items[0].expr, Acc())
    except Unsupported:
        return v
    return replace(v, expr=e.expr, why="") if e.ctype.is_int and e.expr is not None else v


HANDLERS = {"rng": rng, "group_reduce": reduce, "group_opaque": opaque, "asm": asm, "asm_out": asm_out}
