"""The Python/Numba front end: `.py` files parsed with libcst (never imported, never run) and
lowered to the same loop IR as C and CUDA.

A kernel is a function decorated with a Numba decorator, or made by `f = njit(g)`, wherever it is
defined (kernels.py); other top-level functions with loops over array subscripts are drivers, shown
with `--all-functions`.  Element types come from the decorator's signature, annotations, a
`# staticroof: x=float32` pragma or `--dtype`, the file's calls of the kernel (callsites.py), else
float64, a guess (SR160, approximate); one result per signature or per type set the calls pass.
A syntax error costs only the function it is in.
"""

from __future__ import annotations

import ast
import re


def load(path: str, defines: dict, include_dirs=(), launches: dict | None = None, dtypes: dict | None = None):
    """(FrontendResult, size bindings): `-D NAME=INT` binds the size NAME; `-D x=float32` gives the
    parameter x (an array's elements, or a scalar) that type, and so does `dtypes` ({None: every
    kernel's, KERNEL: that kernel's}: --dtype and the configuration; --dtype wins over -D)."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    from ...diagnostics import Diagnostic, Location
    from ...inputs import InputError, read_text
    from ..common.lowering import FrontendResult
    from .kernels import functions, has_loops_or_subscripts, imports, kernel_defs, kernel_of, nested_functions
    from .numba_types import dtype_name
    from .values import FileContext

    res = FrontendResult()
    bindings, types = {}, {}
    for name, value in (defines or {}).items():
        try:
            bindings[name] = int(str(value), 0)
        except (TypeError, ValueError):
            if value is not None and dtype_name(str(value)) is not None:
                types[name] = dtype_name(str(value))  # `-D x=float32`: an element type
            elif value is not None:
                res.diagnostics.append(Diagnostic("SR007", f"`-D {name}={value}`: a size needs an integer value",
                                                  Location(path)))
    kernel_dtypes: dict = {}
    for kernel, table in (dtypes or {}).items():
        named = {n: dtype_name(str(t)) for n, t in table.items() if dtype_name(str(t)) is not None}
        if kernel is None:
            types.update(named)
        else:
            kernel_dtypes[kernel] = named
    try:
        text = read_text(path)
    except InputError as e:
        res.diagnostics.append(Diagnostic("SR003", str(e), Location(path)))
        return res, bindings
    modules, broken = _parse(text, path)
    for name, loc, d in broken:
        if name is None:
            res.diagnostics.append(d)
        else:
            res.failed.append((name, loc, d))
    ctx_names: dict = {}
    for m in modules:
        ctx_names.update(imports(m))
    wrapped = [MetadataWrapper(m) for m in modules]
    positions: dict = {}
    for w in wrapped:
        positions.update(w.resolve(PositionProvider))
    ctx = FileContext(path, ctx_names, positions, dtypes=types, kernel_dtypes=kernel_dtypes,
                      overrides=launches or {})
    _pragmas(text, ctx)
    fns = []
    for w in wrapped:
        for fn in functions(w.module):
            fns.append(fn)
            ctx.functions[fn.name.value] = fn
        for fn, _ in nested_functions(w.module):
            ctx.functions.setdefault(fn.name.value, fn)
        _constants(w.module, ctx)
    from .callsites import call_types
    from .cuda import all_launch_sites, launch_sites
    from .kernel import instances, lower_kernel

    defs = [k for w in wrapped for k in kernel_defs(w.module, ctx.names) if not _device_function(k)]
    kernel_nodes = {id(k.node) for k in defs}
    for fn in fns:
        if id(fn) in kernel_nodes or kernel_of(fn, ctx.names) is not None or not has_loops_or_subscripts(fn):
            continue
        from .kernels import KernelDef

        kdef = KernelDef(fn.name.value, fn, "plain", site=fn)
        res.drivers.add(kdef.name)
        defs.append(kdef)
    _unique_names(defs)
    bound = [k.bound for k in defs if k.kind != "plain"]
    kernel_names = set(bound)
    ctx.shared_names = {b for b in kernel_names if bound.count(b) > 1}
    for w in wrapped:
        ctx.launches.update({k: v for k, v in launch_sites(w.module, ctx, kernel_names).items()
                             if k not in ctx.launches})
        for name, site in all_launch_sites(w.module, ctx, kernel_names):
            ctx.launch_at.setdefault(site.location, (w.module, name, site))
    calls = call_types([w.module for w in wrapped], ctx, [k for k in defs if k.kind != "plain"])
    for kdef in sorted(defs, key=lambda k: _position(ctx, k)):
        own = calls.get(id(kdef), [])
        for inst in instances(ctx, kdef, own):
            lower_kernel(ctx, kdef, res, inst, [c.location for c in own])
    return res, bindings


def _position(ctx, kdef) -> tuple:
    r = ctx.positions.get(kdef.site if kdef.site is not None else kdef.node)
    return (r.start.line, r.start.column) if r is not None else (0, 0)


def _unique_names(defs: list) -> None:
    """Kernels of one name defined in several places (`kernel` in two test functions) are told apart
    by where they are: their enclosing definitions (`test_add.kernel`, `TestSum.test_rows.kernel`)."""
    count: dict = {}
    for k in defs:
        count[k.name] = count.get(k.name, 0) + 1
    for k in defs:
        if count[k.name] > 1 and k.scope:
            k.name = k.qualname


def _device_function(kdef) -> bool:
    import libcst as cst

    v = kdef.options.get("device")
    return isinstance(v, cst.Name) and v.value == "True"


def _parse(text: str, path: str):
    """The file's modules and its syntax errors.  A file that does not parse is cut into its
    top-level definitions (each parsed alone, at its own lines): a syntax error then costs only its
    own definition."""
    import libcst as cst

    from ...diagnostics import Diagnostic, Location

    try:
        return [cst.parse_module(text)], []
    except cst.ParserSyntaxError:
        pass
    except RecursionError:
        return [], [(None, Location(path), Diagnostic("SR001", "syntax error: nesting too deep", Location(path)))]
    lines = text.splitlines(keepends=True)
    starts = [k for k, line in enumerate(lines) if line[:1] not in (" ", "\t", "\n", "\r", "#", ")", "]", "}", "")
              and not (k > 0 and lines[k - 1].rstrip().endswith(("\\", ",", "(", "[", "{")))]
    # a decorator belongs to the definition after it
    chunks, k = [], 0
    while k < len(starts):
        a = starts[k]
        while k + 1 < len(starts) and lines[starts[k]].startswith("@"):
            k += 1
        b = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunks.append((a, b))
        k += 1
    modules, broken = [], []
    for a, b in chunks:
        src = "\n" * a + "".join(lines[a:b])
        try:
            modules.append(cst.parse_module(src))
        except cst.ParserSyntaxError as e:
            loc = Location(path, e.raw_line, e.raw_column + 1)
            msg = f"syntax error: {e.message}"
            try:  # Python's own parser says it better ("'(' was never closed") and where it starts
                ast.parse(src, path)
            except SyntaxError as py:
                if py.lineno:
                    loc = Location(path, py.lineno, py.offset or 1)
                    msg = f"syntax error: {py.msg}"
            except (ValueError, RecursionError, MemoryError):
                pass
            head = "".join(lines[a:b])
            m = re.search(r"^\s*(?:async\s+)?def\s+(\w+)", head, re.M)
            if m and ("@" in head.split("def", 1)[0] or head.lstrip().startswith("def")):
                name = m.group(1)
                broken.append((name, Location(path, a + 1 + head[:m.start(1)].count("\n"), 1),
                               Diagnostic("SR001", f"`{name}`: {msg}", loc)))
            else:
                broken.append((None, loc, Diagnostic("SR001", msg, loc)))
        except RecursionError:
            loc = Location(path, a + 1, 1)
            broken.append((None, loc, Diagnostic("SR001", "syntax error: nesting too deep", loc)))
    return modules, broken


_PRAGMA = re.compile(r"#\s*staticroof\s*:\s*(.*)$")


def _pragmas(text: str, ctx) -> None:
    """`# staticroof: N=4096, x=float32`: a size's value (anywhere in the file) or a name's element
    type (for the function the comment is in, or the one whose `def` follows it)."""
    from .numba_types import dtype_name, pragma_items

    for number, line in enumerate(text.splitlines(), 1):
        if "staticroof" not in line:
            continue
        for name, value in pragma_items(line[line.find("#"):] if "#" in line else ""):
            try:
                ctx.pragma_sizes[name] = int(value, 0)
                continue
            except ValueError:
                pass
            t = dtype_name(value)
            if t is not None:
                ctx.pragma_types.setdefault(name, []).append((number, t))


def float_constant(node, constants: dict) -> float | None:
    """The float a module-level expression of number literals and earlier constants folds to
    (`1.0 / 3.0`, `2 * PI`, `-0.5`), as Python computes it when the module runs; else None."""
    import operator

    import libcst as cst

    def fold(n):
        if isinstance(n, (cst.Integer, cst.Float)):
            return n.evaluated_value
        if isinstance(n, cst.Name):
            v = constants.get(n.value)
            return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if isinstance(n, cst.UnaryOperation) and isinstance(n.operator, (cst.Minus, cst.Plus)):
            v = fold(n.expression)
            return None if v is None else (-v if isinstance(n.operator, cst.Minus) else v)
        if isinstance(n, cst.BinaryOperation):
            op = {cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
                  cst.Divide: operator.truediv}.get(type(n.operator))
            a, b = fold(n.left), fold(n.right)
            if op is None or a is None or b is None:
                return None
            try:
                return op(a, b)
            except ZeroDivisionError:
                return None
        return None

    v = fold(node)
    return v if isinstance(v, float) else None


def _constants(module, ctx) -> None:
    """Module-level `N = 1024`: Numba freezes globals, so the kernel sees N's value (a size with
    that default); float constants are literals."""
    import libcst as cst

    from .cuda import host_value

    env: dict = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for s in stmt.body:
            if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
                name = s.targets[0].target.value
                v = host_value(s.value, env, ctx.names)
                if isinstance(v, int) and name not in ctx.constants:
                    ctx.constants[name] = v
                    env[name] = v
                elif isinstance(float_constant(s.value, ctx.constants), float):  # 0.5, 1.0 / 3.0, 2 * PI
                    ctx.constants[name] = float_constant(s.value, ctx.constants)
                elif isinstance(s.value, cst.SimpleString):  # SIG = "void(float32[:], ...)"
                    ctx.strings[name] = s.value
