"""C statements to loop IR: blocks, declarations, `if` guards, `for` loops (headers, unrolling,
unknown trip counts), `while` loops and conditions.  A mixin of :class:`c.FunctionLowering`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import sympy
from pycparser import c_ast

from ...ir import TRIP_COUNT, Guard, Loop, Stmt, walk
from ..common.lowering import Acc, Unsupported, affine as _affine, monotone as _monotone, substitute as _substitute
from ..common.preprocess import SIZE_MARK
from ..common.relations import relation, substitute
from . import folding, inductions as IV, narrow, recovery, structs, switch
from .nullness import pointer_test
from .types import INT
from .values import (
    COMPARISONS,
    SCALAR_KEYS,
    STATEMENT_GROUPS,
    Var,
    assigned_names,
    body_items,
    exit_of,
    is_allocation,
    loop_step,
    multiplicative_step,
    node_location,
    nodes,
    value_of,
    without_exit,
)
from .views import convert, resolve_views

if TYPE_CHECKING:  # a mixin: its attributes and methods are FunctionLowering's (see c.py)
    from typing import Any as _Mixin

else:
    _Mixin = object


class StatementLowering(_Mixin):
    acc: Acc  # FunctionLowering's state this half assigns (the type checker sees the mixin alone)
    cond_why: str
    # -- statements ----------------------------------------------------------------------
    def lower(self) -> list:
        body = self.nested(self.fn.body.block_items or [], scope=False)
        if self.folded and self.stack[:-1] == ():
            # a compile-time size folded somewhere is folded everywhere, for one coherent formula
            subs = {sympy.Symbol(n): self.tu.bindings.get(n, self.kernel.sizes[n].default) for n in self.folded}
            _substitute(body, subs)
        if self.stack[:-1] == ():
            resolve_views(self.kernel, body)
        return body

    def block(self, items):
        items = list(items or [])
        for k, node in enumerate(items):
            if isinstance(node, c_ast.If):
                split = recovery.guarded(self, node, lambda n, rest=items[k + 1:]: self._split_at_exit(n, rest))
                if split:
                    return
                if split is None:  # an `if` whose condition is not modeled: dropped (SR123)
                    continue
            self.statement(node)

    def _exit_here(self, branch) -> bool:
        """Does `branch` end with an exit this block can model as a guard?  A `return` can, outside
        loops (it skips the rest of the function); a `continue` can, at the top level of a loop body
        (it skips the rest of the iteration).  A `return` inside a loop ends every later iteration,
        which no guard can say: that is left to an SR102 warning."""
        kind = exit_of(branch) if branch is not None else None
        return (kind == "return" and self.depth == 0) or (kind == "continue" and self.in_loop_body)

    def _split_at_exit(self, node: c_ast.If, rest) -> bool:
        """`if (c) {A; exit;} else {B} rest` == `if (c) {A} else {B; rest}` (and symmetrically)."""
        t_exit, e_exit = self._exit_here(node.iftrue), self._exit_here(node.iffalse)
        if not (t_exit or e_exit):
            return False
        then = without_exit(node.iftrue) if t_exit else [node.iftrue] + rest
        orelse = without_exit(node.iffalse) if e_exit else ([node.iffalse] if node.iffalse is not None else []) + rest
        self.guard(node, then, orelse)
        return True

    def statement(self, node):
        """One source statement; a construct it does not model costs only it (see recovery.py)."""
        recovery.guarded(self, node, self._statement)

    def _statement(self, node):
        self.group = next(STATEMENT_GROUPS)
        if node is None or isinstance(node, (c_ast.EmptyStatement, c_ast.Pragma)):
            if isinstance(node, c_ast.Pragma):
                self.tu._pragma(node.string)
            return
        if isinstance(node, c_ast.Compound):
            self.emit(node)
            self.out.extend(self.nested(node.block_items or []))
        elif isinstance(node, c_ast.Decl):
            self.declaration(node)
            self.emit(node)
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self.declaration(d)
            self.emit(node)
        elif isinstance(node, c_ast.For):
            self.emit(node)
            self.for_loop(node)
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            self.emit(node)
            self.while_loop(node)
        elif isinstance(node, c_ast.If):
            self.emit(node)
            self.guard(node)
        elif isinstance(node, c_ast.Return):
            if node.expr is not None:
                self.value(node.expr, self.acc)
            self.emit(node)
            if self.depth:
                self.diag("SR102", "`return` inside a loop: the remaining iterations are counted as if executed", node)
            elif node is not self.final:
                self.diag("SR102", "`return` before the end of the function: what follows is counted as if executed",
                          node)
        elif isinstance(node, c_ast.Break):
            if self.depth:
                self.diag("SR102", "`break`: the loop is counted over its full range (an upper bound)", node)
        elif isinstance(node, c_ast.Continue):
            if self.depth:
                self.diag("SR102", "`continue` here is not modeled: the rest of the iteration is counted as if "
                          "executed", node)
        elif isinstance(node, c_ast.Switch):
            self.emit(node)
            switch.lower(self, node)
        elif isinstance(node, c_ast.Label):  # the label is nothing; a `goto` to it is SR123
            self.statement(node.stmt)
        elif isinstance(node, (c_ast.Goto, c_ast.Case, c_ast.Default)):
            raise Unsupported(f"`{type(node).__name__.lower()}` statement", node)
        elif isinstance(node, (c_ast.Typedef,)):
            self.tu.types.typedefs[node.name] = node.type
        else:
            self.value(node, self.acc)
            self.emit(node)

    def declaration(self, d: c_ast.Decl):
        if d.name is None or isinstance(d.type, c_ast.FuncDecl):
            return
        t = self.tu.types.resolve(d.type)
        if t.kind == "array":
            dims = [self.dim_expr(x) for x in t.all_dims()]
            const = all(x is not None and self.compile_time(x).is_Integer for x in dims)
            space = "local" if const else "global"
            name = self.new_array(d.name, t, space, d)
            self.bind(d.name, Var(t, array=name))
            if d.init is not None:
                self._initializers(d.init)
            return
        if t.kind == "ptr":
            var = Var(t)
            if d.init is not None:
                v = convert(self, self.value(d.init, self.acc), t, d)  # `float *s = (float *)src`, `= buf`
                if v.array is not None:
                    var = Var(t, array=v.array, prefix=v.prefix, offset=v.offset, why=v.why)
                elif is_allocation(d.init, self.tu):
                    var = Var(t, array=self.new_array(d.name, t, "global", d))
            self.bind(d.name, var)
            return
        if t.kind == "auto" and d.init is not None:  # `auto x = e;` takes the type of e
            v = self.value(d.init, self.acc)
            t = replace(v.ctype, literal=False)
            if t.is_pointer and v.array is not None:
                self.bind(d.name, Var(t, array=v.array, prefix=v.prefix, offset=v.offset))
                return
            var = Var(t, value=v.expr if t.is_int else None, why=v.why, key=self._scalar_key(d.name, t))
            self.acc.use_scalar(var, "write")
            self.bind(d.name, var)
            return
        if t.kind == "struct":
            return structs.declare(self, d, t)
        var = Var(t, key=self._scalar_key(d.name, t))
        if d.init is not None and not isinstance(d.init, c_ast.InitList):
            v = self.value(d.init, self.acc)
            if t.is_int:
                var.value, var.why = (v.expr, v.why) if v.ctype.is_int else (None, "converted from a float")
                var.value, var.why = narrow.stored(t, var.value, var.why, d.name)
            elif (const_t := folding.local(self, d, t, v)) is not None:  # `const float c = 1.0f / 3.0f;`
                var = Var(const_t)  # is c's value
            self.acc.use_scalar(var, "write")
        elif isinstance(d.init, c_ast.InitList):  # `float2 v = {x[i], 1.0f};`: its elements' work and reads
            self._initializers(d.init)
            if t.is_int:
                var.why = f"`{d.name}` is initialized by a list"
            self.acc.use_scalar(var, "write")
        elif t.is_int:
            var.why = f"`{d.name}` is not initialized"
        self.bind(d.name, var)

    def _initializers(self, init) -> None:
        """The work and reads of an initializer (each element of a brace list, nested lists too)."""
        if isinstance(init, c_ast.InitList):
            for e in init.exprs:
                self._initializers(e)
        elif not isinstance(init, c_ast.NamedInitializer):
            self.value(init, self.acc)
        else:
            self._initializers(init.expr)

    @staticmethod
    def _scalar_key(name: str, t) -> str | None:
        return f"{name}#{next(SCALAR_KEYS)}" if t.is_float and not t.is_vector else None

    def guard(self, node: c_ast.If, then_items=None, else_items=None):
        cond = self.condition(node.cond, self.acc)
        self.emit(node)
        if cond is None and self.cond_why:
            self.diag("SR113", f"condition not decidable without the launch configuration: {self.cond_why}; "
                      "both branches are counted", node.cond)
        data_dependent = cond is None and not self.cond_why
        at = len(self.kernel.diagnostics)  # where its SR104 goes: before what the branches say
        self.cond_why = ""
        if then_items is None:
            then_items = [node.iftrue]
            else_items = [node.iffalse] if node.iffalse is not None else []
        changed = self._assigned_outside(then_items + else_items)
        before = {n: self.lookup(n) for n in changed}
        then = self.nested(then_items, scope=True, loop_body=self.in_loop_body)
        after_then = {n: self.lookup(n) for n in changed}
        for n, v in before.items():  # the else branch starts from the values before the `if`
            if v is not None:
                self._assign_in_scope(n, v)
        orelse = self.nested(else_items, scope=True, loop_body=self.in_loop_body)
        if data_dependent and (_counts(then) or _counts(orelse)):  # (a branch that counts nothing, an
            # `fprintf` every 20 elements or an `exit` on a failed malloc, costs the same either way)
            count = len(self.kernel.diagnostics)
            self.diag("SR104", "condition depends on data; both branches are counted", node.cond)
            if len(self.kernel.diagnostics) > count:
                self.kernel.diagnostics.insert(at, self.kernel.diagnostics.pop())
        self._merge(changed, after_then, cond)
        if cond is not None and cond == sympy.true:
            self.out.extend(then)
        elif cond is not None and cond == sympy.false:
            self.out.extend(orelse)
        elif then or orelse:
            self.out.append(Guard(cond, then, orelse, node_location(node, self.tu.path)))

    def _assigned_outside(self, items) -> set:
        """Names the items assign that are defined outside them."""
        return {n for n in _assigned(items) if self.lookup(n) is not None}

    def _merge(self, changed: set, after_then: dict, cond) -> None:
        """After an `if`: a variable keeps a value both branches agree on (or the branch a decided
        condition takes); otherwise it is unknown ("assigned under a condition")."""
        for n in changed:
            a, b = after_then[n], self.lookup(n)
            if a is None or b is None:
                continue
            if cond is not None and cond == sympy.true:
                self._assign_in_scope(n, a)
            elif not ((cond is not None and cond == sympy.false) or a == b):
                self._assign_in_scope(n, structs.unknown(b, n, "is assigned under a condition"))

    def _invalidate(self, body_nodes, keep=(), defining=False, why="changes inside the loop"):
        """Integer variables and pointers assigned inside a loop body are unknown inside it (bound in
        the innermost scope) and after it (`defining`: bound where they are defined)."""
        put = self._assign_in_scope if defining else self.bind
        for name in _assigned(body_nodes) - set(keep):
            var = self.lookup(name)
            if var is not None:
                put(name, structs.unknown(var, name, why))

    def for_loop(self, node: c_ast.For):
        if multiplicative_step(node.next)[0] is not None and self._unroll(node):
            return
        node = self._early_exit(node)
        counter, extra = IV.split_next(node, _names(node.cond))
        if extra:  # `a += aStep, b += bStep`: the counter steps the loop, the others are inductions
            node = c_ast.For(node.init, node.cond, counter, node.stmt, coord=node.coord)
        self.scopes.append({})
        try:
            header = self._loop_header(node, extra=extra)
            if header is None:
                self._unknown_loop(node, [node.stmt, node.next], node.init)
                return
            name, start, step, cond = header
            counter = self.lookup(name)
            if counter is not None:
                narrow.check_counter(self, node, name, counter.ctype, start, step, cond,
                                     sympy.Symbol(f"__loopvar_{name}"))
            var, body = self.loop_body(node, name, (start, step, extra))
            cond_v = substitute(cond, {sympy.Symbol(f"__loopvar_{name}"): var})
            self.out.append(Loop(var, start, cond_v, step, body, "seq", node_location(node, self.tu.path)))
        finally:
            self.scopes.pop()
            self.after_loop([node.stmt, node.next, *extra])
        v = self.lookup(name)
        if v is not None and v.ctype.is_int:
            self.bind(name, replace(v, value=None, why=f"`{name}` after its loop"))

    def _early_exit(self, node: c_ast.For) -> c_ast.For:
        """`for (...; c; i += s) { if (e) break; body }` as `for (...; c && !e; i += s) { body }` when
        the exit is the body's first statement and `!e` is an affine condition on integers that holds
        for a prefix of the trips (monotone in i; what it reads the body does not change): a blocked
        loop's `if (ib*BS + j >= n) break;` cuts the last block at n.  Else `node` itself (the break
        is then SR102, the loop counted over its full range)."""
        items = body_items(node.stmt)
        name, step = loop_step(node.next)
        if not items or node.cond is None or name is None or not isinstance(step, int) or not _breaks(items[0]):
            return node
        exit_cond = items[0].cond
        if not _plain(exit_cond):
            return node
        if _names(exit_cond) & _assigned(items[1:]):
            return node
        placeholder = sympy.Symbol(f"__loopvar_{name}")
        acc = Acc()
        self.scopes.append({name: Var(INT, value=placeholder)})
        try:
            stay = self.condition(c_ast.UnaryOp("!", exit_cond, exit_cond.coord), acc)
        finally:
            self.scopes.pop()
        if stay is None or not acc.empty() or stay.atoms(sympy.Ne) or _monotone(stay, placeholder, step) is None:
            return node  # (`i != k` bounds a loop that must reach k, not an exit it may never meet)
        cond = c_ast.BinaryOp("&&", node.cond, c_ast.UnaryOp("!", exit_cond, exit_cond.coord), node.cond.coord)
        return c_ast.For(node.init, cond, node.next, c_ast.Compound(items[1:], coord=node.stmt.coord), coord=node.coord)

    def after_loop(self, body_nodes):
        """What a loop assigns is unknown after it, where it is defined (the body's own copies are gone)."""
        self._invalidate(body_nodes, defining=True, why="after a loop that changes it")

    def loop_body(self, node: c_ast.For, name: str, counted=None):
        """(loop variable symbol, lowered body) of a counted loop whose variable is `name`.  `counted`:
        (start, step, extra increments) of a loop whose trips are numbered, for its induction
        variables (inductions.py)."""
        var = sympy.Dummy(name)
        self.scopes.append({})
        found = IV.find(node.stmt, counted[2], name) if counted is not None and counted[1] in (1, -1) else []
        before = {ind.name: self.lookup(ind.name) for ind in found}
        self._invalidate([node.stmt, *(counted[2] if counted else ())], keep=())
        declared = self.lookup(name)
        start_step = self.rebased.pop(name, None)  # a loop counted by its trips: the variable is start + step*t
        value = var if start_step is None else sympy.expand(start_step[0] + start_step[1] * var)
        self.bind(name, Var(declared.ctype if declared is not None else INT, value=value))
        if found:
            self._inductions(found, before, (var - counted[0]) * counted[1])
        self.loop_syms.add(var)
        self.depth += 1
        try:
            return var, self.nested(body_items(node.stmt), loop_body=True)
        finally:
            self.depth -= 1
            self.loop_syms.discard(var)
            self.scopes.pop()

    def _inductions(self, found, before: dict, trip) -> None:
        """Bind each induction variable to its value on entry to trip `trip`: start + amount*trip
        (unknown when `trip` is None)."""
        steps: dict = {}  # name -> the amount it advances by per trip (the sum of its increments)
        for ind in found:
            amount = sympy.Integer(1) if ind.amount is None else self.value(ind.amount, Acc()).expr
            if amount is None or amount.free_symbols & self.loop_syms or steps.get(ind.name, 0) is None:
                steps[ind.name] = None
            else:
                steps[ind.name] = steps.get(ind.name, 0) + ind.sign * amount
        for name, step in steps.items():
            v0 = before.get(name)
            if v0 is None:
                continue
            if trip is None or step is None:
                self.bind(name, structs.unknown(v0, name, "changes inside the loop"))
                continue
            delta = sympy.expand(step * trip)
            if v0.ctype.is_int and v0.value is not None:
                self.bind(name, replace(v0, value=sympy.expand(v0.value + delta)))
            elif v0.ctype.is_pointer and v0.array is not None and v0.prefix is not None:
                self.bind(name, replace(v0, offset=sympy.expand(sympy.sympify(v0.offset) + delta)))

    def _unroll(self, node: c_ast.For, limit: int = 64) -> bool:
        """Unroll a loop whose variable is multiplied or shifted (`s >>= 1`, `s *= 2`) when its start
        value is a known constant: its values are then a short known sequence (a tree reduction's
        `for (s = 128; s > 0; s >>= 1)` runs 8 times).  False if the values are not known."""
        name, op, factor = multiplicative_step(node.next)
        self.scopes.append({})
        try:
            acc = Acc()
            start = None
            inits = node.init.decls if isinstance(node.init, c_ast.DeclList) else (
                [node.init] if node.init is not None else [])
            for it in inits:
                if isinstance(it, c_ast.Decl):
                    self.declaration(it)
                else:
                    self.value(it, acc)
            var = self.lookup(name)
            start = var.value if var is not None and var.ctype.is_int else None
            if start is not None:
                start = self.compile_time(start)  # `BLOCK_SIZE / 2` with BLOCK_SIZE #defined
            if var is None or start is None or not start.is_Integer or not acc.empty() or node.cond is None:
                return False
            values: list[int] = []
            v = int(start)
            placeholder = sympy.Symbol(f"__loopvar_{name}")
            self.scopes.append({name: Var(INT, value=placeholder)})
            try:
                cond = self.condition(node.cond, Acc())
            finally:
                self.scopes.pop()
            if cond is None:
                return False
            cond = self.compile_time(cond)
            if op in ("<<", ">>") and not 0 <= factor < 64:
                return False
            while len(values) <= limit:
                holds = cond.subs(placeholder, v)
                if holds not in (sympy.true, sympy.false):
                    return False
                if holds == sympy.false:
                    break
                values.append(v)
                v = {"*": v * factor, "/": int(v / factor), "<<": v << factor, ">>": v >> factor}[op]
            else:
                return False
            assigned, declared = assigned_names(node.stmt)
            if name in assigned and name not in declared:
                return False
            self.emit(node)
            for v in values:
                self.scopes.append({name: Var(var.ctype, value=sympy.Integer(v))})
                try:
                    self.out.extend(self.nested(body_items(node.stmt)))
                finally:
                    self.scopes.pop()
            return True
        finally:
            self.scopes.pop()

    def _loop_header(self, node: c_ast.For, fixed_step=None, extra=()):
        """(var name, start, step, cond) for an affine counted loop, else None (with a diagnostic).
        `fixed_step` replaces the increment's value (a CUDA grid-stride loop steps once per thread)."""
        nxt = node.next
        name, step = loop_step(nxt)
        # initialisation
        start = None
        inits = []
        if isinstance(node.init, c_ast.DeclList):
            inits = node.init.decls
        elif node.init is not None:
            inits = node.init.exprs if isinstance(node.init, c_ast.ExprList) else [node.init]
        for it in inits:
            if isinstance(it, c_ast.Decl):
                self.declaration(it)
                if it.name == name:
                    start = value_of(self.lookup(name))
            else:
                self.value(it, self.acc)
                if isinstance(it, c_ast.Assignment) and isinstance(it.lvalue, c_ast.ID) and it.lvalue.name == name:
                    start = value_of(self.lookup(name))
        self.emit(node)
        if name is None:  # after the initialisation: the body reads what it declares
            self.diag("SR102", "loop increment is not of the form `i++`, `i--`, `i += c` or `i -= c`", node)
            return None
        if not inits or start is None:
            var = self.lookup(name)
            start = var.value if var is not None and var.ctype.is_int else None
        if start is None or self.opaque_reason([start]):
            why = self.opaque_reason([start]) or "it is not affine"
            self.diag("SR102", f"the start value of `{name}` is unknown: {why}", node)
            return None
        step_v = fixed_step if fixed_step is not None else (
            step if isinstance(step, int) else self._folded_step(step, node))
        if step_v is None or not sympy.sympify(step_v).is_Integer:
            self.diag("SR102", f"the step of `{name}` is not a constant", node)
            return None
        step_v = int(step_v)
        if step_v == 0:
            self.diag("SR109", "loop step is zero", node)
            return None
        assigned, declared = assigned_names(node.stmt)
        if name in assigned and name not in declared:
            self.diag("SR102", f"`{name}` is modified inside the loop body", node)
            return None
        if node.cond is None:
            self.diag("SR103", "loop has no exit condition", node)
            return None
        # condition, with the loop variable as a placeholder symbol
        placeholder = sympy.Symbol(f"__loopvar_{name}")
        value = placeholder
        if fixed_step is None and not _affine(start, self.loop_syms, allow_size_products=True):
            # a start that is a size times an outer loop's variable (`a = wA*BLOCK*by`): the loop counted
            # by its trips t, the variable start + step*t (an affine bound `a <= aBegin + wA - 1` is one on t)
            self.rebased[name] = (start, step_v)
            value = start + step_v * placeholder
        self.scopes.append({name: Var(INT, value=value)})
        try:
            if extra:  # the other variables the header steps, at the trip the placeholder numbers
                found = [i for i in (IV.increment(e) for e in extra) if i is not None]
                trip = placeholder if name in self.rebased else \
                    (placeholder - start) * step_v if step_v in (1, -1) else None
                self._inductions(found, {i.name: self.lookup(i.name) for i in found}, trip)
            cond = self.condition(node.cond, self.acc)
        finally:
            self.scopes.pop()
        self.acc = Acc()  # a loop condition reading arrays is rare; its reads are not counted
        if cond is None:
            self.rebased.pop(name, None)
            self.diag("SR102", "the loop condition is not affine", node.cond)
            return None
        if name in self.rebased:
            cond = _monotone(cond, placeholder, 1)
            if cond is None:
                self.rebased.pop(name)
                self.diag("SR109", f"the condition of `{name}` does not bound it in the direction of its step",
                          node.cond)
                return None
            return name, sympy.Integer(0), 1, cond
        cond = _monotone(cond, placeholder, step_v)
        if cond is None:
            self.diag("SR109", f"the condition of `{name}` does not bound it in the direction of its step", node.cond)
            return None
        return name, sympy.expand(start), step_v, cond

    def _unknown_loop(self, node, body_nodes, init=None):
        line = node.coord.line if node.coord else 0
        sym = self.size_symbol(f"trip_L{line}", origin="trip count", role=TRIP_COUNT)
        t = sympy.Dummy("t")
        self.scopes.append({})
        try:
            self._invalidate(body_nodes)
            self.loop_syms.add(t)
            self.depth += 1
            items = body_items(body_nodes[0]) + [b for b in body_nodes[1:] if b is not None]
            body = self.nested(items, loop_body=True)
            self.depth -= 1
            self.loop_syms.discard(t)
        finally:
            self.scopes.pop()
        self.after_loop(body_nodes)
        self.out.append(Loop(t, sympy.Integer(0), sympy.Lt(t, sym), 1, body, "seq", node_location(node, self.tu.path)))

    def while_loop(self, node):
        counted = IV.while_as_for(node) if isinstance(node, c_ast.While) else None
        if counted is not None:
            self.for_loop(counted)
            return
        kind = "while" if isinstance(node, c_ast.While) else "do-while"
        line = node.coord.line if node.coord else 0
        self.diag("SR103", f"`{kind}` loop: trip count modeled as the size `trip_L{line}`", node)
        self._invalidate([node.stmt, node.cond])
        cond_stmt = c_ast.Compound([node.cond], coord=node.cond.coord) if node.cond is not None else None
        self._unknown_loop(node, [node.stmt, cond_stmt])

    def condition(self, node, acc: Acc):
        """A sympy boolean if `node` is an affine condition on integers, else None (reads recorded).
        One on compile-time sizes alone (`if (kScale)` in `tagged<false>`, `#if`-like macros) is decided
        as the compiler decides it."""
        cond = self._condition(node, acc)
        if cond is not None and cond not in (sympy.true, sympy.false) and not cond.free_symbols & self.loop_syms:
            folded = self.compile_time(cond)
            if folded in (sympy.true, sympy.false):
                # folded everywhere in the kernel (SR115), so its formulas hold where the branch does
                self.fold(cond, node, "decides a condition")
                return folded
            below = self._bound_below_one(folded)
            if below and folded.subs(below) in (sympy.true, sympy.false):
                # `-D flag=0`: no formula over sizes >= 1 holds there, so the size is folded as a
                # compile-time one, everywhere (lower): the branch stays, its condition decided
                for sym, value in sorted(below.items(), key=lambda kv: kv[0].name):
                    if sym.name not in self.folded:
                        self.folded.add(sym.name)
                        self.diag("SR115", f"`{sym.name}` is folded to {value} where it decides a condition (a "
                                  "size given below 1, where formulas in the sizes do not reach)", node)
        return cond

    def _bound_below_one(self, cond) -> dict:
        """{size symbol: value} for the sizes of `cond` given a value below 1 (`-D flag=0`)."""
        out = {}
        for sym in cond.free_symbols:
            value = self.tu.bindings.get(sym.name) if sym.name in self.kernel.sizes else None
            if isinstance(value, int) and value < 1:
                out[sym] = value
        return out

    def _condition(self, node, acc: Acc):
        flag = pointer_test(self, node)  # `if (mean != nullptr)`: a run-time flag (nullness.py)
        if flag is not None:
            return flag
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            a = self.condition(node.left, acc)
            b = self.condition(node.right, acc)
            if a is None or b is None:
                return None
            return sympy.And(a, b) if node.op == "&&" else sympy.Or(a, b)
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            a = self.condition(node.expr, acc)
            return None if a is None else sympy.Not(a)
        if isinstance(node, c_ast.BinaryOp) and node.op in COMPARISONS:
            a = self.value(node.left, acc)
            b = self.value(node.right, acc)
            if a.ctype.is_int and b.ctype.is_int and a.expr is not None and b.expr is not None:
                why = self.opaque_reason([a.expr, b.expr])
                if why:
                    self.cond_why = why
                    return None
                lhs, rhs = self.compared(a.expr, b.expr, node)
                if _affine(lhs - rhs, self.loop_syms, allow_size_products=True):
                    return relation(COMPARISONS[node.op], lhs, rhs)
            return None
        v = self.value(node, acc)
        if v.ctype.is_int and v.expr is not None and _affine(v.expr, self.loop_syms, True):
            return sympy.Ne(v.expr, 0)
        return None


def _counts(body: list) -> bool:
    """Whether lowered statements do any counted work or move any data."""
    return any(isinstance(n, Stmt) and (n.flops or n.special or n.refs) for n in walk(body))


def _names(node) -> set:
    """The identifiers under `node` (a loop condition's variables)."""
    return {n.name for n in nodes(node) if isinstance(n, c_ast.ID)} if node is not None else set()


# what an early exit's condition may hold: integers and their arithmetic, nothing read from memory
_PLAIN = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.Cast, c_ast.Typename, c_ast.TypeDecl,
          c_ast.IdentifierType)


def _plain(node) -> bool:
    """Whether `node` computes on integers without reading memory or calling a function (a size
    macro's marker aside)."""
    if isinstance(node, c_ast.FuncCall):
        return isinstance(node.name, c_ast.ID) and node.name.name == SIZE_MARK
    if not isinstance(node, _PLAIN) or (isinstance(node, c_ast.UnaryOp) and node.op in ("*", "&")):
        return False
    return all(_plain(child) for _, child in node.children())


def _breaks(node) -> bool:
    """Whether `node` is `if (e) break;` (no else)."""
    if not isinstance(node, c_ast.If) or node.iffalse is not None:
        return False
    then = node.iftrue
    if isinstance(then, c_ast.Compound) and len(then.block_items or []) == 1:
        then = then.block_items[0]
    return isinstance(then, c_ast.Break)


def _assigned(items) -> set:
    """Names the items assign and do not declare."""
    assigned, declared = set(), set()
    for n in items:
        if n is not None:
            a, d = assigned_names(n)
            assigned |= a
            declared |= d
    return assigned - declared
