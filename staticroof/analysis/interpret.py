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

import sympy

from ..ir import Guard, Kernel, Loop, Stmt
from .counts import ArrayCount, Counts, TooLarge, counted_refs
from .evaluators import ExpressionCompiler


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
# The walk

class _Walker:
    def __init__(self, kernel: Kernel, sizes: dict, weights: dict, budget: int, memo: dict | None = None):
        self.kernel = kernel
        self.weights = weights
        self.budget = budget
        self.iterations = 10 * budget  # loop iterations (cheaper than statements, but never endless)
        memo = {} if memo is None else memo
        if memo.get("kernel") is not kernel:  # compiled closures read the slots of one compiler
            memo.clear()
            memo.update(kernel=kernel, comp=ExpressionCompiler(), cache={}, plans={}, idents={})
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
