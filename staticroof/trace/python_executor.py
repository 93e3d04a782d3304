"""The Python executor: run a Numba kernel's pure-Python body (what `py_func` is) at concrete sizes
with its arrays and scalars wrapped, so that every element read and write is recorded and every
arithmetic operation is counted by precision with Numba's promotion rules (python_types.promote).

The function's own source is executed, never the file: the kernel's definition is taken out of the
parsed file (without its decorators) and run in a namespace where `numpy`/`math` calls on wrapped
values count as the cost table says, `prange` is `range`, and `np.float32(x)` makes a float32.
Loads and stores follow the register rule as the C trace does: an access of a reference site is a
new load (store) unless it touches the element the same site touched last.  Numba CUDA kernels and
whole-array expressions are not run yet (TraceError says so).
"""

from __future__ import annotations

import math as _math
import sys

from . import ArrayTrace, Trace, TraceError, executor

_BYTES = {"fp64": 8, "fp32": 4, "fp16": 2, "int64": 8, "int32": 4, "int16": 2, "int8": 1, "uint64": 8,
          "uint32": 4, "uint16": 2, "uint8": 1, "bool": 1}


class _Counter:
    def __init__(self, weights: dict):
        self.flops: dict = {}
        self.special: dict = {}
        self.weights = weights

    def flop(self, prec: str, n: int = 1):
        self.flops[prec] = self.flops.get(prec, 0) + n

    def call(self, name: str, prec: str):
        from ..costs import classify

        entry = classify(name) or classify(name.rstrip("f"))
        if entry is None or entry["kind"] != "special":
            return
        self.special[name] = self.special.get(name, 0) + 1
        self.flop(prec, int(self.weights.get(name, entry["weight"])))


_COUNTER: list = []  # the counter of the run in progress


class _Sites:
    """Reference sites and the register rule, as the static count applies it: an access is a new
    load (store) unless the same statement execution already made it, or the same site touched the
    same element last since its innermost enclosing loop began."""

    def __init__(self, loops: dict, statements: list):
        self.loops = loops  # loop id -> (start, end) source span of its body
        self.statements = statements  # (start, end) spans of the simple statements
        self.epoch = 0  # bumped at every loop iteration: a statement execution is (statement, epoch)
        self.last: dict = {}  # (array, site, kind) -> flat index
        self.seen: set = set()  # (array, statement, epoch, kind, flat)

    def statement_of(self, pos):
        best = None
        for span in self.statements:
            if span[0] <= pos <= span[1] and (best is None or span[0] >= best[0]):
                best = span
        return best

    def new(self, array: str, pos, kind: str, flat: int) -> bool:
        stmt = self.statement_of(pos)
        key = (array, stmt, self.epoch, kind, flat)
        if key in self.seen:
            return False
        self.seen.add(key)
        site = (array, pos, kind)
        fresh = self.last.get(site) != flat
        self.last[site] = flat
        return fresh

    def loop_starts(self, loop: int) -> None:
        a, b = self.loops[loop]
        for site in [s for s in self.last if a <= s[1] <= b]:
            del self.last[site]


_SITES: list = []


class _Range:
    """`range`/`prange` of a loop of the kernel: a new execution forgets the registers of the sites
    in its body; every iteration is a new execution of the statements."""

    def __init__(self, loop: int, *args):
        self.loop = loop
        self.r = range(*(int(_value(a)) for a in args))

    def __iter__(self):
        sites = _SITES[-1]
        sites.loop_starts(self.loop)
        for v in self.r:
            sites.epoch += 1
            yield v


def _dtype_of(v) -> str:
    if isinstance(v, Num):
        return v.dtype
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    return "fp64"


def _value(v):
    return v.v if isinstance(v, Num) else v


class Num:
    """A scalar of a Numba type: arithmetic on it is counted (floats) at the promoted type."""

    __slots__ = ("v", "dtype")

    def __init__(self, v, dtype: str):
        self.v, self.dtype = v, dtype

    def _op(self, other, fn, reverse=False, divide=False, power=False):
        from ..frontends.python_types import is_float, promote, true_divide

        a, b = (other, self) if reverse else (self, other)
        da, db = _dtype_of(a), _dtype_of(b)
        if power and is_float(da) and not is_float(db):
            t = da
        else:
            t = true_divide(da, db) if divide else promote(da, db)
        va, vb = _value(a), _value(b)
        if is_float(t):
            if power and not is_float(db) and isinstance(vb, int) and 1 <= vb <= 4:
                _COUNTER[-1].flop(t, vb - 1)
            elif power:
                _COUNTER[-1].call(("sqrt" if vb == 0.5 else "pow") + ("f" if t == "fp32" else ""), t)
            else:
                _COUNTER[-1].flop(t)
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
    def __mod__(self, o): return self._op(o, lambda a, b: a % b if b else 0)
    def __pow__(self, o): return self._op(o, lambda a, b: abs(a) ** b, power=True)
    def __neg__(self): return Num(-self.v, self.dtype)
    def __pos__(self): return self
    def __abs__(self): return Num(abs(self.v), self.dtype)
    def __lt__(self, o): return self.v < _value(o)
    def __le__(self, o): return self.v <= _value(o)
    def __gt__(self, o): return self.v > _value(o)
    def __ge__(self, o): return self.v >= _value(o)
    def __eq__(self, o): return self.v == _value(o)
    def __ne__(self, o): return self.v != _value(o)
    def __hash__(self): return hash(self.v)
    def __bool__(self): return bool(self.v)
    def __float__(self): return float(self.v)
    def __int__(self): return int(self.v)
    def __index__(self): return int(self.v)


class Array:
    """A kernel array: element reads and writes recorded (first access, distinct writes, loads and
    stores by the register rule per reference site)."""

    def __init__(self, name: str, dtype: str, shape: tuple):
        self.name, self.dtype, self.shape = name, dtype, tuple(shape)
        self.size = 1
        for s in self.shape:
            self.size *= s
        self.ndim = len(self.shape)
        self.data: dict = {}
        self.first: dict = {}  # flat index -> "read" | "write"
        self.written: set = set()
        self.loads = self.stores = 0

    def __len__(self):
        return self.shape[0]

    def _whole(self, *_):
        raise TraceError("whole-array and slice expressions are not traced yet")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _whole
    __pow__ = __neg__ = __iadd__ = __isub__ = __imul__ = __itruediv__ = _whole

    def sum(self, *_):
        self._whole()

    def _flat(self, idx) -> int:
        idx = idx if isinstance(idx, tuple) else (idx,)
        if any(isinstance(i, slice) for i in idx):
            raise TraceError("whole-array and slice expressions are not traced yet")
        if len(idx) != self.ndim:
            raise TraceError(f"`{self.name}` indexed with {len(idx)} subscripts, it has {self.ndim}")
        flat = 0
        for i, n in zip(idx, self.shape, strict=True):
            i = int(i)
            if i < 0:
                i += n
            if not 0 <= i < n:
                raise TraceError(f"`{self.name}`: index {i} outside its extent {n}")
            flat = flat * n + i
        return flat

    def _site(self, kind: str, flat: int, depth: int = 2) -> bool:
        frame = sys._getframe(depth + 1)
        try:
            line, _end, col, _endcol = list(frame.f_code.co_positions())[frame.f_lasti // 2]
            pos = (line, col or 0)
        except (AttributeError, IndexError, TypeError, ValueError):
            pos = (frame.f_lineno, 0)
        return _SITES[-1].new(self.name, pos, kind, flat)

    def __getitem__(self, idx):
        return self.get(idx, 1)

    def __setitem__(self, idx, value):
        self.set(idx, value, 1)

    def get(self, idx, depth: int):
        idx = idx if isinstance(idx, tuple) else (idx,)
        if len(idx) < self.ndim and not any(isinstance(i, slice) for i in idx):
            return Row(self, idx)  # `A[i]` of a 2-D array: a row, indexed next
        flat = self._flat(idx)
        self.first.setdefault(flat, "read")
        if self._site("read", flat, depth + 1):
            self.loads += 1
        return Num(self.data.get(flat, 1), self.dtype)

    def set(self, idx, value, depth: int):
        flat = self._flat(idx)
        self.first.setdefault(flat, "write")
        self.written.add(flat)
        if self._site("write", flat, depth + 1):
            self.stores += 1
        self.data[flat] = _value(value)

    def trace(self) -> ArrayTrace:
        first_read = sum(1 for k in self.first.values() if k == "read")
        return ArrayTrace(self.name, _BYTES.get(self.dtype, 8), first_read, len(self.written), self.loads,
                          self.stores)


class Row:
    """`A[i]` of a multi-dimensional array: `A[i][j]` is `A[i, j]`."""

    def __init__(self, array: Array, prefix: tuple):
        self.array, self.prefix = array, prefix
        self.shape = array.shape[len(prefix):]

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, idx):
        return self.array.get(self.prefix + (idx if isinstance(idx, tuple) else (idx,)), 1)

    def __setitem__(self, idx, value):
        self.array.set(self.prefix + (idx if isinstance(idx, tuple) else (idx,)), value, 1)


def _math_module(real, qualified_prefix: str):
    """`math`/`numpy` for the kernel: math functions on wrapped values counted, casts typed."""
    from ..frontends.python_math import _RENAMES, FREE, MATH, cost_name
    from ..frontends.python_types import dtype_name, is_float

    class Proxy:
        def __getattr__(self, name):
            dtype = dtype_name(name)
            if dtype is not None and name not in ("int", "float", "bool"):
                return lambda v=0: Num(_value(v), dtype)
            if name in ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "arange"):
                def made(*args, **kwargs):
                    raise TraceError("arrays created inside the kernel are not traced yet")
                return made
            if name in MATH or name in _RENAMES or name in FREE:
                def fn(*args):
                    if any(isinstance(a, (Array, Row)) for a in args):
                        raise TraceError("whole-array and slice expressions are not traced yet")
                    floats = [_dtype_of(a) for a in args if is_float(_dtype_of(a))]
                    t = floats[0] if floats else "fp64"
                    for d in floats[1:]:
                        t = max(t, d, key=("fp16", "fp32", "fp64").index)
                    vals = [float(_value(a)) for a in args]
                    impl = getattr(_math, _RENAMES.get(name, name).replace("tgamma", "gamma"), None) or getattr(
                        real, name)
                    try:
                        out = impl(*vals)
                    except (ValueError, OverflowError, ZeroDivisionError):
                        out = 0.0
                    if name == "fma":
                        _COUNTER[-1].flop(t, 2)
                    elif name not in FREE:
                        _COUNTER[-1].call(cost_name(name, t), t)
                    return Num(out, t)
                return fn
            return getattr(real, name)

    return Proxy()


@executor("python")
class PythonExecutor:
    def run(self, path, kernel, sizes, defines, include_dirs, weights, launch):
        import libcst as cst

        from ..frontends.python import load
        from ..inputs import read_text

        res, _ = load(path, defines or {})
        k = next((x for x in res.kernels if x.name == kernel), None)
        if k is None:
            raise TraceError(f"`{kernel}` is not a kernel the front end could lower")
        if k.launch:
            raise TraceError("Numba CUDA kernels are not traced yet")
        from ..frontends.python_kernels import imports as _imports, kernel_of

        kdef = next((kernel_of(f, _imports(cst.parse_module(read_text(path)))) for f in
                     [s for s in cst.parse_module(read_text(path)).body if isinstance(s, cst.FunctionDef)]
                     if f.name.value == kernel), None)
        if kdef is not None and kdef.kind == "vectorize":
            raise TraceError(f"@{kdef.kind} ufuncs are not traced yet")
        module = cst.parse_module(read_text(path))
        fn = next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == kernel), None)
        if fn is None:
            raise TraceError(f"`{kernel}` is not a top-level function")
        # the kernel and the file's other functions it may call (helpers, device functions), undecorated
        src, loops, statements = _instrumented([s.with_changes(decorators=[]) for s in module.body
                                                if isinstance(s, cst.FunctionDef) and not s.asynchronous])
        counter = _Counter(weights or {})
        # extents the sizes do not give (a flat `img[r * w + c]`, an output with no shape read): large
        # enough for any index the sizes allow; only the elements touched are stored
        extent = 2
        for v in sizes.values():
            if v is not None:
                extent *= max(1, int(v)) + 2
        args: list = []
        arrays: list = []
        from ..frontends.python_lowering import _shape_names

        names = _shape_names(fn)
        for p in fn.params.params:
            name = p.name.value
            arr = k.arrays.get(name)
            if arr is not None:
                shape = []
                for d in range(max(1, len(arr.dims))):
                    size = names.get((name, d), f"{name}_shape{d}")
                    shape.append(int(sizes[size]) if sizes.get(size) is not None else extent)
                a = Array(name, arr.dtype, tuple(shape))
                arrays.append(a)
                args.append(a)
            elif sizes.get(name) is not None:
                args.append(int(sizes[name]))
            else:
                from ..frontends.python_types import is_float

                dt = getattr(k, "scalar_types", {}).get(name, "fp64")
                args.append(Num(1.5, dt) if is_float(dt) else 1)
        import numpy

        scope = {"np": _math_module(numpy, "numpy"), "numpy": _math_module(numpy, "numpy"),
                 "math": _math_module(_math, "math"), "prange": range}
        from ..frontends.python_kernels import imports

        for local, q in imports(module).items():
            if q == "numba.prange" or q.endswith(".prange"):
                scope[local] = range
            elif q in ("numpy", "math"):
                scope[local] = scope[q]
            elif q.startswith("numba.") and q.rsplit(".", 1)[-1] in ("float32", "float64", "int32", "int64"):
                from ..frontends.python_types import dtype_name

                dt = dtype_name(q)
                scope[local] = lambda v=0, dt=dt: Num(_value(v), dt)
            elif q == "numba":
                class Numba:
                    prange = range

                    def __getattr__(self, n, _np=scope["np"]):
                        return getattr(_np, n)
                scope[local] = Numba()
        for name, value in _module_constants(module).items():
            scope.setdefault(name, value)
        scope["_sr_range"] = _Range
        exec(compile(src, path, "exec"), scope)  # the kernel's own source (the trace runs code)
        _COUNTER.append(counter)
        _SITES.append(_Sites(loops, statements))
        try:
            scope[kernel](*args)
        except TraceError:
            raise
        except Exception as e:
            raise TraceError(f"the kernel raised {type(e).__name__}: {e}") from None
        finally:
            _COUNTER.pop()
            _SITES.pop()
        return Trace(dict(counter.flops), dict(counter.special), {a.name: a.trace() for a in arrays})


def _instrumented(functions):
    """The functions' source with every `for ... in range/prange(...)` calling `_sr_range(id, ...)`,
    the body span of each loop and the spans of the simple statements (in the new source's
    positions, which the executed code reports)."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    counter = iter(range(1, 1 << 30))

    class Rewrite(cst.CSTTransformer):
        def leave_For(self, original, updated):
            it = updated.iter
            if isinstance(it, cst.Call) and (
                    (isinstance(it.func, cst.Name) and it.func.value in ("range", "prange"))
                    or (isinstance(it.func, cst.Attribute) and it.func.attr.value == "prange")):
                loop = cst.Arg(cst.Integer(str(next(counter))))
                return updated.with_changes(iter=it.with_changes(func=cst.Name("_sr_range"), args=[loop, *it.args]))
            return updated

    code = cst.Module(list(functions)).visit(Rewrite()).code
    wrapper = MetadataWrapper(cst.parse_module(code))
    pos = wrapper.resolve(PositionProvider)
    loops, statements = {}, []

    def span(node):
        r = pos[node]
        return (r.start.line, r.start.column), (r.end.line, r.end.column)

    class Spans(cst.CSTVisitor):
        def visit_For(self, node) -> None:
            it = node.iter
            if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "_sr_range":
                first = it.args[0].value
                assert isinstance(first, cst.Integer)
                loops[int(first.value)] = span(node.body)

        def visit_SimpleStatementLine(self, node) -> None:
            statements.append(span(node))

    wrapper.module.visit(Spans())
    return code, loops, statements


def _module_constants(module) -> dict:
    import libcst as cst

    out = {}
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name) \
                        and isinstance(s.value, (cst.Integer, cst.Float)):
                    out[s.targets[0].target.value] = s.value.evaluated_value
    return out
