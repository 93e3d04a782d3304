"""`math`, `numpy` and Numba's type names as a traced kernel sees them: math functions on wrapped
scalars counted through the cost table (on arrays, element by element), `np.float32(x)` a float32,
`np.zeros/ones/empty/full(...)` and their `_like` forms new arrays of the kernel (named as the
analysis names them, by where they are made), and the reductions (`np.sum`, `np.dot`, ...)."""

from __future__ import annotations

import math as _math
from typing import Any

from .. import TraceError
from .runtime import STATE, UNKNOWN_EXTENT, Array, ArrayLike, Num, dtype_of, value, wider

_CONSTRUCTORS = ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like")


class DType:
    """A Numba/NumPy scalar type: calling it converts (`np.float32(0.0)`), and it names an array's
    element type (`dtype=np.float32`)."""

    def __init__(self, dtype: str):
        self.dtype = dtype

    def __call__(self, v=0):
        from ...frontends.python.numba_types import is_complex, is_float

        x = value(v)
        return Num(complex(x) if is_complex(self.dtype) else float(x) if is_float(self.dtype) else int(x), self.dtype)

    def __getitem__(self, _):  # `float32[:]` written in a kernel: a type, never a value
        return self


def dtype_arg(d) -> str | None:
    """The IR dtype an array constructor's `dtype` argument names."""
    from ...frontends.python.numba_types import dtype_name

    if d is None:
        return None
    if isinstance(d, DType):
        return d.dtype
    if d is float:
        return "fp64"
    if d is int:
        return "int64"
    if d is bool:
        return "bool"
    return dtype_name(str(d))


class Made:
    """The arrays made in the kernel: one record per place (the analysis names an array by where
    it is made, and counts the elements of every execution there as the same array's)."""

    def __init__(self, names: dict):
        self.names = names  # (line, column) -> the analysis's array name
        self.arrays: dict = {}  # (line, column) -> Array

    def array(self, loc, default: str, dtype: str, shape: tuple, known=None) -> Array:
        got = self.arrays.get(loc)
        if got is None:
            got = self.arrays[loc] = Array(self.names.get(loc, default), dtype, shape, known)
        else:
            got.data = {}
        return got

    def bind(self, loc, default: str, v):
        """`name = <array expression>`: a new array holding its values (anything else as it is)."""
        from .runtime import Expr, new_array

        if not isinstance(v, Expr):
            return v
        made = new_array(self.names.get(tuple(loc), default), v)
        old = self.arrays.get(tuple(loc))
        if old is None:
            self.arrays[tuple(loc)] = made
            return made
        _merge(old, made)
        return old


def _merge(old: Array, new: Array) -> None:
    """A second execution of `z = x * y`: its elements are the same array's (the analysis counts one)."""
    for flat, kind in new.first.items():
        old.first.setdefault(flat, kind)
    old.written |= new.written
    old.loads += new.loads
    old.stores += new.stores
    old.data = new.data


def module(real, made: Made | None):
    """`math` or `numpy` for the kernel."""
    from ...frontends.python.mathnames import FREE, MATH, OPERATORS, RENAMES, cost_name, ufunc_inputs
    from ...frontends.python.numba_types import dtype_name, is_complex, is_float
    from .runtime import OPS, REDUCTIONS, Expr, reduce

    class Proxy:
        def __getattr__(self, name):
            dtype = dtype_name(name)
            if dtype is not None and name not in ("int", "float", "bool"):
                return DType(dtype)
            if name in _CONSTRUCTORS:
                return lambda *a, **k: _construct(made, name, *a, **k)
            if name in REDUCTIONS:
                return lambda *a, **k: reduce(name, list(a))
            if name == "linalg":
                return _Linalg()
            if name in OPERATORS:
                op: Any = OPS[OPERATORS[name]]

                def ufunc(a, b, out=None):
                    if out is not None or isinstance(a, ArrayLike) or isinstance(b, ArrayLike):
                        return _into(out, Expr(op, (a, b)))
                    return op(a, b)
                return ufunc
            if name in MATH or name in RENAMES or name in FREE:
                def fn(*args, out=None):
                    if out is None and len(args) == ufunc_inputs(name) + 1 and isinstance(args[-1], ArrayLike):
                        args, out = args[:-1], args[-1]  # `np.sqrt(x, y)`: y is the output
                    if out is not None:
                        return _into(out, Expr(fn, args))
                    if any(isinstance(a, ArrayLike) for a in args):
                        return Expr(fn, args)  # element by element
                    if any(isinstance(value(a), complex) or is_complex(dtype_of(a)) for a in args):
                        return _complex_call(name, args)
                    floats = [dtype_of(a) for a in args if is_float(dtype_of(a))]
                    t = floats[0] if floats else "fp64"
                    for d in floats[1:]:
                        t = wider(t, d)
                    vals = [float(value(a)) for a in args]
                    impl = getattr(_math, RENAMES.get(name, name).replace("tgamma", "gamma"), None) or getattr(
                        real, name)
                    try:
                        out = impl(*vals)
                    except (ValueError, OverflowError, ZeroDivisionError):
                        out = 0.0
                    if name == "fma":
                        STATE.counter.flop(t, 2)
                    elif name not in FREE:
                        STATE.counter.call(cost_name(name, t), t)
                    return Num(out, t)
                return fn
            if name in ("pi", "e", "inf", "nan"):
                return getattr(_math, name)
            if name in ("arange", "linspace", "copy", "where", "array", "asarray", "concatenate", "outer", "cumsum"):
                raise TraceError(f"`np.{name}` inside a kernel is not traced")
            return getattr(real, name)

    return Proxy()


class _Linalg:
    """`np.linalg` in a kernel: its norm (the others are not traced)."""

    def norm(self, x, *args):
        from .runtime import reduce

        if args:
            raise TraceError("`np.linalg.norm` with an `ord` is not traced")
        return reduce("norm", [x])


def _into(out, v):
    """A ufunc's `out=`: the values stored into that array (or section), which is returned."""
    from .runtime import store

    if out is None:
        return v
    if not isinstance(out, ArrayLike):
        raise TraceError("a ufunc's `out=` that is not an array")
    store(out.section(), v)
    return out


def _complex_call(name: str, args):
    """A NumPy function of a complex value: abs a hypot (Num.__abs__), the parts and the conjugate
    free (as the analysis counts them)."""
    z = args[0] if isinstance(args[0], Num) else Num(complex(args[0]), "complex128")
    if not isinstance(z.v, complex):  # an element never written holds 1: as a complex, 1+0j
        z = Num(complex(z.v), z.dtype)
    if name in ("abs", "absolute"):
        return abs(z)
    if name in ("real", "imag"):
        return getattr(z, name)
    if name in ("conj", "conjugate"):
        return z.conjugate()
    raise TraceError(f"`np.{name}` of a complex value is not traced")


def _construct(made: Made | None, name: str, *args, _sr_loc=None, **kwargs):
    """`np.zeros(n, dtype=np.float32)`, `np.ones_like(x)`, `np.full(shape, v)`: a new array; zeros,
    ones and full write every element (as the analysis counts them)."""
    if made is None:
        raise TraceError("arrays made here are not traced")
    like = name.endswith("_like")
    if like:
        src = args[0] if args else kwargs.get("a")
        if not isinstance(src, ArrayLike):
            raise TraceError(f"`np.{name}` of something that is not an array")
        shape, known = tuple(src.shape), tuple(getattr(src, "known", (True,) * len(src.shape)))
        dtype = dtype_arg(kwargs.get("dtype")) or str(getattr(src, "dtype", "fp64"))
    else:
        shape_arg = args[0] if args else kwargs.get("shape")
        shape = tuple(int(value(s)) for s in shape_arg) if isinstance(shape_arg, (tuple, list)) else (
            int(value(shape_arg)),)
        known = tuple(s != UNKNOWN_EXTENT for s in shape)
        d = kwargs.get("dtype", args[2] if name == "full" and len(args) > 2 else
                       args[1] if name != "full" and len(args) > 1 else None)
        dtype = dtype_arg(d) or "fp64"
    arr = made.array(tuple(_sr_loc) if _sr_loc else ("tmp", name), "tmp", dtype, shape, known)
    if name.startswith(("zeros", "ones", "full")):
        fill = 0 if name.startswith("zeros") else 1 if name.startswith("ones") else value(
            args[1] if len(args) > 1 else kwargs.get("fill_value", 0))
        import itertools

        for e in itertools.product(*(range(n) for n in shape)):
            STATE.sites.epoch += 1
            arr.write(arr.flat(e), fill, ("fill", arr.name))
    return arr
