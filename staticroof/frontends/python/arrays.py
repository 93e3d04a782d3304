"""Whole-array and slice expressions in Python kernels (`y[:] = a * x + y`, `z = x * y`,
`np.sum(A[i, :] * B[:, j])`) as the implicit loops NumPy semantics give them: one loop per sliced
dimension over its extent, every array operand read at the loop's element, the target written
there.  A new array (`z = x * y`) is a temporary of the kernel; its traffic follows the compulsory
rules (written, then read, costs only the write).

Operands broadcast as NumPy broadcasts them: shapes are aligned from the right, an operand with
fewer axes is indexed by the last loop variables only (`A + b`: b[j] for every i), and an axis of
extent 1 (`x[:, None]`, a `None` inserting it, or a slice of one element) is read at its only
index.  A new array takes the broadcast shape, each axis's extent from the operand of most axes
whose extent there is not 1; extents written as different sizes are taken to be equal (NumPy
requires it unless one is 1, and a size is taken not to be 1)."""

from __future__ import annotations

import libcst as cst
import sympy

from ...ir import Loop, Ref, Stmt
from ..common.lowering import Acc, Unsupported
from . import arithmetic
from .mathnames import cost_name
from .numba_types import is_complex, is_inexact, part, promote
from .values import PVal, float_val, int_val

REDUCTIONS = {"sum": 1, "prod": 1, "dot": 2, "vdot": 2, "max": 0, "min": 0, "amax": 0, "amin": 0, "mean": 1,
              "norm": 1}


def section(low, base: PVal, elems, node, acc: Acc) -> PVal:
    """`A[i, :]`, `x[1:-1]`, `A[:, j]`: a section, items (("fix", expr) | ("slice", start, stop))."""
    items: list[tuple] = []
    dim = len(base.prefix)
    for p in base.prefix:
        items.append(("fix", p))
    for e in elems:
        if isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Name) and e.slice.value.value == "None":
            items.append(("new",))  # np.newaxis: an axis of extent 1, no index of the array
            continue
        if isinstance(e.slice, cst.Slice):
            sl = e.slice
            if sl.step is not None:
                step = low.value(sl.step, acc)
                if step.expr is None or step.expr != 1:
                    raise Unsupported("a slice with a step", node)
            extent = low.shape(base.array, dim)
            start = _bound(low, sl.lower, acc, extent, 0)
            stop = _bound(low, sl.upper, acc, extent, extent)
            items.append(("slice", start, stop))
        else:
            v = low.value(e.slice.value, acc)
            if v.kind != "int" or v.expr is None:
                raise Unsupported("a section with an index that is not an integer expression", node)
            items.append(("fix", v.expr))
        dim += 1
    rank = low.rank(base.array)
    while dim < rank:
        items.append(("slice", sympy.Integer(0), low.shape(base.array, dim)))
        dim += 1
    return PVal("section", base.dtype, array=base.array, items=tuple(items))


def _bound(low, node, acc, extent, default):
    if node is None:
        return sympy.sympify(default)
    v = low.value(node, acc)
    if v.kind != "int" or v.expr is None:
        raise Unsupported("a slice bound that is not an integer expression", node)
    e = v.expr
    return extent + e if e.is_Integer and e < 0 else e


def whole(low, v: PVal) -> PVal:
    """An array used as a value: the section of all of it."""
    if v.kind == "section":
        return v
    rank = low.rank(v.array)
    items = tuple(("fix", p) for p in v.prefix) + tuple(
        ("slice", sympy.Integer(0), low.shape(v.array, k)) for k in range(len(v.prefix), rank))
    return PVal("section", v.dtype, array=v.array, items=items)


def extents(v: PVal) -> list:
    """The extent of each axis of a section (`None` axes: 1)."""
    return [sympy.Integer(1) if it[0] == "new" else sympy.expand(it[2] - it[1]) for it in v.items if it[0] != "fix"]


def broadcast(sections: list) -> list:
    """NumPy's broadcast shape of the operands' sections: aligned from the right, each axis's
    extent from the operand of most axes whose extent there is not 1 (1 if none)."""
    shapes = sorted((extents(v) for v in sections), key=len, reverse=True)
    rank = len(shapes[0]) if shapes else 0
    out = []
    for k in range(rank):
        pick = sympy.Integer(1)
        for sh in shapes:
            j = k - (rank - len(sh))
            if j >= 0 and sh[j] != 1:
                pick = sh[j]
                break
        out.append(pick)
    return out


def element(low, v: PVal, node) -> PVal:
    """The element of a section at the current implicit loop variables."""
    sec = whole(low, v)
    axes = [it for it in sec.items if it[0] != "fix"]
    vars_ = low.elementwise
    if len(axes) > len(vars_):
        raise Unsupported(f"an operand of {len(axes)} axes broadcast into {len(vars_)}", node)
    index, k = [], len(vars_) - len(axes)  # aligned from the right: the last variables
    for it in sec.items:
        if it[0] == "fix":
            index.append(it[1])
            continue
        if it[0] == "slice":  # an axis of extent 1 broadcasts: its one element
            index.append(it[1] if sympy.expand(it[2] - it[1]) == 1 else it[1] + vars_[k])
        k += 1
    return low.subscript(PVal("array", sec.dtype, array=sec.array), [int_val(e) for e in index], node)


def is_array_expr(low, node) -> bool:
    """Does `node` have an array value (an array name, a section, arithmetic on them)?"""
    if isinstance(node, cst.Name):
        v = low.lookup(node.value)
        return v is not None and v.kind in ("array", "section")
    if isinstance(node, cst.Subscript):
        if any(isinstance(e.slice, cst.Slice) for e in node.slice):
            return True
        base = node.value
        if isinstance(base, cst.Name):
            v = low.lookup(base.value)
            return v is not None and v.kind == "array" and len(node.slice) + len(v.prefix) < low.rank(v.array)
        return False
    if isinstance(node, cst.BinaryOperation):
        return is_array_expr(low, node.left) or is_array_expr(low, node.right)
    if isinstance(node, cst.UnaryOperation):
        return is_array_expr(low, node.expression)
    if isinstance(node, cst.Call):
        from .kernels import qualified

        q = qualified(node.func, low.ctx.names) if isinstance(node.func, (cst.Name, cst.Attribute)) else ""
        if q.rsplit(".", 1)[-1] in REDUCTIONS or (isinstance(node.func, cst.Attribute)
                                                  and node.func.attr.value in REDUCTIONS):
            return False
        if q.rsplit(".", 1)[-1] in ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like"):
            return True
        return q.startswith(("numpy.", "math.")) and any(is_array_expr(low, a.value) for a in node.args)
    return False


def first_array(low, node, acc: Acc):
    """The array operands of an array expression broadcast together, as a section of their shape
    and the first one's dtype (for the loop extents); None without an array operand."""
    found = array_operands(low, node, acc)
    if not found:
        return None
    shape = broadcast(found)
    return PVal("section", found[0].dtype, array=found[0].array,
                items=tuple(("slice", sympy.Integer(0), e) for e in shape))


def array_operands(low, node, acc: Acc) -> list:
    """Every array operand of an array expression, as sections, in source order."""
    if isinstance(node, cst.Name) or isinstance(node, cst.Subscript):
        v = low.expr(node, acc)
        if v.kind in ("array", "section"):
            return [whole(low, v)]
        return []
    children = []
    if isinstance(node, cst.BinaryOperation):
        children = [node.left, node.right]
    elif isinstance(node, cst.UnaryOperation):
        children = [node.expression]
    elif isinstance(node, cst.Call):
        children = [a.value for a in node.args]
        v = low.expr(node, acc) if _constructor(low, node) else None
        if v is not None and v.kind == "array":
            return [whole(low, v)]
    out: list = []
    for c in children:
        out.extend(array_operands(low, c, acc))
    return out


def _constructor(low, node) -> bool:
    from .kernels import qualified

    q = qualified(node.func, low.ctx.names) if isinstance(node.func, (cst.Name, cst.Attribute)) else ""
    return q.rsplit(".", 1)[-1] in ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like")


def loops(low, extents_: list, body_fn, node) -> list:
    """A loop nest over `extents_` with the implicit variables set while `body_fn` lowers the body."""
    vars_ = [sympy.Dummy(f"e{k}") for k in range(len(extents_))]
    saved = low.elementwise
    low.elementwise = vars_
    low.loop_syms |= set(vars_)
    saved_acc = low.acc
    low.acc = Acc()
    try:
        body_fn()
        body: list = [Stmt(low.acc.flops, low.acc.special, low.acc.refs, low.ctx.loc(node), low.group,
                     tuple(low.acc.scalars))]
    finally:
        low.acc = saved_acc
        low.elementwise = saved
        low.loop_syms -= set(vars_)
    for v, ext in reversed(list(zip(vars_, extents_, strict=True))):
        body = [Loop(v, sympy.Integer(0), sympy.Lt(v, ext), 1, body, "seq", low.ctx.loc(node))]
    return body


def assign(low, target, value_node, node, op=None, into: bool = False) -> None:
    """`y[:] = expr`, `y[1:-1] += expr`, `z = x * y` (a new array z; with `into`, the array y
    that `target` names is stored into, as a ufunc's `out=` is)."""
    probe = Acc()
    if isinstance(target, cst.Name) and not into:
        src = first_array(low, value_node, probe)
        if src is None:
            raise Unsupported("an array expression without an array", node)
        dims = tuple(extents(src))
        arr = low.new_array(target.value, src.dtype, dims, "global", node)
        tgt = PVal("section", src.dtype, array=arr,
                   items=tuple(("slice", sympy.Integer(0), d) for d in dims))
        new = PVal("array", src.dtype, array=arr)
    else:
        tgt = whole(low, low.expr(target, probe))
        new = None
    low.emit(node)

    def body():
        value = low.value(value_node, low.acc) if low.elementwise else None
        place = element(low, tgt, target)
        if op is not None:
            old = low.load(place, low.acc, target)
            value = low.binary(op, old, value, low.acc, node)
        if place.element is None:
            raise Unsupported("an assignment to something that is not an array element", target)
        array, index, why = place.element
        low.acc.refs.append(Ref(array, index, "write", low.ctx.loc(target), why))
        if new is not None and value is not None and value.is_number and value.dtype != tgt.dtype:
            low.kernel.arrays[array].dtype = value.dtype  # `z = x * 2.0` of a float32 x is float64

    low.out.extend(_stores_after(loops(low, extents(tgt), body, node)))
    if new is not None:
        new.dtype = low.kernel.arrays[new.array].dtype
        low.env[target.value] = new


def out_call(low, call, node) -> bool:
    """`np.sqrt(x, y)`, `np.add(a, b, c)` (the output array one positional argument after the
    inputs, as Numba takes it) or NumPy's `np.sqrt(x, out=y)`: the ufunc's values stored into the
    output, element by element (it is written; no temporary is made).  False for other calls."""
    from .kernels import qualified
    from .mathnames import MATH, OPERATORS, RENAMES, ufunc_inputs

    if not isinstance(call, cst.Call) or not isinstance(call.func, (cst.Name, cst.Attribute)):
        return False
    q = qualified(call.func, low.ctx.names)
    short = q.rsplit(".", 1)[-1]
    if not q.startswith("numpy.") or not (short in MATH or short in RENAMES or short in OPERATORS):
        return False
    out = next((a for a in call.args if a.keyword is not None and a.keyword.value == "out"), None)
    positional = [a for a in call.args if a.keyword is None]
    if out is None and len(positional) == ufunc_inputs(short) + 1:
        out = positional[-1]
    if out is None:
        return False
    value = call.with_changes(args=[a for a in call.args if a is not out])
    low.positions_alias(value, call)
    assign(low, out.value, value, node, into=True)
    return True


def _stores_after(nest: list) -> list:
    """NumPy evaluates the right-hand side in full before it stores.  Where the target's own
    elements are read at other indices (`y[1:] = y[:-1] * 2.0`), the stores are a second loop nest
    after the reads: in one nest, y[1]'s first access would be the store of element 0, and its
    original value (read by element 1) would not count as read."""
    if len(nest) != 1:
        return nest
    chain = [nest[0]]
    while len(chain[-1].body) == 1 and isinstance(chain[-1].body[0], Loop):
        chain.append(chain[-1].body[0])
    if len(chain[-1].body) != 1 or not isinstance(chain[-1].body[0], Stmt):
        return nest
    stmt = chain[-1].body[0]
    writes = [r for r in stmt.refs if r.kind == "write"]
    if not any(r.kind == "read" and r.array == w.array and r.index != w.index for r in stmt.refs for w in writes):
        return nest
    reads = Stmt(stmt.flops, stmt.special, [r for r in stmt.refs if r.kind != "write"], stmt.location, stmt.group,
                 stmt.scalars)
    stores: list = [Stmt({}, {}, writes, stmt.location, stmt.group + 1)]
    first: list = [reads]
    for loop in reversed(chain):
        first = [Loop(loop.var, loop.start, loop.cond, loop.step, first, loop.kind, loop.location)]
        stores = [Loop(loop.var, loop.start, loop.cond, loop.step, stores, loop.kind, loop.location)]
    return first + stores


def reduction(low, name: str, args, node, acc: Acc) -> PVal:
    """`np.sum(x)`, `x.sum()`, `np.dot(a, b)`, `np.linalg.norm(x)`: a loop over the elements, one
    add per element (a dot product's multiply and add; none for max/min, as fmax in C; complex
    values as arithmetic.py counts them).  Numba's sum starts from zero (its LLVM IR accumulates
    from a 0.0 phi), so n elements cost n adds.  The norm is BLAS nrm2 in Numba, counted as its
    conventional 2n FLOPs (x*x and an add per element; 4 per complex element) and one sqrt."""
    probe = Acc()
    src = first_array(low, args[0], probe)
    if src is None:
        raise Unsupported(f"`{name}` of something that is not an array", node)
    ext = extents(src)
    result = {"dtype": src.dtype}
    low.emit(node)

    def body():
        vals = [low.value(a, low.acc) for a in args]
        t = result["dtype"]
        for v in vals:
            if v.kind == "float":
                t = v.dtype if not is_inexact(t) else promote(t, v.dtype)
        if name in ("dot", "vdot"):
            low.binary("*", vals[0], vals[1], low.acc, node)
        elif name == "norm" and is_inexact(t):
            low.acc.flop(part(t), 3 if is_complex(t) else 1)  # |x|**2: x*x, or re*re + im*im
        if REDUCTIONS[name] and is_inexact(t):
            add = arithmetic.binary("+", t, t, t) if name != "norm" else arithmetic.Cost(part(t), 1)
            low.acc.flop(add.prec, add.flops)
        result["dtype"] = t

    low.out.extend(loops(low, ext, body, node))
    t = result["dtype"]
    if name == "mean" and is_inexact(t):
        div = arithmetic.binary("/", t, "int64", t)  # the division by the count
        acc.flop(div.prec, div.flops)
    if name == "norm":
        t = part(t) if is_inexact(t) else "fp64"
        low.special(cost_name("sqrt", t), t, acc)
        return float_val(t)
    return float_val(t if is_inexact(t) else "fp64") if is_inexact(t) or name == "mean" else int_val(None, f"`{name}`")
