"""CUDA front end: `.cu` files to the same loop IR as C.

pycparser parses C, not CUDA C++.  The route (measured on real files before it was built):

1. preprocess in-process with CUDA's predefined macros and staticroof's stub headers;
2. tokenize, keeping each token's file:line:col, and split the file at top level (namespaces and
   `extern "C"` blocks are transparent);
3. rewrite (source.py) each `__global__`/`__device__` function's C++ into C on tokens (qualifiers removed,
   `__shared__` kept as a storage class, `static_cast<T>(e)`, `A::B`, references, default
   arguments, `constexpr`, `auto`, template headers) and parse it on its own, so one unsupported
   construct costs one function;
4. lower with the C lowering plus the GPU execution model: the launch grid becomes parallel loops
   over blockIdx/threadIdx, the global-index idiom `blockIdx.x*blockDim.x + threadIdx.x` becomes
   one thread index, grid-stride loops cover their range once, `__shared__` arrays are on-chip;
5. launch sites `k<<<grid, block>>>(...)` in host code give the launch configuration, template
   arguments and integer arguments; a template kernel is lowered once per instantiation the file
   makes (see templates.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import sympy
from pycparser import c_ast

from ...diagnostics import Diagnostic, Location
from ...ir import LAUNCH_BLOCK, LAUNCH_GRID, Array, Guard, Kernel, Loop, launch_size, walk
from ..c import outputs, structs
from ..c.frontend import FunctionLowering, TranslationUnit
from ..c.parse import parse_translation_unit
from ..c.types import FLOAT, INT, VOID, CType, arith
from ..c.values import Val, Var, loop_step, node_location, node_location_or_file, parameters
from ..common.launch_config import DIMS, Launch, repeats
from ..common.lowering import Acc, FrontendResult, Unsupported, thread_loops, thread_symbols
from ..common.predefined import CUDA_MACROS  # what nvcc predefines (its device pass for sm_80)
from . import (
    blockbounds as BB,
    classes as CL,
    overloads as OV,
    radix as RX,
    strided as ST,
    templates as T,
    textures as TX,
    warps as WP,
    wmma as WM,
)
from .calls import HANDLERS as CXX_CALLS, inline_call
from .grammar import table
from .headers import template_params
from .launch import LaunchSite, launch_for, launch_notes
from .source import cuda_source
from .to_c import builtin_types
from .toplevel import inside, line_ranges

# ---------------------------------------------------------------------------------------------
# The GPU execution model in the lowering


@dataclass(frozen=True)
class Model:
    """How a kernel's threads are lowered: the global-index model (default), the split model with
    its block-stride loops (strided.py), or the global index as mixed-radix digits (radix.py)."""

    split: bool = False
    strided: bool = False
    plan: RX.Plan | None = None
    gridstride: bool = True  # a grid-stride loop at the top consumes its thread dimension


class CudaLowering(ST.StridedLoops, CL.ClassLowering, FunctionLowering):
    """The C lowering plus CUDA's builtins, memory spaces and thread loops."""

    def __init__(self, tu, kernel, fn, launch: Launch, tparams: dict, constants: set, stack=(),
                 bindings=None, gscope=None):
        self.launch = launch
        self.tparams = tparams
        self.constants = constants
        self.threads: dict = {}  # dim -> dict of symbols
        self.model = Model()  # how the threads are lowered (see _lower_best)
        # shared with the lowerings of inlined calls: what the kernel did that another model may read
        # better ("opaque": a thread index alone, "division": an integer divided by a size), the
        # sizes its global index is compared with (radix.py's plans), its strided loops (strided.py)
        self.seen: set = set()
        self.radix_bounds: list = []  # (dim, size product, "g" or "bx": what is compared with it)
        self.strided: list = []  # (Guard, owner symbol, reading holds)
        self.warp_sizes: set = set()  # (dim, c): blocks of whole c-thread warps relied on (warps.py)
        self.active: tuple = (fn,)  # the definitions being lowered, caller first (for overloads' recursion)
        self.launching: Launch | None = None  # the launch of a kernel this one launches (device_launch)
        self.launched = False  # a kernel launched from a kernel: its body inside its own thread loops
        super().__init__(tu, kernel, fn, stack, bindings, gscope)

    def sub_lowering(self, callee, bindings):
        if self.launching is not None:  # a kernel launched from this one: its own threads (device_launch)
            child = CudaLowering(self.tu, self.kernel, callee, self.launching, {}, self.constants, self.stack,
                                 bindings, self.gscope)
            child.loop_syms = set(self.loop_syms)
            child.opaque = self.opaque
            child.folded = self.folded
            child.seen = self.seen
            child.launched = True
            child.setup_threads()
            return child
        sub = CudaLowering(self.tu, self.kernel, callee, self.launch, self.tparams, self.constants,
                           self.stack, bindings, self.gscope)
        sub.loop_syms = set(self.loop_syms)
        sub.opaque = self.opaque
        sub.folded = self.folded
        sub.threads = self.threads
        sub.model = self.model
        sub.seen = self.seen
        sub.radix_bounds = self.radix_bounds
        sub.strided = self.strided
        sub.warp_sizes = self.warp_sizes
        sub.active = self.active + (callee,)
        return sub

    def callee(self, name, node, args, vals):
        """An overloaded name: the definition C++ overload resolution picks (overloads.py)."""
        defs = getattr(self.tu, "overloads", {}).get(name)
        return OV.resolve(self, name, defs, args, vals, node) if defs else super().callee(name, node, args, vals)

    def recursive_call(self, name, callee) -> bool:
        if name in getattr(self.tu, "overloads", {}):  # `sq(float)` may call `sq(double)`: not recursion
            return any(f is callee for f in self.active)
        return super().recursive_call(name, callee)

    def _inline(self, name, node, args, acc):
        """A call of a template __device__ function: its type parameters deduced from the arguments."""
        aliases = self.tu.template_aliases.get(name)
        if not aliases or name in self.stack or name in self.tu.recursive:
            return super()._inline(name, node, args, acc)
        saved = T.bind_callee(self, self.tu.funcs[name], args, aliases, T.explicit_types(self, node, name, aliases))
        try:
            v = super()._inline(name, node, args, acc)
            ret = self.tu.types.resolve(self.tu.funcs[name].decl.type.type)  # `T madd(...)` returns T
            return replace(v, ctype=ret) if ret.kind in ("float", "int", "vector") else v
        finally:
            self.tu.types.builtin.update(saved)

    # -- thread symbols ---------------------------------------------------------------------
    def setup_threads(self):
        used = _builtin_dims(self.fn, self.tu.funcs, getattr(self.tu, "overloads", {}))
        self.repeats = repeats(self, used)
        for d in DIMS:
            if d not in used:
                continue
            k = DIMS.index(d)
            b, g = self.launch.block[k], self.launch.grid[k]
            # the grid stays a symbol (its value, when known, is the default): formulas are then
            # "assuming the grid covers the guard"; a known block size must be a number to keep
            # threadIdx affine
            B = sympy.Integer(b) if b else self.size_symbol(launch_size(LAUNCH_BLOCK, d), origin="launch (unknown)",
                                                                   role=LAUNCH_BLOCK)
            G = self.launch.grid_expr[k]
            # a constant grid, or a formula that is a loop bound (RX.grid_bound: not `m / tile` with
            # `tile` a parameter, not `(n > 255) / 256`, not with the block unknown); else a size
            if G is None or (G.free_symbols and not RX.grid_bound(G, b, self.kernel.params)):
                G = self.size_symbol(launch_size(LAUNCH_GRID, d), g, origin=self.launch.origin or "launch (unknown)",
                                     role=LAUNCH_GRID)
            why = f"`threadIdx.{d}`/`blockIdx.{d}` alone needs the block size"
            plan = self.model.plan
            flat = plan is not None and plan.dim == d and plan.var == "g"
            self.threads[d] = thread_symbols(d, B, G, self, why, self.model.split, flat)
        if self.model.plan is not None:
            self.loop_syms |= set(self.model.plan.digits)

    def compared(self, a, b, node):
        """A compile-time size compared with a thread's index within its block (`threadIdx.x <
        THREADS/2`) is a statement about the launch's fixed block, as the compiler sees it: folded
        to its value (SR115).  A global index compared with a size keeps the size symbolic."""
        local = {info["tx"] for info in self.threads.values() if info["B"].is_Integer}
        a, b = sympy.sympify(a), sympy.sympify(b)
        for d, info in self.threads.items():
            if self.model.plan is None:
                self.radix_bounds.extend((d, y, var) for var, y in RX.compared(info, a, b))

        def in_block(e):  # an index within the block only (no blockIdx, no other loop)
            return e.free_symbols & local and (e.free_symbols & self.loop_syms) <= local

        if in_block(a) and not b.free_symbols & self.loop_syms:
            b = self.fold(b, node, "is compared with a thread index")
        elif in_block(b) and not a.free_symbols & self.loop_syms:
            a = self.fold(a, node, "is compared with a thread index")
        return a, b

    def combine(self, expr):
        """Rewrite blockIdx*blockDim + threadIdx into the global thread index (and the warps in it)."""
        return WP.combine(expr, self.threads, self.warp_sizes)

    def wrap(self, body: list) -> list:
        """Put the kernel body inside its thread loops (grid-stride loops consume their dimension)."""
        out = thread_loops(body, self.threads, self.kernel.location)
        for d, extent in reversed(self.repeats):
            var = sympy.Dummy(f"thread.{d}")
            out = [Loop(var, sympy.Integer(0), sympy.Lt(var, extent), 1, out, f"thread.{d}", self.kernel.location)]
        return out

    # -- expressions --------------------------------------------------------------------------
    def opaque_reason(self, exprs) -> str:
        why = super().opaque_reason(exprs)
        if why:
            self.seen.add("opaque")
        return why

    def _binary(self, op, a, b, acc, node):
        if op in ("/", "%") and a.ctype.is_int and b.ctype.is_int \
                and a.expr is not None and b.expr is not None and not b.expr.is_Integer:
            self.seen.add("division")
            plan = self.model.plan
            q = RX.divide(op, a.expr, b.expr, plan, self.threads[plan.dim][plan.var]) if plan is not None else None
            if q is not None:
                return Val(INT, q)
        if op in ("+", "-", "*", "/") and (a.ctype.is_vector or b.ctype.is_vector):
            fn = CL.free_operator(self, op, a, b)
            if fn is not None:  # `operator+(float3, float3)` of the file or a helper header (helper_math.h)
                return CL.inline(self, fn, node, [node, node], acc, None, [a, b])
            # `a * x` on a float4 with no operator the file defines (the CUDA headers define none)
            vec = a.ctype if a.ctype.is_vector else b.ctype
            self.diag("SR105", f"`{op}` on a vector type ({vec.prec} x {vec.lanes}) calls a C++ operator overload, "
                      "which is not followed: counted as one operation per lane", node)
            if vec.prec in FLOAT:  # an integer vector's lanes do integer arithmetic: 0 FLOPs
                acc.flop(vec.prec, vec.lanes)
            return Val(vec)
        v = super()._binary(op, a, b, acc, node)
        if v.ctype.is_int and v.expr is not None:
            v.expr = self.combine(v.expr)
        return v

    def _e_ID(self, node, acc):
        if self.lookup(node.name) is None and node.name in self.tparams:
            # a symbol with the instantiation's value; folded where it scales an index (SR115)
            value = self.tparams[node.name]
            origin = "template argument" if value is not None else "template parameter"
            return Val(INT, self.size_symbol(node.name, value, origin=origin))
        if node.name == "warpSize":
            return Val(INT, sympy.Integer(32))
        var = self.lookup(node.name)
        if var is None and node.name in self.tu.globals and node.name not in self.tu.enums:
            var = self._global(node.name)  # a file-scope `__shared__` scalar is an element from its first use
        if var is not None and var.scalar_array:
            return Val(var.ctype, element=(var.array, (sympy.Integer(0),), ""))
        return super()._e_ID(node, acc)

    def _e_StructRef(self, node, acc):
        field_ = node.field.name
        if isinstance(node.name, c_ast.ID) and node.name.name in table()["variables"] and field_ in DIMS \
                and self.lookup(node.name.name) is None:
            role = table()["variables"][node.name.name]
            info = self.threads.get(field_)
            if info is None:  # a dimension used only through blockDim/gridDim
                k = DIMS.index(field_)
                b, g = self.launch.block[k], self.launch.grid[k]
                if role == "block_size":
                    return Val(INT, sympy.Integer(b) if b else self.size_symbol(
                        launch_size(LAUNCH_BLOCK, field_), origin="launch (unknown)", role=LAUNCH_BLOCK))
                if role == "grid_size":
                    origin = self.launch.origin or "launch (unknown)"
                    return Val(INT, self.size_symbol(launch_size(LAUNCH_GRID, field_), g, origin=origin,
                                                       role=LAUNCH_GRID))
                return Val(INT, sympy.Integer(0))
            sym = {"thread": info["tx"], "block": info["bx"], "block_size": info["B"], "grid_size": info["G"]}[role]
            return Val(INT, sym)
        base = self.expr(node.name, acc)
        lane = "xyzw".find(field_) if len(field_) == 1 else -1
        if base.ctype.is_vector and lane >= 0:
            elem = CType("float", base.ctype.prec) if base.ctype.prec in FLOAT else CType("int", base.ctype.prec)
            if base.element is not None:
                array, index, why = base.element
                if index is not None:
                    index = index[:-1] + (index[-1] + lane,)
                return Val(elem, element=(array, index, why))
            return Val(elem)
        if base.ctype.kind in ("class", "fragment"):
            return CL.member(self, base, node, acc)
        return structs.member(self, node, base, acc)  # a struct's member (structs.py)

    def _global(self, name):
        decl, t = self.tu.globals[name]
        if "register" in (decl.storage or []):  # a file-scope `__shared__` (see to_c): on-chip, per block
            var = self._shared(name, t, decl)
            self.gscope[name] = var
            return var
        var = super()._global(name)
        if name in self.constants and var.array is None:
            decl, t = self.tu.globals[name]
            if t.kind == "array":
                var = Var(t, array=self.new_array(name, t, "constant", decl))
                self.gscope[name] = var
        elif name in self.constants and var.array is not None:
            self.kernel.arrays[var.array].space = "constant"
        return var

    def declaration(self, d: c_ast.Decl):
        if "register" in (d.storage or []) and d.name:  # `__shared__` (see to_c)
            self.bind(d.name, self._shared(d.name, self.tu.types.resolve(d.type), d))
            return
        super().declaration(d)

    def _shared(self, name: str, t: CType, d) -> Var:
        """A `__shared__` variable, in the kernel or at file scope: an on-chip array (a scalar is an
        array of one element), never DRAM traffic."""
        if t.kind == "array":
            return Var(t, array=self.new_array(name, t, "shared", d))
        arr = self.new_array(name, CType("array", base=t, dims=()), "shared", d)
        self.kernel.arrays[arr].dims = (sympy.Integer(1),)
        return Var(t, array=arr, scalar_array=True)

    def lower(self) -> list:
        body = super().lower()
        return self.wrap(body) if self.launched else body

    def device_launch(self, node, args, acc) -> Val:
        """`child<<<g, b>>>(args)` in a kernel (dynamic parallelism; statements.device_launches): the
        child's threads run there, each launching thread's launch its own g x b threads, inlined with
        its arguments like a call.  Followed when the child is a kernel of the file, its block a
        constant and its grid a formula in this kernel's parameters; otherwise not (SR105)."""
        name = args[0].name if isinstance(args[0], c_ast.ID) else None
        fn = self.tu.funcs.get(name) if name else None
        g, b = self.value(args[1], Acc()).expr, self.value(args[2], Acc()).expr
        params = {sympy.Symbol(p) for p in self.kernel.params}
        why = ("it is not a kernel of this file" if fn is None else
               "its block size is not a constant" if b is None or not b.is_Integer else
               "its grid is not a formula in this kernel's parameters" if g is None or not g.free_symbols <= params
               else "")
        if why or g is None or b is None:
            self.diag("SR105", f"a kernel launched from a kernel (`{name}`) is not followed: {why}", node)
            return Val(VOID)
        self.launching = Launch((int(g) if g.is_Integer else None, 1, 1), (int(b), 1, 1),
                                f"launch from `{self.fn.decl.name}`", (g, sympy.Integer(1), sympy.Integer(1)))
        try:
            return super()._inline(name, node, args[3:], acc)
        finally:
            self.launching = None

    def _e_FuncCall(self, node, acc):
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        if name == "__sr_device_launch":
            return self.device_launch(node, node.args.exprs, acc)
        entry = table()["intrinsics"].get(name) if name else None
        if name is None or entry is None or name in self.tu.funcs:
            if name in self.tu.funcs:
                return inline_call(self, name, node, node.args.exprs if node.args else [], acc)
            return super()._e_FuncCall(node, acc)
        args = node.args.exprs if node.args is not None else []
        kind = entry["kind"]
        prec = entry.get("precision")
        if kind in CXX_CALLS:  # cooperative groups' reduce, inline PTX: see cxx_calls.py
            return CXX_CALLS[kind](self, name, entry, node, args, acc)
        if kind in ("wmma", "surface"):  # tensor cores (wmma.py), surfaces (textures.py)
            return (WM.lower if kind == "wmma" else TX.surface)(self, name, entry, node, args, acc)
        if kind == "outputs":  # __sincosf(x, &s, &c): see outputs.py
            return outputs.lower(self, name, entry, node, args, acc)
        if kind == "texture":
            return TX.fetch(self, name, entry, node, args, acc)
        if kind == "atomic":
            ptr = self.value(args[0], acc)
            vals = [self.value(a, acc) for a in args[1:]]
            if ptr.array is None:
                raise Unsupported(f"`{name}` on something that is not a known array", node)
            target = self._subscript(ptr, [Val(INT, sympy.Integer(0))], node)
            self.load(target, acc, node)
            if entry.get("flops") and (target.ctype.is_float or target.ctype.prec in FLOAT):
                acc.flop(target.ctype.prec, entry["flops"] * target.ctype.lanes)  # __half2: 2 adds
            self._store(node, target, vals[0] if vals else Val(target.ctype), acc, node)
            return Val(target.ctype)
        if kind in ("load", "store"):
            ptr = self.value(args[0], acc)
            if ptr.array is None:
                raise Unsupported(f"`{name}` on something that is not a known array", node)
            target = self._subscript(ptr, [Val(INT, sympy.Integer(0))], node)
            if kind == "load":
                return self.load(target, acc, node)
            v = self.value(args[1], acc)
            return self._store(node, target, v, acc, node)
        vals = [self.value(a, acc) for a in args]
        if kind == "shuffle":
            return Val(vals[1].ctype if len(vals) > 1 else FLOAT["fp32"],
                         why=f"`{name}` returns another lane's value")
        if kind == "sync":
            return Val(INT, why=f"result of `{name}`")
        if kind == "mul24":  # an integer product (the operands' low 24 bits: an index's are all of it)
            a, b = (v.expr if v.ctype.is_int else None for v in vals[:2]) if len(vals) == 2 else (None, None)
            return Val(CType("int", prec), a * b if a is not None and b is not None else None, f"result of `{name}`")
        lanes = entry.get("lanes", 1)
        if prec == "fp16" and any(v.ctype.prec == "bf16" for v in vals):
            prec = "bf16"  # the half intrinsics are overloaded for __nv_bfloat16
        if prec == "same":
            t = vals[0].ctype
            for v in vals[1:]:
                t = arith(t, v.ctype) if (t.is_float or v.ctype.is_float) else t
            return Val(t, why=f"result of `{name}`")
        if prec == "int":
            return Val(INT, why=f"result of `{name}`")
        result = CType("vector", prec, lanes=lanes) if lanes > 1 else (
            FLOAT[prec] if prec in FLOAT else CType("int", prec))
        if kind in ("arith", "fma"):
            acc.flop(prec, entry["flops"])
        elif kind == "special":
            acc.special[(name, prec)] = acc.special.get((name, prec), 0) + 1
        return Val(result)

    def _gridstride(self, node: c_ast.For):
        """A grid-stride loop at the top of the kernel: (dim, var name, offset, cond) or None.  One
        under a condition is found too, and refused once the kernel is lowered (_lower_kernel)."""
        name, step = loop_step(node.next)
        if name is None or isinstance(step, int) or self.depth or not self.model.gridstride:
            return None
        step_v = self.value(step, Acc()).expr
        for d, info in self.threads.items():
            total = info["B"] * info["G"]
            k = sympy.cancel(self.compile_time(step_v) / total) if step_v is not None else None
            if k is None or not k.is_Integer or k < 1 or (k > 1 and ("g" in info or not info["B"].is_Integer)):
                continue
            # k > 1: each block spans k*B elements a trip (CUDA samples' reduce6: i and i + blockSize)
            glob = info["g"] if "g" in info else info["bx"] * k * info["B"] + info["tx"]
            return d, glob, int(k)
        return None

    def for_loop(self, node: c_ast.For):
        gs = self._gridstride(node)
        if gs is None:
            if not self.strided_loop(node):
                super().for_loop(node)
            return
        d, glob, k = gs
        info = self.threads[d]
        # i = global index + offset, stepping by all threads: together the threads cover
        # [offset, bound) exactly once, so the loop is one sequential loop over that range.
        self.scopes.append({})
        try:
            header = self._loop_header(node, fixed_step=1)
            if header is None:
                return super().for_loop(node)
            name, start, _step, cond = header
            offset = sympy.expand(start - glob)
            if offset.free_symbols & {info.get("g"), info["bx"], info["tx"]}:
                return super().for_loop(node)
            var, body = self.loop_body(node, name)
            placeholder = sympy.Symbol(f"__loopvar_{name}")
            loc = node_location(node, self.tu.path)
            hoisted = ST.hoist(body, var, self.kernel)
            if hoisted:  # an invariant read: once per thread that runs a trip, as in a block-stride loop
                self.out.append(Guard(cond.xreplace({placeholder: start}), hoisted, [], loc))
            if k > 1:  # the threads' trips are the i with (i - offset) mod k*B < B, each once
                span = k * info["B"]
                body = [Guard(sympy.Lt(sympy.Mod(var - offset, span), info["B"]), body, [], loc)]
            self.out.append(Loop(var, offset, cond.xreplace({placeholder: var}), 1, body, f"gridstride.{d}", loc))
        finally:
            self.scopes.pop()
            self.after_loop([node.stmt, node.next])


def _builtin_dims(fn, funcs=None, overloads=None) -> set:
    """Dimensions whose threadIdx or blockIdx the kernel reads, itself or in a device function it
    calls (`__device__ int gid() {...}`; every definition of an overloaded name)."""
    used, seen = set(), set()

    def visit(n):
        if isinstance(n, c_ast.StructRef) and isinstance(n.name, c_ast.ID) and n.name.name in ("threadIdx", "blockIdx"):
            used.add(n.field.name)
        if (isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and funcs
                and n.name.name in funcs and n.name.name not in seen):
            seen.add(n.name.name)
            for f in (overloads or {}).get(n.name.name) or [funcs[n.name.name]]:
                visit(f)
        for _, child in n.children():
            visit(child)

    visit(fn)
    return used


# ---------------------------------------------------------------------------------------------
# Entry point

def lower_cuda(path: str, text: str, size_macros: dict, grammars_dir: str, bindings: dict,
               launches: dict | None = None) -> FrontendResult:
    res = FrontendResult()
    src = cuda_source(path, text, bindings)
    ctext, kernel_items = src.ctext, src.kernel_items
    type_aliases, constants = src.type_aliases, src.constants
    ext, diags, failed = parse_translation_unit(ctext, path)
    in_kernels = line_ranges(kernel_items.values())
    for d in diags:
        if d.location and inside(d.location, in_kernels):
            res.diagnostics.append(d)
    for name, loc, d in failed:
        if name in kernel_items and "__global__" in kernel_items[name].qualifiers:
            res.failed.append((name, loc, d))
    _unparsed_kernels(kernel_items, ext, res, diags)
    tu = TranslationUnit(path, ext, size_macros, grammars_dir)
    tu.bindings = dict(bindings)
    tu.overloads = OV.collect(ext)  # name -> every definition, for names defined more than once
    tu.references = src.references
    types = {**builtin_types(), **CL.types()}
    tu.template_aliases, tu.template_defaults = {}, {}  # function -> {parameter: alias}; alias -> given?
    tu.explicit_targs = src.explicit  # `sq<double>(x)`'s arguments, by the call's place
    for alias, (spelling, pname, it) in type_aliases.items():
        t = T.resolve_type(spelling, types, tu)
        tu.template_defaults[alias] = t is not None
        tu.template_aliases.setdefault(it.name, {})[pname] = alias
        types[alias] = t or FLOAT["fp32"]
    tu.types.builtin.update(types)
    for name, it in kernel_items.items():
        if "__global__" not in it.qualifiers or name not in tu.funcs:
            continue
        fn = tu.funcs[name]
        params = template_params(it.template) if it.template else []
        for inst in T.resolve_instances(name, it, src, params, lambda sp: T.resolve_type(sp, types, tu), FLOAT["fp32"]):
            tu.types.builtin.update(inst.types)
            kernel = _lower_instance(tu, fn, path, inst, launches or {}, constants, res)
            if kernel is None:
                continue
            broken = BB.contradiction(it.header, fn, tuple((kernel.launch or {}).get("block", ())))
            for k in (kernel, kernel.alternative):
                if k is None:
                    continue
                k.name = inst.name
                if broken:
                    k.diag("SR155", f"the launch counted ({kernel.launch.get('origin') or 'unknown'}) contradicts the "
                           f"kernel's own bounds: {broken}; it would not run as counted", k.location)
                if src.cxx is not None:
                    src.cxx.note(k, name)  # unknown types (SR141)
                for pname in inst.assumed:
                    k.diag("SR114", f"`{name}`: template type `{pname}` has no instantiation in this file (no launch "
                           "site, explicit instantiation or launcher call decides it); assuming float", k.location)
            res.kernels.append(kernel)
    for kernel in res.kernels:
        for k in (kernel, kernel.alternative):
            for name, value in tu.pragma_sizes.items():
                s = k.sizes.get(name) if k is not None else None
                if s is not None:
                    s.default, s.origin = value, "pragma"
    return res


def _unparsed_kernels(kernel_items: dict, ext: list, res, diags: list) -> None:
    """A kernel the parse did not give (its unit failed under another name) is reported unsupported
    at its own line, with the syntax error nearest before it: never lost in silence."""
    parsed = {n.decl.name for n in ext if isinstance(n, c_ast.FuncDef)} | {name for name, _, _ in res.failed}
    for name, it in kernel_items.items():
        if "__global__" not in it.qualifiers or name in parsed:
            continue
        t = it.tokens[0]
        loc = Location(t.file, t.line, t.col)
        before = [d for d in diags if d.location and d.location.file == loc.file and d.location.line <= loc.line]
        why = f" (the syntax error at line {before[-1].location.line})" if before else ""
        res.failed.append((name, loc, Diagnostic(
            "SR001", f"`{name}`: its definition could not be parsed{why}", loc)))


def _lower_instance(tu, fn, path, inst, launches: dict, constants: set, res) -> Kernel | None:
    """One result: the kernel lowered for one instantiation and its launch, or None (SR002)."""
    name = fn.decl.name
    launch = launch_for(name, inst.site, launches, _param_names(fn), inst.name)
    # Primary: the grid as symbols assumed to cover the guards (clean formulas when the guards
    # bound the work).  Alternative: the grid as the launch site's formula in the kernel's own
    # parameters, for kernels whose work depends on the grid (no guard): exact and symbolic.
    # A grid the host caps (`std::min((n + 255) / 256, 64)`) may not cover the guards: its formula only.
    capped = any(e is not None and e.has(sympy.Min) for e in launch.grid_expr)
    covering = launch if capped else Launch(launch.grid, launch.block, launch.origin, location=launch.location)
    try:
        kernel, model = _lower_best(tu, fn, path, covering, inst.values, constants, inst.site)
        if not capped and any(e is not None and e.free_symbols for e in launch.grid_expr):
            kernel.alternative = _lower_kernel(tu, fn, path, launch, inst.values, constants, inst.site,
                                               Model(model.split, model.strided, gridstride=model.gridstride))[0]
    except (Unsupported, RecursionError) as e:
        what = f"unsupported {e}" if isinstance(e, Unsupported) else "expression nesting too deep"
        node = getattr(e, "node", None)
        loc = node_location(fn.decl, path)
        res.failed.append((inst.name, loc, Diagnostic("SR002", f"`{inst.name}`: {what}",
                                                      node_location(node, path) if node else loc)))
        return None
    return kernel




def _lower_best(tu, fn, path, launch: Launch, tparams: dict, constants: set, site) -> tuple:
    """(kernel, model): lowered with the global-index thread model, or with another model (see
    Model) when the first leaves a thread index opaque or divides it by a size and the other is
    approximate for fewer reasons.  A model whose reading does not hold for the kernel is skipped."""
    model = Model()
    kernel, low = _lower_kernel(tu, fn, path, launch, tparams, constants, site, model)
    if kernel is None:  # its grid-stride reading does not hold: the loop read as any loop
        model = Model(gridstride=False)
        kernel, low = _lower_kernel(tu, fn, path, launch, tparams, constants, site, model)
    assert kernel is not None  # this model has no reading to refuse
    best = kernel
    candidates: list = []
    _more_models(low, candidates)
    for candidate in candidates:  # (grows: a model's lowering may suggest plans of its own)
        if _approximations(best) == 0:
            break
        try:
            other, other_low = _lower_kernel(tu, fn, path, launch, tparams, constants, site, candidate)
        except (Unsupported, RecursionError):
            continue
        if candidate.plan is None:
            _more_models(other_low, candidates)
        if other is not None and _approximations(other) < _approximations(best):
            best, model = other, candidate
    return best, model


def _more_models(low, candidates: list) -> None:
    """Add the models a lowering suggests to `candidates`: the split models when it met a thread
    index alone, a radix plan for each ordering of each size product it compared an index with
    when it divided by a size (a block index's plan in the split model, whose block index is a loop
    variable)."""
    more: list = []
    if "opaque" in low.seen:
        more += [Model(True, True), Model(True, False)]
    if "division" in low.seen:
        more += [Model(plan=RX.with_digits(p)) if p.var == "g" else
                 Model(split=True, strided=True, plan=RX.with_digits(p)) for p in RX.plans(low.radix_bounds)]
    seen = {(m.split, m.strided, m.plan) for m in candidates}
    candidates.extend(m for m in more if (m.split, m.strided, m.plan) not in seen)


def _approximations(kernel: Kernel) -> int:
    return sum(1 for d in kernel.diagnostics if d.approximate)


def _lower_kernel(tu, fn, path, launch: Launch, tparams: dict, constants: set, site,
                  model: Model = Model()) -> tuple:
    """(kernel, its CudaLowering): the kernel lowered with a thread model (see _lower_best), None
    when the model's reading does not hold for it."""
    kernel = Kernel(fn.decl.name, "cuda", node_location_or_file(fn.decl, path))
    low = CudaLowering(tu, kernel, fn, launch, tparams, constants)
    low.model = model
    low.setup_threads()
    body = low.lower()
    if any(isinstance(n, Loop) and n.kind.startswith("gridstride.") and n not in body for n in walk(body)):
        return None, low  # a grid-stride loop under a condition: thread_loops would repeat it per thread
    kernel.body = low.wrap(body)
    if not ST.valid(kernel.body, low.strided):
        return None, low
    if model.plan is not None:
        info = low.threads.get(model.plan.dim)
        var = info.get(model.plan.var) if info is not None else None
        if not isinstance(var, sympy.Dummy) or not RX.apply(kernel.body, model.plan, var, low.loop_syms):
            return None, low
    formula = any(RX.grid_bound(e, launch.block[k], kernel.params) for k, e in enumerate(launch.grid_expr))
    kernel.launch = {"grid": tuple(launch.grid), "block": tuple(launch.block), "origin": launch.origin or None,
                     "grid_expr": tuple(launch.grid_expr),
                     "model": "grid from the launch, in the kernel's parameters" if formula
                     else "grid assumed to cover the guards"}
    whole = WP.assumption(low.warp_sizes, launch.block)
    if whole:
        kernel.diag("SR154", f"{whole}: the rows `blockIdx * (blockDim / 32) + threadIdx / 32` are counted for "
                    "such blocks", kernel.location)
    if site is not None:
        _bind_site(kernel, fn, tu, site)
        kernel.launch_site = site.location
        # by position; not strict: a launch may rely on default arguments
        kernel.launch_args = {p: a for p, a in zip(_param_names(fn), site.arg_names, strict=False) if p and a}
        launch_notes(kernel, site, formula, tu.bindings)  # host loops around it (SR150), float grids (SR151/2)
    return kernel, low


def _param_names(fn) -> list:
    return [p.name for p in parameters(fn)]


def _bind_site(kernel: Kernel, fn, tu, site: LaunchSite):
    params = parameters(fn)
    for p, v in zip(params, site.args, strict=False):  # a launch may rely on default arguments
        s = kernel.sizes.get(p.name) if p.name is not None else None
        if s is not None and v is not None and s.default is None:
            s.default, s.origin = v, f"launch at {site.location}"


__all__ = ["lower_cuda", "CUDA_MACROS", "Array", "VOID"]
