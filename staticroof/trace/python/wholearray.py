"""Whole-array and slice expressions in a traced kernel (`y[:] = a * x + y`, `z = x * y`,
`np.sum(A[i, :] * B[:, j])`), with NumPy's semantics: a section (:class:`View`) or arithmetic on
arrays (:class:`Expr`) is evaluated element by element when it is stored, bound to a new array or
reduced, every operand element read once per result element (recorded, with its site) and every
operation counted at the element's promoted type.  The right-hand side is evaluated in full before
the target is written, as NumPy does when the two overlap; shapes broadcast as NumPy's do, an
extent the sizes do not give (`known` false) taking its partner's.
"""

from __future__ import annotations

import itertools
import operator
from typing import Any

from .. import TraceError
from .runtime import STATE, UNKNOWN_EXTENT, Array, ArrayLike, Num, dtype_of, value, wider

REDUCTIONS = {"sum": 1, "prod": 1, "dot": 2, "vdot": 2, "max": 0, "min": 0, "amax": 0, "amin": 0, "mean": 1}

_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
        "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "neg": operator.neg, "abs": abs}


class View(ArrayLike):
    """A section of an array: items ("fix", i) or ("slice", start, stop) per dimension (step 1)."""

    def __init__(self, array: Array, items: tuple):
        self.array, self.items = array, items
        dims = [k for k, it in enumerate(items) if it[0] == "slice"]
        self.shape = tuple(max(0, items[k][2] - items[k][1]) for k in dims)
        self.known = tuple(array.known[k] for k in dims)
        self.key = ("view", array.name, items)  # the reference its elements are (always a new access)

    @property
    def dtype(self):
        return self.array.dtype

    def section(self):
        return self

    def _resolve(self, idx: tuple) -> tuple:
        """The items after subscripting the view's sliced dimensions with `idx`."""
        items, it = list(self.items), iter(idx)
        for k, item in enumerate(items):
            if item[0] != "slice":
                continue
            i = next(it, None)
            if i is None:
                break
            start, stop = item[1], item[2]
            n = stop - start
            if isinstance(i, slice):
                a, b, step = i.indices(n if self.array.known[k] or i.stop is not None else UNKNOWN_EXTENT)
                if step != 1:
                    raise TraceError("a slice with a step is not traced")
                items[k] = ("slice", start + a, start + max(a, b))
            else:
                i = int(i)
                if i < 0:
                    i += n
                items[k] = ("fix", start + i)
        if next(it, None) is not None:
            raise TraceError(f"`{self.array.name}` indexed with too many subscripts")
        return tuple(items)

    def get(self, idx, key):
        items = self._resolve(idx if isinstance(idx, tuple) else (idx,))
        if all(it[0] == "fix" for it in items):
            return self.array.read(self.array.flat(tuple(it[1] for it in items)), key)
        return View(self.array, items)

    def set(self, idx, v, key) -> None:
        items = self._resolve(idx if isinstance(idx, tuple) else (idx,))
        if all(it[0] == "fix" for it in items):
            self.array.write(self.array.flat(tuple(it[1] for it in items)), v, key)
        else:
            store(View(self.array, items), v)

    def __getitem__(self, idx):
        return self.get(idx, ("plain", self.array.name))

    def __setitem__(self, idx, v):
        self.set(idx, v, ("plain", self.array.name))

    def flat_at(self, e: tuple) -> int:
        it = iter(e)
        return self.array.flat(tuple(item[1] if item[0] == "fix" else item[1] + next(it) for item in self.items))


class Expr(ArrayLike):
    """Element-wise arithmetic on arrays (or a math function of them), evaluated lazily."""

    def __init__(self, op, operands: tuple):
        self.op, self.operands = op, tuple(operands)
        self.shape, self.known = broadcast([shape_of(o) for o in self.operands])

    @property
    def dtype(self):
        for o in self.operands:
            d = getattr(o, "dtype", None)
            if isinstance(o, ArrayLike) and d:
                return d
        return "fp64"

    def section(self):
        return self


def shape_of(v) -> tuple:
    """(shape, known) of an operand: a scalar has the empty shape."""
    if isinstance(v, Array):
        return v.shape, v.known
    if isinstance(v, (View, Expr)):
        return v.shape, v.known
    return (), ()


def broadcast(shapes: list) -> tuple:
    """NumPy's broadcast of (shape, known) pairs: trailing dimensions aligned, an extent of 1
    stretched, an unknown extent taking the known one."""
    rank = max((len(s) for s, _ in shapes), default=0)
    out, known = [], []
    for d in range(rank):
        ext = None
        unknown = False
        for s, k in shapes:
            j = d - (rank - len(s))
            if j < 0:
                continue
            if not k[j]:
                unknown = True
                continue
            if s[j] == 1:
                ext = ext if ext is not None else 1
            elif ext is None or ext == 1:
                ext = s[j]
            elif ext != s[j]:
                raise TraceError(f"operands of shapes {[tuple(x) for x, _ in shapes]} do not broadcast")
        if ext is None and unknown:
            out.append(UNKNOWN_EXTENT)
            known.append(False)
        else:
            out.append(ext if ext is not None else 1)
            known.append(True)
    return tuple(out), tuple(known)


def at(v, e: tuple, shape: tuple):
    """The element of operand `v` for result element `e` of `shape` (a read if it is an array's)."""
    if isinstance(v, _Tuple):
        return [at(o, e, shape) for o in v.operands]
    if isinstance(v, Array):
        v = v.section()
    if isinstance(v, View):
        off = len(shape) - len(v.shape)
        idx = tuple(0 if (v.shape[k] == 1 and v.known[k]) else e[off + k] for k in range(len(v.shape)))
        return v.array.read(v.flat_at(idx), v.key)
    if isinstance(v, Expr):
        vals = [at(o, e, shape) for o in v.operands]
        op: Any = v.op if callable(v.op) else _OPS[v.op]
        return op(*vals)
    return v


def elements(shape: tuple, known: tuple):
    if not all(known):
        raise TraceError("a whole-array expression over an array whose shape the sizes do not give: "
                         "give its shape size with -D")
    return itertools.product(*(range(n) for n in shape))


def evaluate(v, shape: tuple, known: tuple) -> list:
    """[(element, epoch, value)] of `v` over `shape`: each element a new statement execution."""
    sites = STATE.sites
    out = []
    for e in elements(shape, known):
        sites.epoch += 1
        out.append((e, sites.epoch, at(v, e, shape)))
    return out


def store(target: View, v) -> None:
    """`target[...] = v`: every element of v evaluated (its reads made), then the target written."""
    shape, known = target.shape, target.known
    if isinstance(v, ArrayLike):
        vs, vk = shape_of(v)
        try:
            broadcast([(shape, (True,) * len(shape)), (vs, vk)])
        except TraceError:
            raise TraceError(f"a value of shape {tuple(vs)} stored into a section of shape {tuple(shape)}") from None
    vals = evaluate(v, shape, (True,) * len(shape)) if all(known) else evaluate(v, shape, known)
    sites = STATE.sites
    saved = sites.epoch
    for e, epoch, x in vals:
        sites.epoch = epoch
        target.array.write(target.flat_at(e), x, target.key)
    sites.epoch = saved


def new_array(name: str, v) -> Array:
    """`z = x * y`: a new array of the kernel holding the values of an array expression."""
    shape, known = shape_of(v)
    vals = evaluate(v, shape, known)
    dtype = dtype_of(vals[0][2]) if vals else v.dtype
    arr = Array(name, dtype, shape)
    sites = STATE.sites
    saved = sites.epoch
    for e, epoch, x in vals:
        sites.epoch = epoch
        arr.write(arr.flat(e), x, ("view", name, "new"))
    sites.epoch = saved
    return arr


def reduce(name: str, args: list):
    """`np.sum(x)`, `x.max()`, `np.dot(a, b)`: a loop over the elements with one add (a multiply and
    an add for a dot product; nothing for max/min) per element at the type the elements promote to
    (the first array operand's, widened by the floats among the values), as Numba's implementation
    starting from zero; `mean` divides once more."""
    from ...frontends.python.numba_types import is_float

    operands = list(args[:2] if name in ("dot", "vdot") else args[:1])
    if not any(isinstance(a, ArrayLike) for a in operands):
        raise TraceError(f"`{name}` of something that is not an array")
    shape, known = broadcast([shape_of(o) for o in operands])
    t = next(_first_dtype(o) for o in operands if isinstance(o, ArrayLike))
    counter = STATE.counter
    acc = None
    for _e, _epoch, vals in evaluate(_Tuple(operands), shape, known):
        for v in vals:
            d = dtype_of(v)
            if is_float(d):
                t = d if not is_float(t) else wider(t, d)
        if name in ("dot", "vdot"):
            x = vals[0] * vals[1]
        else:
            x = vals[0]
        if REDUCTIONS[name] and is_float(t):
            counter.flop(t)
        xv = value(x)
        if acc is None:
            acc = xv
        elif name in ("sum", "dot", "vdot", "mean"):
            acc = acc + xv
        elif name == "prod":
            acc = acc * xv
        elif name in ("max", "amax"):
            acc = max(acc, xv)
        else:
            acc = min(acc, xv)
    if acc is None:
        acc = 0 if name != "prod" else 1
    if name == "mean":
        if is_float(t):
            counter.flop(t)
        n = 1
        for s in shape:
            n *= s
        return Num(acc / n if n else 0.0, t if is_float(t) else "fp64")
    return Num(acc, t if is_float(t) else ("fp64" if name == "mean" else t))


class _Tuple:
    """Several operands evaluated at the same element (a dot product's two)."""

    def __init__(self, operands):
        self.operands = operands


def _first_dtype(v) -> str:
    """The dtype of the first array operand of an expression, left to right."""
    if isinstance(v, (Array, View)):
        return v.dtype
    if isinstance(v, Expr):
        for o in v.operands:
            if isinstance(o, ArrayLike):
                return _first_dtype(o)
    return "fp64"
