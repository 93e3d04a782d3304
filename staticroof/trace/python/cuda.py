"""Numba CUDA kernels in the trace: every block and thread of the launch run on the CPU, one after
another, with `cuda.threadIdx/blockIdx/blockDim/gridDim`, `cuda.grid`, `cuda.gridsize`,
`cuda.shared.array` (one per block, on chip: no DRAM traffic), `cuda.local.array` (one per thread,
registers) and `cuda.atomic.*` (a read, the operation, a write of the element).

Barriers keep their meaning.  Running each thread to its end before the next starts (what the C
trace does with `__syncthreads()`) gives wrong values whenever a thread reads what another wrote
before the barrier (a tile staged in shared memory), and Numba's own simulator
(NUMBA_ENABLE_CUDASIM) runs a Python thread per CUDA thread with real barriers but hands the kernel
NumPy arrays of its own (the recording arrays would be copied away), needs numba installed and
interleaves threads unpredictably.  Here a kernel that reaches a barrier is rewritten into a
generator (rewrite.py: `cuda.syncthreads()` is a `yield`): the threads of a block are run
in turn up to their next barrier, then all of them on to the next one, which is exactly the
barrier's semantics, serially and deterministically.  Registers are per thread: each thread has
its own register state (runtime.Sites), so the order in which threads interleave does not
change the loads and stores counted.
"""

from __future__ import annotations

import itertools
from collections import namedtuple

from .. import TraceError
from .runtime import STATE, Array, Num, Sites, dtype_of, value

Dim3 = namedtuple("Dim3", "x y z")


class Thread:
    """The CUDA built-ins of the thread now running, and its block's shared arrays (by where they
    are made)."""

    def __init__(self):
        self.threadIdx = self.blockIdx = self.blockDim = self.gridDim = Dim3(0, 0, 0)
        self.shared: dict = {}


CURRENT = Thread()


class _Shared:
    def array(self, shape=None, dtype=None, _sr_loc=None):
        arrays = CURRENT.shared
        got = arrays.get(_sr_loc)
        if got is None:
            got = arrays[_sr_loc] = _make("shared", shape, dtype)
        return got


class _Local:
    def array(self, shape=None, dtype=None, _sr_loc=None):
        return _make("local", shape, dtype)


class _Const:
    def array_like(self, *args, **kwargs):
        raise TraceError("`cuda.const.array_like` (constant memory filled from the host) is not traced")


def _make(space: str, shape, dtype) -> Array:
    from .mathcalls import dtype_arg

    dims = tuple(int(value(s)) for s in shape) if isinstance(shape, (tuple, list)) else (int(value(shape)),)
    return Array(f"<{space}>", dtype_arg(dtype) or "fp64", dims, onchip=True)


class _Atomic:
    """`cuda.atomic.add(ary, idx, val)`: the element read, the operation (one FLOP for a float
    add/sub/inc/dec, at the array's element type: the value is converted to it), the element
    written; the old value returned."""

    def __getattr__(self, op):
        if op.startswith("_"):
            raise AttributeError(op)

        def atomic(ary, idx, *vals, _sr_key=None):
            from ...frontends.python.numba_types import is_float

            if not isinstance(ary, Array):
                raise TraceError(f"`cuda.atomic.{op}` on something that is not an array")
            flat = ary.flat(idx if isinstance(idx, tuple) else (idx,))
            old = ary.read(flat, _sr_key)
            v = value(vals[-1]) if vals else 1
            o = old.v
            new = {"add": lambda: o + v, "sub": lambda: o - v, "max": lambda: max(o, v), "min": lambda: min(o, v),
                   "exch": lambda: v, "inc": lambda: 0 if o >= v else o + 1,
                   "dec": lambda: v if o == 0 or o > v else o - 1,
                   "and_": lambda: int(o) & int(v), "or_": lambda: int(o) | int(v), "xor": lambda: int(o) ^ int(v),
                   "cas": lambda: v if o == value(vals[0]) else o, "compare_and_swap": lambda: v if o == value(
                       vals[0]) else o}.get(op)
            if new is None:
                raise TraceError(f"`cuda.atomic.{op}` is not traced")
            if op in ("add", "sub", "inc", "dec") and is_float(ary.dtype):
                STATE.counter.flop(ary.dtype)
            ary.write(flat, new(), _sr_key)
            return old

        return atomic


class Cuda:
    """`numba.cuda` as a traced kernel sees it."""

    shared = _Shared()
    local = _Local()
    const = _Const()
    atomic = _Atomic()
    warpsize = 32

    @property
    def threadIdx(self):
        return CURRENT.threadIdx

    @property
    def blockIdx(self):
        return CURRENT.blockIdx

    @property
    def blockDim(self):
        return CURRENT.blockDim

    @property
    def gridDim(self):
        return CURRENT.gridDim

    @property
    def laneid(self):
        return CURRENT.threadIdx.x % 32

    def grid(self, n):
        t, b, d = CURRENT.threadIdx, CURRENT.blockIdx, CURRENT.blockDim
        out = tuple(b[k] * d[k] + t[k] for k in range(int(n)))
        return out[0] if int(n) == 1 else out

    def gridsize(self, n):
        d, g = CURRENT.blockDim, CURRENT.gridDim
        out = tuple(d[k] * g[k] for k in range(int(n)))
        return out[0] if int(n) == 1 else out

    def fma(self, a, b, c):
        t = max((dtype_of(x) for x in (a, b, c) if dtype_of(x).startswith("fp")), default="fp64",
                key=("fp16", "fp32", "fp64").index)
        STATE.counter.flop(t, 2)
        return Num(value(a) * value(b) + value(c), t)

    def threadfence(self):
        return None

    threadfence_block = threadfence_system = threadfence

    def syncthreads(self, *args):  # reached only through an alias the rewrite did not see
        raise TraceError("`cuda.syncthreads` reached through an alias: barriers must be called as "
                         "`cuda.syncthreads()` to be traced")

    syncwarp = syncthreads_count = syncthreads_and = syncthreads_or = syncthreads

    def jit(self, *args, **kwargs):
        if args and callable(args[0]) and not kwargs:
            return args[0]
        return lambda f: f

    def __getattr__(self, name):
        raise TraceError(f"`cuda.{name}` is not traced")


def launch(fn, args: list, grid: tuple, block: tuple, refs: dict, loops: dict, generator: bool) -> None:
    """Every block of the grid, every thread of the block; the threads of a generator kernel (one
    that reaches a barrier) advanced together from barrier to barrier."""
    gdim, bdim = Dim3(*grid), Dim3(*block)
    threads = [Dim3(x, y, z) for z, y, x in itertools.product(range(block[2]), range(block[1]), range(block[0]))]
    saved = STATE.sites
    try:
        for bz, by, bx in itertools.product(range(grid[2]), range(grid[1]), range(grid[0])):
            CURRENT.blockIdx, CURRENT.blockDim, CURRENT.gridDim = Dim3(bx, by, bz), bdim, gdim
            CURRENT.shared = {}
            if not generator:
                for t in threads:
                    CURRENT.threadIdx = t
                    STATE.sites = Sites(refs, loops)
                    fn(*args)
                continue
            live = []
            for t in threads:
                CURRENT.threadIdx = t
                live.append([t, Sites(refs, loops), fn(*args), None])
            while live:
                arrived = []
                for th in live:
                    CURRENT.threadIdx, STATE.sites = th[0], th[1]
                    try:
                        arrived.append((th, th[2].send(th[3])))
                    except StopIteration:
                        pass
                _release(arrived)
                live = [th for th, _ in arrived]
    finally:
        STATE.sites = saved


def _release(arrived: list) -> None:
    """The values the barrier returns: `syncthreads_count` the number of threads whose predicate
    holds, `_and`/`_or` whether all/any does."""
    preds = [bool(value(req[1])) for _, req in arrived if isinstance(req, tuple) and len(req) > 1]
    for th, req in arrived:
        kind = req[0] if isinstance(req, tuple) else ""
        th[3] = {"count": sum(preds), "and": int(all(preds)), "or": int(any(preds))}.get(kind)


# ---------------------------------------------------------------------------------------------
# The launch configuration at the traced sizes

def configuration(module, names: dict, kernel: str, params: list, sizes: dict, defines: dict, launch: dict,
                  shape_names: dict) -> tuple:
    """(grid, block) as three numbers each: `-D gridDim_x=...` first, then --grid/--block, then the
    file's launch site folded again at the traced sizes (the host variables passed as the kernel's
    arguments take their values), then the analysis's own values."""
    from ...frontends.python.cuda import all_launch_sites

    launch = launch or {}
    site_grid = site_block = (None, None, None)
    given = "--grid" in (launch.get("origin") or "")
    ctx = _Ctx(names, module)
    at = tuple(launch["site"]) if launch.get("site") else None  # the analysis's own launch of this instance
    overrides = _host_overrides(module, ctx, kernel, params, sizes, shape_names, at)
    if overrides is not None:
        sites = [s for _, s in all_launch_sites(module, ctx, {kernel}, overrides)]
        site = next((s for s in sites if s.location == at), sites[0] if sites and at is None else None)
        if site is not None:
            site_grid, site_block = site.grid, site.block
    grid, block = [], []
    for k, d in enumerate("xyz"):
        g = defines.get(f"gridDim_{d}")
        g = int(g) if g is not None else None
        if g is None and given:
            g = (launch.get("grid") or (None,) * 3)[k]
        if g is None:
            g = site_grid[k]
        if g is None:
            g = sizes.get(f"gridDim_{d}")
        if g is None:
            g = (launch.get("grid") or (None,) * 3)[k]
        b = (launch.get("block") or (None,) * 3)[k]
        if b is None:
            b = site_block[k]
        if b is None:
            b = sizes.get(f"blockDim_{d}")
        grid.append(g)
        block.append(b)
    for k in (1, 2):  # a dimension no one states: one block (thread) along it
        grid[k] = 1 if grid[k] is None else grid[k]
        block[k] = 1 if block[k] is None else block[k]
    if None in grid or None in block:
        raise TraceError(f"`{kernel}`: the launch configuration is unknown; add a launch site or give --grid/--block "
                         "(or -D gridDim_x=...) before tracing")
    return tuple(int(g or 0) for g in grid), tuple(int(b or 0) for b in block)


class _Ctx:
    """What all_launch_sites reads of a file: its imports, and each launch's (line, column)."""

    def __init__(self, names, module):
        from libcst.metadata import MetadataWrapper, PositionProvider

        self.names = names
        self.positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    def loc(self, node):
        r = self.positions.get(node)
        return (r.start.line, r.start.column + 1) if r is not None else None


def _host_overrides(module, ctx: _Ctx, kernel: str, params: list, sizes: dict, shape_names: dict, at=None):
    """Host variable -> its value at the traced sizes, for each variable the launch of `kernel` at
    `at` (line, column; None: the file's first launch of it) passes as an argument (an integer
    parameter's size, an array's shape), or None when the file has no such launch."""
    import libcst as cst

    from ...frontends.python.kernels import qualified

    names = ctx.names
    found: list = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node) -> None:
            f = node.func
            if (not found and isinstance(f, cst.Subscript) and isinstance(f.value, cst.Name)
                    and f.value.value == kernel and (at is None or ctx.loc(node) == at)):
                found.append(node)

    module.visit(V())
    if not found:
        return None
    out: dict = {}
    for p, arg in zip(params, [a.value for a in found[0].args if a.keyword is None], strict=False):
        while isinstance(arg, cst.Call) and qualified(arg.func, names) in ("numba.cuda.to_device",) and arg.args:
            arg = arg.args[0].value
        if not isinstance(arg, cst.Name):
            continue
        if sizes.get(p) is not None:
            out[arg.value] = int(sizes[p])
            continue
        dims = []
        for d in range(4):
            name = shape_names.get((p, d), f"{p}_shape{d}")
            if sizes.get(name) is None:
                break
            dims.append(int(sizes[name]))
        if dims:
            out[arg.value] = ("shape", tuple(dims))
    return out
