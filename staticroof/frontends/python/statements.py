"""Python kernels to loop IR: the statements (`for ... in range/prange`, `if` guards, assignments,
`while` as a diagnostic) of one Numba function, with its parameters typed and its sizes named.

Sizes are named after what the source calls them: an integer parameter `n` is the size `n`; a
shape read `x.shape[0]` (or `len(x)`) is the size `x_shape0`, unless the function names it first
(`n = x.shape[0]`, `m, k = A.shape`), when it is that name.  `-D n=1000` binds either.
"""

from __future__ import annotations

import itertools

import libcst as cst
import sympy

from ...ir import TRIP_COUNT, Array, Guard, Kernel, Loop, Stmt
from ..common.lowering import Acc, BodyBuilder, Unsupported, monotone
from . import arrays as AR, cuda as CU
from .expressions import ExpressionLowering
from .iteration import as_range_loop
from .kernels import qualified
from .numba_types import PyType, dtype_name, is_inexact, unify
from .syntax import names_of, shape_names, statement_list
from .values import FileContext, PVal, float_val, int_val

_GROUPS = itertools.count(1 << 20)  # source-statement ids (ir.Stmt.group), apart from the C front end's
_LOCAL_ARRAYS = ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like")
_AUGOPS = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
           cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**",
           cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>", cst.BitAndAssign: "&", cst.BitOrAssign: "|",
           cst.BitXorAssign: "^"}


class PythonLowering(ExpressionLowering, BodyBuilder):
    def __init__(self, ctx: FileContext, kernel: Kernel, fn: cst.FunctionDef, params: dict, threads_for=None,
                 stack=()):
        self.ctx = ctx
        self.kernel = kernel
        self.fn = fn
        self.stack = tuple(stack) + (fn.name.value,)
        self.env: dict = {}
        self.loop_syms: set = set()
        self.opaque: dict = {}
        self.acc = Acc()
        self.out: list = []
        self.depth = 0
        self.in_loop_body = False
        self.group = next(_GROUPS)
        self.shape_names = shape_names(fn)
        self.threads = threads_for(self) if threads_for is not None else None
        self.returned: list = []  # values of `return` statements (inlined device functions)
        self.elementwise: list | None = None  # the implicit loop variables of a whole-array statement
        self.made: dict = {}  # id(call node) -> the temporary array an `np.ones(...)` in an expression made
        for name, v in params.items():
            self.env[name] = v

    # -- helpers -------------------------------------------------------------------------
    def diag(self, code: str, message: str, node=None):
        self.kernel.diag(code, message, self.ctx.loc(node, self.kernel.location))

    def lookup(self, name: str):
        return self.env.get(name)

    def stmt_loc(self, node):
        return self.ctx.loc(node)

    def new_array(self, name: str, dtype: str, dims: tuple, space: str, node) -> str:
        name = self.unique_array_name(name)
        self.kernel.arrays[name] = Array(name, dtype, dims, space, self.ctx.loc(node))
        return name

    def rank(self, array: str) -> int:
        return max(1, len(self.kernel.arrays[array].dims))

    def shape(self, array: str, k: int) -> sympy.Expr:
        """The extent of `array` along dimension k: a local array's own, else a size."""
        arr = self.kernel.arrays[array]
        if k < len(arr.dims) and arr.dims[k] is not None:
            return arr.dims[k]
        root = array.split("#")[0]
        name = self.shape_names.get((root, k), f"{root}_shape{k}")
        return self.size_symbol(name, origin="array shape")

    def acc_for_dims(self) -> Acc:
        return Acc()

    def combine(self, expr):
        return self.threads.combine(expr) if self.threads is not None and expr is not None else expr

    def emit(self, node=None):
        self.close_statement(node)
        self.acc.reset()  # in place: an expression that emits mid-statement (a reduction) keeps its `acc`

    def nested(self, stmts, loop_body=False) -> list:
        saved = self.out, self.acc, self.in_loop_body
        self.out, self.acc, self.in_loop_body = [], Acc(), loop_body
        try:
            self.block(stmts)
            self.emit()
            return self.out
        finally:
            self.out, self.acc, self.in_loop_body = saved

    # -- statements ----------------------------------------------------------------------
    def lower(self) -> list:
        body = self.nested(statement_list(self.fn.body))
        if self.threads is not None and self.stack[:-1] == ():
            body = self.threads.wrap(body, self.kernel.location)
        return body

    def block(self, stmts):
        stmts = list(stmts)
        for k, s in enumerate(stmts):
            if isinstance(s, cst.If) and s.orelse is None and self._exit_here(s.body):
                # `if i >= n: return`: the rest of the block runs where the condition does not hold
                cond = self.condition(s.test, self.acc)
                if cond is not None:
                    self.emit(s)
                    then = self.nested(statement_list(s.body)[:-1])
                    rest = self.nested(stmts[k + 1:], loop_body=self.in_loop_body)
                    self._guard(cond, then, rest, s)
                    return
            self.group = next(_GROUPS)
            self.statement(s)

    def _exit_here(self, body) -> bool:
        last = statement_list(body)[-1] if statement_list(body) else None
        small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
        if isinstance(small, cst.Return) and small.value is None:
            return self.depth == 0 and self.stack[:-1] == ()
        return isinstance(small, cst.Continue) and self.in_loop_body

    def statement(self, s):
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                self.small(small, s)
                self.emit(small)
        elif isinstance(s, cst.For):
            self.emit(s)
            self.for_loop(s)
        elif isinstance(s, cst.If):
            self.emit(s)
            self.if_stmt(s)
        elif isinstance(s, cst.While):
            self.emit(s)
            self.while_loop(s)
        elif isinstance(s, cst.FunctionDef):
            raise Unsupported("a function defined inside the kernel", s)
        else:
            raise Unsupported(f"`{type(s).__name__.lower()}` statement", s)

    def small(self, s, line):
        if isinstance(s, cst.Assign):
            if isinstance(s.value, cst.Call) and self._local_array(s):
                return
            if len(s.targets) == 1 and self._array_statement(s.targets[0].target, s.value, s):
                return
            v = self.value(s.value, self.acc)
            for t in s.targets:
                self.assign(t.target, v, s)
        elif isinstance(s, cst.AnnAssign):
            if s.value is not None:
                v = self.value(s.value, self.acc)
                t = dtype_name(qualified(s.annotation.annotation, self.ctx.names))
                if t is not None and v.is_number:
                    v = float_val(t) if is_inexact(t) else int_val(v.expr, v.why, dtype=t)
                self.assign(s.target, v, s)
        elif isinstance(s, cst.AugAssign):
            op = _AUGOPS[type(s.operator)]
            if self._array_statement(s.target, s.value, s, op):
                return
            target = self.expr(s.target, self.acc)
            old = self.load(target, self.acc, s.target)
            rhs = self.value(s.value, self.acc)
            self.assign(s.target, self.binary(op, old, rhs, self.acc, s), s, target)
        elif isinstance(s, cst.Expr):
            if AR.out_call(self, s.value, s):  # np.sqrt(x, out=y)
                return
            if not isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString, cst.Ellipsis)):
                self.value(s.value, self.acc)
        elif isinstance(s, cst.Return):
            if s.value is not None and AR.is_array_expr(self, s.value) and not isinstance(s.value, cst.Name):
                AR.assign(self, cst.Name("result"), s.value, s)  # `return a + trace`: a new array
                self.returned.append(self.env["result"])
            elif s.value is not None:
                self.returned.append(self.value(s.value, self.acc))
            if self.depth:
                self.diag("SR102", "`return` inside a loop: the remaining iterations are counted as if executed", s)
        elif isinstance(s, cst.Break):
            if self.depth:
                self.diag("SR102", "`break`: the loop is counted over its full range (an upper bound)", s)
        elif isinstance(s, cst.Continue):
            if self.depth:
                self.diag("SR102", "`continue` here is not modeled: the rest of the iteration is counted as if "
                          "executed", s)
        elif isinstance(s, (cst.Pass, cst.Global, cst.Nonlocal)):
            return
        elif isinstance(s, cst.Assert):
            self.condition(s.test, self.acc)
        else:
            raise Unsupported(f"`{type(s).__name__.lower()}` statement", s)

    def assign(self, target, v: PVal, node, evaluated: PVal | None = None):
        if isinstance(target, cst.Name):
            name = target.value
            if v.kind == "float":
                old = self.env.get(name)
                key = old.key if old is not None and old.kind == "float" and old.key else f"{name}#{len(self.env)}"
                new = PVal("float", v.dtype, key=key)
                self.acc.use_scalar(new, "write")
                self.env[name] = new
            elif v.kind == "int":
                self.env[name] = int_val(v.expr, v.why, dtype=v.dtype or "int64")
            else:
                self.env[name] = v
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            items = v.items if v.kind == "tuple" else ()
            if len(items) != len(target.elements):
                raise Unsupported("unpacking of something that is not a tuple of that length", node)
            for e, item in zip(target.elements, items, strict=True):
                self.assign(e.value, item, node)
            return
        if isinstance(target, cst.Subscript):
            place = evaluated if evaluated is not None else self.expr(target, self.acc)
            if place.element is None:
                if place.kind == "array":
                    raise Unsupported("assignment to a whole array or a slice", node)
                raise Unsupported("assignment to something that is not an array element", node)
            array, index, why = place.element
            if v.kind == "array":
                raise Unsupported("an array stored into an array element", node)
            from ...ir import Ref

            self.acc.refs.append(Ref(array, index, "write", self.ctx.loc(target), why))
            return
        raise Unsupported(f"assignment to `{type(target).__name__}`", node)

    def _array_statement(self, target, value, node, op=None) -> bool:
        """A whole-array or slice statement (python_arrays.py); a view `v = x[1:]` or an alias
        `row = A[i]` is only bound."""
        sliced = isinstance(target, cst.Subscript) and any(isinstance(e.slice, cst.Slice) for e in target.slice)
        whole_target = isinstance(target, cst.Name) and op is not None and \
            (self.env.get(target.value) or PVal("none")).kind in ("array", "section")
        rhs = AR.is_array_expr(self, value)
        if isinstance(target, cst.Name) and op is None:
            if not rhs or isinstance(value, (cst.Name, cst.Subscript)):
                return False  # an alias or a view: bound by `assign`
            AR.assign(self, target, value, node)
            return True
        if not (sliced or whole_target or (rhs and isinstance(target, cst.Subscript)
                                           and AR.is_array_expr(self, target))):
            return False
        AR.assign(self, target, value, node, op)
        return True

    def _local_array(self, s: cst.Assign) -> bool:
        """`tmp = np.empty(n, dtype=np.float32)`, `sm = cuda.shared.array(256, float32)`: a new
        array of the kernel (a temporary in memory, on chip, or in registers)."""
        call = s.value
        if not isinstance(call, cst.Call):
            return False
        q = qualified(call.func, self.ctx.names) if isinstance(call.func, (cst.Name, cst.Attribute)) else ""
        if len(s.targets) != 1 or not isinstance(s.targets[0].target, cst.Name):
            return False
        name = s.targets[0].target.value
        args = [a.value for a in call.args if a.keyword is None]
        kwargs = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if q in ("numba.cuda.shared.array", "numba.cuda.local.array", "numba.cuda.const.array_like"):
            self.env[name] = CU.on_chip_array(self, q, name, args, kwargs, s)
            return True
        made = self.new_local(name, q, args, kwargs, s)
        if made is None:
            return False
        self.env[name] = made
        return True

    def new_local(self, name: str, q: str, args, kwargs, s):
        """`np.empty/zeros/ones/full(shape, dtype)` and the `_like` forms: a temporary array of the
        kernel (None if `q` is none of them)."""
        short = q.rsplit(".", 1)[-1]
        if not (q.startswith("numpy.") and short in _LOCAL_ARRAYS and args):
            return None
        dtype_node = kwargs.get("dtype", args[1] if len(args) > 1 and short != "full" else None)
        if short.endswith("_like"):
            like = self.expr(args[0], Acc())
            if like.kind != "array" or like.array is None:
                return None
            dims = tuple(self.shape(like.array, k) for k in range(self.rank(like.array)))
            dtype = like.dtype
        else:
            shape = self.value(args[0], Acc())
            items = shape.items if shape.kind == "tuple" else (shape,)
            dims = tuple(v.expr for v in items)
            dtype = "fp64"
        if dtype_node is not None:
            dtype = dtype_name(qualified(dtype_node, self.ctx.names) or cst.Module([]).code_for_node(dtype_node))
            if dtype is None:
                raise Unsupported("a local array of an unknown dtype", s)
        arr = self.new_array(name, dtype, dims, "global", s)
        if short in ("zeros", "ones", "full", "zeros_like", "ones_like"):
            self._fill(arr, dims, s)
        return PVal("array", dtype, array=arr)

    def _fill(self, array: str, dims: tuple, node):
        """`np.zeros(n)` writes its n elements: a loop nest of writes."""
        if any(d is None for d in dims):
            self.diag("SR101", f"`{array}`: the extent of the filled array is unknown", node)
            return
        from ...ir import Ref

        vars_ = [sympy.Dummy(f"fill{k}") for k in range(len(dims))]
        body: list = [Stmt({}, {}, [Ref(array, tuple(vars_), "write", self.ctx.loc(node))], self.ctx.loc(node),
                           self.group)]
        for v, d in reversed(list(zip(vars_, dims, strict=True))):
            body = [Loop(v, sympy.Integer(0), sympy.Lt(v, d), 1, body, "seq", self.ctx.loc(node))]
        self.emit(node)
        self.out.extend(body)

    # -- loops ---------------------------------------------------------------------------
    def for_loop(self, node: cst.For):
        loop = as_range_loop(node, self.ctx.names, self.ctx.positions)  # over arrays, enumerate, zip
        if loop is not None:
            node = loop
        it = node.iter
        q = qualified(it.func, self.ctx.names) if isinstance(it, cst.Call) and isinstance(
            it.func, (cst.Name, cst.Attribute)) else ""
        if q not in ("range", "numba.prange", "prange") or not isinstance(it, cst.Call) \
                or not isinstance(node.target, cst.Name):
            raise Unsupported("`for` over something other than `range`/`prange`", node)
        name = node.target.value
        args = [self.value(a.value, self.acc) for a in it.args]
        self.emit(node)
        if not 1 <= len(args) <= 3:
            raise Unsupported(f"`range` with {len(args)} arguments", node)
        start = args[0] if len(args) > 1 else int_val(0, literal=True)
        stop = args[1] if len(args) > 1 else args[0]
        step = args[2] if len(args) > 2 else int_val(1, literal=True)
        kind = "prange" if q != "range" else "seq"
        bad = next((v for v in (start, stop, step) if v.kind != "int" or v.expr is None), None)
        step_e = step.expr if step.expr is not None else sympy.nan  # nan: not read when `bad` is set
        if bad is None and (self.opaque_reason([start.expr, stop.expr]) or self.opaque_reason([step.expr])):
            bad = int_val(None, self.opaque_reason([start.expr, stop.expr, step.expr]))
        if bad is None and self.threads is not None and not step_e.is_Integer:
            gs = self.threads.gridstride(start.expr, step.expr)
            if gs is not None:
                d, offset = gs
                var = sympy.Dummy(name)
                body = self._loop_body(node, name, var)
                cond = sympy.Lt(var, self.combine(stop.expr))
                self.out.append(Loop(var, offset, cond, 1, body, f"gridstride.{d}", self.ctx.loc(node)))
                return
        if bad is None and not step_e.is_Integer:
            bad = int_val(None, "the step is not a constant")
        if bad is not None:
            self.diag("SR102", f"the range of `{name}` is not affine: {bad.why or 'unknown bound'}", node)
            return self._unknown_loop(node, name)
        s = int(step_e)
        if s == 0:
            raise Unsupported("`range` with step 0", node)
        var = sympy.Dummy(name)
        a, b = self.combine(start.expr), self.combine(stop.expr)
        cond = monotone(sympy.Lt(var, b) if s > 0 else sympy.Gt(var, b), var, s)
        if cond is None:
            self.diag("SR102", f"the range of `{name}` is not affine", node)
            return self._unknown_loop(node, name)
        body = self._loop_body(node, name, var)
        self.out.append(Loop(var, sympy.expand(a), cond, s, body, kind, self.ctx.loc(node)))
        if node.orelse is not None:
            self.block(statement_list(node.orelse.body))

    def _loop_body(self, node, name: str, var) -> list:
        """The body lowered with `name` = var; floating-point locals assigned in it take the type
        Numba unifies at the loop's head (a float32 `s` that a float64 product updates is float64)."""
        assigned = _assigned(node.body)
        for _ in range(3):
            entry = dict(self.env)
            for n in assigned:
                v = self.env.get(n)
                if v is not None and v.kind == "int":
                    self.env[n] = int_val(None, f"`{n}` changes in the loop")
            ndiag = len(self.kernel.diagnostics)
            self.env[name] = int_val(var)
            self.loop_syms.add(var)
            self.depth += 1
            try:
                body = self.nested(statement_list(node.body), loop_body=True)
            finally:
                self.depth -= 1
                self.loop_syms.discard(var)
            changed = False
            for n in assigned:
                old, new = entry.get(n), self.env.get(n)
                if old is not None and new is not None and old.kind == new.kind == "float":
                    t = unify(old.dtype, new.dtype) or ""  # (dtypes are strings: never None here)
                    if t != old.dtype:
                        entry[n] = PVal("float", t, key=old.key)
                        changed = True
            if not changed:
                break
            self.env = entry
            del self.kernel.diagnostics[ndiag:]
        for n in assigned:
            v = self.env.get(n)
            if v is not None and v.kind == "int":
                self.env[n] = int_val(None, f"`{n}` after the loop")
        self.env[name] = int_val(None, f"`{name}` after its loop")
        return body

    def _unknown_loop(self, node, name: str | None = None):
        line = self.ctx.loc(node).line
        sym = self.size_symbol(f"trip_L{line}", origin="trip count", role=TRIP_COUNT)
        t = sympy.Dummy("t")
        if name is not None:
            self.opaque[sympy.Symbol(f"__unknown_{name}")] = "unknown loop"
        body = self._loop_body(node, name or "_", t) if name is not None else self._while_body(node, t)
        if name is not None:
            self.env[name] = int_val(None, f"`{name}` of a loop with an unknown range")
        self.out.append(Loop(t, sympy.Integer(0), sympy.Lt(t, sym), 1, body, "seq", self.ctx.loc(node)))

    def _while_body(self, node, t) -> list:
        for n in _assigned(node.body):
            v = self.env.get(n)
            if v is not None and v.kind == "int":
                self.env[n] = int_val(None, f"`{n}` changes in the `while` loop")
        self.loop_syms.add(t)
        self.depth += 1
        try:
            test = cst.SimpleStatementLine([cst.Expr(node.test)])
            self.positions_alias(test.body[0], node.test)
            return self.nested([test, *statement_list(node.body)], loop_body=True)
        finally:
            self.depth -= 1
            self.loop_syms.discard(t)

    def positions_alias(self, new, old):
        r = self.ctx.positions.get(old)
        if r is not None:
            self.ctx.positions[new] = r

    def while_loop(self, node: cst.While):
        line = self.ctx.loc(node).line
        self.diag("SR103", f"`while` loop: trip count modeled as the size `trip_L{line}`", node)
        self._unknown_loop(node)

    # -- guards --------------------------------------------------------------------------
    def if_stmt(self, node: cst.If):
        cond = self.condition(node.test, self.acc)
        self.emit(node)
        saved = dict(self.env)
        then = self.nested(statement_list(node.body), loop_body=self.in_loop_body)
        then_env, self.env = self.env, dict(saved)
        if isinstance(node.orelse, cst.If):
            orelse = self.nested([node.orelse], loop_body=self.in_loop_body)
        elif isinstance(node.orelse, cst.Else):
            orelse = self.nested(statement_list(node.orelse.body), loop_body=self.in_loop_body)
        else:
            orelse = []
        self.env = _join(then_env, self.env)
        if cond is None:
            self.diag("SR104", "the `if` condition depends on data (or is not affine): both branches are counted",
                      node.test)
        self._guard(cond, then, orelse, node)

    def _guard(self, cond, then, orelse, node):
        if cond is sympy.true or cond == sympy.true:
            self.out.extend(then)
        elif cond is sympy.false or cond == sympy.false:
            self.out.extend(orelse)
        elif then or orelse:
            self.out.append(Guard(cond, then, orelse, self.ctx.loc(node)))

    # -- inlined functions ---------------------------------------------------------------
    def inline_body(self, name: str, fn, bound: dict, node) -> PVal:
        sub = PythonLowering(self.ctx, self.kernel, fn, bound, stack=self.stack)
        sub.threads = self.threads
        sub.loop_syms = set(self.loop_syms)
        sub.opaque = self.opaque
        sub.depth = 0  # loops of the callee itself (a `return` ends the callee, not the caller's loop)
        body = sub.nested(statement_list(fn.body))
        self.out.extend(body)
        if not sub.returned:
            return PVal("none")
        if len(sub.returned) > 1:
            self.diag("SR102", f"`{name}` returns in several places: the first is its value", node)
        return sub.returned[0]


def _join(a: dict, b: dict) -> dict:
    """The variables after an `if`: a value both branches agree on, else unknown (ints) or the
    unified type (floats)."""
    out = {}
    for n in set(a) | set(b):
        x, y = a.get(n), b.get(n)
        if x is None or y is None:
            out[n] = x or y
        elif x == y:
            out[n] = x
        elif x.kind == y.kind == "float":
            out[n] = PVal("float", unify(x.dtype, y.dtype) or "", key=x.key or y.key)
        elif x.kind == y.kind == "int":
            out[n] = int_val(None, f"`{n}` differs between the branches of an `if`")
        else:
            out[n] = x
    return out


def _assigned(node) -> set:
    names: set = set()

    class Visitor(cst.CSTVisitor):
        def visit_AssignTarget(self, t) -> None:
            names_of(t.target, names)

        def visit_AugAssign(self, s) -> None:
            names_of(s.target, names)

        def visit_AnnAssign(self, s) -> None:
            names_of(s.target, names)

        def visit_For(self, s) -> None:
            names_of(s.target, names)

    node.visit(Visitor())
    return names


__all__ = ["PythonLowering", "PyType"]
