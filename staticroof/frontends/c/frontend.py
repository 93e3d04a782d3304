"""C front end: pycparser's AST lowered to the loop IR.

Each function definition that contains loops or array accesses is a kernel.  The lowering
evaluates integer expressions symbolically (sympy) so that indices, loop bounds and conditions
become affine expressions in loop variables and sizes; floating expressions are only *counted*
(operations by precision, special calls) and their array operands become references.  Calls to
functions defined in the same file are inlined with their arguments bound; what cannot be
modelled becomes a diagnostic and never a guess.
"""

from __future__ import annotations

import re
from functools import cached_property

from pycparser import c_ast

from ...diagnostics import Diagnostic
from ...ir import Array, Kernel
from ..common.lowering import Acc, BodyBuilder, FrontendResult, Unsupported
from ..common.tokens import integer_literal
from . import drivers, structs
from .expressions import ExpressionLowering
from .parse import parse_translation_unit
from .statements import StatementLowering
from .types import CType, TypeTable
from .values import STATEMENT_GROUPS, Var, called_names, contains, node_location, node_location_or_file


def on_cycles(graph: dict) -> set:
    """The nodes of `graph` (node -> its successors) that lie on a cycle: those of a strongly
    connected component of two or more nodes, and those with an edge to themselves.  Tarjan's
    algorithm, iterative (a call chain may be deeper than Python's recursion limit), linear in the
    nodes and edges; a plain loop instead of networkx, whose import (about 0.2 s) a file's load
    would otherwise pay for only this."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    out: set = set()
    for root in graph:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(graph[root]))]
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        out |= component
    return out


def prototype(fn: c_ast.FuncDef) -> None:
    """A K&R definition (`double dot(x, y, n) double *x, *y; int n; { ... }`) in place as its prototype:
    each identifier of the parameter list becomes its declaration from the list before the body (an
    undeclared one is `int`), so that every lowering and the trace read parameters one way."""
    args = fn.decl.type.args
    if fn.param_decls is None and not (args is not None and any(isinstance(p, c_ast.ID) for p in args.params)):
        return
    declared = {d.name: d for d in fn.param_decls or ()}
    if args is not None:
        args.params = [p if not isinstance(p, c_ast.ID) else declared.get(p.name) or c_ast.Decl(
            p.name, [], [], [], [], c_ast.TypeDecl(p.name, [], None, c_ast.IdentifierType(["int"]), p.coord),
            None, None, p.coord) for p in args.params]
    fn.param_decls = None


class TranslationUnit:
    """File-level facts every function's lowering needs."""

    def __init__(self, path: str, ext, size_macros: dict, grammars_dir: str):
        self.path = path
        self.types = TypeTable()
        self.funcs: dict[str, c_ast.FuncDef] = {}
        self.protos: dict[str, CType] = {}
        self.library: set = set()  # functions declared by the stub headers
        self.globals: dict[str, tuple] = {}  # name -> (Decl, CType)
        self.enums: dict[str, int] = {}
        self.size_macros = size_macros
        self.pragma_sizes: dict = {}
        self.bindings: dict = {}  # the user's size values (-D), for compile-time folding
        self.callsite_sizes: dict = {}  # func -> param -> (value, Location)
        self.malformed: list = []  # function bodies without a declarator of a function
        # C++ and CUDA files (set in cuda.py): name -> every definition of a name defined more than
        # once; function -> {template parameter: alias}; alias -> whether it has a default; the
        # explicit arguments of template calls
        self.overloads: dict = {}
        self.template_aliases: dict = {}
        self.template_defaults: dict = {}
        # C++ (set in cuda.py): (file, line, column) of each writable reference parameter's name
        self.references: set = set()
        self.explicit_targs: dict = {}  # call place -> explicit template arguments (cuda/templates.py)
        for node in ext:
            if isinstance(node, c_ast.Typedef):
                self.types.typedefs[node.name] = node.type
            elif isinstance(node, c_ast.FuncDef) and not isinstance(node.decl.type, c_ast.FuncDecl):
                self.malformed.append(node)  # `name { ... }`: pycparser's implicit int, no parameter list
            elif isinstance(node, c_ast.FuncDef):
                prototype(node)
                self.funcs[node.decl.name] = node
                self.protos[node.decl.name] = self.types.resolve(node.decl.type.type)
            elif isinstance(node, c_ast.Decl):
                if isinstance(node.type, c_ast.FuncDecl):
                    self.protos.setdefault(node.name, self.types.resolve(node.type.type))
                    c = node.coord
                    if c is not None and c.file and c.file.startswith(grammars_dir):
                        self.library.add(node.name)
                elif node.name:
                    self.globals[node.name] = (node, self.types.resolve(node.type))
                else:  # `struct S {...};`: remembered for layouts
                    self.types.resolve(node.type)
                self._enums(node.type)
            elif isinstance(node, c_ast.Pragma):
                self._pragma(node.string)

    def _enums(self, t):
        while isinstance(t, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = t.type
        if isinstance(t, c_ast.Enum) and t.values is not None:
            v = 0
            for e in t.values.enumerators:
                if e.value is not None:
                    got = integer_literal(str(getattr(e.value, "value", "")))
                    v = v if got is None else got
                self.enums[e.name] = v
                v += 1

    def _pragma(self, text: str):
        m = re.match(r"\s*staticroof\s+sizes?\s+(.*)$", text or "")
        if m:
            for name, value in re.findall(r"([A-Za-z_]\w*)\s*=\s*(-?\d+)", m.group(1)):
                self.pragma_sizes[name] = int(value)

    @cached_property
    def recursive(self) -> set:
        """Functions on a cycle of the call graph: their calls are not followed."""
        calls = {name: sorted(c for c in called_names(fn) if c in self.funcs) for name, fn in self.funcs.items()}
        return on_cycles(calls)

    def is_kernel(self, fn: c_ast.FuncDef) -> bool:
        return contains(fn.body, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.ArrayRef))


# ---------------------------------------------------------------------------------------------
# Lowering one function

class FunctionLowering(StatementLowering, ExpressionLowering, BodyBuilder):
    # declared for the mixins' `self: FunctionLowering` (set in __init__)
    acc: Acc  # the statement being assembled
    cond_why: str  # why the last condition was not modeled
    depth: int
    in_loop_body: bool
    final: object

    def __init__(self, tu: TranslationUnit, kernel: Kernel, fn: c_ast.FuncDef, stack=(),
                 bindings: dict | None = None, gscope: dict | None = None):
        self.tu = tu
        self.kernel = kernel
        self.fn = fn
        self.stack = tuple(stack) + (fn.decl.name,)
        self.scopes: list[dict] = [{}]
        self.loop_syms: set = set()
        self.rebased: dict = {}  # loop variable -> (start, step) of a loop counted by its trips (_loop_header)
        self.acc = Acc()
        self.out: list = []  # the body being built (a stack via _nested)
        self.depth = 0  # loops of this function (not of its callers) around the current statement
        self.in_loop_body = False  # is the block being lowered a loop's body itself?
        self.opaque: dict = {}  # symbol -> why it may not appear in an index, bound or condition
        self.folded: set = set()  # compile-time sizes folded to their value (SR115, said once)
        self.cond_why = ""
        self.group = next(STATEMENT_GROUPS)
        items = fn.body.block_items or []
        self.final = items[-1] if items else None  # a `return` here ends the function normally
        self.gscope = {} if gscope is None else gscope  # file-scope variables, shared with callees
        self._params(bindings)

    def diag(self, code: str, message: str, node=None):
        self.kernel.diag(code, message, node_location(node, self.tu.path))

    def lookup(self, name: str) -> Var | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.gscope.get(name)

    def bind(self, name: str, var: Var):
        self.scopes[-1][name] = var

    def stmt_loc(self, node):
        return node_location(node, self.tu.path)

    def new_array(self, name: str, ctype: CType, space: str, node) -> str:
        name = self.unique_array_name(name)
        elem = ctype.element()
        dtype = elem.prec if elem.kind in ("float", "int", "vector") else "uint8"
        dims = tuple(self.dim_expr(d) for d in ctype.all_dims())
        self.kernel.arrays[name] = Array(name, dtype, dims, space, node_location(node, self.tu.path))
        return name

    def class_sizeof(self, cls: CType) -> int | None:
        """The bytes of an object of the class type `cls` (views.py: a class pointer over a buffer):
        None, as C has no classes; the CUDA lowering, whose class model knows them, overrides this."""
        return None

    def class_conversion(self, v, to: CType, node):
        """`v`, an object of a class type, converted to the type `to` (views.py): unchanged, as C
        has no classes; the CUDA lowering calls the class's conversion operator."""
        return v

    def dim_expr(self, node):
        if node is None:
            return None
        try:
            v = self.value(node, Acc())
        except Unsupported:
            return None
        return v.expr

    def _params(self, bindings):
        decl = self.fn.decl.type
        params = decl.args.params if decl.args is not None else []
        for p in params:
            if isinstance(p, c_ast.EllipsisParam) or p.name is None:
                continue
            t = self.tu.types.resolve(p.type)
            if bindings is not None and p.name in bindings:
                self.bind(p.name, bindings[p.name])
                continue
            if bindings is None:
                self.kernel.params.append(p.name)
            if t.is_pointer:
                name = self.new_array(p.name, t, "global", p)
                self.kernel.arrays[name].restrict = "restrict" in (getattr(p.type, "quals", None) or [])
                self.bind(p.name, Var(t, array=name))
            elif t.is_int:
                self.bind(p.name, Var(t, value=self.size_symbol(p.name)))
            elif t.kind == "struct":
                self.bind(p.name, structs.variable(self, p.name, t, "param"))
            else:
                self.bind(p.name, Var(t))

    def emit(self, node=None):
        """Close the statement being assembled and append it to the current body."""
        self.close_statement(node)
        self.acc = Acc()

    def nested(self, items, scope=True, loop_body=False) -> list:
        saved_out, saved_acc, saved_body = self.out, self.acc, self.in_loop_body
        self.out, self.acc, self.in_loop_body = [], Acc(), loop_body
        if scope:
            self.scopes.append({})
        try:
            self.block(items)
            self.emit()
            return self.out
        finally:
            if scope:
                self.scopes.pop()
            self.out, self.acc, self.in_loop_body = saved_out, saved_acc, saved_body


# ---------------------------------------------------------------------------------------------
# Entry point

def lower_translation_unit(path: str, text: str, size_macros: dict, grammars_dir: str,
                           language: str = "c", bindings: dict | None = None, lowering=None,
                           setup=None) -> FrontendResult:
    """Every function of the file lowered (those without loops or array accesses become drivers).
    `lowering(tu, kernel, fn)` and `setup(tu, ext)` are the C++ front end's (cuda/host.py): its class
    model over the C lowering, and the file's class types and overloads."""
    res = FrontendResult()
    ext, diags, failed = parse_translation_unit(text, path)
    res.diagnostics.extend(diags)
    res.failed.extend(failed)
    tu = TranslationUnit(path, ext, size_macros, grammars_dir)
    tu.bindings = dict(bindings or {})
    if setup is not None:
        setup(tu, ext)
    for fn in tu.malformed:
        res.diagnostics.append(Diagnostic("SR001", f"syntax error: `{fn.decl.name} {{`: a body without a parameter "
                                          "list is not a function definition", node_location(fn.decl, path)))
    for name, fn in tu.funcs.items():
        if fn.coord is not None and fn.coord.file and fn.coord.file.startswith(grammars_dir):
            continue
        kernel = Kernel(name, language, node_location_or_file(fn.decl, path))
        try:
            kernel.body = (lowering or FunctionLowering)(tu, kernel, fn).lower()
        except (Unsupported, RecursionError) as e:
            if tu.is_kernel(fn):
                what = f"unsupported {e}" if isinstance(e, Unsupported) else "expression nesting too deep"
                node = getattr(e, "node", None)
                d = Diagnostic("SR002", f"`{name}`: {what}", node_location(node, path) if node else kernel.location)
                res.failed.append((name, kernel.location, d))
            continue
        res.kernels.append(kernel)  # with no loop and no array access it is a driver (see drivers.py)
    res.drivers = drivers.find(res, tu)
    for kernel in res.kernels:
        for pname, (value, loc) in tu.callsite_sizes.get(kernel.name, {}).items():
            s = kernel.sizes.get(pname)
            if s is not None and s.default is None:
                s.default = value
                s.origin = f"call at {loc}"
        for name, value in tu.pragma_sizes.items():
            s = kernel.sizes.get(name)
            if s is not None:
                s.default = value
                s.origin = "pragma"
    return res
