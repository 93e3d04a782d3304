"""Sympy expressions compiled to Python closures with exact integer and Fraction arithmetic.

Shared by the interpreter's walk (staticroof.analysis.interpret), the nest written as Python code
(staticroof.analysis.loopcode, which compiles the same expressions into its own text) and the fast
evaluators of formulas (points, probes, result): one compiler, so every path reads an expression
the same way.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from ..memo import Bounded

EVALUATOR_GLOBALS = {"F": Fraction, "floor": math.floor, "ceil": math.ceil}
# code -> its closure: Python's compilation of the text, once per process.  The closure is a pure
# function of its text (it reads only its argument and EVALUATOR_GLOBALS, and keeps no state), so
# every compiler that writes the same text may share it: each kernel's loop bounds, guards and
# subscripts (`(v[0] < v[1])`, `v[2]`) and each formula's evaluator recur across kernels.
_LAMBDAS: dict = Bounded(8192)


class ExpressionCompiler:
    """Sympy expressions to Python source over a value list (a slot per symbol), and that source to
    closures shared by their text."""

    def __init__(self, integers: bool = False):
        self.slots: dict = {}  # sympy Symbol -> index into the value list
        self.integers = integers  # every value is an int or a Fraction: floors by floor division

    def slot(self, sym) -> int:
        if sym not in self.slots:
            self.slots[sym] = len(self.slots)
        return self.slots[sym]

    def variable(self, k: int) -> str:
        """How the code reads slot `k`: an item of the closure's argument."""
        return f"v[{k}]"

    def compile(self, expr):
        code = self.code(sympy.sympify(expr))
        f = _LAMBDAS.get(code)
        if f is None:
            f = _LAMBDAS[code] = eval(f"lambda v: {code}", EVALUATOR_GLOBALS)
        return f

    def code(self, e) -> str:
        if e is sympy.true or e == sympy.true:
            return "True"
        if e is sympy.false or e == sympy.false:
            return "False"
        if e.is_Integer:
            return f"({int(e)})"
        if e.is_Rational:
            return f"F({int(e.p)}, {int(e.q)})"
        if e.is_Symbol:
            return self.variable(self.slot(e))
        if e.is_Add:
            return "(" + " + ".join(self.code(a) for a in e.args) + ")"
        if e.is_Mul:
            return "(" + " * ".join(self.code(a) for a in e.args) + ")"
        if e.is_Pow and e.exp.is_Integer and e.exp >= 0:
            return f"({self.code(e.base)} ** {int(e.exp)})"
        if e.is_Pow and e.exp.is_Integer:
            return f"(F(1) / ({self.code(e.base)} ** {-int(e.exp)}))"
        if isinstance(e, sympy.floor):
            divided = self.floor_division(e.args[0]) if self.integers else None
            return divided or f"floor({self.code(e.args[0])})"
        if isinstance(e, sympy.ceiling):  # ceil(x) = -floor(-x)
            divided = self.floor_division(-e.args[0]) if self.integers else None
            return f"(-{divided})" if divided else f"ceil({self.code(e.args[0])})"
        if isinstance(e, sympy.Mod):
            return f"({self.code(e.args[0])} % {self.code(e.args[1])})"
        if isinstance(e, sympy.Min):
            return "min(" + ", ".join(self.code(a) for a in e.args) + ")"
        if isinstance(e, sympy.Max):
            return "max(" + ", ".join(self.code(a) for a in e.args) + ")"
        if isinstance(e, sympy.And):
            return "(" + " and ".join(self.code(a) for a in e.args) + ")"
        if isinstance(e, sympy.Or):
            return "(" + " or ".join(self.code(a) for a in e.args) + ")"
        if isinstance(e, sympy.Not):
            return f"(not {self.code(e.args[0])})"
        if isinstance(e, sympy.Rel):
            op = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[e.rel_op]
            return f"({self.code(e.lhs)} {op} {self.code(e.rhs)})"
        if isinstance(e, sympy.Piecewise):
            text = "None"
            for value, cond in reversed(e.args):
                text = f"({self.code(value)} if {self.code(cond)} else {text})"
            return text
        raise ValueError(f"cannot evaluate {e}")

    def floor_division(self, arg) -> str | None:
        """floor(a1*t1 + ... + a0) with rational a's as ((D*a1)*t1 + ... + D*a0) // D, D the least
        common denominator: integer arithmetic where the terms are integers, rather than Fractions
        (forty times faster on a tiled kernel's counts).  floor(x) = floor(D*x / D) = (D*x) // D
        for any rational x and integer D >= 1, and Python's // is the floor for ints and Fractions
        alike (not for floats: only for values that are ints or Fractions).  None when some
        coefficient is not rational or the argument has no denominator to clear."""
        terms = [t.as_coeff_Mul() for t in sympy.Add.make_args(arg)]
        if any(not c.is_Rational for c, _ in terms):
            return None
        den = 1
        for c, _ in terms:
            den = math.lcm(den, int(c.q))
        if den == 1:
            return None
        parts = [f"({int(c * den)})" if rest == 1 else f"({int(c * den)}) * {self.code(rest)}" for c, rest in terms]
        return f"(({' + '.join(parts)}) // {den})"


def evaluator(expr, symbols: list, integers: bool = False):
    """A fast exact evaluator of `expr` at values of `symbols` (in that order); `integers` when
    every value it will be given is an int or a Fraction (never a float): floors of rational
    combinations are then integer floor divisions."""
    comp = ExpressionCompiler(integers)
    for s in symbols:
        comp.slot(s)
    f = comp.compile(expr)
    extra = [s for s in comp.slots if s not in symbols]
    if extra:
        raise ValueError(f"{expr} needs {extra}")
    return f
