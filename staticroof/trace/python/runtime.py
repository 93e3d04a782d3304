"""The values a traced Python kernel computes with: scalars of a Numba type whose arithmetic is
counted at the promoted type (:class:`Num`), arrays whose element reads and writes are recorded
(:class:`Array`), and the register rule that decides which accesses are new loads and stores
(:class:`Sites`).

Every subscript of the kernel's source is rewritten to `_sr_sub(base, K)[index]` (python_rewrite.py):
K names the reference (its canonical index expression and its statement), so an access knows its
site without inspecting frames.  The rule is the analysis's: an access is a new load (store) unless
an identical reference of the same statement execution already made it, or the same site touched
the same element last since its innermost enclosing loop began.
"""

from __future__ import annotations

from typing import Any

from .. import ArrayTrace, TraceError

BYTES = {"fp64": 8, "fp32": 4, "fp16": 2, "int64": 8, "int32": 4, "int16": 2, "int8": 1, "uint64": 8,
         "uint32": 4, "uint16": 2, "uint8": 1, "bool": 1}
FLOATS = ("fp16", "fp32", "fp64")
# the extent of a dimension the sizes do not give: large enough for any index (only touched
# elements are stored), and marked unknown so that a whole-array expression takes its operand's
UNKNOWN_EXTENT = 1 << 40


class Counter:
    """Executed FLOPs by precision and special-function calls (weighted into the FLOPs)."""

    def __init__(self, weights: dict):
        self.flops: dict = {}
        self.special: dict = {}
        self.weights = weights

    def flop(self, prec: str, n: int = 1):
        self.flops[prec] = self.flops.get(prec, 0) + n

    def call(self, name: str, prec: str):
        from ..mathlib import classify

        entry = classify(name) or classify(name.rstrip("f"))
        if entry is None or entry["kind"] != "special":
            return
        self.special[name] = self.special.get(name, 0) + 1
        self.flop(prec, int(self.weights.get(name, entry["weight"])))


class Sites:
    """The register rule's state for one thread of execution (a CPU kernel's run, or one GPU thread:
    registers are per thread).  `refs` maps a subscript id to (canonical reference, statement id);
    `loops` a loop id to the subscript ids in its body."""

    def __init__(self, refs: dict, loops: dict):
        self.refs, self.loops = refs, loops
        self.epoch = 0  # bumped at every loop iteration (and implicit element): a statement execution
        self.last: dict = {}  # (site, kind) -> flat index last touched
        self.seen: dict = {}  # (array, canonical, statement, kind) -> epoch of its last access

    def new(self, array: str, key, kind: str, flat: int) -> bool:
        if isinstance(key, int):
            canon, stmt = self.refs.get(key, (key, None))
        else:  # an element of a whole-array expression: its implicit loop varies it, always new
            canon, stmt = key, None
        ident = (array, canon, stmt, kind)
        if self.seen.get(ident) == self.epoch:
            return False  # an identical reference of the same statement execution
        self.seen[ident] = self.epoch
        if not isinstance(key, int):
            return True
        site = (key, kind)
        fresh = self.last.get(site) != flat
        self.last[site] = flat
        return fresh

    def loop_starts(self, loop: int) -> None:
        for key in self.loops.get(loop, ()):
            self.last.pop((key, "read"), None)
            self.last.pop((key, "write"), None)


class State:
    """The run in progress: its counter and the register state of the thread now running."""

    counter: Any = None  # a Counter while a run is in progress
    sites: Any = None  # the Sites of the thread now running


STATE = State()


class Range:
    """`range`/`prange` of a loop of the kernel: a new execution forgets the registers of the sites
    in its body; every iteration is a new execution of the statements."""

    def __init__(self, loop: int, *args):
        self.loop = loop
        self.r = range(*(int(value(a)) for a in args))

    def __iter__(self):
        sites = STATE.sites
        sites.loop_starts(self.loop)
        for v in self.r:
            sites.epoch += 1
            yield v


def dtype_of(v) -> str:
    if isinstance(v, Num):
        return v.dtype
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    return "fp64"


def value(v):
    return v.v if isinstance(v, Num) else v


def wider(a: str, b: str) -> str:
    return max(a, b, key=FLOATS.index)


class Num:
    """A scalar of a Numba type: arithmetic on it is counted (floats) at the promoted type."""

    __slots__ = ("v", "dtype")

    def __init__(self, v, dtype: str):
        self.v, self.dtype = v, dtype

    def _op(self, other, fn, reverse=False, divide=False, power=False):
        from ...frontends.python.numba_types import is_float, promote, true_divide

        if isinstance(other, ArrayLike):
            return NotImplemented
        a, b = (other, self) if reverse else (self, other)
        da, db = dtype_of(a), dtype_of(b)
        if power and is_float(da) and not is_float(db):
            t = da
        else:
            t = true_divide(da, db) if divide else promote(da, db)
        va, vb = value(a), value(b)
        if is_float(t):
            counter = STATE.counter
            if power and not is_float(db) and isinstance(vb, int) and 1 <= vb <= 4:
                counter.flop(t, vb - 1)
            elif power:
                counter.call(("sqrt" if vb == 0.5 else "pow") + ("f" if t == "fp32" else ""), t)
            else:
                counter.flop(t)
        return Num(fn(va, vb), t)

    def __add__(self, o): return self._op(o, lambda a, b: a + b)
    def __radd__(self, o): return self._op(o, lambda a, b: a + b, True)
    def __sub__(self, o): return self._op(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._op(o, lambda a, b: a - b, True)
    def __mul__(self, o): return self._op(o, lambda a, b: a * b)
    def __rmul__(self, o): return self._op(o, lambda a, b: a * b, True)
    def __truediv__(self, o): return self._op(o, lambda a, b: a / b if b else 0.0, divide=True)
    def __rtruediv__(self, o): return self._op(o, lambda a, b: a / b if b else 0.0, True, divide=True)
    def __floordiv__(self, o): return self._op(o, lambda a, b: a // b if b else 0)
    def __rfloordiv__(self, o): return self._op(o, lambda a, b: a // b if b else 0, True)
    def __mod__(self, o): return self._op(o, lambda a, b: a % b if b else 0)
    def __rmod__(self, o): return self._op(o, lambda a, b: a % b if b else 0, True)
    def __pow__(self, o): return self._op(o, lambda a, b: _power(a, b), power=True)
    def __rpow__(self, o): return self._op(o, lambda a, b: _power(a, b), True, power=True)
    def __neg__(self): return Num(-self.v, self.dtype)
    def __pos__(self): return self
    def __abs__(self): return Num(abs(self.v), self.dtype)
    def __lt__(self, o): return self.v < value(o)
    def __le__(self, o): return self.v <= value(o)
    def __gt__(self, o): return self.v > value(o)
    def __ge__(self, o): return self.v >= value(o)
    def __eq__(self, o): return self.v == value(o)
    def __ne__(self, o): return self.v != value(o)
    def __hash__(self): return hash(self.v)
    def __bool__(self): return bool(self.v)
    def __float__(self): return float(self.v)
    def __int__(self): return int(self.v)
    def __index__(self): return int(self.v)


def _power(a, b):
    try:
        out = abs(a) ** b
    except (OverflowError, ZeroDivisionError):
        return 0.0
    return out if not isinstance(out, complex) else 0.0


class ArrayLike:
    """An array value in a whole-array expression (an array, a section of one, or arithmetic on
    them): element-wise operators build an expression evaluated element by element
    (python_wholearray.py)."""

    shape: tuple = ()
    stored = False  # a section `y[1:] += e` just stored in place: the setitem that follows is done

    def _expr(self, op, other, reverse=False):
        from .wholearray import Expr

        return Expr(op, (other, self) if reverse else (self, other))

    def __add__(self, o): return self._expr("+", o)
    def __radd__(self, o): return self._expr("+", o, True)
    def __sub__(self, o): return self._expr("-", o)
    def __rsub__(self, o): return self._expr("-", o, True)
    def __mul__(self, o): return self._expr("*", o)
    def __rmul__(self, o): return self._expr("*", o, True)
    def __truediv__(self, o): return self._expr("/", o)
    def __rtruediv__(self, o): return self._expr("/", o, True)
    def __floordiv__(self, o): return self._expr("//", o)
    def __mod__(self, o): return self._expr("%", o)
    def __pow__(self, o): return self._expr("**", o)
    def __rpow__(self, o): return self._expr("**", o, True)

    def __neg__(self):
        from .wholearray import Expr

        return Expr("neg", (self,))

    def __abs__(self):
        from .wholearray import Expr

        return Expr("abs", (self,))

    def __pos__(self):
        return self

    def __len__(self):
        return self.shape[0]

    @property
    def size(self):
        out = 1
        for s in self.shape:
            out *= s
        return out

    @property
    def ndim(self):
        return len(self.shape)

    def _inplace(self, op, other):
        from .wholearray import Expr, View, store

        store(self.section(), Expr(op, (self, other)))
        self.stored = isinstance(self, View)
        return self

    def __iadd__(self, o): return self._inplace("+", o)
    def __isub__(self, o): return self._inplace("-", o)
    def __imul__(self, o): return self._inplace("*", o)
    def __itruediv__(self, o): return self._inplace("/", o)

    def _reduce(self, name):
        from .wholearray import reduce

        return lambda *a, **k: reduce(name, [self])

    def __getattr__(self, name):
        from .wholearray import REDUCTIONS

        if name in REDUCTIONS:
            return self._reduce(name)
        raise AttributeError(name)

    def __lt__(self, o): raise TraceError("comparisons of whole arrays are not traced")
    __le__ = __gt__ = __ge__ = __lt__


class Array(ArrayLike):
    """A kernel array: element reads and writes recorded (first access, distinct writes, loads and
    stores by the register rule).  `known[d]` says whether extent d came from the sizes; an
    on-chip array (shared or local memory) is not DRAM traffic and is left out of the trace."""

    def __init__(self, name: str, dtype: str, shape: tuple, known: tuple | None = None, onchip: bool = False):
        self.name, self.dtype, self.shape = name, dtype, tuple(int(s) for s in shape)
        self.known = tuple(known) if known is not None else (True,) * len(self.shape)
        self.onchip = onchip
        self.data: dict = {}
        self.first: dict = {}  # flat index -> "read" | "write"
        self.written: set = set()
        self.loads = self.stores = 0
        self.stored = False

    def section(self):
        from .wholearray import View

        return View(self, tuple(("slice", 0, n) for n in self.shape))

    def flat(self, idx: tuple) -> int:
        if len(idx) != len(self.shape):
            raise TraceError(f"`{self.name}` indexed with {len(idx)} subscripts, it has {len(self.shape)}")
        flat = 0
        for i, n in zip(idx, self.shape, strict=True):
            i = int(i)
            if i < 0:
                i += n
            if not 0 <= i < n:
                raise TraceError(f"`{self.name}`: index {i} outside its extent {n}")
            flat = flat * n + i
        return flat

    def read(self, flat: int, key) -> Num:
        self.first.setdefault(flat, "read")
        if STATE.sites.new(self.name, key, "read", flat):
            self.loads += 1
        return Num(self.data.get(flat, 1), self.dtype)

    def write(self, flat: int, v, key) -> None:
        self.first.setdefault(flat, "write")
        self.written.add(flat)
        if STATE.sites.new(self.name, key, "write", flat):
            self.stores += 1
        self.data[flat] = value(v)

    def get(self, idx, key):
        idx = idx if isinstance(idx, tuple) else (idx,)
        if any(isinstance(i, slice) for i in idx) or len(idx) < len(self.shape):
            return self.section().get(idx, key)
        return self.read(self.flat(idx), key)

    def set(self, idx, v, key) -> None:
        idx = idx if isinstance(idx, tuple) else (idx,)
        if any(isinstance(i, slice) for i in idx) or len(idx) < len(self.shape):
            self.section().set(idx, v, key)
            return
        self.write(self.flat(idx), v, key)

    def __getitem__(self, idx):
        return self.get(idx, ("plain", self.name))

    def __setitem__(self, idx, v):
        self.set(idx, v, ("plain", self.name))

    def trace(self) -> ArrayTrace:
        first_read = sum(1 for k in self.first.values() if k == "read")
        return ArrayTrace(self.name, BYTES.get(self.dtype, 8), first_read, len(self.written), self.loads,
                          self.stores)


class Keyed:
    """`base[...]` of one reference site K: the array (or section) subscripted, told its site."""

    __slots__ = ("base", "key")

    def __init__(self, base, key: int):
        self.base, self.key = base, key

    def __getitem__(self, idx):
        return self.base.get(idx, self.key)

    def __setitem__(self, idx, v):
        if isinstance(v, ArrayLike) and v.stored:  # `y[1:] += e`: stored in place by __iadd__
            v.stored = False
            return
        self.base.set(idx, v, self.key)


def sub(base, key: int):
    """The rewritten subscript `_sr_sub(base, K)[...]`: arrays learn their site, anything else
    (a tuple, a shape) is subscripted as it is."""
    if isinstance(base, ArrayLike) and hasattr(base, "get"):
        return Keyed(base, key)
    return base
