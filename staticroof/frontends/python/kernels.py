"""Which functions of a Python file are kernels: the Numba decorators, in every import spelling
(`from numba import njit`, `import numba as nb`, `from numba import cuda`, `from numba.cuda import
jit`), with or without arguments and signatures.  Names are resolved through the file's own
imports, so a local function called `njit` is not Numba's."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

# fully qualified decorator -> kind
DECORATORS = {
    "numba.njit": "cpu", "numba.jit": "cpu", "numba.generated_jit": "cpu",
    "numba.cuda.jit": "cuda",
    "numba.vectorize": "vectorize", "numba.guvectorize": "guvectorize",
    "numba.cuda.vectorize": "vectorize",
    "numba.stencil": "stencil",
}


def imports(module: cst.Module) -> dict:
    """Local name -> qualified name for every import in the file (at any depth: imports inside
    `try:` or a function count too)."""
    out: dict = {}

    class Visitor(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                full = dotted(alias.name)
                if alias.asname is not None:
                    out[alias.asname.name.value] = full  # type: ignore[union-attr]
                else:
                    out.setdefault(full.split(".")[0], full.split(".")[0])

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
                if isinstance(node.names, cst.ImportStar) and node.module is not None:
                    base = dotted(node.module)
                    for name in ("njit", "jit", "prange", "cuda", "vectorize", "guvectorize", "stencil"):
                        if base == "numba":
                            out.setdefault(name, f"numba.{name}")
                return
            base = dotted(node.module)
            for alias in node.names:
                name = dotted(alias.name)
                local = alias.asname.name.value if alias.asname is not None else name  # type: ignore[union-attr]
                out[local] = f"{base}.{name}"

    module.visit(Visitor())
    return out


def dotted(node) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{dotted(node.value)}.{node.attr.value}"
    return ""


def qualified(node, names: dict) -> str:
    """`nb.cuda.jit` -> "numba.cuda.jit" through the file's imports ("" for other expressions)."""
    if isinstance(node, cst.Name):
        return names.get(node.value, node.value)
    if isinstance(node, cst.Attribute):
        base = qualified(node.value, names)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


@dataclass
class KernelDef:
    name: str
    node: cst.FunctionDef
    kind: str  # cpu | cuda | vectorize | guvectorize | stencil | plain (--all-functions)
    signatures: list = field(default_factory=list)  # decorator signature expressions (cst nodes)
    options: dict = field(default_factory=dict)  # keyword arguments of the decorator
    # where it is defined: the enclosing functions and classes (outermost first), and the name the
    # kernel is bound to there (`f` of `f = njit(g)`: `name` is then `f`, `node` is `g`)
    scope: tuple = ()
    site: cst.CSTNode | None = None  # the def, or the `f = njit(g)` statement's call
    bound: str = ""  # the name the kernel is called by in its scope (`name` may be qualified)

    def __post_init__(self) -> None:
        self.bound = self.bound or self.name

    @property
    def qualname(self) -> str:
        """`test_saxpy.saxpy`, `TestBlas.test_axpy.axpy`: the kernel's enclosing definitions and its
        name (Python's `__qualname__` without `<locals>`)."""
        return ".".join([s.name.value for s in self.scope] + [self.bound])


def kernel_of(fn: cst.FunctionDef, names: dict):
    """The KernelDef for a decorated Numba function, or None."""
    for deco in fn.decorators:
        found = decorator_kind(deco.decorator, names)
        if found is not None:
            kind, sigs, options = found
            return KernelDef(fn.name.value, fn, kind, sigs, options, site=fn)
    return None


def decorator_kind(expr, names: dict):
    """(kind, signatures, options) of a Numba decorator expression (`njit`, `cuda.jit("void(f4[:])")`,
    `vectorize([...], target="cpu")`), else None."""
    call = expr if isinstance(expr, cst.Call) else None
    kind = DECORATORS.get(qualified(call.func if call is not None else expr, names))
    if kind is None:
        return None
    sigs: list = []
    options: dict = {}
    if call is not None:
        for arg in call.args:
            if arg.keyword is not None:
                options[arg.keyword.value] = arg.value
                if arg.keyword.value in ("signature", "signatures", "sig", "ftylist"):
                    sigs.extend(_signature_list(arg.value))
            elif not sigs and not options:
                sigs.extend(_signature_list(arg.value))
            elif kind == "guvectorize" and isinstance(arg.value, cst.SimpleString):
                options["layout"] = arg.value
    return kind, sigs, options


def wrapped_call(value, names: dict):
    """`njit(g)`, `njit(sig)(g)`, `cuda.jit(device=True)(g)`, `vectorize([...])(g)`: (kind, signatures,
    options, the wrapped function's name), else None."""
    if not isinstance(value, cst.Call) or len(value.args) != 1 or value.args[0].keyword is not None \
            or not isinstance(value.args[0].value, cst.Name):
        return None
    target = value.args[0].value.value
    if isinstance(value.func, cst.Call):  # njit(sig)(g): the inner call is the decorator
        found = decorator_kind(value.func, names)
    else:  # njit(g): the decorator itself, applied
        found = decorator_kind(value.func, names)
    return None if found is None else (*found, target)


def kernel_defs(module: cst.Module, names: dict) -> list:
    """Every kernel of the module wherever it is defined (at the top level, in functions, methods,
    class bodies, `with`/`if`/`try`/`for` blocks), decorated or made by a call (`f = njit(g)`,
    `f = njit(sig)(g)`), in source order."""
    out: list = []

    def visit(body, scope: tuple, visible: dict) -> None:
        local = {**visible, **{s.name.value: s for s in body if isinstance(s, cst.FunctionDef)}}
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                kdef = kernel_of(stmt, names)
                if kdef is not None:
                    kdef.scope = scope
                    out.append(kdef)
                visit(block_of(stmt), scope + (stmt,), local)
            elif isinstance(stmt, cst.ClassDef):
                visit(block_of(stmt), scope + (stmt,), visible)
            elif isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(
                            small.targets[0].target, cst.Name):
                        found = wrapped_call(small.value, names)
                        fn = local.get(found[3]) if found is not None else None
                        if fn is not None:
                            kind, sigs, options, _ = found
                            out.append(KernelDef(small.targets[0].target.value, fn, kind, sigs, options, scope,
                                                 small.value))
            else:
                for inner in nested_blocks(stmt):
                    visit(inner, scope, local)

    visit(module.body, (), {})
    return out


def block_of(node) -> list:
    body = node.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []


def nested_blocks(stmt) -> list:
    """The statement lists of a compound statement (`if`/`elif`/`else`, `with`, `for`, `while`, `try`)."""
    out = []
    node = stmt
    while node is not None:
        if isinstance(getattr(node, "body", None), cst.IndentedBlock):
            out.append(list(node.body.body))
        for h in getattr(node, "handlers", ()) or ():
            out.append(block_of(h))
        for extra in ("finalbody",):
            f = getattr(node, extra, None)
            if f is not None:
                out.append(block_of(f))
        orelse = getattr(node, "orelse", None)
        if isinstance(orelse, cst.If):
            node = orelse
            continue
        if orelse is not None:
            out.append(block_of(orelse))
        node = None
    return out


def nested_functions(module: cst.Module) -> list:
    """(function, its enclosing functions and classes) for every function of the module, nested or not."""
    out: list = []

    def visit(body, scope: tuple) -> None:
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                out.append((stmt, scope))
                visit(block_of(stmt), scope + (stmt,))
            elif isinstance(stmt, cst.ClassDef):
                visit(block_of(stmt), scope + (stmt,))
            elif not isinstance(stmt, cst.SimpleStatementLine):
                for inner in nested_blocks(stmt):
                    visit(inner, scope)

    visit(module.body, ())
    return out


def _signature_list(node) -> list:
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements and not _is_arg_tuple(node):
        return [e.value for e in node.elements]
    return [node]


def _is_arg_tuple(node) -> bool:
    """`(f4[:], f4[:])`: one signature written as a tuple of argument types, not a list of them."""
    return isinstance(node, cst.Tuple) and all(isinstance(e.value, (cst.Subscript, cst.Name, cst.Attribute))
                                               for e in node.elements)


def functions(module: cst.Module) -> list:
    """Every function definition at the top level or in a class or `if` block (not nested in another
    function), in source order."""
    out = []

    def visit(body):
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                out.append(stmt)
            elif isinstance(stmt, cst.ClassDef):
                visit(stmt.body.body)
            elif isinstance(stmt, (cst.If, cst.Try)) and isinstance(stmt.body, cst.IndentedBlock):
                visit(stmt.body.body)

    visit(module.body)
    return out


def has_loops_or_subscripts(fn: cst.FunctionDef) -> bool:
    """An undecorated function that `--all-functions` analyzes: loops over array subscripts."""
    found = {"loop": False, "sub": False}

    class Visitor(cst.CSTVisitor):
        def visit_For(self, node) -> None:
            found["loop"] = True

        def visit_While(self, node) -> None:
            found["loop"] = True

        def visit_Subscript(self, node) -> None:
            found["sub"] = True

    fn.visit(Visitor())
    return found["loop"] and found["sub"]
