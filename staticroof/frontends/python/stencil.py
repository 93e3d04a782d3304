"""`@numba.stencil` kernels as the loops Numba generates for them.

A stencil kernel indexes its arrays relative to the current element (`a[-1, 0] + a[1, 0]`); Numba
runs it once per element of the output whose whole neighborhood lies inside the first argument's
shape: along dimension d the neighborhood (lo_d, hi_d) is the smallest and largest constant index
used (0 included), or the decorator's `neighborhood=`, and the element index runs over
`range(-min(0, lo_d), n_d - max(0, hi_d))`.  Each returned value is written to the output there.

Called without `out=`, Numba (numba/stencils/stencil.py, `_stencil_wrapper`) allocates the output
with `np.empty` and writes `cval` (0 unless the decorator gives one) to the border: for every
dimension, `out[..., :-lo_d, ...]` and `out[..., -hi_d:, ...]` (so with hi_d = 0 the slice `-0:` is
the whole array), then the interior.  With `out=`, only `cval` given fills `out[:] = cval`.
Arrays named in `standard_indexing=` are indexed as usual.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
import sympy

from ...ir import Guard, Loop, Ref, Stmt
from ..common.lowering import Unsupported
from ..common.tokens import integer_literal
from .syntax import statement_list
from .values import PVal


@dataclass
class StencilOptions:
    neighborhood: list | None  # [(lo, hi)] per dimension, or None: inferred from the indices
    cval: bool  # the decorator gives `cval=`
    standard: set  # names in `standard_indexing=`


def options(kdef, node=None) -> StencilOptions:
    opts = kdef.options
    hood = None
    if "neighborhood" in opts:
        hood = _pairs(opts["neighborhood"])
        if hood is None:
            raise Unsupported("`neighborhood=` that is not a tuple of (low, high) integer pairs", opts["neighborhood"])
    standard: set = set()
    if "standard_indexing" in opts:
        v = opts["standard_indexing"]
        items = v.elements if isinstance(v, (cst.Tuple, cst.List)) else [cst.Element(v)]
        for e in items:
            if not isinstance(e.value, cst.SimpleString):
                raise Unsupported("`standard_indexing=` that is not a tuple of names", v)
            standard.add(str(e.value.evaluated_value))
    if "func_or_mode" in opts and not (isinstance(opts["func_or_mode"], cst.SimpleString)
                                       and opts["func_or_mode"].evaluated_value == "constant"):
        raise Unsupported("a stencil mode other than \"constant\"", opts["func_or_mode"])
    return StencilOptions(hood, "cval" in opts, standard)


def _pairs(node):
    if not isinstance(node, (cst.Tuple, cst.List)):
        return None
    out = []
    for e in node.elements:
        if not isinstance(e.value, (cst.Tuple, cst.List)) or len(e.value.elements) != 2:
            return None
        pair = [_const(x.value, {}) for x in e.value.elements]
        if None in pair:
            return None
        out.append((pair[0], pair[1]))
    return out


def _const(node, constants: dict) -> int | None:
    """The integer a constant index expression stands for (`-1`, `1 + 1`, a module constant)."""
    if isinstance(node, cst.Integer):
        return integer_literal(node.value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        v = _const(node.expression, constants)
        return None if v is None else (-v if isinstance(node.operator, cst.Minus) else v)
    if isinstance(node, cst.Name) and isinstance(constants.get(node.value), int):
        return constants[node.value]
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        a, b = _const(node.left, constants), _const(node.right, constants)
        if a is None or b is None:
            return None
        return a + b if isinstance(node.operator, cst.Add) else a - b if isinstance(node.operator, cst.Subtract) \
            else a * b
    return None


def infer(fn, relative: set, ndim: int, constants: dict) -> list:
    """The neighborhood from the constant relative indices of the kernel's body, as Numba infers
    it: per dimension the smallest and largest index, starting from (0, 0)."""
    hood = [[0, 0] for _ in range(ndim)]
    found = {"any": False}

    class Visitor(cst.CSTVisitor):
        def visit_Subscript(self, node) -> None:
            if not (isinstance(node.value, cst.Name) and node.value.value in relative):
                return
            found["any"] = True
            elems = list(node.slice)
            idx: list = []
            if len(elems) == 1 and isinstance(elems[0].slice, cst.Index) and isinstance(elems[0].slice.value,
                                                                                       cst.Tuple):
                idx = [e.value for e in elems[0].slice.value.elements]
            else:
                idx = [e.slice.value if isinstance(e.slice, cst.Index) else None for e in elems]
            if len(idx) != ndim:
                raise Unsupported(f"a stencil index of {len(idx)} dimensions on a {ndim}-D array", node)
            for d, e in enumerate(idx):
                k = _const(e, constants)
                if k is None:
                    raise Unsupported("a stencil index that is not a constant (Numba needs `neighborhood=`)", node)
                hood[d][0] = min(hood[d][0], k)
                hood[d][1] = max(hood[d][1], k)

    fn.body.visit(Visitor())
    if not found["any"]:
        raise Unsupported("a stencil kernel without relatively indexed arrays", fn)
    return [(lo, hi) for lo, hi in hood]


def apply(low, sdef, bound: dict, out: PVal | None, node) -> PVal:
    """Lower the stencil `sdef` applied to the arguments `bound` (parameter -> PVal) inside `low`:
    the border writes and the interior loop nest go to `low.out`; returns the output array."""
    fn = sdef.node
    opts = options(sdef, node)
    params = [p.name.value for p in fn.params.params]
    first = bound.get(params[0]) if params else None
    if first is None or first.kind != "array" or first.prefix:
        raise Unsupported("a stencil whose first argument is not a whole array", node)
    relative = {p for p in params if p not in opts.standard and bound.get(p) is not None
                and bound[p].kind == "array"}
    ndim = low.rank(first.array)
    hood = opts.neighborhood if opts.neighborhood is not None else infer(fn, relative, ndim, low.ctx.constants)
    if len(hood) != ndim:
        raise Unsupported(f"a {len(hood)}-D `neighborhood=` for a {ndim}-D array", node)
    shape = [low.shape(first.array, d) for d in range(ndim)]
    loc = low.ctx.loc(node)
    vars_ = [sympy.Dummy(f"s{d}") for d in range(ndim)]
    inner = dict(bound)
    for p in relative:
        if low.rank(bound[p].array) != ndim or bound[p].prefix:
            raise Unsupported(f"`{p}` has another rank than the stencil's first array", node)
        inner[p] = PVal("section", bound[p].dtype, array=bound[p].array,
                        items=tuple(("slice", v, None) for v in vars_))
    # low's own class (PythonLowering): its expressions call this, so importing it here would be a circle
    sub = type(low)(low.ctx, low.kernel, fn, inner, stack=low.stack)
    sub.loop_syms = set(low.loop_syms) | set(vars_)
    sub.opaque = low.opaque
    sub.depth = 0  # `return` gives the element's value
    low.emit(node)
    body = sub.nested(statement_list(fn.body))
    if not sub.returned:
        raise Unsupported("a stencil kernel without a `return`", fn)
    ret = sub.returned[0]
    if not ret.is_number:
        raise Unsupported("a stencil kernel that does not return a number", fn)
    if out is None:
        dtype = ret.dtype or "fp64"
        arr = low.new_array("out" if node is fn else f"{sdef.name}_out", dtype, tuple(shape), "global", node)
        out = PVal("array", dtype, array=arr)
        low.out.extend(_border(arr, shape, hood, loc, sub.group))
    else:
        if out.kind != "array" or out.array is None or out.prefix or low.rank(out.array) != ndim:
            raise Unsupported("`out=` that is not an array of the stencil's rank", node)
        if opts.cval:  # out[:] = cval
            low.out.extend(_box(out.array, shape, [None] * ndim, loc, sub.group))
    assert out.array is not None
    write = Stmt({}, {}, [Ref(out.array, tuple(vars_), "write", loc)], loc, sub.group + 1)
    nest: list = body + [write]
    for d in reversed(range(ndim)):
        lo, hi = hood[d]
        nest = [Loop(vars_[d], sympy.Integer(-min(0, lo)), sympy.Lt(vars_[d], shape[d] - max(0, hi)), 1, nest,
                     "seq", loc)]
    low.out.extend(nest)
    return out


def _border(array: str, shape: list, hood: list, loc, group) -> list:
    """`out[..., :-lo, ...] = cval` and `out[..., -hi:, ...] = cval` for every dimension, as the
    Python slices Numba writes (with lo = 0, `:-0` is empty; with hi = 0, `-0:` is everything)."""
    out: list = []
    for d, (lo, hi) in enumerate(hood):
        v = sympy.Dummy("b")
        n = shape[d]
        stop = -lo  # the slice `[:stop]`
        start = -hi  # the slice `[start:]`
        first = sympy.Lt(v, stop) if stop >= 0 else sympy.Lt(v, n + stop)
        last = sympy.Ge(v, start) if start >= 0 else sympy.Ge(v, n + start)
        for cond in (first, last):
            conds: list = [None] * len(shape)
            conds[d] = (v, cond)
            out.extend(_box(array, shape, conds, loc, group))
    return out


def _box(array: str, shape: list, conds: list, loc, group) -> list:
    """Writes of every element of `array` (a loop per dimension), where dimension d also satisfies
    conds[d] = (its variable, a condition on it) when given."""
    vars_ = [c[0] if c is not None else sympy.Dummy(f"f{d}") for d, c in enumerate(conds)]
    body: list = [Stmt({}, {}, [Ref(array, tuple(vars_), "write", loc)], loc, group)]
    for d in reversed(range(len(shape))):
        if conds[d] is not None:
            body = [Guard(conds[d][1], body, [], loc)]
        body = [Loop(vars_[d], sympy.Integer(0), sympy.Lt(vars_[d], shape[d]), 1, body, "seq", loc)]
    return body
