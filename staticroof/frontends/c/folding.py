"""Compile-time constant subexpressions, folded as the compiler does.

`sqrtf(2.0f / M_PI) * x[i] + 1.0f / 3.0f` runs one multiply and one add per element: the
division, the square root and `1.0f / 3.0f` are evaluated by the compiler, once, and cost nothing
at run time.  So an operation, cast or math-library call whose operands are all compile-time
constants is folded: no FLOP, no special-function call, no fp64 precision and no SR107 (an fp64
constant that then meets a float *variable* still promotes that operation, as C says).

A compile-time constant is a floating literal (the CType's `literal` flag, which a folded result
keeps), an integer whose value involves only compile-time sizes (`#define`s, file-scope `const`s,
template arguments; never a parameter or a loop variable), or a `const`/`constexpr` floating
variable initialized with one.  C evaluates left to right, so `2.0f * 3.0f * x` folds its first
product and `x * 2.0f * 3.0f` (which is `(x * 2.0f) * 3.0f`) folds nothing.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from ..common.lowering import Acc
from .types import CType, arith
from .values import Val


def constant(low, v) -> bool:
    """Is this value known when the kernel is compiled?"""
    if v.element is not None or v.array is not None:
        return False
    if v.ctype.is_float:
        return v.ctype.literal
    if v.ctype.is_int:
        if v.expr is None:
            return False
        for sym in v.expr.free_symbols:
            size = low.kernel.sizes.get(sym.name)
            if size is None or size.origin not in low._COMPILE_TIME:
                return False
        return True
    return False


def _const_type(t):
    return replace(t, literal=True)


def binary(low, op: str, a, b):
    """The folded value of a floating `a op b` on two constants, or None (the operation runs)."""
    if op in ("+", "-", "*", "/") and (a.ctype.is_float or b.ctype.is_float) \
            and not (a.ctype.is_vector or b.ctype.is_vector) and constant(low, a) and constant(low, b):
        return Val(_const_type(arith(a.ctype, b.ctype)), why="compile-time constant")
    return None


def call(low, vals, ret):
    """The folded value of a math-library call on constants (`sqrtf(2.0f / M_PI)`), or None."""
    if vals and ret is not None and ret.is_float and all(constant(low, v) for v in vals):
        return Val(_const_type(ret), why="compile-time constant")
    return None


def cast(low, v, t):
    """The type a cast yields: a constant cast to a floating type stays a constant."""
    return _const_type(t) if t.is_float and constant(low, v) else t


def global_type(low, decl: c_ast.Decl, t):
    """A file-scope `const float k = <constant>;` is a constant too (else `t` unchanged)."""
    if t.is_float and "const" in (decl.quals or []) and decl.init is not None \
            and not isinstance(decl.init, c_ast.InitList):
        return local(low, decl, t, low.value(decl.init, Acc())) or t
    return t


def local(low, decl: c_ast.Decl, t, v) -> CType | None:
    """A `const float c = <constant>;` is the constant itself: its Var type, else None."""
    if t.is_float and "const" in (decl.quals or []) and v is not None and constant(low, v):
        return _const_type(t)
    return None
