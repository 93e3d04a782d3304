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


def kernel_of(fn: cst.FunctionDef, names: dict):
    """The KernelDef for a decorated Numba function, or None."""
    for deco in fn.decorators:
        expr = deco.decorator
        call = expr if isinstance(expr, cst.Call) else None
        target = qualified(call.func if call is not None else expr, names)
        kind = DECORATORS.get(target)
        if kind is None:
            continue
        sigs, options = [], {}
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
        return KernelDef(fn.name.value, fn, kind, sigs, options)
    return None


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
