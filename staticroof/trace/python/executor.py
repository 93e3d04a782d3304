"""The Python executor: run a Numba kernel's pure-Python body (what `py_func` is) at concrete sizes
with its arrays and scalars wrapped, so that every element read and write is recorded and every
arithmetic operation is counted by precision with Numba's promotion rules (python_types.promote).

The function's own source is executed, never the file: the kernel's definition and the file's
other functions are taken out of the parsed file (without their decorators), rewritten
(rewrite.py) and run in a namespace where `numpy`/`math` calls on wrapped values count as
the cost table says (mathcalls.py), `prange` is `range` and `np.float32(x)` makes a float32.
`@vectorize` functions run once per element of their inputs; `@cuda.jit` kernels over every
block and thread of their launch, barriers kept (cuda.py); whole-array expressions element
by element (runtime.py).
"""

from __future__ import annotations

import math as _math

from .. import Trace, TraceError, executor
from .runtime import STATE, UNKNOWN_EXTENT, Aliasing, Array, Counter, Num, Range, Sites, sub


def _complex(re=0.0, im=0.0) -> Num:
    """`complex(re, im)` in a kernel: a complex128 of the run (not a literal), no arithmetic."""
    return Num(complex(float(re), float(im)), "complex128")


@executor("python")
class PythonExecutor:
    def run(self, path, kernel, sizes, defines, include_dirs, weights, launch):
        try:
            import numpy
        except ImportError:
            raise TraceError("tracing a Python kernel needs NumPy (pip install 'staticroof[numba]')") from None
        import libcst as cst

        from ...frontends.python.frontend import load
        from ...frontends.python.kernels import imports, kernel_defs, kernel_of
        from ...frontends.python.numba_types import is_complex, is_float
        from ...frontends.python.syntax import shape_names as named_shapes
        from ...inputs import read_text
        from .cuda import Cuda, configuration, launch as run_launch
        from .mathcalls import DType, Made, module as math_module
        from .rewrite import rewrite

        text = read_text(path)
        # sizes do not change the lowering (they are bound after it), element types do: the file's
        # kernels, traced one after another and at several sizes, are lowered once
        key = (path, text, tuple(sorted((n, v) for n, v in (defines or {}).items() if not _is_int(v))))
        if _LOADED.get("key") != key:
            res, _ = load(path, defines or {})
            tree = cst.parse_module(text)
            names = imports(tree)
            stencils = frozenset(f.name.value for f in tree.body if isinstance(f, cst.FunctionDef)
                                 and getattr(kernel_of(f, names), "kind", None) == "stencil")
            _LOADED.clear()
            _LOADED.update(key=key, res=res, tree=tree, names=names, stencils=stencils, rewritten={},
                           defs=kernel_defs(tree, names))
        res, tree, names = _LOADED["res"], _LOADED["tree"], _LOADED["names"]
        k = next((x for x in res.kernels if x.name == kernel), None)
        if k is None:
            raise TraceError(f"`{kernel}` is not a kernel the front end could lower")
        qualname = getattr(k, "py_function", kernel)
        kdef = next((d for d in _LOADED["defs"] if d.qualname == qualname), None)
        fn = kdef.node if kdef is not None else next(
            (s for s in tree.body if isinstance(s, cst.FunctionDef) and s.name.value == qualname), None)
        if fn is None:
            raise TraceError(f"`{kernel}` is not a function of the file")
        kind = kdef.kind if kdef is not None else "plain"
        prefer = tuple(s.name.value for s in kdef.scope) if kdef is not None else ()
        if prefer not in _LOADED["rewritten"]:
            _LOADED["rewritten"][prefer] = rewrite(tree, names, _LOADED["stencils"], prefer)
        src = _LOADED["rewritten"][prefer]
        kernel = fn.name.value  # the function the instance runs
        made = Made({(a.location.line, a.location.col): n for n, a in k.arrays.items()
                     if a.location is not None and a.location.line})
        counter = Counter(weights or {})
        shape_names = named_shapes(fn)
        arrays: list = []

        def array_of(name: str, dtype: str, rank: int) -> Array:
            shape, known = [], []
            for d in range(max(1, rank)):
                size = shape_names.get((name, d), f"{name}_shape{d}")
                v = sizes.get(size)
                shape.append(int(v) if v is not None else UNKNOWN_EXTENT)
                known.append(v is not None)
            a = Array(name, dtype, tuple(shape), tuple(known))
            arrays.append(a)
            return a

        params = [p.name.value for p in fn.params.params]
        args: list = []
        if kind != "vectorize":
            for name in params:
                arr = k.arrays.get(name)
                if arr is not None:
                    args.append(array_of(name, arr.dtype, len(arr.dims)))
                elif sizes.get(name) is not None:
                    args.append(int(sizes[name]))
                else:
                    dt = getattr(k, "scalar_types", {}).get(name, "fp64")
                    args.append(Num(1.5, dt) if is_float(dt) else Num(1.5 + 0.5j, dt) if is_complex(dt) else 1)
        np_proxy = math_module(numpy, made)
        cuda = Cuda()
        scope: dict = {"np": np_proxy, "numpy": np_proxy, "math": math_module(_math, made), "prange": range,
                       "_sr_range": Range, "_sr_sub": sub, "_sr_bind": made.bind, "complex": _complex}
        for local, q in names.items():
            short = q.rsplit(".", 1)[-1]
            if q == "numba.prange" or q.endswith(".prange"):
                scope[local] = range
            elif q in ("numpy", "math"):
                scope[local] = scope[q]
            elif q == "numba.cuda":
                scope[local] = cuda
            elif q.startswith("numba.") and _dtype(short) is not None:
                scope[local] = DType(_dtype(short))
            elif q == "numba":
                scope[local] = _Numba(np_proxy, cuda)
        for name, v in _module_constants(tree, names).items():
            scope.setdefault(name, v)
        try:
            exec(compile(src.code, path, "exec"), scope)  # the kernel's own source (the trace runs code)
        except SyntaxError as e:
            raise TraceError(f"the kernel's source could not be run: {e}") from None
        constants = _module_constants(tree, names)
        for f in tree.body:
            if isinstance(f, cst.FunctionDef) and f.name.value in _LOADED["stencils"]:
                scope[f.name.value] = _stencil(f, kernel_of(f, names), scope[f.name.value], constants, made, k)
        STATE.counter, saved = counter, STATE.sites
        STATE.sites = Sites(src.refs, src.loops)
        STATE.aliasing = Aliasing(src.sites, src.arrays, kernel,
                                  {a.name: a.dtype for a in args if isinstance(a, Array)})
        try:
            if kind == "cuda":
                grid, block = configuration(tree, names, kernel, params, sizes, defines or {}, launch or k.launch,
                                            shape_names)
                run_launch(scope[kernel], args, grid, block, src.refs, src.loops, kernel in src.generators)
            elif kind == "stencil":
                out = k.arrays.get("out")
                loc = (out.location.line, out.location.col) if out is not None and out.location else None
                scope[kernel](*args, _sr_loc=loc)
            elif kind == "vectorize":
                self._vectorized(scope[kernel], kdef, k, sizes, params, arrays)
            else:
                scope[kernel](*args)
        except TraceError:
            raise
        except RecursionError:
            raise TraceError("the kernel recursed too deeply") from None
        except Exception as e:
            raise TraceError(f"the kernel raised {type(e).__name__}: {e}") from None
        finally:
            STATE.counter, STATE.sites, STATE.aliasing = None, saved, None
        arrays += [a for a in made.arrays.values() if not a.onchip]
        return Trace(dict(counter.flops), dict(counter.special),
                     {a.name: a.trace() for a in arrays if not a.onchip})

    @staticmethod
    def _vectorized(fn, kdef, k, sizes, params, arrays) -> None:
        """`@vectorize`: the scalar function once per element of its inputs (n of them, the size
        `n`), each input element read and the result written to `out`, whose elements have the
        instance's types (its signature's, or its calls')."""
        n = sizes.get("n")
        if n is None:
            raise TraceError("give the number of elements of the ufunc's inputs (-D n=...)")
        inputs = []
        for name in params:
            a = Array(name, k.arrays[name].dtype if name in k.arrays else "fp64", (int(n),))
            arrays.append(a)
            inputs.append(a)
        out = Array("out", k.arrays["out"].dtype, (int(n),))
        arrays.append(out)
        for i in range(int(n)):
            STATE.sites.epoch += 1
            vals = [a.read(i, ("vectorize", a.name)) for a in inputs]
            out.write(i, fn(*vals), ("vectorize", "out"))


_LOADED: dict = {}  # the last file loaded: its front-end result, parse and rewritten source


def _stencil(fn, kdef, body, constants: dict, made, k):
    """The `@stencil` function `fn` (its rewritten body `body`) as Numba applies it."""
    import libcst as cst

    from ...frontends.common.lowering import Unsupported
    from ...frontends.python.stencil import infer, options
    from .stencil import Stencil

    try:
        opts = options(kdef)
    except Unsupported as e:
        raise TraceError(f"the stencil `{fn.name.value}`: {e}") from None
    cval = None
    if "cval" in kdef.options:
        code = cst.Module([]).code_for_node(kdef.options["cval"])
        try:
            cval = eval(code, {"__builtins__": {}}, dict(constants))  # a constant: `1.0`, `-2`, `C`
        except Exception:
            raise TraceError(f"the stencil `{fn.name.value}`: `cval={code}` is not a constant") from None

    def inferred(relative: set, ndim: int) -> list:
        try:
            return infer(fn, relative, ndim, constants)
        except Unsupported as e:
            raise TraceError(f"the stencil `{fn.name.value}`: {e}") from None

    params = [p.name.value for p in fn.params.params]
    # the output's type where no element is computed (no result to take it from): the analysis's
    dtypes = {n: a.dtype for n, a in k.arrays.items() if n == "out" or n.startswith(f"{fn.name.value}_out")}
    return Stencil(fn.name.value, body, params, opts.neighborhood, cval, opts.standard, inferred, made,
                   next(iter(dtypes.values()), None))


def _is_int(v) -> bool:
    try:
        int(str(v), 0)
    except ValueError:
        return False
    return True


def _dtype(short: str):
    from ...frontends.python.numba_types import dtype_name

    return dtype_name(short) if short not in ("int", "float", "bool") else None


class _Numba:
    """`import numba`: `numba.prange`, `numba.cuda`, `numba.float32`, ..."""

    prange = range

    def __init__(self, np_proxy, cuda):
        self._np, self.cuda = np_proxy, cuda

    def __getattr__(self, name):
        return getattr(self._np, name)


def _module_constants(module, names: dict) -> dict:
    """Module-level numbers the kernel reads as frozen globals: literals, and integer expressions
    folded as the front end folds them (`TPB = 2 * 8`, `N = 1 << 10`)."""
    import libcst as cst

    from ...frontends.python.cuda import host_value
    from ...frontends.python.frontend import float_constant

    out: dict = {}
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
                    name = s.targets[0].target.value
                    if isinstance(s.value, (cst.Integer, cst.Float)):
                        out[name] = s.value.evaluated_value
                        continue
                    v = host_value(s.value, out, names)
                    if isinstance(v, int):
                        out[name] = v
                    elif isinstance(float_constant(s.value, out), float):
                        out[name] = float_constant(s.value, out)
    return out
