"""C expressions to values and references: constants, names, calls (inlined), subscripts, operators,
assignments, casts and `?:`.  A mixin of :class:`c.FunctionLowering`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import sympy
from pycparser import c_ast

from ... import costs
from ...ir import DRAM_SPACES, Guard, Ref, Stmt
from ..common.lowering import Acc, Unsupported, affine as _affine, branch_refs, int_op as _int_op
from ..common.preprocess import SIZE_MARK
from ..common.tokens import integer_literal
from . import folding, narrow, outputs, structs
from .types import FLOAT, INT, VOID, CType, arith
from .values import (
    COMPARISONS,
    Val,
    Var,
    basic_sizeof,
    char_value,
    guess_math_type,
    is_allocation,
    is_reference,
    lane_indices,
    named_arguments,
    node_location,
    parameters,
    pointer_lanes,
)
from .views import convert

if TYPE_CHECKING:  # a mixin: its attributes and methods are FunctionLowering's (see c.py)
    from typing import Any as _Mixin

    from .frontend import FunctionLowering
else:
    _Mixin = object


class ExpressionLowering(_Mixin):
    acc: Acc  # FunctionLowering's state this half assigns (the type checker sees the mixin alone)
    def load(self, v: Val, acc: Acc, node) -> Val:
        """Use `v` as an rvalue: an array element becomes a read."""
        if v.ctype.kind == "struct":
            return structs.load(self, v, acc, node)
        if v.element is not None:
            array, index, why = v.element
            for idx in lane_indices(index, v.ctype):
                acc.refs.append(Ref(array, idx, "read", node_location(node, self.tu.path), why))
            return Val(v.ctype, why=f"read from `{array}`")
        return v

    def value(self, node, acc: Acc) -> Val:
        return self.load(self.expr(node, acc), acc, node)

    def expr(self, node, acc: Acc) -> Val:
        m = getattr(self, "_e_" + type(node).__name__, None)
        if m is None:
            raise Unsupported(f"expression `{type(node).__name__}`", node)
        return m(node, acc)

    def _e_Constant(self, node, acc):
        t, text = node.type, node.value
        if t in ("float", "double", "long double"):
            return Val(replace(FLOAT["fp32" if t == "float" else "fp64"], literal=True))
        if t == "char":
            return Val(INT, sympy.Integer(char_value(text)))
        if t == "string":
            return Val(CType("ptr", base=INT))
        digits = text.rstrip("uUlL")
        shown = text if len(text) <= 40 else f"{text[:20]}...{text[-8:]} ({len(text)} characters)"
        v = integer_literal(digits)
        if v is None:  # no C integer type holds it (a compile error): not a number to count with
            return Val(INT, why=f"constant {shown} is no integer of 64 bits")
        return Val(INT, sympy.Integer(v))

    def _e_ID(self, node, acc):
        name = node.name
        var = self.lookup(name)
        if var is None:
            if name in self.tu.enums:
                return Val(INT, sympy.Integer(self.tu.enums[name]))
            if name in self.tu.globals:
                var = self._global(name)
            elif name in self.tu.funcs or name in self.tu.protos:
                return Val(CType("other", "function"))
            else:
                default = self.tu.pragma_sizes.get(name)
                return Val(INT, self.size_symbol(name, default, origin="undeclared identifier"))
        if var.alias is not None:
            return Val(var.ctype, element=var.alias)
        if var.ctype.is_pointer and var.array is not None:
            if var.prefix is None:
                return Val(var.ctype, why=var.why or "pointer changes inside the loop", array=var.array, prefix=None)
            return Val(var.ctype, array=var.array, prefix=var.prefix, offset=var.offset)
        if var.ctype.is_int:
            return Val(var.ctype, var.value, var.why)
        if var.record is not None:
            return Val(var.ctype, record=var.record)
        acc.use_scalar(var, "read")
        return Val(var.ctype)

    def _global(self, name) -> Var:
        decl, t = self.tu.globals[name]
        if t.is_pointer:
            var = Var(t, array=self.new_array(name, t, "global", decl))
        elif t.is_int:
            default = None
            if decl.init is not None:
                v = self.value(decl.init, Acc())
                default = int(v.expr) if v.expr is not None and v.expr.is_Integer else None
            if "const" in (decl.quals or []) and default is not None:
                var = Var(t, value=self.size_symbol(name, default, origin="global constant"))
            else:
                var = Var(t, value=self.size_symbol(name, default, origin="global variable"))
        elif t.kind == "struct":
            var = structs.variable(self, name, t, "global")
        else:
            var = Var(folding.global_type(self, decl, t))  # `static const float k = 1.0f / 3.0f;`
        self.gscope[name] = var
        return var

    def _e_FuncCall(self, node, acc):
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        args = node.args.exprs if node.args is not None else []
        if name == SIZE_MARK:
            size = args[0].name
            lit, sign = args[1], 1
            if isinstance(lit, c_ast.UnaryOp) and lit.op in ("-", "+"):  # `#define N -5`: a negative size
                lit, sign = lit.expr, -1 if lit.op == "-" else 1
            value = integer_literal(getattr(lit, "value", ""))
            if value is None:
                raise Unsupported(f"the size macro `{size}` has no integer value of 64 bits", node)
            default = sign * value
            return Val(INT, self.size_symbol(size, default, origin="macro"))
        if name is None:
            raise Unsupported("call through a function pointer", node)
        if name in self.tu.funcs:
            return self._inline(name, node, args, acc)
        entry = costs.classify(name)
        if entry is not None and entry["kind"] == "outputs":  # sincosf(x, &s, &c): see outputs.py
            return outputs.lower(self, name, entry, node, args, acc)
        vals = [self.value(a, acc) for a in args]
        ret = self.tu.protos.get(name)
        if entry is not None:
            if ret is None or not ret.is_float:
                ret = guess_math_type(name, vals)
            floats = [v.ctype.prec for v in vals if v.ctype.is_float]
            if self.kernel.language == "cuda" and ret.prec == "fp64" and floats and set(floats) == {"fp32"} \
                    and len(floats) == len(vals) and costs.classify(name + "f") is not None:
                ret = FLOAT["fp32"]  # C++ (CUDA) overloads `sqrt(float)`, `std::exp(float)`: the float function
            if folding.call(self, vals, ret) is not None:  # `sqrtf(2.0f / M_PI)`
                return folding.call(self, vals, ret)
            # (C only: CUDA's C++ math library overloads `sqrt(float)` to the float function)
            if ret.prec == "fp64" and self.kernel.language == "c" and costs.classify(name + "f") is not None:
                lower = next((v.ctype.prec for v in vals if v.ctype.is_float and v.ctype.prec != "fp64"), None)
                if lower is not None:  # C converts the argument: `sqrt(x)` of a float is the fp64 function
                    self.diag("SR107", f"`{name}` of {lower} runs in fp64 (`{name}f` is the fp32 function)", node)
            if entry["kind"] == "special":
                key = (name, ret.prec)
                acc.special[key] = acc.special.get(key, 0) + 1
            elif entry["kind"] == "fma":
                acc.flop(ret.prec, entry["flops"])
            return Val(ret)
        if name in ("malloc", "calloc", "realloc", "aligned_alloc", "alloca"):
            return Val(CType("ptr", base=VOID))
        if name in ("memcpy", "memmove", "memset"):
            self.diag("SR105", f"`{name}` moves memory the analysis does not count", node)
        elif name not in self.tu.library:
            self.diag("SR105", f"call to `{name}`, which is not defined in this file: its work is not counted", node)
        return Val(ret or INT, why=f"result of `{name}`")

    def sub_lowering(self, callee, bindings) -> FunctionLowering:
        """The lowering of an inlined callee: same kernel, its own scopes, the caller's loops."""
        sub = type(self)(self.tu, self.kernel, callee, self.stack, bindings, self.gscope)
        sub.loop_syms = set(self.loop_syms)
        sub.opaque = self.opaque
        sub.folded = self.folded
        return sub

    def size_values(self, symbols) -> dict:
        """{symbol: value} for the sizes among `symbols` that have one (the user's, else a default)."""
        out = {}
        for sym in symbols:
            size = self.kernel.sizes.get(sym.name)
            value = self.tu.bindings.get(sym.name, size.default if size is not None else None)
            if value is not None:
                out[sym] = sympy.Integer(int(value))
        return out

    def _with_defaults(self, expr):
        """An integer argument's value using the sizes' defaults (`ni = NI` with `#define NI 1000`)."""
        if expr is None:
            return None
        subs = {}
        for sym in expr.free_symbols:
            size = self.kernel.sizes.get(sym.name)
            if size is None or size.default is None:
                return None
            subs[sym] = size.default
        v = expr.subs(subs)
        return int(v) if v.is_Integer else None

    def callee(self, name, node, args, vals) -> c_ast.FuncDef:
        """The definition a call of `name` takes (C defines a name once; see CudaLowering)."""
        return self.tu.funcs[name]

    def recursive_call(self, name, callee) -> bool:
        return name in self.stack or name in self.tu.recursive

    def _inline(self, name, node, args, acc):
        lvals = [self.expr(a, acc) for a in args]  # a reference parameter binds the argument itself
        callee = self.callee(name, node, args, lvals)
        refs = {k for k, p in enumerate(parameters(callee)) if is_reference(self, p)}
        vals = [v if k in refs else self.load(v, acc, a) for k, (a, v) in enumerate(zip(args, lvals, strict=True))]
        if self.recursive_call(name, callee):
            self.diag("SR106", f"recursive call to `{name}` is not followed", node)
            return Val(self.tu.protos.get(name) or INT, why="recursive call")
        decl = callee.decl.type
        bindings = {}
        changed = []
        for k, (p, a, v, t) in enumerate(named_arguments(self, callee, args, vals)):
            if k in refs and v.element is not None and t.kind in ("float", "int", "vector"):
                bindings[p.name] = Var(t, alias=v.element)
                continue
            if k in refs and isinstance(a, c_ast.ID) and self.lookup(a.name) is not None:
                var = self.lookup(a.name)
                if t.is_float:  # the caller's register itself
                    bindings[p.name] = var
                    continue
                changed.append(a.name)  # an integer the callee may change: unknown after the call
            if t.is_pointer:
                v = convert(self, v, t, a)
                if v.array is not None:
                    bindings[p.name] = Var(t, array=v.array, prefix=v.prefix, offset=v.offset)
            elif t.is_int:
                const = self._with_defaults(v.expr)
                if const is not None:
                    self.tu.callsite_sizes.setdefault(name, {})[p.name] = (const, node_location(node, self.tu.path))
                bindings[p.name] = Var(t, value=v.expr, why=v.why or f"argument `{p.name}` of `{name}`")
            else:
                bindings[p.name] = Var(t, record=structs.argument(v, p.name))
        saved = self.acc
        self.acc = acc
        self.emit(node)  # what the statement did before the call happens before the callee
        sub = self.sub_lowering(callee, bindings)
        self.out.extend(sub.lower())
        acc.reset()
        self.acc = acc if saved is acc else saved
        for n in changed:
            self._assign_in_scope(n, structs.unknown(self.lookup(n), n, f"may be changed by `{name}` (a reference)"))
        ret = self.tu.protos.get(name) if callee is self.tu.funcs[name] else self.tu.types.resolve(decl.type)
        return Val(ret or VOID, why=f"result of `{name}`")

    def _e_ArrayRef(self, node, acc):
        subs = []
        base = node
        while isinstance(base, c_ast.ArrayRef):
            subs.append(base.subscript)
            base = base.name
        subs.reverse()
        b = self.value(base, acc)
        idx_vals = [self.value(s, acc) for s in subs]
        return self._subscript(b, idx_vals, node)

    def _subscript(self, b: Val, idx_vals, node) -> Val:
        if b.array is None:
            if isinstance(node, c_ast.ArrayRef) and isinstance(node.name, c_ast.StructRef):
                raise Unsupported("array inside a struct", node)
            raise Unsupported("subscript of something that is not a known array", node)
        arr_t = b.ctype
        exprs = []
        why = b.why if b.prefix is None else ""
        for v in idx_vals:
            if not v.ctype.is_int or v.expr is None:
                why = why or (v.why or "index is not an integer expression")
            exprs.append(v.expr)
        if b.prefix is None:
            why = why or "pointer changes inside the loop"
        full = list(b.prefix or ()) + exprs
        if full and not why:
            k = len(b.prefix or ())
            # offsets are in the array's own elements; a vector pointer steps `lanes` of them
            full[k] = full[k] * pointer_lanes(arr_t) + b.offset
            why = self.opaque_reason(full)
        rank = self.kernel_rank(b.array)
        if len(full) < rank:
            return Val(arr_t, array=b.array, prefix=tuple(full) if not why else None, offset=0, why=why)
        elem = arr_t.element()
        index = None
        if not why:
            index = tuple(sympy.expand(e) for e in full)
            for e in index:
                if not _affine(e, self.loop_syms, allow_size_products=True, allow_linearized=True):
                    why = f"index `{e}` is not affine in the loop variables"
                    index = None
                    break
        if index is None and self.kernel.arrays[b.array].space not in DRAM_SPACES:
            # on-chip (shared, local): its accesses are counted, never its distinct elements
            self.diag("SR130", f"`{b.array}`: {why}; no count depends on which of its elements", node)
        elif index is None:
            self.diag("SR101", f"`{b.array}`: {why}; each access counts as a new element", node)
        return Val(elem, element=(b.array, index, why))

    def kernel_rank(self, array: str) -> int:
        return max(1, len(self.kernel.arrays[array].dims))

    def _e_UnaryOp(self, node, acc):
        op = node.op
        if op == "sizeof":
            t = self.tu.types.resolve(node.expr) if isinstance(node.expr, c_ast.Typename) else \
                self.expr(node.expr, Acc()).ctype
            n = structs.sizeof(self.tu, t) if t.kind == "struct" else None
            return Val(INT, sympy.Integer(n if n is not None else basic_sizeof(t)))
        if op == "&":
            v = self.expr(node.expr, acc)
            if v.element is not None:
                array, index, why = v.element
                if index is None:
                    return Val(CType("ptr", base=v.ctype), array=array, prefix=None, why=why)
                return Val(CType("ptr", base=v.ctype), array=array, prefix=index[:-1], offset=index[-1])
            return Val(CType("ptr", base=v.ctype))
        if op == "*":
            b = self.value(node.expr, acc)
            if b.array is None:
                raise Unsupported("dereference of something that is not a known array", node)
            return self._subscript(b, [Val(INT, sympy.Integer(0))], node)
        if op in ("++", "--", "p++", "p--"):
            target = self.expr(node.expr, acc)
            return self._update(node.expr, target, "+" if "+" in op else "-", Val(INT, sympy.Integer(1)), acc, node)
        v = self.value(node.expr, acc)
        if op == "-":
            return Val(v.ctype, -v.expr if v.expr is not None else None, v.why)
        if op == "+":
            return v
        if op == "!":
            return Val(INT, why="logical not")
        if op == "~":
            return Val(INT, -v.expr - 1 if v.expr is not None else None, v.why)
        raise Unsupported(f"unary operator `{op}`", node)

    def _e_BinaryOp(self, node, acc):
        op = node.op
        a = self.value(node.left, acc)
        b = self.value(node.right, acc)
        return self._binary(op, a, b, acc, node)

    def _binary(self, op, a: Val, b: Val, acc, node) -> Val:
        folded = folding.binary(self, op, a, b)  # `1.0f / 3.0f`: the compiler's work, not the kernel's
        if folded is not None:
            return folded
        if op in ("+", "-", "*", "/") and (a.ctype.is_float or b.ctype.is_float):
            t = arith(a.ctype, b.ctype)
            acc.flop(t.prec)
            if t.prec == "fp64":
                for x, y in ((a, b), (b, a)):
                    if x.ctype.is_float and x.ctype.prec != "fp64" and y.ctype.prec == "fp64":
                        what = "a double literal" if y.ctype.literal else "a double operand"
                        self.diag("SR107", f"`{op}` on {x.ctype.prec} and {what} runs in fp64", node)
                        break
            return Val(t)
        if op in ("+", "-") and (a.array is not None or b.array is not None):
            p, q = (a, b) if a.array is not None else (b, a)
            if q.expr is None or p.prefix is None:
                return Val(p.ctype, array=p.array, prefix=None, why=q.why or p.why)
            off = p.offset + pointer_lanes(p.ctype) * (q.expr if op == "+" else -q.expr)
            return Val(p.ctype, array=p.array, prefix=p.prefix, offset=off)
        if op in COMPARISONS or op in ("&&", "||"):
            return Val(INT, why="comparison")
        if a.ctype.is_int and b.ctype.is_int:
            if op in ("*", "/", "%", "<<", ">>") and a.expr is not None and b.expr is not None:
                a, b = self._fold_constants(op, a, b, node)
            return Val(INT, *_int_op(op, a, b))
        return Val(INT, why=f"`{op}` on non-numbers")

    _COMPILE_TIME = ("macro", "global constant", "template argument")

    def compile_time(self, expr):
        """`expr` with every compile-time size replaced by its value (a runtime size stays)."""
        subs = {}
        for sym in sympy.sympify(expr).free_symbols:
            size = self.kernel.sizes.get(sym.name)
            if size is not None and size.origin in self._COMPILE_TIME:
                value = self.tu.bindings.get(sym.name, size.default)
                if value is not None:
                    subs[sym] = value
        return sympy.sympify(expr).subs(subs) if subs else sympy.sympify(expr)

    def _folded_step(self, step_node, node):
        """A loop step given by a compile-time size (`k += ROWS`) is that size's value."""
        v = self.value(step_node, Acc())
        if v.expr is None or v.expr.is_Integer:
            return v.expr
        one = Val(INT, sympy.Integer(1))
        _, folded = self._fold_constants("/", one, v, node)
        return folded.expr

    def _fold_constants(self, op, a: Val, b: Val, node):
        """A compile-time size (a `#define`d, `const` or template value) that scales a loop index,
        or divides one, is folded to its value as the compiler does: `blockIdx.x * TILE` and
        `i / TILE` stay affine.  Runtime sizes (parameters) stay symbols."""
        ea, eb = a.expr, b.expr
        if ea is None or eb is None:
            return a, b

        def varying(e):
            return bool(e.free_symbols & (self.loop_syms | set(self.opaque)))

        def fold(e):
            return self.fold(e, node, "scales or divides a loop index")

        if op == "*" and varying(ea) and not varying(eb):
            b = replace(b, expr=fold(eb))
        elif op == "*" and varying(eb) and not varying(ea):
            a = replace(a, expr=fold(ea))
        elif op in ("/", "%", "<<", ">>") and not eb.is_Integer:  # `a >> LOG_NUM_BANKS`: a floor division
            b = replace(b, expr=fold(eb))
        return a, b

    def fold(self, e, node, where: str):
        """`e` with its compile-time sizes replaced by their values (SR115, said once per size)."""
        subs = {}
        for sym in sorted(e.free_symbols, key=lambda s: s.name):  # a stable order of diagnostics
            size = self.kernel.sizes.get(sym.name)
            if size is not None and size.origin in self._COMPILE_TIME:
                value = self.tu.bindings.get(sym.name, size.default)
                if value is not None:
                    subs[sym] = value
                    if sym.name not in self.folded:
                        self.folded.add(sym.name)
                        self.diag("SR115", f"`{sym.name}` is folded to {value} where it {where} (a compile-time "
                                  "constant)", node)
        return e.subs(subs) if subs else e

    def compared(self, a, b, node):
        """The two sides of an integer comparison, as the analysis should see them (a front end may
        fold compile-time sizes a thread index is compared with)."""
        return a, b

    def _e_Assignment(self, node, acc):
        rhs = self.value(node.rvalue, acc)
        if isinstance(node.lvalue, c_ast.ID):  # a plain store does not read the variable
            target = self.expr(node.lvalue, Acc())
            if node.op != "=":
                acc.use_scalar(self.lookup(node.lvalue.name), "read")
        else:
            target = self.expr(node.lvalue, acc)
        if node.op == "=":
            return self._store(node.lvalue, target, rhs, acc, node)
        return self._update(node.lvalue, target, node.op[:-1], rhs, acc, node)

    def _update(self, lnode, target: Val, op, rhs: Val, acc, node) -> Val:
        """`target op= rhs`: read the old value, combine, store."""
        old = self.load(target, acc, lnode) if target.element is not None else target
        new = self._binary(op, old, rhs, acc, node)
        return self._store(lnode, target, new, acc, node)

    def _store(self, lnode, target: Val, v: Val, acc, node) -> Val:
        if target.record is not None or target.ctype.kind == "struct":
            return structs.store(self, lnode, target, v, acc, node)
        if target.element is not None:
            array, index, why = target.element
            for idx in lane_indices(index, target.ctype):
                acc.refs.append(Ref(array, idx, "write", node_location(lnode, self.tu.path), why))
            return v
        if isinstance(lnode, c_ast.ID):
            var = self.lookup(lnode.name)
            if var is None and lnode.name in self.tu.globals:
                var = self._global(lnode.name)
            if var is None:
                return v
            acc.use_scalar(var, "write")
            if var.ctype.is_int:
                value, why = narrow.stored(var.ctype, v.expr, v.why, lnode.name) if v.ctype.is_int else \
                    (None, "converted from a float")
                new = replace(var, value=value, why=why)
            elif var.ctype.is_pointer:
                v = convert(self, v, var.ctype, node)
                if v.array is not None:
                    new = replace(var, array=v.array, prefix=v.prefix, offset=v.offset)
                elif is_allocation(node.rvalue if isinstance(node, c_ast.Assignment) else None, self.tu):
                    new = replace(var, array=self.new_array(lnode.name, var.ctype, "global", node), prefix=(), offset=0)
                else:
                    new = replace(var, prefix=None)
            else:
                new = var
            self._assign_in_scope(lnode.name, new)
        return v

    def _assign_in_scope(self, name, var):
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = var
                return
        if name in self.gscope:
            self.gscope[name] = var
            return
        self.scopes[-1][name] = var

    def _e_Cast(self, node, acc):
        t = self.tu.types.resolve(node.to_type)
        v = self.value(node.expr, acc)
        if t.is_int:
            return Val(t, v.expr if v.ctype.is_int else None, v.why or "converted from a float")
        if t.is_pointer:
            return convert(self, v if v.ctype.kind == "class" else replace(v, ctype=t), t, node)
        return Val(folding.cast(self, v, t))

    def _e_TernaryOp(self, node, acc):
        cond = self.condition(node.cond, acc)
        a_acc, b_acc = Acc(), Acc()
        a = self.value(node.iftrue, a_acc)
        b = self.value(node.iffalse, b_acc)
        acc.scalars.extend(a_acc.scalars + b_acc.scalars)  # conservative: a use in either branch
        if a.ctype.is_int and b.ctype.is_int and cond is not None and a.expr is not None and b.expr is not None:
            result = Val(INT, why="conditional value")
        else:
            result = Val(arith(a.ctype, b.ctype) if (a.ctype.is_float or b.ctype.is_float) else a.ctype,
                         why="conditional value")
        if a_acc.empty() and b_acc.empty():
            return result
        if a_acc.flops == b_acc.flops and a_acc.special == b_acc.special and not a_acc.refs and not b_acc.refs:
            acc.add_branch(a_acc, [])  # the same work either way, special calls included
            return result
        if cond is not None and acc is self.acc:
            # an affine condition: each branch's work runs only where its condition holds
            self.emit(node)
            loc = node_location(node, self.tu.path)
            then = [Stmt(a_acc.flops, a_acc.special, a_acc.refs, loc, self.group)] if not a_acc.empty() else []
            orelse = [Stmt(b_acc.flops, b_acc.special, b_acc.refs, loc, self.group)] if not b_acc.empty() else []
            if cond == sympy.true:
                self.out.extend(then)
            elif cond == sympy.false:
                self.out.extend(orelse)
            else:
                self.out.append(Guard(cond, then, orelse, loc))
            scalars = acc.scalars
            acc.reset()  # the rest of the statement goes on in `acc`
            acc.scalars = scalars
            self.acc = acc
            return result
        same = branch_refs(acc, a_acc, b_acc)
        if same is not None:  # whichever value it picks, the statement costs the same
            acc.add_branch(a_acc, same)
            return result
        self.diag("SR104", "`?:` condition depends on data and its branches differ in work or traffic; "
                  "both are counted", node)
        acc.add_both_branches(a_acc, b_acc)
        return result

    def _e_ExprList(self, node, acc):
        v = Val(VOID)
        for e in node.exprs:
            v = self.value(e, acc)
        return v

    def _e_StructRef(self, node, acc):
        return structs.member(self, node, self.expr(node.name, acc), acc)

    def _e_CompoundLiteral(self, node, acc):
        raise Unsupported("compound literal", node)

    def _e_Typename(self, node, acc):
        return Val(self.tu.types.resolve(node))
