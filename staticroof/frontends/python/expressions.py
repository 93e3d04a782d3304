"""Python expressions to values and references: names, constants, subscripts (`A[i, j]`, `A[i][j]`,
`A[i*n + j]`), arithmetic with Numba's promotion, math calls through the cost table, and the
calls of other functions of the file (inlined).  A mixin of :class:`python_lowering.PythonLowering`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
import sympy

from ... import costs
from ...ir import Ref
from ..common.lowering import Acc, Unsupported, affine, branch_refs, int_op
from ..common.tokens import integer_literal
from . import arithmetic, arrays as AR, cuda as CU
from .kernels import qualified
from .mathnames import CASTS, FREE, MATH, OPERATORS, RENAMES, cost_name
from .numba_types import is_complex, is_inexact, part, promote, true_divide
from .values import PVal, float_val, int_val

if TYPE_CHECKING:  # a mixin: its attributes and methods are PythonLowering's
    from typing import Any as _Mixin
else:
    _Mixin = object

_BINOPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
           cst.Modulo: "%", cst.Power: "**", cst.LeftShift: "<<", cst.RightShift: ">>", cst.BitAnd: "&",
           cst.BitOr: "|", cst.BitXor: "^", cst.MatrixMultiply: "@"}
_CMPOPS = {cst.LessThan: sympy.Lt, cst.LessThanEqual: sympy.Le, cst.GreaterThan: sympy.Gt,
           cst.GreaterThanEqual: sympy.Ge, cst.Equal: sympy.Eq, cst.NotEqual: sympy.Ne}


class ExpressionLowering(_Mixin):
    # -- entry points --------------------------------------------------------------------
    def value(self, node, acc: Acc) -> PVal:
        """`node` as an rvalue: an array element becomes a read."""
        return self.load(self.expr(node, acc), acc, node)

    def load(self, v: PVal, acc: Acc, node) -> PVal:
        if v.kind in ("array", "section") and self.elementwise:
            v = AR.element(self, v, node)  # an array operand of a whole-array expression
        if v.element is not None:
            array, index, why = v.element
            acc.refs.append(Ref(array, index, "read", self.ctx.loc(node), why))
            return float_val(v.dtype) if is_inexact(v.dtype) else int_val(None, f"read from `{array}`",
                                                                            dtype=v.dtype)
        if v.key is not None:
            acc.use_scalar(v, "read")
        return v

    def expr(self, node, acc: Acc) -> PVal:
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(f"expression `{type(node).__name__}`", node)
        return method(node, acc)

    # -- leaves --------------------------------------------------------------------------
    def _e_Integer(self, node, acc):
        v = integer_literal(node.value)
        if v is None:  # Numba has no integer type for it (past 64 bits): it does not compile
            raise Unsupported(f"integer literal {node.value[:24]}... past 64 bits", node)
        return int_val(v, literal=True)

    def _e_Float(self, node, acc):
        v = float_val("fp64", literal=True)
        v.number = float(node.value.replace("_", ""))
        return v

    def _e_Imaginary(self, node, acc):
        v = float_val("complex128", literal=True)  # `1j`: a complex128 constant
        v.number = complex(node.value.replace("_", ""))
        return v

    def _e_SimpleString(self, node, acc):
        return PVal("unknown", why="a string")

    def _e_Name(self, node, acc):
        name = node.value
        v = self.lookup(name)
        if v is not None:
            return v
        if name in ("True", "False"):
            return int_val(int(name == "True"), literal=True, dtype="bool")
        if name == "None":
            return PVal("none")
        if name in self.ctx.constants:
            c = self.ctx.constants[name]
            if isinstance(c, int):  # Numba freezes a global's value into the compiled kernel
                return int_val(c, literal=True)
            return float_val("fp64", literal=True)
        q = self.ctx.names.get(name, name)
        return PVal("module", name=q)

    def _e_Attribute(self, node, acc):
        base = self.expr(node.value, acc)
        attr = node.attr.value
        if base.kind == "module":
            q = f"{base.name}.{attr}"
            got = CU.attribute(self, q, node)
            if got is not None:
                return got
            if q in ("math.pi", "math.e", "numpy.pi", "numpy.e", "math.inf", "numpy.inf", "numpy.nan", "math.nan"):
                return float_val("fp64", literal=True)
            return PVal("module", name=q)
        if base.kind == "array":
            if attr == "shape":
                rank = self.rank(base.array) - len(base.prefix)
                return PVal("tuple", array=base.array, items=tuple(
                    int_val(self.shape(base.array, len(base.prefix) + k)) for k in range(rank)))
            if attr == "size":
                return int_val(sympy.Mul(*[self.shape(base.array, k) for k in range(self.rank(base.array))]))
            if attr == "ndim":
                return int_val(self.rank(base.array), literal=True)
            if attr == "T" and not base.prefix:  # a view with the axes reversed: `a.T[j, i]` is `a[i, j]`
                return PVal("transposed", base.dtype, array=base.array)
            if attr in ("T", "flat", "real", "imag"):
                raise Unsupported(f"`.{attr}` of an array", node)
        if base.kind == "transposed":
            if attr == "shape":
                rank = self.rank(base.array)
                return PVal("tuple", items=tuple(int_val(self.shape(base.array, k)) for k in reversed(range(rank))))
            if attr == "T":
                return PVal("array", base.dtype, array=base.array)
            if attr == "ndim":
                return int_val(self.rank(base.array), literal=True)
        if attr in ("real", "imag") and base.is_number:  # a part of a complex value: free
            base = self.load(base, acc, node)
            if not is_complex(base.dtype):
                return base if attr == "real" else float_val(part(base.dtype) or "fp64", True)
            return float_val(part(base.dtype), base.literal)
        raise Unsupported(f"attribute `.{attr}`", node)

    # -- subscripts ----------------------------------------------------------------------
    def _e_Subscript(self, node, acc):
        base = self.expr(node.value, acc)
        elems = list(node.slice)
        if base.kind == "tuple":
            if len(elems) != 1 or not isinstance(elems[0].slice, cst.Index):
                raise Unsupported("slice of a tuple", node)
            k = self.value(elems[0].slice.value, acc)
            if k.expr is None or not k.expr.is_Integer or not -len(base.items) <= int(k.expr) < len(base.items):
                raise Unsupported("tuple index is not a constant", node)
            return base.items[int(k.expr)]
        if base.kind == "module":  # `float32[:]` in an expression: a type, not a value
            return PVal("module", name=base.name + "[]")
        if base.kind == "transposed":  # `a.T[j, i]`: every axis given, in reverse order
            if any(isinstance(e.slice, cst.Slice) for e in elems) or len(elems) != self.rank(base.array):
                raise Unsupported("a slice or a row of a transposed array", node)
            axes = [self.value(e.slice.value, acc) for e in elems]
            return self.subscript(PVal("array", base.dtype, array=base.array), axes[::-1], node)
        if base.kind == "section":  # a view `v = x[1:]`: v[j] is x[1 + j]
            if any(isinstance(e.slice, cst.Slice) for e in elems):
                raise Unsupported("a slice of a slice", node)
            given = iter([self.value(e.slice.value, acc) for e in elems])
            full = []
            for it in base.items:
                if it[0] == "fix":
                    full.append(int_val(it[1]))
                elif it[0] == "new":  # an axis `None` inserted: its only index is 0
                    next(given, None)
                else:
                    v = next(given, None)
                    if v is None:
                        raise Unsupported("a row of a slice", node)
                    full.append(self.binary("+", int_val(it[1]), v, acc, node))
            return self.subscript(PVal("array", base.dtype, array=base.array), full, node)
        if base.kind != "array":
            raise Unsupported("subscript of something that is not an array", node)
        if any(isinstance(e.slice, cst.Slice) for e in elems):
            return AR.section(self, base, elems, node, acc)
        indices: list[PVal] = []
        for e in elems:
            v = self.value(e.slice.value, acc)
            if v.kind == "tuple":  # `A[idx]` with a tuple of indices
                indices.extend(v.items)
            else:
                indices.append(v)
        return self.subscript(base, indices, node)

    def subscript(self, base: PVal, idx: list, node) -> PVal:
        exprs: list = []
        why = ""
        for v in idx:
            if v.kind not in ("int",) or v.expr is None:
                why = why or v.why or ("index is a float" if v.kind == "float"
                                       else "index is not an integer expression")
                exprs.append(None)
                continue
            e = v.expr
            if e.is_Integer and e < 0:  # `x[-1]`: the last element
                k = len(base.prefix) + len(exprs)
                e = self.shape(base.array, k) + e
            exprs.append(e)
        full = list(base.prefix) + exprs
        rank = self.rank(base.array)
        if len(full) < rank:
            if why:
                raise Unsupported(f"row of an array with an unknown index ({why})", node)
            return PVal("array", base.dtype, array=base.array, prefix=tuple(full))
        if len(full) > rank:
            raise Unsupported(f"{len(full)} subscripts on `{base.array}`, a {rank}-D array", node)
        why = why or self.opaque_reason(full)
        index = None
        if not why:
            index = tuple(sympy.expand(self.combine(e)) for e in full)
            for e in index:
                if not affine(e, self.loop_syms, allow_size_products=True, allow_linearized=True):
                    why = f"index `{e}` is not affine in the loop variables"
                    index = None
                    break
        if index is None:
            self.diag("SR101", f"`{base.array}`: {why}; each access counts as a new element", node)
        return PVal("float" if is_inexact(base.dtype) else "int", base.dtype, element=(base.array, index, why))

    # -- operators -----------------------------------------------------------------------
    def _e_BinaryOperation(self, node, acc):
        op = _BINOPS[type(node.operator)]
        a = self.value(node.left, acc)
        b = self.value(node.right, acc)
        return self.binary(op, a, b, acc, node)

    def binary(self, op: str, a: PVal, b: PVal, acc: Acc, node) -> PVal:
        if a.kind == "array" or b.kind == "array":
            raise Unsupported(f"`{op}` on whole arrays", node)
        if not (a.is_number and b.is_number):
            raise Unsupported(f"`{op}` on a {a.kind if not a.is_number else b.kind}", node)
        literal = a.literal and b.literal
        if a.kind != "float" and b.kind != "float" and op not in ("/", "**"):
            if op == "//":
                op = "/"
            elif op == "@":
                raise Unsupported("`@` on scalars", node)
            if op in ("|", "^"):
                return int_val(None, f"`{op}` on integers", literal)
            expr, why = int_op(op, a, b)
            expr = self.combine(expr)  # blockIdx*blockDim + threadIdx: the global thread index
            return int_val(expr, why, literal, promote(a.dtype or "int64", b.dtype or "int64"))
        if op == "**":
            return self.power(a, b, acc, node)
        t = true_divide(a.dtype, b.dtype) if op == "/" else promote(a.dtype, b.dtype)
        if is_complex(t) and op not in ("+", "-", "*", "/"):
            raise Unsupported(f"`{op}` on complex values", node)
        if not literal:
            if op in ("+", "-", "*", "/", "//", "%"):  # a floored division (or remainder) of floats: one division
                same = a.key is not None and a.key == b.key  # `z * z` of one local
                cost = arithmetic.binary(op, a.dtype, b.dtype, t, self.constant_of(a) if a.literal else None,
                                         self.constant_of(b) if b.literal else None, same)
                acc.flop(cost.prec, cost.flops)
            if t == "fp64":
                self.promoted(op, a, b, node)
        return float_val(t, literal)

    def promoted(self, op: str, a: PVal, b: PVal, node) -> None:
        """SR107 where a lower-precision float meets a float64 (a Python float literal, a float64
        variable) or an integer that Numba's promotion widens it with (int32, int64: `x[i] * i`,
        `x[i] / 2`), at the operator's place (two notes of one statement never share a column)."""
        for x, y, side in ((a, b, 1), (b, a, 0)):
            if x.kind != "float" or x.dtype not in ("fp16", "fp32"):
                continue
            if y.kind == "float" and y.dtype == "fp64":
                what = "a Python float literal (float64 in Numba)" if y.literal else "a float64 operand"
            elif y.kind == "int" and promote(x.dtype, y.dtype or "int64") == "fp64":
                what = "an integer literal (int64 in Numba)" if y.literal else f"an {y.dtype or 'int64'} operand"
            else:
                continue
            text = _operand_text(node, side)
            self.diag("SR107", f"`{op}` on {x.dtype} and {what}{f' `{text}`' if text else ''} runs in fp64, as "
                      "Numba promotes it; write np.float32(...) if fp32 was meant",
                      getattr(node, "operator", None) if getattr(node, "operator", None) in self.ctx.positions
                      else node)
            return

    def power(self, a: PVal, b: PVal, acc: Acc, node) -> PVal:
        """`x ** k` as Numba compiles it (arithmetic.power): binary exponentiation for an integer
        exponent the source fixes, pow for a float one (2.0, 0.5, -1.0 rewritten)."""
        exponent = self.constant_of(b) if b.literal or b.kind == "int" else None
        if a.kind != "float" and b.kind != "float":
            e = self.constant_of(b)
            if e is not None and e < 0:  # int(1.0 / k**|e|): one fp64 division
                cost = arithmetic.power(a.dtype or "int64", b.dtype or "int64", e)
                if not (a.literal and b.literal):
                    acc.flop(cost.prec, cost.flops)
                return int_val(None, "`**` with a negative exponent", a.literal and b.literal, cost.dtype)
            if a.expr is not None and e is not None and 0 <= e < 64:
                return int_val(a.expr ** e, literal=a.literal)
            return int_val(None, "`**` on integers")
        base_value = self.constant_of(a) if a.literal else None
        cost = arithmetic.power(a.dtype or "int64", b.dtype or "int64", exponent, base_value)
        if a.literal and b.literal:
            return float_val(cost.dtype, True)
        if cost.dtype == "fp64" and (a.kind == "float" or b.kind == "float"):  # float32 ** 2.0 is fp64
            self.promoted("**", a, b, node)
        if cost.flops:
            acc.flop(cost.prec, cost.flops)
        if cost.special:
            self.special(cost_name(cost.special, cost.prec), cost.prec, acc)
        if cost.why:
            self.diag("SR170", f"`**`: {cost.why}", node)
        return float_val(cost.dtype)

    def constant_of(self, v: PVal):
        """The number a literal stands for (ints; floats written in the source), else None."""
        if v.kind == "int" and v.expr is not None and v.expr.is_Integer:
            return int(v.expr)
        return v.number

    def _e_UnaryOperation(self, node, acc):
        v = self.value(node.expression, acc)
        if isinstance(node.operator, cst.Minus):
            if v.kind == "int":
                return int_val(-v.expr if v.expr is not None else None, v.why, v.literal, v.dtype)
            if v.number is not None:
                return PVal("float", v.dtype, literal=True, number=-v.number)
            return v  # a sign change: no FLOP (as in C)
        if isinstance(node.operator, cst.Plus):
            return v
        if isinstance(node.operator, cst.Not):
            return int_val(None, "negation", dtype="bool")
        return int_val(None, "`~` on integers")

    def _e_Comparison(self, node, acc):
        self.condition(node, acc)
        return int_val(None, "comparison", dtype="bool")

    def _e_BooleanOperation(self, node, acc):
        self.condition(node, acc)
        return int_val(None, "boolean operation", dtype="bool")

    def _e_IfExp(self, node, acc):
        cond = self.condition(node.test, acc)
        a_acc, b_acc = Acc(), Acc()
        a = self.value(node.body, a_acc)
        b = self.value(node.orelse, b_acc)
        acc.scalars.extend(a_acc.scalars + b_acc.scalars)
        if a.kind == "int" and b.kind == "int":
            result = int_val(None, "conditional value")
        elif a.is_number and b.is_number:
            result = float_val(promote(a.dtype, b.dtype))
        else:
            raise Unsupported("conditional expression on arrays", node)
        same = a_acc.flops == b_acc.flops and a_acc.special == b_acc.special and not a_acc.refs and not b_acc.refs
        refs = branch_refs(acc, a_acc, b_acc) if not same else None
        if refs is not None:  # whichever value it picks, the statement costs the same
            acc.add_branch(a_acc, refs)
            return result
        if not same:
            self.diag("SR104", "the condition of `... if ... else ...` "
                      + ("depends on data" if cond is None else "is not modeled inside an expression")
                      + " and its branches differ in work or traffic; both are counted", node)
        acc.add_both_branches(a_acc, b_acc)
        return result

    def _e_Tuple(self, node, acc):
        return PVal("tuple", items=tuple(self.value(e.value, acc) for e in node.elements))

    def _e_List(self, node, acc):
        return self._e_Tuple(node, acc)

    # -- conditions ----------------------------------------------------------------------
    def condition(self, node, acc: Acc):
        """A sympy boolean if `node` is an affine condition on integers, else None (reads recorded)."""
        if isinstance(node, cst.BooleanOperation):
            a = self.condition(node.left, acc)
            b = self.condition(node.right, acc)
            if a is None or b is None:
                return None
            return sympy.And(a, b) if isinstance(node.operator, cst.And) else sympy.Or(a, b)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            c = self.condition(node.expression, acc)
            return None if c is None else sympy.Not(c)
        if isinstance(node, cst.Comparison):
            left = self.value(node.left, acc)
            out: list | None = []
            for target in node.comparisons:
                right = self.value(target.comparator, acc)
                rel = _CMPOPS.get(type(target.operator))
                if left.kind == "float" or right.kind == "float":
                    out = None  # a comparison of floats is free, and data
                if out is not None:
                    if rel is None or left.expr is None or right.expr is None or left.kind != "int" or \
                            right.kind != "int":
                        out = None
                    else:
                        a, b = self.combine(left.expr), self.combine(right.expr)
                        if self.opaque_reason([a, b]) or not affine(a - b, self.loop_syms, True):
                            out = None
                        else:
                            out.append(rel(a, b))
                left = right
            if not out:
                return None
            return sympy.And(*out) if len(out) > 1 else out[0]
        v = self.value(node, acc)
        if v.kind == "int" and v.expr is not None and affine(v.expr, self.loop_syms, True):
            return sympy.Ne(self.combine(v.expr), 0)
        return None

    # -- calls ---------------------------------------------------------------------------
    def _e_Call(self, node, acc):
        func = node.func
        q = qualified(func, self.ctx.names) if isinstance(func, (cst.Name, cst.Attribute)) else ""
        if isinstance(func, cst.Name) and self.lookup(func.value) is not None:
            q = ""
        args = [a.value for a in node.args if a.keyword is None]
        kwargs = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if isinstance(func, cst.Name) and func.value in self.ctx.functions and self.lookup(func.value) is None:
            return self.inline(func.value, node, args, acc)
        if isinstance(func, cst.Attribute) and func.attr.value in AR.REDUCTIONS and not q.startswith(
                ("numpy.", "math.")):
            base = self.expr(func.value, Acc())
            if base.kind in ("array", "section"):  # x.sum(), A[i, :].max()
                return AR.reduction(self, func.attr.value, [func.value], node, acc)
        if q.startswith("numpy.") and q.rsplit(".", 1)[-1] in AR.REDUCTIONS and args and not self.elementwise:
            return AR.reduction(self, q.rsplit(".", 1)[-1], args, node, acc)
        got = CU.call(self, q, node, args, kwargs, acc)
        if got is not None:
            return got
        short = q.rsplit(".", 1)[-1]
        if q == "print":  # debugging output: its values are read, its text is not work
            for a in args:
                if not isinstance(a, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
                    self.value(a, acc)
            return PVal("none")
        if q in ("len",):
            v = self.expr(args[0], acc)
            if v.kind == "array":
                return int_val(self.shape(v.array, len(v.prefix)))
            if v.kind == "tuple":
                return int_val(len(v.items), literal=True)
            raise Unsupported("`len` of something that is not an array", node)
        if q in ("range", "numba.prange", "prange"):
            raise Unsupported("`range` outside a `for` loop", node)
        if q == "complex":  # complex(re, im): its parts, no arithmetic
            vals = [self.value(a, acc) for a in args]
            return float_val("complex128", all(v.literal for v in vals))
        if isinstance(func, cst.Attribute) and func.attr.value in ("conjugate", "conj") and not args:
            v = self.value(func.value, acc)  # z.conjugate(): a sign change, no FLOP
            if v.is_number:
                return v if v.kind != "float" else float_val(v.dtype, v.literal)
        dtype = _cast_dtype(q)
        if dtype is not None:
            v = self.value(args[0], acc) if args else int_val(0, literal=True)
            if is_inexact(dtype):
                return float_val(dtype, v.literal)
            return int_val(v.expr if v.kind == "int" else None, v.why or "converted from a float", v.literal, dtype)
        if q.startswith(("numpy.", "math.")) or q in ("abs", "min", "max", "round"):
            if short in ("empty", "zeros", "ones", "empty_like", "zeros_like", "ones_like", "full"):
                made = self.made.get(id(node)) or self.new_local("tmp", q, args, kwargs, node)
                if made is not None:  # `2 * np.ones(shape)`: a temporary (made once per call site)
                    self.made[id(node)] = made
                    return made
            vals = [self.value(a, acc) for a in args]
            if short in ("empty", "zeros", "ones", "empty_like", "zeros_like", "ones_like", "full"):
                made = self.made.get(id(node)) or self.new_local("tmp", q, args, kwargs, node)
                if made is not None:  # `2 * np.ones(shape)`: a temporary (made once per call site)
                    self.made[id(node)] = made
                    return made
                raise Unsupported(f"`{q}` of an unknown shape", node)
            if any(v.kind in ("array", "tuple", "section") for v in vals):
                raise Unsupported(f"`{q}` on whole arrays", node)
            floats = [v.dtype for v in vals if v.kind == "float"]
            t = floats[0] if floats else "fp64"
            for d in floats[1:]:
                t = promote(t, d)
            if q in ("min", "max", "abs", "round") and not floats:
                return int_val(None, f"`{q}` of integers")
            if short in OPERATORS and len(vals) == 2 and q.startswith("numpy."):
                return self.binary(OPERATORS[short], vals[0], vals[1], acc, node)
            if is_complex(t):
                return self.complex_call(q, short, t, vals, acc, node)
            if short in FREE:
                return float_val(t, all(v.literal for v in vals))
            if short == "fma":
                acc.flop(t, 2)
                return float_val(t)
            if short in MATH or short in RENAMES:
                if all(v.literal for v in vals):
                    return float_val(t, True)
                self.special(cost_name(short, t), t, acc)
                return float_val(t)
        for a in args:
            self.value(a, acc)
        self.diag("SR105", f"call to `{q or 'an expression'}`, which is not a known Numba or math function: its work "
                  "is not counted", node)
        return float_val("fp64")

    def complex_call(self, q: str, short: str, t: str, vals: list, acc: Acc, node) -> PVal:
        """A NumPy or math function of a complex value: abs is a hypot of its parts, the parts and
        the conjugate are free; the others (np.exp of a complex, ...) are not modeled."""
        if all(v.literal for v in vals):
            return float_val(t, True)
        if short in ("abs", "absolute"):
            self.special(cost_name("hypot", part(t)), part(t), acc)
            return float_val(part(t))
        if short in ("real", "imag"):
            return float_val(part(t))
        if short in ("conj", "conjugate"):
            return float_val(t)
        raise Unsupported(f"`{q}` of a complex value", node)

    def stencil_call(self, sdef, node, args, acc: Acc) -> PVal:
        """`out = kernel(a)`, `kernel(a, out=b)`: a `@stencil` applied where it is called."""
        from .stencil import apply

        bound, out = _stencil_args(self, sdef, node, args, acc)
        return apply(self, sdef, bound, out, node)

    def special(self, name: str, prec: str, acc: Acc) -> None:
        entry = costs.classify(name) or costs.classify(name.rstrip("f"))
        if entry is None or entry["kind"] != "special":
            return
        acc.special[(name, prec)] = acc.special.get((name, prec), 0) + 1

    def inline(self, name: str, node, args, acc: Acc) -> PVal:
        """A call of another function of the file (an `@njit` helper, a CUDA device function): its
        body lowered at the call with the arguments bound."""
        if name in self.stack:
            self.diag("SR106", f"recursive call to `{name}`: not followed", node)
            return float_val("fp64")
        fn = self.ctx.functions[name]
        from .kernels import kernel_of

        sdef = kernel_of(fn, self.ctx.names)
        if sdef is not None and sdef.kind == "stencil":
            return self.stencil_call(sdef, node, args, acc)
        vals = [self.value(a, acc) for a in args]
        params = [p.name.value for p in fn.params.params]
        if len(vals) > len(params):
            raise Unsupported(f"call to `{name}` with {len(vals)} arguments", node)
        bound = dict(zip(params, vals, strict=False))
        for p in fn.params.params[len(vals):]:
            if p.default is None:
                raise Unsupported(f"call to `{name}` without its argument `{p.name.value}`", node)
            bound[p.name.value] = self.value(p.default, acc)
        self.emit(node)
        return self.inline_body(name, fn, bound, node)


def _stencil_args(self, sdef, node, args, acc) -> tuple[dict, PVal | None]:
    """A stencil call's arguments bound to the kernel's parameters, and its `out=` array."""
    params = [p.name.value for p in sdef.node.params.params]
    if len(args) != len(params):
        raise Unsupported(f"call to the stencil `{sdef.name}` with {len(args)} arguments for {len(params)}", node)
    bound = {p: self.expr(a, acc) for p, a in zip(params, args, strict=True)}
    for p, v in bound.items():
        if v.kind != "array":
            bound[p] = self.load(v, acc, node)
    out = None
    for a in node.args:
        if a.keyword is None:
            continue
        if a.keyword.value != "out":
            raise Unsupported(f"stencil call with `{a.keyword.value}=`", node)
        out = self.expr(a.value, acc)
    return bound, out


def _operand_text(node, side: int) -> str:
    """The source of operand `side` (0 left, 1 right) of a binary or augmented operation, if short."""
    if isinstance(node, cst.BinaryOperation):
        part = node.left if side == 0 else node.right
    elif isinstance(node, cst.AugAssign):
        part = node.target if side == 0 else node.value
    else:
        return ""
    text = cst.Module([]).code_for_node(part).strip()
    return text if len(text) <= 24 and "\n" not in text else ""


def _cast_dtype(q: str):
    from .numba_types import dtype_name

    if q in CASTS:
        return CASTS[q]
    if q.startswith(("numpy.", "numba.")) or q in ("float32", "float64", "int32", "int64"):
        return dtype_name(q)
    return None
