"""Counting by running the loop IR: every loop iterated, every reference evaluated, at concrete sizes.

An independent count for the self-check (staticroof.analysis.selfcheck): where the symbolic path
builds isl sets, counts them with barvinok, picks pieces and rewrites formulas, this one walks the
IR with exact integer arithmetic and keeps sets of the elements it touched.  It applies the same
counting rules (first access read or written, the register rule of the access level, identical
references of one statement counted once) but shares none of the machinery, so a disagreement
points at a bug in one of them.  Only small size points are affordable: a budget of statement
instances and loop iterations stops it early.  The nest runs as Python code written for it
(staticroof.analysis.loopcode); the walker here (_Walker) is the reference that code is tested
against, and runs what Python cannot compile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from ..ir import DRAM_SPACES, Guard, Kernel, Loop, Stmt
from ..memo import Bounded


class TooLarge(Exception):
    """The enumeration exceeded its budget of statement instances and loop iterations."""


@dataclass
class ArrayCount:
    first_read: int = 0  # distinct elements whose first access was a read
    written: int = 0  # distinct elements written
    loads: int = 0  # dynamic loads (register rule applied)
    stores: int = 0


@dataclass
class Counts:
    flops: dict = field(default_factory=dict)  # precision -> FLOPs (specials weighted in)
    special: dict = field(default_factory=dict)  # function -> calls
    arrays: dict = field(default_factory=dict)  # DRAM array -> ArrayCount
    shared: dict = field(default_factory=dict)  # on-chip array -> ArrayCount (loads and stores only)


def enumerate_counts(kernel: Kernel, sizes: dict, weights: dict | None = None, budget: int = 20000,
                     memo: dict | None = None) -> Counts:
    """The kernel's counts at `sizes` (name -> int; every size the kernel uses), or TooLarge.
    Runs of one kernel at several points may share a `memo` (a dict, empty at first): the kernel is
    then compiled once, not once per point (a loop body of hundreds of statements).

    The kernel's loop nest runs as Python code written for it (staticroof.analysis.loopcode): a
    statement instance costs a few bytecodes, not a walk of the IR.  A nest Python cannot compile
    (more than 20 loops deep), or sizes that are not ints, are walked (_Walker), which counts the
    same by the same rules."""
    from .loopcode import program

    memo = {} if memo is None else memo
    if memo.get("kernel") is not kernel:
        memo.clear()
        memo.update(kernel=kernel, walk={})
    if "program" not in memo:
        memo["program"] = program(kernel)
    run = memo["program"]
    counts = run(sizes, weights or {}, budget) if run is not None else None
    return counts if counts is not None else walk_counts(kernel, sizes, weights, budget, memo["walk"])


def walk_counts(kernel: Kernel, sizes: dict, weights: dict | None = None, budget: int = 20000,
                memo: dict | None = None) -> Counts:
    """enumerate_counts by walking the IR node by node: the fallback, and the reference the
    compiled code is tested against (tests/test_loopcode.py)."""
    return _Walker(kernel, sizes, weights or {}, budget, memo).run()


# ---------------------------------------------------------------------------------------------
# Expressions: sympy to Python closures with exact integer and Fraction arithmetic

_NAMES = {"F": Fraction, "floor": math.floor, "ceil": math.ceil}
# code -> its closure: Python's compilation of the text, once per process.  The closure is a pure
# function of its text (it reads only its argument and _NAMES, and keeps no state), so every
# compiler that writes the same text may share it: each kernel's loop bounds, guards and
# subscripts (`(v[0] < v[1])`, `v[2]`) and each formula's evaluator recur across kernels.
_LAMBDAS: dict = Bounded(8192)


class _Compiler:
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
            f = _LAMBDAS[code] = eval(f"lambda v: {code}", _NAMES)
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
    comp = _Compiler(integers)
    for s in symbols:
        comp.slot(s)
    f = comp.compile(expr)
    extra = [s for s in comp.slots if s not in symbols]
    if extra:
        raise ValueError(f"{expr} needs {extra}")
    return f


# ---------------------------------------------------------------------------------------------
# The walk

def counted_refs(kernel: Kernel, stmt: Stmt, inner: Loop | None):
    """(reference, in DRAM?, hoisted?) of each reference of `stmt` the enumeration counts: those of
    a known array with a subscript, in DRAM or shared memory (registers and locals cost nothing).
    A DRAM reference invariant in its innermost sequential loop `inner` is hoisted: one access per
    execution of that loop (a register holds it); shared memory: every access.  The walker and
    the code written for a kernel (loopcode.py) count by this one rule."""
    for ref in stmt.refs:
        arr = kernel.arrays.get(ref.array)
        if arr is None or ref.index is None:
            continue
        dram = arr.space in DRAM_SPACES
        if not dram and arr.space != "shared":
            continue
        hoisted = dram and inner is not None and inner.kind in ("seq", "unknown") and \
            not any(inner.var in sympy.sympify(e).free_symbols for e in ref.index)
        yield ref, dram, hoisted


class _Walker:
    def __init__(self, kernel: Kernel, sizes: dict, weights: dict, budget: int, memo: dict | None = None):
        self.kernel = kernel
        self.weights = weights
        self.budget = budget
        self.iterations = 10 * budget  # loop iterations (cheaper than statements, but never endless)
        memo = {} if memo is None else memo
        if memo.get("kernel") is not kernel:  # compiled closures read the slots of one compiler
            memo.clear()
            memo.update(kernel=kernel, comp=_Compiler(), cache={}, plans={}, idents={})
        self.comp = memo["comp"]
        self.values: list = []
        self.counts = Counts()
        self.first: dict = {}  # array -> {element: first access kind}
        self.written: dict = {}  # array -> set of elements
        self.accesses: dict = {}  # (access number, path) -> set of iteration tuples
        # access key -> its number: a statement instance hashes a small int, not the key's index
        # expressions (sympy hashes in Python)
        self.idents: dict = memo["idents"]
        # the enclosing loops' ids and values, set once per loop and iteration (not per statement)
        self.loop_ids: tuple = ()
        self.loop_values: tuple = ()
        self.cache: dict = memo["cache"]  # id(expr) -> compiled closure
        self.plans: dict = memo["plans"]  # (statement, enclosing loops) -> per-reference plan
        for name, v in sizes.items():
            self._set(sympy.Symbol(name), v)

    def _set(self, sym, value):
        k = self.comp.slot(sym)
        while len(self.values) <= k:
            self.values.append(None)
        old = self.values[k]
        self.values[k] = value
        return old

    def _closure(self, expr):
        """`expr` compiled (once per expression of the kernel), the value list made as long as the
        slots it reads: later slots only ever extend the list, so the closure may be called again
        without this check (a loop's condition at each iteration)."""
        key = id(expr)
        f = self.cache.get(key)
        if f is None:
            f = self.cache[key] = (self.comp.compile(expr), expr)
        while len(self.values) < len(self.comp.slots):
            self.values.append(None)
        return f[0]

    def _eval(self, expr):
        return self._closure(expr)(self.values)

    def run(self) -> Counts:
        self._nodes(self.kernel.body, (), ())
        c = self.counts
        for name, elems in self.first.items():
            a = self._array(name)
            a.first_read = sum(1 for kind in elems.values() if kind == "read")
        for name, elems in self.written.items():
            self._array(name).written = len(elems)
        keys = {k: ident for ident, k in self.idents.items()}
        for (k, _path), iters in self.accesses.items():
            space, name, kind = keys[k][:3]
            target = (c.arrays if space == "dram" else c.shared).setdefault(name, ArrayCount())
            if kind == "read":
                target.loads += len(iters)
            else:
                target.stores += len(iters)
        return c

    def _array(self, name) -> ArrayCount:
        return self.counts.arrays.setdefault(name, ArrayCount())

    def _nodes(self, nodes, loops, path):
        """`loops`: ((loop node, value), ...) enclosing; `path`: the guards and branches taken."""
        for node in nodes:
            if isinstance(node, Stmt):
                self._stmt(node, loops, path)
            elif isinstance(node, Guard):
                if node.cond is None:
                    self._nodes(node.then, loops, path + ((id(node), True),))
                    self._nodes(node.orelse, loops, path + ((id(node), False),))
                elif self._eval(node.cond):
                    if node.then:  # an empty branch walks nothing (a thread past the guard)
                        self._nodes(node.then, loops, path + ((id(node), True),))
                elif node.orelse:
                    self._nodes(node.orelse, loops, path + ((id(node), False),))
            elif isinstance(node, Loop):
                self._loop(node, loops, path)

    def _loop(self, node: Loop, loops, path):
        v = self._eval(node.start)
        old = self._set(node.var, v)
        # the loop variable's slot and the condition's closure, once per loop (not per iteration)
        slot, cond, values = self.comp.slots[node.var], self._closure(node.cond), self.values
        body, step = node.body, node.step
        outer_ids, outer_values = self.loop_ids, self.loop_values
        self.loop_ids = outer_ids + (id(node),)
        try:
            while True:
                values[slot] = v
                if not cond(values):
                    break
                # an iteration is work too: a loop whose body is empty or guarded away (a bound
                # of 9...9, 25 digits) never reaches a statement, and must still stop
                self.iterations -= 1
                if self.iterations < 0:
                    raise TooLarge()
                self.loop_values = outer_values + (v,)
                self._nodes(body, loops + ((node, v),), path)
                v += step
        finally:
            self._set(node.var, old)
            self.loop_ids, self.loop_values = outer_ids, outer_values

    def _plan(self, stmt: Stmt, loops) -> list:
        """Per reference, once: (array, kind, dram?, index closures, hoisted?, key)."""
        key = (id(stmt), self.loop_ids)  # the ids of the loops' nodes, outermost first
        plan = self.plans.get(key)
        if plan is not None:
            return plan
        plan = []
        for ref, dram, hoisted in counted_refs(self.kernel, stmt, loops[-1][0] if loops else None):
            index = [self.comp.compile(e) for e in ref.index]
            ident = ("dram" if dram else "shared", ref.array, ref.kind, stmt.group or id(stmt), key[1],
                     tuple(ref.index))
            plan.append((ref.array, ref.kind, dram, index, hoisted, self.idents.setdefault(ident, len(self.idents))))
        self.plans[key] = plan
        return plan

    def _stmt(self, stmt: Stmt, loops, path):
        self.budget -= 1
        if self.budget < 0:
            raise TooLarge()
        c = self.counts
        for prec, n in stmt.flops.items():
            if n:
                c.flops[prec] = c.flops.get(prec, 0) + n
        for (fname, prec), calls in stmt.special.items():
            c.special[fname] = c.special.get(fname, 0) + calls
            c.flops[prec] = c.flops.get(prec, 0) + calls * self.weights.get(fname, 1)
        values = self.loop_values  # the loops' values, outermost first
        while len(self.values) < len(self.comp.slots):
            self.values.append(None)
        for array, kind, dram, index, hoisted, ident in self._plan(stmt, loops):
            elem = tuple(f(self.values) for f in index)
            if dram:
                first = self.first.setdefault(array, {})
                if elem not in first:
                    first[elem] = kind
                if kind == "write":
                    self.written.setdefault(array, set()).add(elem)
            self.accesses.setdefault((ident, path), set()).add(values[:-1] if hoisted else values)
