"""A kernel's loop nest written as one Python function: the interpreter's counts without its walk.

staticroof.analysis.interpret counts a kernel by running its loops at small sizes, for the
self-check.  Walking the IR node by node (interpret._Walker) costs a dozen Python calls per
statement instance and was most of the self-check's time.  Here each kernel's nest is written once
as the source of one function (a `while` per loop, an `if` per guard, bounds, conditions and
subscripts inlined as expressions over local variables, one local set per counted access) and that
function runs at every size point.

It counts what the walker counts, the same way, step for step: the same expressions (the walker's
compiler, a slot's value read from a local instead of a list), evaluated in the same order, the
same budgets spent at the same places (a statement instance, a loop iteration), the same sets of
elements and of iteration tuples, the same additions in the same order (a cost of 4.5 FLOPs per
call adds as the walker adds it).  An expression that does not compile raises where the walker
would have compiled it, so a branch never taken still costs nothing.  What it shares with isl is
nothing: it stays an independent check.  tests/test_loopcode.py compares it with the walker.
"""

from __future__ import annotations

import sympy

from ..ir import Guard, Kernel, Loop, Stmt
from ..memo import Bounded
from .counts import ArrayCount, Counts, TooLarge, counted_refs
from .evaluators import EVALUATOR_GLOBALS, ExpressionCompiler


class _Zero:
    """An accumulator's start: `_ZERO + n` is `0 + n` (the walker's `counts.get(key, 0) + n`), and an
    accumulator still _ZERO was never added to (its key is absent, as from the walker's dict)."""

    __slots__ = ()

    def __add__(self, other):
        return 0 + other


_ZERO = _Zero()


def _fail(exc):
    """Raise what compiling an expression raised, where the walker would have compiled it."""
    raise exc.with_traceback(None)


_GLOBALS = {**EVALUATOR_GLOBALS, "TooLarge": TooLarge, "_ZERO": _ZERO, "_fail": _fail}
# source -> its _make: Python's compilation of a nest's text, once per process (kernels of one shape
# in several files, or one kernel checked again, write the same text)
_MAKERS: dict = Bounded(512)


class _Locals(ExpressionCompiler):
    """The walker's expression compiler, slot k read from the local variable s<k>, and floors of
    rational combinations as integer floor divisions (ExpressionCompiler.floor_division: the same
    value and type, an int, for ints and Fractions).  Every value is one: sizes are ints (_Program
    checks, else the walker runs), and the code makes only ints, Fractions, bools and None."""

    def variable(self, k: int) -> str:
        return f"s{k}"


def program(kernel: Kernel):
    """The kernel's counter, sizes -> Counts (see _Program), or None when Python cannot compile its
    nest (more than 20 loops deep, an expression nested past the parser's limits)."""
    try:
        return _Writer(kernel).program()
    except (SyntaxError, RecursionError, MemoryError):
        return None


class _Program:
    """Runs the compiled nest at sizes and gathers its accumulators into Counts (the same entries
    as the walker's; its dicts list them in the order the code mentions them, not in the order
    the run first touched them, which no caller reads: the self-check sorts its labels)."""

    def __init__(self, make, consts: list, slots: dict, writer: _Writer):
        self.run = make(consts)
        self.slots = len(slots)
        # a size is the plain Symbol of its name (the walker sets `sympy.Symbol(name)`); a symbol
        # with assumptions is another slot, never set
        self.by_name = {s.name: k for s, k in slots.items() if s == sympy.Symbol(s.name)}
        self.flops = list(writer.flops)
        self.special = list(writer.special)
        self.first = list(writer.first)
        self.written = list(writer.written)
        self.access = list(writer.access.values())

    def __call__(self, sizes: dict, weights: dict, budget: int) -> Counts | None:
        """The counts, or None at sizes that are not all ints (the walker counts those)."""
        values: list = [None] * self.slots
        for name, v in sizes.items():
            if type(v) is not int:
                return None
            k = self.by_name.get(name)
            if k is not None:
                values[k] = v
        out = iter(self.run(values, weights, budget, 10 * budget))
        c = Counts()
        for prec in self.flops:
            v = next(out)
            if v is not _ZERO:
                c.flops[prec] = v
        for fname in self.special:
            v = next(out)
            if v is not _ZERO:
                c.special[fname] = v
        for name in self.first:
            elems = next(out)
            if elems:  # an array's entry exists once it was accessed, as in the walker
                c.arrays.setdefault(name, ArrayCount()).first_read = list(elems.values()).count("read")
        for name in self.written:
            elems = next(out)
            if elems:
                c.arrays.setdefault(name, ArrayCount()).written = len(elems)
        for _, space, name, kind in self.access:
            iters = next(out)
            if iters:
                target = (c.arrays if space == "dram" else c.shared).setdefault(name, ArrayCount())
                if kind == "read":
                    target.loads += len(iters)
                else:
                    target.stores += len(iters)
        return c


def _indent(lines: list) -> list:
    return ["    " + line for line in lines]


class _Writer:
    """Writes the source of one kernel's nest.  Locals: s<k> slot k (a size or a loop's variable);
    _L<k>, _o<k>, _t<k> loop k's value, the slot's value before it, the enclosing loops' values
    (outermost first, loop k's last: the walker's iteration tuple); _f, _c accumulators of FLOPs per
    precision and calls per function; _d, _x an array's {element: first access kind} and written
    elements (their setdefault and add bound as _D, _X); _a the iteration tuples of one counted
    access (its add bound as _A); _e<k> a statement's k-th distinct element."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        self.comp = _Locals(integers=True)
        self.consts: list = []  # what the code reads as K[i] (a value with no exact literal, an error)
        self.flops: dict = {}  # precision -> accumulator
        self.special: dict = {}  # function -> accumulator
        self.weights: dict = {}  # (function, calls) -> (local, the calls' literal)
        self.first: dict = {}  # DRAM array -> its first-access dict
        self.written: dict = {}  # DRAM array -> its written set
        # (the walker's access ident, guard path) -> (local, space, array, kind)
        self.access: dict = {}
        self.loops = 0
        self.tuples: set = set()  # loops whose iteration tuple an access reads
        self.scalar = _one_subscript(kernel)

    def program(self) -> _Program:
        body = self.nodes(self.kernel.body, [], ())
        slots = self.comp.slots
        top = []
        if slots:
            top.append(", ".join(f"s{k}" for k in range(len(slots))) + ", = S")
        for (fname, _), (local, calls) in self.weights.items():
            top.append(f"{local} = {calls} * W.get({self.literal(fname)}, 1)")
        top += [f"{local} = _ZERO" for local in (*self.flops.values(), *self.special.values())]
        for local in self.first.values():
            top += [f"{local} = {{}}", f"{local.upper()} = {local}.setdefault"]
        for local in (*self.written.values(), *(a[0] for a in self.access.values())):
            top += [f"{local} = set()", f"{local.upper()} = {local}.add"]
        results = [*self.flops.values(), *self.special.values(), *self.first.values(), *self.written.values(),
                   *(a[0] for a in self.access.values())]
        lines = ["def _make(K):", "    def _run(S, W, _b, _it):", *_indent(_indent(top + body)),
                 f"        return ({''.join(r + ', ' for r in results)})", "    return _run"]
        source = "\n".join(lines) + "\n"
        make = _MAKERS.get(source)
        if make is None:
            namespace = dict(_GLOBALS)
            exec(compile(source, "<loopcode>", "exec"), namespace)
            make = _MAKERS[source] = namespace["_make"]
        return _Program(make, self.consts, slots, self)

    # -- values ----------------------------------------------------------------------------------

    def const(self, value) -> str:
        self.consts.append(value)
        return f"K[{len(self.consts) - 1}]"

    def literal(self, value) -> str:
        """`value` in the source: an int or str as written (exact), anything else read from K."""
        return repr(value) if type(value) in (int, str) else self.const(value)

    def expr(self, e) -> str:
        """The walker's compilation of `e` (interpret._Walker._closure); where that raises, code that
        raises the same when it is reached."""
        try:
            return self.comp.code(sympy.sympify(e))
        except Exception as exc:  # raised again where the walker would raise it
            return f"_fail({self.const(exc)})"

    @staticmethod
    def _local(table: dict, key, prefix: str) -> str:
        if key not in table:
            table[key] = f"{prefix}{len(table)}"
        return table[key]

    # -- nodes (interpret._Walker._nodes, _loop, _stmt: the same order) ---------------------------

    def nodes(self, nodes, loops: list, path: tuple) -> list:
        """`loops`: [(number, Loop node)] enclosing, outermost first; `path`: the guards' branches."""
        out: list = []
        for node in nodes:
            if isinstance(node, Stmt):
                out += self.stmt(node, loops, path)
            elif isinstance(node, Guard):
                if node.cond is None:  # both branches run
                    out += self.nodes(node.then, loops, path + ((id(node), True),))
                    out += self.nodes(node.orelse, loops, path + ((id(node), False),))
                    continue
                cond = self.expr(node.cond)
                then = self.nodes(node.then, loops, path + ((id(node), True),)) if node.then else []
                orelse = self.nodes(node.orelse, loops, path + ((id(node), False),)) if node.orelse else []
                out += [f"if {cond}:", *_indent(then or ["pass"])]
                if orelse:
                    out += ["else:", *_indent(orelse)]
            elif isinstance(node, Loop):
                out += self.loop(node, loops, path)
        return out

    def loop(self, node: Loop, loops: list, path: tuple) -> list:
        k = self.loops
        self.loops += 1
        chain = [*loops, (k, node)]
        var = self.comp.variable(self.comp.slot(node.var))
        out = [f"_L{k} = {self.expr(node.start)}", f"_o{k} = {var}"]
        cond = self.expr(node.cond)
        body = self.nodes(node.body, chain, path)
        # an iteration is work too: a loop whose body is empty or guarded away still stops
        head = [f"{var} = _L{k}", f"if not {cond}: break", "_it -= 1", "if _it < 0: raise TooLarge()"]
        if k in self.tuples:
            head.append(f"_t{k} = ({''.join(f'_L{j}, ' for j, _ in chain)})")
        out += ["while True:", *_indent([*head, *body, f"_L{k} += {self.literal(node.step)}"]), f"{var} = _o{k}"]
        return out

    def stmt(self, stmt: Stmt, loops: list, path: tuple) -> list:
        out = ["_b -= 1", "if _b < 0: raise TooLarge()"]
        for prec, n in stmt.flops.items():
            if n:
                out.append(f"{self._local(self.flops, prec, '_f')} += {self.literal(n)}")
        for (fname, prec), calls in stmt.special.items():
            out.append(f"{self._local(self.special, fname, '_c')} += {self.literal(calls)}")
            if (fname, calls) not in self.weights:
                self.weights[(fname, calls)] = (f"_w{len(self.weights)}", self.literal(calls))
            weighted = self.weights[(fname, calls)][0]
            out.append(f"{self._local(self.flops, prec, '_f')} += {weighted}")
        # the walker's plan (_Walker._plan), made at the statement's first instance: its compile
        # errors are raised there, before any subscript is evaluated
        loop_ids = tuple(id(node) for _, node in loops)
        plan = []
        for ref, dram, hoisted in counted_refs(self.kernel, stmt, loops[-1][1] if loops else None):
            try:
                index = [self.comp.code(sympy.sympify(e)) for e in ref.index]
            except Exception as exc:  # raised again where the walker would raise it
                return [*out, f"_fail({self.const(exc)})"]
            ident = ("dram" if dram else "shared", ref.array, ref.kind, stmt.group or id(stmt), loop_ids,
                     tuple(ref.index))
            plan.append((ref, dram, index, hoisted, ident))
        # Subscripts are pure functions of the locals, which a statement does not change: each
        # distinct one is evaluated once per instance, where the walker first evaluated it (so it
        # raises there too); a set's add and a dict's setdefault repeated with the same element
        # change nothing, so a repeated line is written once.
        elements: dict = {}  # the element's text -> its local
        lines: dict = {}  # each line once, in order
        for ref, dram, index, hoisted, ident in plan:
            text = index[0] if ref.array in self.scalar and index else f"({''.join(i + ', ' for i in index)})"
            if text not in elements:
                elements[text] = f"_e{len(elements)}"
                lines[f"{elements[text]} = {text}"] = None
            elem = elements[text]
            if dram:  # the element's first access (setdefault keeps an earlier one), and writes
                lines[f"{self._local(self.first, ref.array, '_d').upper()}({elem}, {self.literal(ref.kind)})"] = None
                if ref.kind == "write":
                    lines[f"{self._local(self.written, ref.array, '_x').upper()}({elem})"] = None
            # the iteration tuple: the enclosing loops' values, without the innermost's when hoisted
            # (a reference invariant in its innermost sequential loop is one access per execution)
            owner = loops[-2][0] if hoisted and len(loops) >= 2 else None if hoisted or not loops else loops[-1][0]
            if owner is not None:
                self.tuples.add(owner)
            key = (ident, path)
            if key not in self.access:
                self.access[key] = (f"_a{len(self.access)}", "dram" if dram else "shared", ref.array, ref.kind)
            lines[f"{self.access[key][0].upper()}({'()' if owner is None else f'_t{owner}'})"] = None
        return [*out, *lines]


def _one_subscript(kernel: Kernel) -> set:
    """Arrays every reference of which has one subscript: their elements are kept as the subscript's
    value, not a 1-tuple (the same equality: x == y exactly when (x,) == (y,))."""
    lengths: dict = {}
    stack = list(kernel.body)
    while stack:
        node = stack.pop()
        if isinstance(node, Stmt):
            for ref in node.refs:
                if ref.index is not None:
                    lengths.setdefault(ref.array, set()).add(len(ref.index))
        elif isinstance(node, Guard):
            stack += [*node.then, *node.orelse]
        elif isinstance(node, Loop):
            stack += node.body
    return {name for name, found in lengths.items() if found == {1}}
