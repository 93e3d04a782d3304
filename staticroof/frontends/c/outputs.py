"""Calls that also return results through pointer arguments: `sincosf(x, &s[i], &c[i])`,
`modf(x, &ip)`, `frexp(x, &e)`, `remquo(x, y, &q)`, CUDA's `__sincosf`.

The tables say which arguments are outputs and what a call costs: `grammars/math.toml` [outputs]
for the math library, `grammars/cuda.toml` (kind "outputs") for CUDA intrinsics.

- The other arguments are read first (as values); then each output argument is a store of what it
  points to: `&a[i]` (or `a + i`, or a pointer `p`: `p[0]`) writes that array element; `&x` of a
  local variable is a register write and moves nothing (an integer local such as frexp's exponent
  becomes unknown, like any variable a call sets).  An output the analysis cannot follow (a struct
  member, a pointer it does not know) is SR105, approximate, and costs only its statement.
- The call counts one special call of each function in `counts_as`, in the call's precision: the
  table's for a CUDA intrinsic, else the result's type, or, for a function returning void (the
  sincos family), the type its first output points to.  So `sincosf(x, &s, &c)` costs exactly what
  `s = sinf(x); c = cosf(x);` costs, and the special tally shows `sinf` and `cosf`.
"""

from __future__ import annotations

import sympy
from pycparser import c_ast, c_generator

from ..common.lowering import Acc, Unsupported
from .types import INT
from .values import Val, guess_math_type


def lower(low, name: str, entry: dict, node, args, acc):
    """The value of the call `name(args)` (a `FuncCall` node) whose table entry is `entry`; its
    reads, stores and special calls go to `acc`."""
    outputs = set(entry.get("outputs", ()))
    targets = []  # (lvalue node, target Val) per output, in argument order
    for k, a in enumerate(args):
        if k not in outputs:
            low.value(a, acc)
            continue
        t = _target(low, a, acc)
        if t is None:
            low.diag("SR105", f"`{name}` stores through `{_text(a)}`, which is not an array element or a local "
                     "variable the analysis follows: that store is not counted", a)
        else:
            targets.append(t)
    prec = _precision(low, name, entry, targets)
    for fname in entry.get("counts_as", ()):
        acc.special[(fname, prec)] = acc.special.get((fname, prec), 0) + 1
    for lnode, target in targets:
        low._store(lnode, target, Val(target.ctype, why=f"set by `{name}`"), acc, node)
    return Val(low.tu.protos.get(name) or guess_math_type(name, []), why=f"result of `{name}`")


def _target(low, a, acc):
    """(lvalue node, Val) the output argument `a` stores through, or None if it is not followed."""
    if isinstance(a, c_ast.UnaryOp) and a.op == "&":
        inner = a.expr
        root = inner
        while isinstance(root, c_ast.StructRef):
            root = root.name
        # `&x` of a name evaluates nothing (the old value is not read): a scratch accumulator
        try:
            v = low.expr(inner, Acc() if isinstance(root, c_ast.ID) else acc)
        except Unsupported:  # a struct member: only this store is lost
            return None
        if v.element is not None:
            return inner, v
        if isinstance(root, c_ast.ID) and low.lookup(root.name) is not None and not v.ctype.is_pointer:
            return inner, v  # a local variable (or a lane of one): a register
        return None
    v = low.value(a, acc)
    if v.array is not None and v.ctype.is_pointer:
        target = low._subscript(v, [Val(INT, sympy.Integer(0))], a)
        return a, target
    return None


def _precision(low, name: str, entry: dict, targets) -> str:
    if entry.get("precision"):
        return entry["precision"]
    ret = low.tu.protos.get(name)
    if ret is not None and ret.is_float:
        return ret.prec
    if ret is not None and ret.kind == "void":
        first = targets[0][1].ctype if targets else None
        if first is not None and first.is_float:
            return first.prec
    return guess_math_type(name, []).prec  # no prototype: `sincosf` is fp32, `sincos` fp64


def _text(node) -> str:
    return c_generator.CGenerator().visit(node)
