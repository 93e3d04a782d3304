"""Numba CUDA: thread indices (`cuda.grid`, `cuda.threadIdx.x`, ...), the launch configuration from a
launch site in the same file (`kernel[blocks, threads](args)`), shared and local arrays, atomics.

The thread model is the CUDA C front end's (frontends/cuda.py): each thread dimension the kernel
reads is a pair of loops over blocks and threads when the block size is known, or one loop over
the global index when it is not; the grid stays a symbol assumed to cover the guards, so the
`if i < n:` idiom gives exactly n threads of work.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
import sympy

from ... import floors
from ...diagnostics import Location
from ...ir import LAUNCH_BLOCK, LAUNCH_GRID, Array, Loop, Ref, launch_size
from ..common.launch_config import DIMS, Launch, overridden, repeats
from ..common.lowering import Unsupported, thread_loops, thread_symbols
from ..common.tokens import integer_literal
from .kernels import qualified
from .numba_types import dtype_name, is_float
from .syntax import shape_names as named_shapes
from .values import PVal, float_val, int_val

_BUILTINS = ("threadIdx", "blockIdx", "blockDim", "gridDim")


# ---------------------------------------------------------------------------------------------
# Threads

class Threads:
    """The thread symbols of one CUDA kernel's lowering."""

    def __init__(self, low, launch: Launch, used: set):
        self.low = low
        self.launch = launch
        self.info: dict = {}
        for d in DIMS:
            if d not in used:
                continue
            k = DIMS.index(d)
            b, g = launch.block[k], launch.grid[k]
            B = sympy.Integer(b) if b else low.size_symbol(launch_size(LAUNCH_BLOCK, d), None, "launch (unknown)",
                                                          LAUNCH_BLOCK)
            G = launch.grid_expr[k]  # the grid in the kernel's sizes (the launch passes them), else a size
            if G is not None:
                for s in G.free_symbols:
                    low.size_symbol(s.name, origin="array shape" if "_shape" in s.name else "parameter")
            else:
                G = low.size_symbol(launch_size(LAUNCH_GRID, d), g, launch.origin or "launch (unknown)", LAUNCH_GRID)
            why = f"`cuda.threadIdx.{d}`/`cuda.blockIdx.{d}` alone needs the block size (give --block)"
            self.info[d] = thread_symbols(d, B, G, low, why)
        from types import SimpleNamespace

        # a launch dimension the kernel never indexes repeats the body (SR120), as in CUDA C
        self.repeats = repeats(SimpleNamespace(launch=launch, size_symbol=low.size_symbol, kernel=low.kernel), used)

    def builtin(self, what: str, d: str) -> PVal:
        info = self.info.get(d)
        k = DIMS.index(d)
        if what == "blockDim":
            b = self.launch.block[k]
            if info is not None:
                return int_val(info["B"])
            return int_val(b if b else self.low.size_symbol(launch_size(LAUNCH_BLOCK, d), None, "launch (unknown)",
                                                            LAUNCH_BLOCK))
        if what == "gridDim":
            if info is not None:
                return int_val(info["G"])
            return int_val(self.low.size_symbol(launch_size(LAUNCH_GRID, d), self.launch.grid[k],
                                                self.launch.origin or "launch (unknown)", LAUNCH_GRID))
        if info is None:
            return int_val(0, literal=True)
        return int_val(info["tx"] if what == "threadIdx" else info["bx"])

    def global_index(self, d: str) -> PVal:
        info = self.info[d]
        return int_val(info["g"] if "g" in info else info["bx"] * info["B"] + info["tx"])

    def combine(self, expr):
        """blockIdx*blockDim + threadIdx as the global thread index (unknown block size)."""
        if expr is None:
            return None
        for info in self.info.values():
            if "g" in info and expr.free_symbols & {info["bx"], info["tx"]}:
                expr = sympy.expand(expr.subs(info["bx"] * info["B"], info["g"] - info["tx"]))
        return expr

    def gridstride(self, start, step):
        """(dim, global index) when `range(start, n, step)` is a grid-stride loop."""
        if step is None or start is None:
            return None
        for d, info in self.info.items():
            if sympy.expand(step - info["B"] * info["G"]) != 0:
                continue
            glob = info["g"] if "g" in info else info["bx"] * info["B"] + info["tx"]
            offset = sympy.expand(self.combine(start) - glob)
            if not offset.free_symbols & {info.get("g"), info["bx"], info["tx"]}:
                return d, offset
        return None

    def wrap(self, body: list, location) -> list:
        """The kernel body inside its thread loops (a grid-stride loop consumes its dimension), and
        the repeats of the dimensions it never indexes."""
        out = thread_loops(body, self.info, location)
        for d, extent in reversed(self.repeats):
            var = sympy.Dummy(f"thread.{d}")
            out = [Loop(var, sympy.Integer(0), sympy.Lt(var, extent), 1, out, f"thread.{d}", location)]
        return out


def used_dims(fn: cst.FunctionDef, names: dict, functions: dict) -> set:
    """Thread dimensions the kernel (or a function of the file it calls) reads."""
    used: set = set()
    seen: set = set()

    class Visitor(cst.CSTVisitor):
        def visit_Attribute(self, node) -> None:
            q = qualified(node, names)
            parts = q.split(".")
            if len(parts) == 4 and parts[:2] == ["numba", "cuda"] and parts[2] in ("threadIdx", "blockIdx"):
                used.add(parts[3])

        def visit_Call(self, node) -> None:
            q = qualified(node.func, names) if isinstance(node.func, (cst.Name, cst.Attribute)) else ""
            if q in ("numba.cuda.grid", "numba.cuda.gridsize") and node.args:
                arg = node.args[0].value
                n = int(arg.value) if isinstance(arg, cst.Integer) else 1
                used.update(DIMS[:n])
            if isinstance(node.func, cst.Name) and node.func.value in functions and node.func.value not in seen:
                seen.add(node.func.value)
                functions[node.func.value].visit(self)

    fn.visit(Visitor())
    return used


# ---------------------------------------------------------------------------------------------
# cuda.* in kernels

def attribute(low, q: str, node):
    parts = q.split(".")
    if len(parts) == 4 and parts[:2] == ["numba", "cuda"] and parts[2] in _BUILTINS and parts[3] in DIMS:
        if low.threads is None:
            raise Unsupported(f"`cuda.{parts[2]}.{parts[3]}` outside a CUDA kernel", node)
        return low.threads.builtin(parts[2], parts[3])
    if q == "numba.cuda.warpsize":
        return int_val(32, literal=True)
    return None


def call(low, q: str, node, args, kwargs, acc):
    if not q.startswith("numba.cuda."):
        return None
    what = q[len("numba.cuda."):]
    if what in ("grid", "gridsize"):
        if low.threads is None:
            raise Unsupported(f"`cuda.{what}` outside a CUDA kernel", node)
        n = low.value(args[0], acc).expr if args else None
        if n is None or not n.is_Integer or not 1 <= int(n) <= 3:
            raise Unsupported(f"`cuda.{what}` of a non-constant dimension count", node)
        if what == "grid":
            items = tuple(low.threads.global_index(d) for d in DIMS[:int(n)])
        else:
            items = tuple(int_val(low.threads.info[d]["B"] * low.threads.info[d]["G"]) for d in DIMS[:int(n)])
        return items[0] if int(n) == 1 else PVal("tuple", items=items)
    if what in ("syncthreads", "syncwarp", "threadfence", "threadfence_block", "threadfence_system"):
        return PVal("none")
    if what in ("syncthreads_count", "syncthreads_and", "syncthreads_or"):
        low.value(args[0], acc)
        return int_val(None, f"`cuda.{what}`")
    if what.startswith("atomic."):
        return _atomic(low, what.split(".", 1)[1], node, args, acc)
    if what == "fma":
        vals = [low.value(a, acc) for a in args]
        t = max((v.dtype for v in vals if v.kind == "float"), default="fp64", key=("fp16", "fp32", "fp64").index)
        acc.flop(t, 2)
        return float_val(t)
    if what in ("shared.array", "local.array", "const.array_like"):
        raise Unsupported(f"`cuda.{what}` outside an assignment to a name", node)
    if what in ("to_device", "device_array", "device_array_like"):
        raise Unsupported(f"`cuda.{what}` (host code) inside a kernel", node)
    return None


def _atomic(low, op: str, node, args, acc) -> PVal:
    """`cuda.atomic.add(ary, idx, val)`: a read and a write of the element, and one FLOP for a float
    add or sub (max/min/exch/cas move data without arithmetic)."""
    if len(args) < 3:
        raise Unsupported(f"`cuda.atomic.{op}` with {len(args)} arguments", node)
    base = low.expr(args[0], acc)
    if base.kind != "array":
        raise Unsupported(f"`cuda.atomic.{op}` on something that is not an array", node)
    index = low.value(args[1], acc)
    idx = list(index.items) if index.kind == "tuple" else [index]
    element = low.subscript(base, idx, node)
    low.value(args[2], acc)
    if len(args) > 3:
        low.value(args[3], acc)
    array, index_t, why = element.element
    loc = low.ctx.loc(node)
    acc.refs.append(Ref(array, index_t, "read", loc, why))
    if op in ("add", "sub", "inc", "dec") and is_float(element.dtype):
        acc.flop(element.dtype)
    acc.refs.append(Ref(array, index_t, "write", loc, why))
    return float_val(element.dtype) if is_float(element.dtype) else int_val(None, f"`cuda.atomic.{op}`")


def on_chip_array(low, q: str, name: str, args, kwargs, node):
    """`cuda.shared.array(shape, dtype)` (on-chip, no DRAM traffic), `cuda.local.array` (registers)
    and `cuda.const.array_like(host)` (constant memory, DRAM): a new kernel array."""
    what = q[len("numba.cuda."):]
    space = {"shared.array": "shared", "local.array": "local", "const.array_like": "constant"}[what]
    shape_node = kwargs.get("shape", args[0] if args else None)
    dtype_node = kwargs.get("dtype", args[1] if len(args) > 1 else None)
    dims: tuple = ()
    if shape_node is not None and space != "constant":
        shape = low.value(shape_node, low.acc_for_dims())
        items = shape.items if shape.kind == "tuple" else (shape,)
        dims = tuple(v.expr for v in items)
    dtype = dtype_name(_code(low, dtype_node)) if dtype_node is not None else "fp64"
    if dtype is None:
        raise Unsupported(f"`cuda.{what}` of an unknown dtype", node)
    if space == "constant":
        dims = (None,)
    arr = low.new_array(name, dtype, dims, space, node)
    return PVal("array", dtype, array=arr)


def _code(low, node) -> str:
    return qualified(node, low.ctx.names) or cst.Module([]).code_for_node(node)


# ---------------------------------------------------------------------------------------------
# Launch sites: `kernel[blocks, threads](args)` in the file's host code

@dataclass
class Site:
    grid: tuple
    block: tuple
    args: list  # int value (or None) per positional argument
    shapes: list  # tuple of int (or None) per positional argument: a host array's shape
    location: Location
    arg_names: list = field(default_factory=list)  # the host variable passed per argument (or None)
    raw_grid: object = None  # the grid as folded (symbolic in a formula pass)
    grid_expr: tuple = (None, None, None)  # the grid in the kernel's sizes, where its arguments decide it


def launch_sites(module: cst.Module, ctx, kernels: set, overrides: dict | None = None) -> dict:
    """The first launch site of each CUDA kernel named in `kernels` (by the bare name it is launched
    by), folded as `all_launch_sites` folds them; without `overrides`, with its grid formula."""
    first: dict = {}
    for name, site in all_launch_sites(module, ctx, kernels, overrides):
        first.setdefault(name, site)
    if overrides is None:
        for name, site in first.items():
            site.grid_expr = _grid_formula(module, ctx, ctx.functions.get(name), name, site)
    return first


def all_launch_sites(module: cst.Module, ctx, kernels: set, overrides: dict | None = None) -> list:
    """[(name, Site)]: every launch `k[blocks, threads](args)` of a kernel named in `kernels`, in source
    order, with host integers folded: module and function assignments of integer expressions
    (`threads = 256`, `blocks = (n + threads - 1) // threads`) and array shapes (`x = np.ones(n,
    dtype=np.float32)`, `d_x = cuda.to_device(x)`).  `overrides` gives host variables other values
    (the trace folds the launch again at its own sizes).  No grid formulas (`site_for` adds its own)."""
    given: dict = overrides or {}
    envs: list = [{}]  # module scope, then the function being visited: name -> int | tuple | None
    sites: list = []

    class Visitor(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            if node.name.value in kernels:
                return False
            envs.append(dict(envs[0]))
            return True

        def leave_FunctionDef(self, node) -> None:
            if node.name.value not in kernels:
                envs.pop()

        def visit_Assign(self, node) -> None:
            env = envs[-1]
            value = host_value(node.value, env, ctx.names)
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    name = t.target.value
                    if name in given:
                        env[name] = given[name]
                    elif name in env and env[name] != value:
                        env[name] = None  # assigned different values: unknown
                    else:
                        env[name] = value

        def visit_Call(self, node) -> None:
            env = envs[-1]
            name, config = _launch_config(node.func, kernels)
            if name is not None:
                raw = host_value(config[0], env, ctx.names) if config[0] is not None else None
                grid = _dims(raw)
                block = _dims(host_value(config[1], env, ctx.names) if config[1] is not None else None)
                if block[0] == 0:  # forall's tpb=0: Numba picks the block
                    block = (None, None, None)
                args = [host_value(a.value, env, ctx.names) for a in node.args]
                sites.append((name, Site(grid, block, [a if isinstance(a, int) else None for a in args],
                                         [a[1] if isinstance(a, tuple) and a[:1] == ("shape",) else None
                                          for a in args],
                                         arg_names=[_passed(a.value, ctx.names) for a in node.args
                                                    if a.keyword is None],
                                         raw_grid=raw, location=ctx.loc(node))))

    module.visit(Visitor())
    return sites


def _launch_config(f, kernels: set) -> tuple:
    """(kernel name, [grid node, block node]) of a launch's callee: `k[grid, block]`,
    `k.configure(grid, block)` (the same launch spelled as a call), `k.forall(n)` / `k.forall(n, tpb)`
    (n threads, blocks of tpb or a size Numba picks: grid and block unknown, the grid covering the
    guards); (None, None) for any other callee."""
    if isinstance(f, cst.Subscript) and isinstance(f.value, cst.Name) and f.value.value in kernels:
        config = [e.slice.value for e in f.slice if isinstance(e.slice, cst.Index)]
        return (f.value.value, config[:2]) if len(config) >= 2 else (None, None)
    if isinstance(f, cst.Call) and isinstance(f.func, cst.Attribute) and isinstance(f.func.value, cst.Name) \
            and f.func.value.value in kernels:
        name, attr = f.func.value.value, f.func.attr.value
        pos = [a.value for a in f.args if a.keyword is None]
        if attr == "configure" and len(pos) >= 2:
            return name, pos[:2]
        if attr == "forall" and pos:
            tpb = pos[1] if len(pos) > 1 else next((a.value for a in f.args if a.keyword is not None
                                                     and a.keyword.value == "tpb"), None)
            return name, [None, tpb]
    return None, None


def site_for(ctx, kdef, made_by: list, own: list):
    """The launch site a kernel's instance is analyzed under: the first launch among the calls that
    make the instance (`made_by`: their locations, the calls with its own type set), else among the
    kernel's own calls (`own`: the launches callsites.py resolves to this very kernel, in its scope),
    else, for a kernel whose name no other kernel of the file shares, the file's first launch by that
    name; None when there is none.  Its grid formula is taken in this kernel's own parameters."""
    found = None
    for where in (*made_by, *own):
        if where in ctx.launch_at:
            found = ctx.launch_at[where]
            break
    if found is None:
        return ctx.launches.get(kdef.bound) if kdef.bound not in ctx.shared_names else None
    module, name, site = found
    if site.grid_expr == (None, None, None):
        site.grid_expr = _grid_formula(module, ctx, kdef.node, name, site)
    return site


def _passed(node, names: dict):
    """The host variable an argument passes (`x`, `cuda.to_device(x)`), or None."""
    while isinstance(node, cst.Call) and qualified(node.func, names) == "numba.cuda.to_device" and node.args:
        node = node.args[0].value
    return node.value if isinstance(node, cst.Name) else None


def _grid_formula(module, ctx, fn, name: str, site: Site) -> tuple:
    """The launch's grid in the sizes of the kernel `fn`: the host folded again with each variable
    passed as an integer argument standing for that parameter, and each array passed for its shape
    sizes (`(n + 255) // 256` with `n` passed as `n`), as the CUDA C front end does; None per
    dimension the arguments do not decide."""
    if fn is None:
        return (None, None, None)
    params = [p.name.value for p in fn.params.params]
    shape_names = named_shapes(fn)
    given: dict = {}
    for p, var, v, shape in zip(params, site.arg_names, site.args, site.shapes, strict=False):
        if var is None:
            continue
        if v is not None:
            given[var] = sympy.Symbol(p)
        elif shape:
            given[var] = ("shape", tuple(sympy.Symbol(shape_names.get((p, k), f"{p}_shape{k}"))
                                         for k in range(len(shape))))
    if not given:
        return (None, None, None)
    again = next((s for _, s in all_launch_sites(module, ctx, {name}, given) if s.location == site.location), None)
    raw = again.raw_grid if again is not None else None
    items = list(raw[1]) if isinstance(raw, tuple) and raw[:1] == ("tuple",) else [raw]
    items = (items + [1, 1, 1])[:3]
    out = []
    for x in items:
        e = sympy.sympify(x) if isinstance(x, (int, sympy.Basic)) else None
        out.append(e if e is not None and e.free_symbols else None)
    return tuple(out)


def _dims(v) -> tuple:
    if isinstance(v, int):
        return (v, 1, 1)
    if isinstance(v, tuple) and v[:1] == ("tuple",):
        items = list(v[1]) + [1, 1, 1]
        return tuple(x if isinstance(x, int) else None for x in items[:3])
    return (None, None, None)


def host_value(node, env: dict, names: dict):
    """An int, ("tuple", items), ("shape", dims) for an array, or None: host code folded."""
    if isinstance(node, cst.Integer):
        return integer_literal(node.value)
    if isinstance(node, cst.Name):
        return env.get(node.value)
    if isinstance(node, cst.Tuple):
        return ("tuple", tuple(host_value(e.value, env, names) for e in node.elements))
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        v = host_value(node.expression, env, names)
        return -v if isinstance(v, int) else None
    if isinstance(node, cst.BinaryOperation):
        a, b = host_value(node.left, env, names), host_value(node.right, env, names)
        if isinstance(a, sympy.Basic) or isinstance(b, sympy.Basic):
            return _symbolic(type(node.operator), a, b)
        if not isinstance(a, int) or not isinstance(b, int):
            return None
        op = type(node.operator)
        try:
            return {cst.Add: lambda: a + b, cst.Subtract: lambda: a - b, cst.Multiply: lambda: a * b,
                    cst.FloorDivide: lambda: a // b, cst.Modulo: lambda: a % b, cst.LeftShift: lambda: a << b,
                    cst.RightShift: lambda: a >> b, cst.Power: lambda: a ** b if 0 <= b < 64 else None,
                    cst.Divide: lambda: ("div", a, b)}.get(op, lambda: None)()
        except (ZeroDivisionError, ValueError):
            return None
    if isinstance(node, cst.Subscript):
        base = host_value(node.value, env, names)
        elems = list(node.slice)
        if base is not None and isinstance(base, tuple) and len(elems) == 1 and isinstance(elems[0].slice, cst.Index):
            k = host_value(elems[0].slice.value, env, names)
            items = base[1] if base[0] in ("tuple", "shape") else ()
            if isinstance(k, int) and -len(items) <= k < len(items):
                return items[k]
        return None
    if isinstance(node, cst.Attribute):
        base = host_value(node.value, env, names)
        if isinstance(base, tuple) and base[0] == "shape":
            if node.attr.value == "shape":
                return ("tuple", base[1])
            if node.attr.value == "size" and all(isinstance(x, (int, sympy.Basic)) for x in base[1]):
                out = 1
                for x in base[1]:
                    out *= x
                return out
        return None
    if isinstance(node, cst.Call):
        q = qualified(node.func, names) if isinstance(node.func, (cst.Name, cst.Attribute)) else ""
        args = [a.value for a in node.args if a.keyword is None]
        short = q.rsplit(".", 1)[-1]
        if q in ("int", "math.ceil", "numpy.ceil", "math.floor") and args:
            v = host_value(args[0], env, names)
            if isinstance(v, tuple) and v[0] == "div":
                _, a, b = v
                if b == 0:
                    return None
                if isinstance(a, sympy.Basic) or isinstance(b, sympy.Basic):
                    if not isinstance(b, int) or b <= 0:
                        return None
                    up = b - 1 if q in ("math.ceil", "numpy.ceil") else 0  # ceil(a/b) = floor((a+b-1)/b)
                    return floors.floor((sympy.sympify(a) + up) / b)
                return -(-a // b) if q in ("math.ceil", "numpy.ceil") else a // b
            return v if isinstance(v, (int, sympy.Basic)) else None
        if q == "len" and args:
            v = host_value(args[0], env, names)
            return v[1][0] if isinstance(v, tuple) and v[0] == "shape" and v[1] else None
        if q.startswith("numpy.") and short in ("ones", "zeros", "empty", "full", "arange") and args:
            v = host_value(args[0], env, names)
            if isinstance(v, int):
                return ("shape", (v,))
            if isinstance(v, tuple) and v[0] == "tuple":
                return ("shape", v[1])
            return None
        if q.startswith("numpy.random.") and args:
            vals = [host_value(a, env, names) for a in args]
            if len(vals) == 1 and isinstance(vals[0], tuple) and vals[0][0] == "tuple":
                return ("shape", vals[0][1])
            return ("shape", tuple(vals)) if all(isinstance(v, int) for v in vals) else None
        if q.startswith("numpy.") and short in ("ones_like", "zeros_like", "empty_like", "copy", "ascontiguousarray"):
            return host_value(args[0], env, names) if args else None
        if q in ("numba.cuda.to_device", "numba.cuda.device_array_like") and args:
            return host_value(args[0], env, names)
        if q == "numba.cuda.device_array" and args:
            v = host_value(args[0], env, names)
            return ("shape", (v,)) if isinstance(v, int) else ("shape", v[1]) if isinstance(v, tuple) else None
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("astype", "copy", "copy_to_host"):
            return host_value(node.func.value, env, names)
    return None


def _symbolic(op, a, b):
    """Host arithmetic on a size (a formula pass): + - * // % and / (for math.ceil) only."""
    if not isinstance(a, (int, sympy.Basic)) or not isinstance(b, (int, sympy.Basic)):
        return None
    a, b = sympy.sympify(a), sympy.sympify(b)
    if op is cst.Add:
        return a + b
    if op is cst.Subtract:
        return a - b
    if op is cst.Multiply:
        return a * b
    if op is cst.FloorDivide and b.is_Integer and b > 0:
        return floors.floor(a / b)
    if op is cst.Divide and b.is_Integer and b > 0:
        return ("div", a, b)
    return None


def launch_of(name: str, site, overrides: dict) -> Launch:
    """The launch a kernel is analyzed under: its launch site's, with --grid/--block over it (a given
    grid replaces the site's grid formula, as in CUDA C)."""
    base = None
    if site is not None:
        base = Launch(site.grid, site.block, f"launch at {site.location}", site.grid_expr, site.location)
    return overridden(base, overrides, (None, name))


__all__ = ["Threads", "used_dims", "attribute", "call", "on_chip_array", "launch_sites", "all_launch_sites", "site_for",
           "launch_of", "Array"]
