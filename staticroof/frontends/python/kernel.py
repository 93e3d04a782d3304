"""One Python kernel lowered: its parameters typed (signature, annotation, pragma, `--dtype`, or
float64 by default), its body lowered, its sizes given the values the file states (pragmas, the
launch site), and `@vectorize` functions wrapped in their element loop."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
import sympy

from ...diagnostics import Diagnostic
from ...ir import Kernel, Loop, Ref, Stmt
from ..common.lowering import Unsupported
from . import cuda as CU
from .arrays import REDUCTIONS
from .kernels import qualified
from .numba_types import PyType, dtype_name, is_inexact, numba_name, parse_signature, parse_type
from .statements import PythonLowering
from .values import PVal, int_val


def lower_kernel(ctx, kdef, res, inst=None, own=()) -> None:
    """Lower one instance of a kernel (`inst`: its name and parameter types, `instances`).  `own`: the
    locations of the kernel's calls and launches in the file (a CUDA kernel's launch is among them)."""
    if inst is None:
        inst = instances(ctx, kdef, [])[0]
    name, fn = inst.name, kdef.node
    kernel = Kernel(name, "python", ctx.loc(kdef.site if kdef.site is not None and kdef.site is not fn
                                             else fn.name))
    kernel.py_function = kdef.qualname  # type: ignore[attr-defined]  # the trace runs it by this name
    try:
        types = inst.types
        _say_guesses(kdef, inst, kernel)
        kernel.scalar_types = {n: t.dtype for n, t in types.items() if not t.is_array}  # type: ignore[attr-defined]
        threads_for = None
        launch = None
        if kdef.kind == "cuda":
            site = CU.site_for(ctx, kdef, inst.calls, list(own))
            launch = CU.launch_of(kdef.bound, site, ctx.overrides)
            used = CU.used_dims(fn, ctx.names, ctx.functions)
            if not used and all(x is None for x in (*launch.grid, *launch.block)):
                kernel.diag("SR113", f"`{name}` reads no thread index and has no launch in the file: every thread "
                            "of the launch runs the whole body, counted here as one thread (give a launch site, "
                            "--grid and --block)", kernel.location)

            def threads_for(low, launch=launch, used=used):
                return CU.Threads(low, launch, used)
        low = PythonLowering(ctx, kernel, fn, {}, threads_for)
        low.env.update(_bind_params(low, types, vectorize=kdef.kind == "vectorize"))
        if kdef.kind == "vectorize":
            kernel.body = _vectorized(low, types, kernel, inst.signature[1].dtype
                                      if inst.signature is not None and inst.signature[1] is not None else None)
        elif kdef.kind == "stencil":  # the kernel applied to its own arguments: python_stencil.py
            from .stencil import apply

            apply(low, kdef, dict(low.env), None, fn)
            low.emit()
            kernel.body = low.out
        else:
            kernel.body = low.lower()
        if launch is not None:
            kernel.launch = {"grid": tuple(launch.grid), "block": tuple(launch.block),
                             "origin": launch.origin or None, "grid_expr": tuple(launch.grid_expr),
                             "model": "grid assumed to cover the guards",
                             # the launch site's line and column: the trace folds that very launch again
                             "site": (site.location.line, site.location.col) if site is not None else None}
            _bind_site(kernel, fn, site, low)
    except (Unsupported, RecursionError) as e:
        what = f"unsupported {e}" if isinstance(e, Unsupported) else "expression nesting too deep"
        node = getattr(e, "node", None)
        res.failed.append((name, kernel.location, Diagnostic("SR002", f"`{name}`: {what}",
                                                             ctx.loc(node, kernel.location))))
        return
    for size, value in ctx.pragma_sizes.items():
        s = kernel.sizes.get(size)
        if s is not None:
            s.default, s.origin = value, "pragma"
    kernel.params = [p.name.value for p in fn.params.params]
    res.kernels.append(kernel)


# ---------------------------------------------------------------------------------------------
# Parameter types: one instance per signature, or per distinct set of types the file's calls pass

@dataclass
class Instance:
    """One compiled specialization of a kernel, as Numba's dispatch makes one per signature or per
    distinct set of argument types: its result's name, its parameters' types, the parameters whose
    type is guessed (float64), and the signature it comes from."""

    name: str
    types: dict
    guessed: list = field(default_factory=list)
    signature: tuple | None = None
    calls: list = field(default_factory=list)  # locations of the calls that make it


def signatures(ctx, kdef) -> list:
    """The kernel's explicit signatures, parsed ((argument types, return type) each), in order."""
    out = []
    for node in kdef.signatures:
        if isinstance(node, cst.Name) and node.value in ctx.strings:
            node = ctx.strings[node.value]
        text = node.evaluated_value if isinstance(node, cst.SimpleString) else cst.Module([]).code_for_node(node)
        if not isinstance(text, str):
            continue
        sig = parse_signature(text) if "(" in text else None
        if sig is not None and sig not in out:
            out.append(sig)
    return out


def instances(ctx, kdef, calls: list) -> list:
    """The kernel's instances: one per explicit signature; else one per distinct set of argument types
    of its calls in the file (`calls`: callsites.CallTypes); else one.  A parameter's type: the
    signature's, an annotation's, a pragma's or --dtype's, else the call's, else (arrays and
    floating-point scalars) float64, guessed."""
    sigs = signatures(ctx, kdef)
    fn = kdef.node
    params = [p.name.value for p in fn.params.params]
    arrays, ints = _usage(fn)
    _passed_arrays(fn, ctx, arrays, ints)
    sets: list = []
    if sigs:
        sets = [(sig, list(sig[0]) + [None] * (len(params) - len(sig[0])), []) for sig in sigs]
    else:
        known = [c for c in calls if any(t is not None for t in c.types)]
        for c in known:
            types = list(c.types)
            for k, t in enumerate(types):  # a type the call does not say: the other calls', where they agree
                if t is None:
                    others = {o.types[k] for o in known if o.types[k] is not None}
                    types[k] = others.pop() if len(others) == 1 else None
            for entry in sets:
                if entry[1] == types:
                    entry[2].append(c.location)
                    break
            else:
                sets.append((None, types, [c.location]))
        if not sets:
            sets = [(None, [None] * len(params), [])]
    out: list = []
    for sig, given, locations in sets:
        ptypes: dict = {}
        guessed: list = []
        for k, p in enumerate(fn.params.params):
            name = p.name.value
            t = given[k] if sig is not None and k < len(given) else None
            if t is None and p.annotation is not None:
                t = _annotation_type(p.annotation.annotation, ctx)
            table = ctx.kernel_dtypes.get(kdef.name, ctx.kernel_dtypes.get(kdef.bound, {}))
            option = ctx.pragma_type(name, fn) or table.get(name) or ctx.dtypes.get(name)
            if t is None and option is not None:
                t = PyType(option, arrays.get(name, 0))
            if t is None and sig is None and k < len(given):
                t = given[k]
            if t is None:
                if name in ints and name not in arrays:
                    t = PyType("int64")
                else:
                    t = PyType("fp64", arrays.get(name, 0))
                    guessed.append(name)
            if t.rank < 0 or (t.rank == 0 and name in arrays):
                t = PyType(t.dtype, arrays.get(name, 1))
            elif t.rank < arrays.get(name, 0) and sig is None:  # the kernel's own subscripts say more
                t = PyType(t.dtype, arrays[name])
            if kdef.kind == "vectorize":
                t = PyType(t.dtype)  # the ufunc's function sees elements
            ptypes[name] = t
        inst = Instance(kdef.name, ptypes, guessed, sig, locations)
        if not any(o.types == inst.types and o.signature == inst.signature for o in out):
            out.append(inst)
    if len(out) > 1:
        for inst, label in zip(out, _labels(out, params), strict=True):
            inst.name = f"{kdef.name}[{label}]"
    return out


def _labels(out: list, params: list) -> list:
    """`float32`, `int8, float32`: the element types of the parameters whose types differ between the
    instances, in parameter order and each once; where two instances would read the same, every
    parameter's Numba type (`float32, float32[:]`)."""
    differ = [p for p in params if len({inst.types[p] for inst in out}) > 1]
    labels = []
    for inst in out:
        seen: list = []
        for p in differ:
            d = numba_name(inst.types[p].dtype)
            if d not in seen:
                seen.append(d)
        labels.append(", ".join(seen))
    if len(set(labels)) < len(labels):
        labels = [", ".join(numba_name(inst.types[p].dtype) + ("[" + ", ".join(":" * inst.types[p].rank) + "]"
                                                              if inst.types[p].is_array else "") for p in params)
                  for inst in out]
    return labels


def _say_guesses(kdef, inst, kernel) -> None:
    """SR160 (a warning: the count rests on the guess) naming each guessed parameter and the flags
    that would type them."""
    if not inst.guessed or kdef.kind == "plain":
        return
    flags = " ".join(f"--dtype {n}=float64" for n in inst.guessed)
    kernel.diag("SR160", f"`{inst.name}`: no type for {', '.join(f'`{n}`' for n in inst.guessed)} (no call in the "
                "file that says it, no signature, annotation, pragma or --dtype): float64 assumed, NumPy's "
                f"default; `{flags}` (or the real types) would type every parameter", kernel.location)


def _annotation_type(node, ctx):
    if isinstance(node, cst.SimpleString):
        return parse_type(str(node.evaluated_value))
    code = qualified(node, ctx.names) or cst.Module([]).code_for_node(node)
    t = parse_type(code.replace("numba.types.", "").replace("numba.", ""))
    if t is not None:
        return t
    m = dtype_name(code)
    return PyType(m) if m is not None else None


def _usage(fn) -> tuple[dict, set]:
    """Names used as arrays (subscripted, `.shape`, `len`) with their rank, and names used as
    integers (range bounds, subscripts, comparisons with those)."""
    arrays: dict = {}
    ints: set = set()

    def names_in(node) -> set:
        out: set = set()

        class V(cst.CSTVisitor):
            def visit_Name(self, n) -> None:
                out.add(n.value)

        node.visit(V())
        return out

    class Visitor(cst.CSTVisitor):
        def visit_Subscript(self, node) -> None:
            base, count = node, 0
            while isinstance(base, cst.Subscript):
                count += sum(1 for e in base.slice if not (isinstance(e.slice, cst.Index) and isinstance(
                    e.slice.value, cst.Name) and e.slice.value.value == "None"))  # x[:, None]: 1-D
                for e in base.slice:
                    ints.update(names_in(e))
                base = base.value
            if isinstance(base, cst.Name):
                arrays[base.value] = max(arrays.get(base.value, 0), count)
            elif isinstance(base, cst.Attribute) and base.attr.value == "shape" and isinstance(base.value, cst.Name):
                first = node.slice[0].slice if node.slice else None
                k = 1
                if isinstance(first, cst.Index) and isinstance(first.value, cst.Integer):
                    k = int(first.value.value) + 1
                arrays[base.value.value] = max(arrays.get(base.value.value, 0), k)

        def visit_Assign(self, node) -> None:
            for t in node.targets:  # y[:] = a * x + y: the operands of a sliced store are arrays, but
                tgt = t.target      # scalars that scale them are not told apart: only bare names
                if isinstance(tgt, cst.Subscript) and any(isinstance(e.slice, cst.Slice) for e in tgt.slice):
                    rank = sum(1 for e in tgt.slice if isinstance(e.slice, cst.Slice))
                    for n in _operands(node.value, arrays_only=True):  # C[:, :] = A + B: as C's rank
                        arrays.setdefault(n, rank)

        def visit_Attribute(self, node) -> None:
            if node.attr.value in ("shape", "size", "ndim") and isinstance(node.value, cst.Name):
                arrays.setdefault(node.value.value, 1)

        def visit_Call(self, node) -> None:
            if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Attribute) and \
                    node.func.value.attr.value == "atomic" and len(node.args) >= 2 and isinstance(
                        node.args[0].value, cst.Name):  # cuda.atomic.add(ary, idx, val)
                idx = node.args[1].value
                rank = len(idx.elements) if isinstance(idx, cst.Tuple) else 1
                name = node.args[0].value.value
                arrays[name] = max(arrays.get(name, 0), rank)
                ints.update(names_in(idx))
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value in REDUCTIONS:
                if isinstance(f.value, cst.Name) and f.value.value not in ("np", "numpy", "math"):
                    arrays.setdefault(f.value.value, 1)  # x.sum()
                else:  # np.sum(x), np.dot(a, b): their array operands
                    for a in node.args:
                        for n in _operands(a.value):
                            arrays.setdefault(n, 1)
            if isinstance(node.func, cst.Name) and node.func.value == "len" and node.args and isinstance(
                    node.args[0].value, cst.Name):
                arrays.setdefault(node.args[0].value.value, 1)
            if isinstance(node.func, (cst.Name, cst.Attribute)) and (
                    (isinstance(node.func, cst.Name) and node.func.value in ("range", "prange"))
                    or (isinstance(node.func, cst.Attribute) and node.func.attr.value == "prange")):
                for a in node.args:
                    ints.update(names_in(a.value))

    fn.visit(Visitor())
    for name, rank in list(arrays.items()):
        arrays[name] = max(rank, 1)
    return arrays, ints - set(arrays)


def _passed_arrays(fn, ctx, arrays: dict, ints: set, depth: int = 0) -> None:
    """Names passed to another function of the file (a `@stencil`, an `@njit` helper) where that
    function uses its parameter as an array: arrays of its rank here too."""
    if depth > 4:
        return

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, node) -> None:
            if not (isinstance(node.func, cst.Name) and node.func.value in ctx.functions):
                return
            callee = ctx.functions[node.func.value]
            if callee is fn:
                return
            theirs, _ = _usage(callee)
            _passed_arrays(callee, ctx, theirs, set(), depth + 1)
            params = [p.name.value for p in callee.params.params]
            given = [(params[k], a.value) for k, a in enumerate(node.args) if a.keyword is None and k < len(params)]
            given += [(a.keyword.value, a.value) for a in node.args if a.keyword is not None]
            if params and params[0] in theirs:  # a stencil's `out=`: an array of its first argument's rank
                theirs = {**theirs, "out": theirs.get("out", theirs[params[0]]) if "out" not in params else
                          theirs.get("out", 0)}
            for p, v in given:
                if isinstance(v, cst.Name) and p in theirs:
                    arrays[v.value] = max(arrays.get(v.value, 0), theirs[p])
                    ints.discard(v.value)

    fn.visit(Visitor())


def _operands(node, arrays_only: bool = False) -> set:
    """Names that are operands of arithmetic in `node` (not call names nor attribute bases); with
    `arrays_only`, only those added, subtracted or divided (a product's scalar factor is left out)."""
    out: set = set()
    if isinstance(node, cst.Name):
        out.add(node.value)
    elif isinstance(node, cst.BinaryOperation):
        if arrays_only and isinstance(node.operator, cst.Multiply):
            for side in (node.left, node.right):
                if not isinstance(side, cst.Name):
                    out |= _operands(side, arrays_only)
        else:
            out |= _operands(node.left, arrays_only) | _operands(node.right, arrays_only)
    elif isinstance(node, cst.UnaryOperation):
        out |= _operands(node.expression, arrays_only)
    elif isinstance(node, cst.Call):
        for a in node.args:
            out |= _operands(a.value, arrays_only)
    return out


def _bind_params(low, types: dict, vectorize: bool = False) -> dict:
    env = {}
    for name, t in types.items():
        if t.is_array and not vectorize:
            arr = low.new_array(name, t.dtype, (None,) * t.rank, "global", None)
            env[name] = PVal("array", t.dtype, array=arr)
        elif is_inexact(t.dtype):
            env[name] = PVal("float", t.dtype, key=f"{name}#param")
        else:
            env[name] = int_val(low.size_symbol(name) if not vectorize else None, "an element of an input",
                                dtype=t.dtype)
    return env


def _vectorized(low, types: dict, kernel, declared=None) -> list:
    """`@vectorize`: the function runs once per element of its broadcast inputs, here `n` of
    them: each input element read once, the result written once (the output array `out`)."""
    i = sympy.Dummy("i")
    n = low.size_symbol("n", origin="elements of the ufunc's inputs")
    loc = kernel.location
    reads = []
    for name, t in types.items():
        arr = low.new_array(name, t.dtype, (None,), "global", None)
        reads.append(Ref(arr, (i,), "read", loc))
    low.loop_syms.add(i)
    low.depth = 0  # the element loop is implicit: `return` gives the element
    body = low.nested(list(low.fn.body.body))
    if not low.returned:
        raise Unsupported("`@vectorize` function without a `return`", low.fn)
    ret = low.returned[0]
    # the output's elements have the signature's return type (the result is converted to it)
    sig_ret = declared or (ret.dtype if ret.is_number and ret.dtype else "fp64")
    out = low.new_array("out", sig_ret, (None,), "global", None)
    write = Stmt({}, {}, [Ref(out, (i,), "write", loc)], loc, low.group + 1)
    return [Loop(i, sympy.Integer(0), sympy.Lt(i, n), 1, [Stmt({}, {}, reads, loc, low.group)] + body + [write],
                 "seq", loc)]


def _bind_site(kernel, fn, site, low) -> None:
    """Sizes from the launch site: integer arguments bind integer parameters; host arrays' shapes
    bind the shape sizes of the arrays passed."""
    if site is None:
        return
    params = [p.name.value for p in fn.params.params]
    for p, v, shape in zip(params, site.args, site.shapes, strict=False):
        s = kernel.sizes.get(p)
        if s is not None and v is not None and s.default is None:
            s.default, s.origin = v, f"launch at {site.location}"
        if shape:
            for k, extent in enumerate(shape):
                name = low.shape_names.get((p, k), f"{p}_shape{k}")
                s = kernel.sizes.get(name)
                if s is not None and isinstance(extent, int) and s.default is None:
                    s.default, s.origin = extent, f"launch at {site.location}"
