"""The values a traced Python kernel computes with: scalars of a Numba type whose arithmetic is
counted at the promoted type (:class:`Num`), arrays whose element reads and writes are recorded
(:class:`Array`), and the register rule that decides which accesses are new loads and stores
(:class:`Sites`).

Every subscript of the kernel's source is rewritten to `_sr_sub(base, K)[index]` (rewrite.py):
K names the reference (its canonical index expression and its statement), so an access knows its
site without inspecting frames.  The rule is the analysis's: an access is a new load (store) unless
an identical reference of the same statement execution already made it, or the same site touched
the same element last since its innermost enclosing loop began.

Whole-array and slice expressions (`y[:] = a * x + y`, `z = x * y`, `np.sum(A[i, :] * B[:, j])`)
have NumPy's semantics: a section (:class:`View`) or arithmetic on arrays (:class:`Expr`) is
evaluated element by element when it is stored, bound to a new array or reduced, every operand
element read once per result element (recorded, with its site) and every operation counted at the
element's promoted type.  The right-hand side is evaluated in full before the target is written, as
NumPy does when the two overlap; shapes broadcast as NumPy's do, an extent the sizes do not give
(`known` false) taking its partner's.  They live here with the arrays and scalars because each
needs the others: an array's operators build expressions, an expression's elements are scalars and
array reads, and a scalar steps aside for an array operand.
"""

from __future__ import annotations

import itertools
import operator
from typing import Any

from .. import ArrayTrace, TraceError

BYTES = {"fp64": 8, "fp32": 4, "fp16": 2, "int64": 8, "int32": 4, "int16": 2, "int8": 1, "uint64": 8,
         "uint32": 4, "uint16": 2, "uint8": 1, "bool": 1, "complex128": 16, "complex64": 8}
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
        if STATE.aliasing is not None and STATE.aliasing.unheld(key, kind, array):
            self.last.pop(site, None)
            return True
        fresh = self.last.get(site) != flat
        self.last[site] = flat
        return fresh

    def loop_starts(self, loop: int) -> None:
        for key in self.loops.get(loop, ()):
            self.last.pop((key, "read"), None)
            self.last.pop((key, "write"), None)


class Aliasing:
    """Which references may not stay in a register across their innermost loop, as C's rules say
    of pointers and as Numba leaves NumPy arguments (it does not assume them independent): the
    reference writes its array (or its loop writes that array anywhere) and another argument array
    that may alias it is subscripted in the loop, or it reads and another such array is written in
    the loop.  Two argument arrays may alias when their dtypes may under strict aliasing: the same
    type up to signedness, or either one of bytes.  Only the traced function's own references, by
    their names there; `sites` and `arrays` as rewrite.Rewritten holds them, `params` the traced
    function's name and its argument arrays' names -> dtype."""

    def __init__(self, sites: dict, arrays: dict, function: str, params: dict):
        self.sites, self.arrays, self.function, self.params = sites, arrays, function, params
        self.memo: dict = {}

    def unheld(self, key: int, kind: str, array: str) -> bool:
        hit = self.memo.get((key, kind, array))
        if hit is None:
            hit = self.memo[(key, kind, array)] = self._unheld(key, kind, array)
        return hit

    def _unheld(self, key: int, kind: str, array: str) -> bool:
        name, loop, function = self.sites.get(key, (None, None, None))
        if loop is None or function != self.function or name != array or array not in self.params:
            return False
        used, written = self.arrays.get(loop, (set(), set()))
        others = used if (kind == "write" or array in written) else written
        mine = self.params[array]
        return any(b != array and b in self.params and _dtypes_overlap(mine, self.params[b]) for b in others)


def _dtypes_overlap(a: str, b: str) -> bool:
    if a in ("int8", "uint8") or b in ("int8", "uint8"):
        return True
    return a.replace("uint", "int") == b.replace("uint", "int")


class State:
    """The run in progress: its counter and the register state of the thread now running."""

    counter: Any = None  # a Counter while a run is in progress
    sites: Any = None  # the Sites of the thread now running
    aliasing: Any = None  # the run's Aliasing


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
    if isinstance(v, complex):
        return "complex128"
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

    def _op(self, other, fn, reverse=False, divide=False, power=False, op=""):
        """`self op other` counted as Numba compiles it (frontends.python.arithmetic): a plain
        Python number operand is a literal of the source (a power's exponent the source fixes);
        a run-time exponent (a Num) costs what the analysis counts for it, one pow call."""
        from ...frontends.python import arithmetic
        from ...frontends.python.numba_types import is_inexact, promote, true_divide

        if isinstance(other, ArrayLike):
            return NotImplemented
        a, b = (other, self) if reverse else (self, other)
        da, db = dtype_of(a), dtype_of(b)
        va, vb = value(a), value(b)
        if power:
            cost = arithmetic.power(da, db, None if isinstance(b, Num) else vb,
                                    None if isinstance(a, Num) else va)
        else:
            t = true_divide(da, db) if divide else promote(da, db)
            cost = arithmetic.binary(op, da, db, t, None if isinstance(a, Num) else va,
                                     None if isinstance(b, Num) else vb, a is b)
        counter = STATE.counter
        if is_inexact(cost.prec) and cost.flops:
            counter.flop(cost.prec, cost.flops)
        if cost.special:
            counter.call(cost.special + ("f" if cost.prec == "fp32" else ""), cost.prec)
        out = fn(va, vb)
        if isinstance(out, (complex, float)) and not is_inexact(cost.dtype):
            out = int(out.real) if isinstance(out, float) else 0
        return Num(out, cost.dtype)

    @property
    def real(self):
        return Num(self.v.real, _part(self.dtype))

    @property
    def imag(self):
        return Num(self.v.imag if isinstance(self.v, complex) else 0.0, _part(self.dtype))

    def conjugate(self):
        return Num(self.v.conjugate(), self.dtype)

    conj = conjugate

    def __add__(self, o): return self._op(o, lambda a, b: a + b, op="+")
    def __radd__(self, o): return self._op(o, lambda a, b: a + b, True, op="+")
    def __sub__(self, o): return self._op(o, lambda a, b: a - b, op="-")
    def __rsub__(self, o): return self._op(o, lambda a, b: a - b, True, op="-")
    def __mul__(self, o): return self._op(o, lambda a, b: a * b, op="*")
    def __rmul__(self, o): return self._op(o, lambda a, b: a * b, True, op="*")
    def __truediv__(self, o): return self._op(o, lambda a, b: a / b if b else 0.0, divide=True, op="/")
    def __rtruediv__(self, o): return self._op(o, lambda a, b: a / b if b else 0.0, True, divide=True, op="/")
    def __floordiv__(self, o): return self._op(o, lambda a, b: a // b if b else 0, op="//")
    def __rfloordiv__(self, o): return self._op(o, lambda a, b: a // b if b else 0, True, op="//")
    def __mod__(self, o): return self._op(o, lambda a, b: a % b if b else 0, op="%")
    def __rmod__(self, o): return self._op(o, lambda a, b: a % b if b else 0, True, op="%")
    def __pow__(self, o): return self._op(o, lambda a, b: _power(a, b), power=True)
    def __rpow__(self, o): return self._op(o, lambda a, b: _power(a, b), True, power=True)
    def __neg__(self): return Num(-self.v, self.dtype)
    def __pos__(self): return self

    def __abs__(self):
        if isinstance(self.v, complex) or self.dtype in ("complex128", "complex64"):
            t = _part(self.dtype)  # |z| is a hypot of its parts
            STATE.counter.call("hypot" + ("f" if t == "fp32" else ""), t)
            return Num(abs(self.v), t)
        return Num(abs(self.v), self.dtype)

    def __complex__(self): return complex(self.v)
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


def _part(dtype: str) -> str:
    from ...frontends.python.numba_types import part

    return part(dtype)


def _power(a, b):
    if isinstance(a, complex) or isinstance(b, complex):
        try:
            return a ** b
        except (OverflowError, ZeroDivisionError):
            return 0j
    try:
        out = abs(a) ** b
    except (OverflowError, ZeroDivisionError):
        return 0.0
    return out if not isinstance(out, complex) else 0.0


class ArrayLike:
    """An array value in a whole-array expression (an array, a section of one, or arithmetic on
    them): element-wise operators build an expression evaluated element by element (Expr,
    below)."""

    shape: tuple = ()
    stored = False  # a section `y[1:] += e` just stored in place: the setitem that follows is done

    def _expr(self, op, other, reverse=False):
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
        return Expr("neg", (self,))

    def __abs__(self):
        return Expr("abs", (self,))

    def __pos__(self):
        return self

    def __len__(self):
        return self.shape[0]

    def __iter__(self):  # `for v in x`, enumerate(x), zip(x, y): the first axis, each element a read
        for k in range(self.shape[0]):
            yield self[k]  # type: ignore[index]  # (every subclass is indexable)

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
        store(self.section(), Expr(op, (self, other)))
        self.stored = isinstance(self, View)
        return self

    def __iadd__(self, o): return self._inplace("+", o)
    def __isub__(self, o): return self._inplace("-", o)
    def __imul__(self, o): return self._inplace("*", o)
    def __itruediv__(self, o): return self._inplace("/", o)

    def _reduce(self, name):
        return lambda *a, **k: reduce(name, [self])

    def __getattr__(self, name):
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

    def __iter__(self):
        """`for v in x` over a 1-D array: each element one load (a key of its own: the iteration is
        no statement of the kernel, so no two of its reads are the same reference)."""
        if len(self.shape) != 1:
            yield from super().__iter__()
            return
        for k in range(self.shape[0]):
            yield self.read(self.flat((k,)), ("iter", self.name, k))

    @property
    def T(self):  # NumPy's name
        return Transposed(self)

    def trace(self) -> ArrayTrace:
        first_read = sum(1 for k in self.first.values() if k == "read")
        return ArrayTrace(self.name, BYTES.get(self.dtype, 8), first_read, len(self.written), self.loads,
                          self.stores)


class Transposed(ArrayLike):
    """`a.T`: the array with its axes reversed, element by element (a full subscript only)."""

    def __init__(self, array: Array):
        self.array = array
        self.shape = tuple(reversed(array.shape))

    @property
    def dtype(self):
        return self.array.dtype

    @property
    def T(self):  # NumPy's name
        return self.array

    def _flat(self, idx) -> int:
        idx = idx if isinstance(idx, tuple) else (idx,)
        if any(isinstance(i, slice) for i in idx) or len(idx) != len(self.shape):
            raise TraceError(f"`{self.array.name}.T`: only whole subscripts of a transposed array are traced")
        return self.array.flat(tuple(reversed(idx)))

    def get(self, idx, key):
        return self.array.read(self._flat(idx), key)

    def set(self, idx, v, key) -> None:
        self.array.write(self._flat(idx), v, key)

    def __getitem__(self, idx):
        return self.get(idx, ("plain", self.array.name))

    def __setitem__(self, idx, v):
        self.set(idx, v, ("plain", self.array.name))


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


# ---------------------------------------------------------------------------------------------
# Whole-array and slice expressions

REDUCTIONS = {"sum": 1, "prod": 1, "dot": 2, "vdot": 2, "max": 0, "min": 0, "amax": 0, "amin": 0, "mean": 1,
              "norm": 1}

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
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
        op: Any = v.op if callable(v.op) else OPS[v.op]
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
    starting from zero; `mean` divides once more; `norm` (np.linalg.norm, BLAS nrm2) is x*x and
    an add per element (re*re + im*im and an add for a complex) and a sqrt."""
    from ...frontends.python import arithmetic
    from ...frontends.python.numba_types import is_complex, is_inexact, part, promote

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
            if is_inexact(d):
                t = d if not is_inexact(t) else promote(t, d)
        if name in ("dot", "vdot"):
            x = vals[0] * vals[1]
        elif name == "norm":
            x = abs(value(vals[0])) ** 2
            if is_inexact(t):
                counter.flop(part(t), 3 if is_complex(t) else 1)
        else:
            x = vals[0]
        if REDUCTIONS[name] and is_inexact(t):
            add = arithmetic.binary("+", t, t, t) if name != "norm" else arithmetic.Cost(part(t), 1)
            counter.flop(add.prec, add.flops)
        xv = value(x)
        if acc is None:
            acc = xv
        elif name in ("sum", "dot", "vdot", "mean", "norm"):
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
        if is_inexact(t):
            div = arithmetic.binary("/", t, "int64", t)
            counter.flop(div.prec, div.flops)
        n = 1
        for s in shape:
            n *= s
        return Num(acc / n if n else 0.0, t if is_inexact(t) else "fp64")
    if name == "norm":
        t = part(t) if is_inexact(t) else "fp64"
        counter.call("sqrt" + ("f" if t == "fp32" else ""), t)
        return Num(abs(acc) ** 0.5, t)
    return Num(acc, t)


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
