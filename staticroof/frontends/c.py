"""C front end: pycparser's AST lowered to the loop IR.

Each function definition that contains loops or array accesses is a kernel.  The lowering
evaluates integer expressions symbolically (sympy) so that indices, loop bounds and conditions
become affine expressions in loop variables and sizes; floating expressions are only *counted*
(operations by precision, special calls) and their array operands become references.  Calls to
functions defined in the same file are inlined with their arguments bound; what cannot be
modelled becomes a diagnostic and never a guess.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Optional

import sympy
from pycparser import c_ast

from .. import costs
from ..diagnostics import Diagnostic, Location
from ..ir import Array, Guard, Kernel, Loop, Ref, Size, Stmt
from . import drivers, folding, outputs, recovery, structs, switch
from .ctypes_ import FLOAT, INT, VOID, CType, TypeTable, arith
from .parse import PRELUDE, parse_translation_unit, split_units  # noqa: F401 (the front ends' API)
from .preprocess import SIZE_MARK
from .views import convert, resolve_views


class Unsupported(Exception):
    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.node = node


# ---------------------------------------------------------------------------------------------
# Values and variables during lowering

@dataclass
class Var:
    ctype: CType
    value: Optional[sympy.Expr] = None  # integers: symbolic value; None = unknown
    why: str = ""  # integers: why the value is unknown
    array: Optional[str] = None  # pointers/arrays: the kernel array they point into
    prefix: tuple = ()  # subscripts already applied (a row pointer `A[i]`)
    offset: object = 0  # added to the next subscript (`x + k`)
    key: Optional[str] = None  # floating-point locals: a name unique in the kernel (see ir.Stmt.scalars)
    record: object = None  # structs: their members (structs.StructVar)


@dataclass
class Val:
    ctype: CType
    expr: Optional[sympy.Expr] = None
    why: str = ""
    array: Optional[str] = None
    prefix: tuple = ()
    offset: object = 0
    element: Optional[tuple] = None  # an lvalue array element: (array, index tuple | None, reason)
    record: object = None  # a struct or a struct member (structs.StructVar, InMemory, Slot)


@dataclass
class Acc:
    """The statement being assembled: operations and references in evaluation order."""

    flops: dict = field(default_factory=dict)
    special: dict = field(default_factory=dict)
    refs: list = field(default_factory=list)
    scalars: list = field(default_factory=list)  # (key, "read" | "write") of floating-point locals

    def empty(self) -> bool:
        """No work and no memory traffic (scalar uses alone do not count)."""
        return not (self.flops or self.special or self.refs)

    def reset(self) -> None:
        self.flops, self.special, self.refs, self.scalars = {}, {}, [], []

    def use_scalar(self, var, kind: str) -> None:
        if var is not None and var.key is not None:
            self.scalars.append((var.key, kind))

    def flop(self, prec: str, n: int = 1) -> None:
        self.flops[prec] = self.flops.get(prec, 0) + n


def _loc(node, fallback: str = "") -> Optional[Location]:
    c = getattr(node, "coord", None)
    if c is None:
        return Location(fallback) if fallback else None
    return Location(c.file or fallback, c.line or 0, c.column or 0)


def _contains(node, types) -> bool:
    if isinstance(node, types):
        return True
    return any(_contains(child, types) for _, child in node.children())


def _called(node) -> set:
    out = set()

    def visit(n):
        if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID):
            out.add(n.name.name)
        for _, child in n.children():
            visit(child)

    visit(node)
    return out


def _assigned_names(node) -> tuple[set, set]:
    """(names assigned, names declared) anywhere under `node`."""
    assigned, declared = set(), set()

    def visit(n):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, (c_ast.ID, c_ast.StructRef)):
            assigned.add(structs.assigned_root(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and isinstance(
                n.expr, (c_ast.ID, c_ast.StructRef)):
            assigned.add(structs.assigned_root(n.expr))
        elif isinstance(n, c_ast.Decl) and n.name:
            declared.add(n.name)
        for _, child in n.children():
            visit(child)

    visit(node)
    return assigned, declared


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
        for node in ext:
            if isinstance(node, c_ast.Typedef):
                self.types.typedefs[node.name] = node.type
            elif isinstance(node, c_ast.FuncDef):
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
                    try:
                        v = int(str(e.value.value).rstrip("uUlL"), 0)
                    except (AttributeError, ValueError):
                        pass
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
        edges = [(name, callee) for name, fn in self.funcs.items() for callee in _called(fn) if callee in self.funcs]
        if not edges:
            return set()
        import networkx as nx  # only files with calls between their own functions pay for it

        graph = nx.DiGraph(edges)
        out = set()
        for comp in nx.strongly_connected_components(graph):
            if len(comp) > 1 or any(graph.has_edge(f, f) for f in comp):
                out |= comp
        return out

    def is_kernel(self, fn: c_ast.FuncDef) -> bool:
        return _contains(fn.body, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.ArrayRef))


# ---------------------------------------------------------------------------------------------
# Lowering one function

_GROUPS = itertools.count(1)  # source-statement ids (see ir.Stmt.group)
_SCALARS = itertools.count(1)  # floating-point locals (see Var.key)

_CMP = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "==": sympy.Eq, "!=": sympy.Ne}


class FunctionLowering:
    def __init__(self, tu: TranslationUnit, kernel: Kernel, fn: c_ast.FuncDef, stack=(),
                 bindings: Optional[dict] = None, gscope: Optional[dict] = None):
        self.tu = tu
        self.kernel = kernel
        self.fn = fn
        self.stack = tuple(stack) + (fn.decl.name,)
        self.scopes: list[dict] = [{}]
        self.loop_syms: set = set()
        self.acc = Acc()
        self.out: list = []  # the body being built (a stack via _nested)
        self.depth = 0  # loops of this function (not of its callers) around the current statement
        self.in_loop_body = False  # is the block being lowered a loop's body itself?
        self.opaque: dict = {}  # symbol -> why it may not appear in an index, bound or condition
        self.folded: set = set()  # compile-time sizes folded to their value (SR115, said once)
        self.cond_why = ""
        self.group = next(_GROUPS)
        items = fn.body.block_items or []
        self.final = items[-1] if items else None  # a `return` here ends the function normally
        self.gscope = {} if gscope is None else gscope  # file-scope variables, shared with callees
        self._params(bindings)

    # -- helpers -------------------------------------------------------------------------
    def diag(self, code: str, message: str, node=None):
        self.kernel.diag(code, message, _loc(node, self.tu.path))

    def lookup(self, name: str) -> Optional[Var]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.gscope.get(name)

    def bind(self, name: str, var: Var):
        self.scopes[-1][name] = var

    def size_symbol(self, name: str, default=None, origin="parameter") -> sympy.Symbol:
        sizes = self.kernel.sizes
        if name not in sizes:
            sizes[name] = Size(name, default, origin)
        elif default is not None and sizes[name].default is None:
            sizes[name].default = default
        return sympy.Symbol(name)

    def new_array(self, name: str, ctype: CType, space: str, node) -> str:
        base, k = name, 1
        while name in self.kernel.arrays:
            k += 1
            name = f"{base}#{k}"
        elem = ctype.element()
        dtype = elem.prec if elem.kind in ("float", "int", "vector") else "uint8"
        dims = tuple(self.dim_expr(d) for d in ctype.all_dims())
        self.kernel.arrays[name] = Array(name, dtype, dims, space, _loc(node, self.tu.path))
        return name

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

    def opaque_reason(self, exprs) -> str:
        """Why these integer expressions cannot be used as affine expressions ("" if they can)."""
        for e in exprs:
            if e is None:
                continue
            for sym in sympy.sympify(e).free_symbols:
                if sym in self.opaque:
                    return self.opaque[sym]
        return ""

    def emit(self, node=None):
        """Close the statement being assembled and append it to the current body."""
        if not self.acc.empty() or any(kind == "write" for _, kind in self.acc.scalars):
            self.out.append(Stmt(self.acc.flops, self.acc.special, self.acc.refs, _loc(node, self.tu.path),
                                 self.group, tuple(self.acc.scalars)))
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

    # -- statements ----------------------------------------------------------------------
    def lower(self) -> list:
        body = self.nested(self.fn.body.block_items or [], scope=False)
        if self.folded and self.stack[:-1] == ():
            # a compile-time size folded somewhere is folded everywhere, for one coherent formula
            subs = {sympy.Symbol(n): self.tu.bindings.get(n, self.kernel.sizes[n].default) for n in self.folded}
            _substitute(body, subs)
        if self.stack[:-1] == ():
            resolve_views(self.kernel, body)
        return body

    def block(self, items):
        items = list(items or [])
        for k, node in enumerate(items):
            if isinstance(node, c_ast.If):
                split = recovery.guarded(self, node, lambda n, rest=items[k + 1:]: self._split_at_exit(n, rest))
                if split:
                    return
                if split is None:  # an `if` whose condition is not modeled: dropped (SR123)
                    continue
            self.statement(node)

    def _exit_here(self, branch) -> bool:
        """Does `branch` end with an exit this block can model as a guard?  A `return` can, outside
        loops (it skips the rest of the function); a `continue` can, at the top level of a loop body
        (it skips the rest of the iteration).  A `return` inside a loop ends every later iteration,
        which no guard can say: that is left to an SR102 warning."""
        kind = _exits(branch) if branch is not None else None
        return (kind == "return" and self.depth == 0) or (kind == "continue" and self.in_loop_body)

    def _split_at_exit(self, node: c_ast.If, rest) -> bool:
        """`if (c) {A; exit;} else {B} rest` == `if (c) {A} else {B; rest}` (and symmetrically)."""
        t_exit, e_exit = self._exit_here(node.iftrue), self._exit_here(node.iffalse)
        if not (t_exit or e_exit):
            return False
        then = _strip_exit(node.iftrue) if t_exit else [node.iftrue] + rest
        orelse = _strip_exit(node.iffalse) if e_exit else ([node.iffalse] if node.iffalse is not None else []) + rest
        self.guard(node, then, orelse)
        return True

    def statement(self, node):
        """One source statement; a construct it does not model costs only it (see recovery.py)."""
        recovery.guarded(self, node, self._statement)

    def _statement(self, node):
        self.group = next(_GROUPS)
        if node is None or isinstance(node, (c_ast.EmptyStatement, c_ast.Pragma)):
            if isinstance(node, c_ast.Pragma):
                self.tu._pragma(node.string)
            return
        if isinstance(node, c_ast.Compound):
            self.emit(node)
            self.out.extend(self.nested(node.block_items or []))
        elif isinstance(node, c_ast.Decl):
            self.declaration(node)
            self.emit(node)
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self.declaration(d)
            self.emit(node)
        elif isinstance(node, c_ast.For):
            self.emit(node)
            self.for_loop(node)
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            self.emit(node)
            self.while_loop(node)
        elif isinstance(node, c_ast.If):
            self.emit(node)
            self.guard(node)
        elif isinstance(node, c_ast.Return):
            if node.expr is not None:
                self.value(node.expr, self.acc)
            self.emit(node)
            if self.depth:
                self.diag("SR102", "`return` inside a loop: the remaining iterations are counted as if executed", node)
            elif node is not self.final:
                self.diag("SR102", "`return` before the end of the function: what follows is counted as if executed",
                          node)
        elif isinstance(node, c_ast.Break):
            if self.depth:
                self.diag("SR102", "`break`: the loop is counted over its full range (an upper bound)", node)
        elif isinstance(node, c_ast.Continue):
            if self.depth:
                self.diag("SR102", "`continue` here is not modeled: the rest of the iteration is counted as if "
                          "executed", node)
        elif isinstance(node, c_ast.Switch):
            self.emit(node)
            switch.lower(self, node)
        elif isinstance(node, c_ast.Label):  # the label is nothing; a `goto` to it is SR123
            self.statement(node.stmt)
        elif isinstance(node, (c_ast.Goto, c_ast.Case, c_ast.Default)):
            raise Unsupported(f"`{type(node).__name__.lower()}` statement", node)
        elif isinstance(node, (c_ast.Typedef,)):
            self.tu.types.typedefs[node.name] = node.type
        else:
            self.value(node, self.acc)
            self.emit(node)

    def declaration(self, d: c_ast.Decl):
        if d.name is None or isinstance(d.type, c_ast.FuncDecl):
            return
        t = self.tu.types.resolve(d.type)
        if t.kind == "array":
            dims = [self.dim_expr(x) for x in t.all_dims()]
            const = all(x is not None and self.compile_time(x).is_Integer for x in dims)
            space = "local" if const else "global"
            name = self.new_array(d.name, t, space, d)
            self.bind(d.name, Var(t, array=name))
            if d.init is not None and not isinstance(d.init, c_ast.InitList):
                self.value(d.init, self.acc)
            return
        if t.kind == "ptr":
            var = Var(t)
            if d.init is not None:
                v = convert(self, self.value(d.init, self.acc), t, d)  # `float *s = (float *)src`, `= buf`
                if v.array is not None:
                    var = Var(t, array=v.array, prefix=v.prefix, offset=v.offset, why=v.why)
                elif _is_alloc(d.init):
                    var = Var(t, array=self.new_array(d.name, t, "global", d))
            self.bind(d.name, var)
            return
        if t.kind == "auto" and d.init is not None:  # `auto x = e;` takes the type of e
            v = self.value(d.init, self.acc)
            t = replace(v.ctype, literal=False)
            if t.is_pointer and v.array is not None:
                self.bind(d.name, Var(t, array=v.array, prefix=v.prefix, offset=v.offset))
                return
            var = Var(t, value=v.expr if t.is_int else None, why=v.why, key=self._scalar_key(d.name, t))
            self.acc.use_scalar(var, "write")
            self.bind(d.name, var)
            return
        if t.kind == "struct":
            return structs.declare(self, d, t)
        var = Var(t, key=self._scalar_key(d.name, t))
        if d.init is not None and not isinstance(d.init, c_ast.InitList):
            v = self.value(d.init, self.acc)
            if t.is_int:
                var.value, var.why = (v.expr, v.why) if v.ctype.is_int else (None, "converted from a float")
            elif folding.local(self, d, t, v) is not None:  # `const float c = 1.0f / 3.0f;` is c's value
                var = Var(folding.local(self, d, t, v))
            self.acc.use_scalar(var, "write")
        elif t.is_int:
            var.why = f"`{d.name}` is not initialized"
        self.bind(d.name, var)

    @staticmethod
    def _scalar_key(name: str, t) -> Optional[str]:
        return f"{name}#{next(_SCALARS)}" if t.is_float and not t.is_vector else None

    def guard(self, node: c_ast.If, then_items=None, else_items=None):
        cond = self.condition(node.cond, self.acc)
        self.emit(node)
        if cond is None and self.cond_why:
            self.diag("SR113", f"condition not decidable without the launch configuration: {self.cond_why}; "
                      "both branches are counted", node.cond)
        elif cond is None:
            self.diag("SR104", "condition depends on data; both branches are counted", node.cond)
        self.cond_why = ""
        if then_items is None:
            then_items = [node.iftrue]
            else_items = [node.iffalse] if node.iffalse is not None else []
        then = self.nested(then_items, scope=True, loop_body=self.in_loop_body)
        orelse = self.nested(else_items, scope=True, loop_body=self.in_loop_body)
        if cond is not None and cond == sympy.true:
            self.out.extend(then)
        elif cond is not None and cond == sympy.false:
            self.out.extend(orelse)
        elif then or orelse:
            self.out.append(Guard(cond, then, orelse, _loc(node, self.tu.path)))

    def _invalidate(self, body_nodes, keep=()):
        """Integer variables and pointers assigned inside a loop body are unknown inside it."""
        assigned, declared = set(), set()
        for n in body_nodes:
            if n is not None:
                a, d = _assigned_names(n)
                assigned |= a
                declared |= d
        for name in assigned - declared - set(keep):
            var = self.lookup(name)
            if var is None:
                continue
            if var.ctype.is_int:
                self.bind(name, replace(var, value=None, why=f"`{name}` changes inside the loop"))
            elif var.record is not None:
                self.bind(name, structs.invalidate(var, name))
            elif var.ctype.is_pointer and var.array is not None:
                self.bind(name, replace(var, prefix=None))

    def for_loop(self, node: c_ast.For):
        if _mult_step(node.next)[0] is not None and self._unroll(node):
            return
        self.scopes.append({})
        try:
            header = self._loop_header(node)
            if header is None:
                self._unknown_loop(node, [node.stmt, node.next], node.init)
                return
            name, start, step, cond = header
            var, body = self.loop_body(node, name)
            cond_v = cond.xreplace({sympy.Symbol(f"__loopvar_{name}"): var})
            self.out.append(Loop(var, start, cond_v, step, body, "seq", _loc(node, self.tu.path)))
        finally:
            self.scopes.pop()
        v = self.lookup(name)
        if v is not None and v.ctype.is_int:
            self.bind(name, replace(v, value=None, why=f"`{name}` after its loop"))

    def loop_body(self, node: c_ast.For, name: str):
        """(loop variable symbol, lowered body) of a counted loop whose variable is `name`."""
        var = sympy.Dummy(name)
        self.scopes.append({})
        self._invalidate([node.stmt], keep=())
        self.bind(name, Var(self.lookup(name).ctype if self.lookup(name) else INT, value=var))
        self.loop_syms.add(var)
        self.depth += 1
        try:
            return var, self.nested(_body_items(node.stmt), loop_body=True)
        finally:
            self.depth -= 1
            self.loop_syms.discard(var)
            self.scopes.pop()

    def _unroll(self, node: c_ast.For, limit: int = 64) -> bool:
        """Unroll a loop whose variable is multiplied or shifted (`s >>= 1`, `s *= 2`) when its start
        value is a known constant: its values are then a short known sequence (a tree reduction's
        `for (s = 128; s > 0; s >>= 1)` runs 8 times).  False if the values are not known."""
        name, op, factor = _mult_step(node.next)
        self.scopes.append({})
        try:
            acc = Acc()
            start = None
            inits = node.init.decls if isinstance(node.init, c_ast.DeclList) else (
                [node.init] if node.init is not None else [])
            for it in inits:
                if isinstance(it, c_ast.Decl):
                    self.declaration(it)
                else:
                    self.value(it, acc)
            var = self.lookup(name)
            start = var.value if var is not None and var.ctype.is_int else None
            if start is not None:
                start = self.compile_time(start)  # `BLOCK_SIZE / 2` with BLOCK_SIZE #defined
            if start is None or not start.is_Integer or not acc.empty() or node.cond is None:
                return False
            values, v = [], int(start)
            placeholder = sympy.Symbol(f"__loopvar_{name}")
            self.scopes.append({name: Var(INT, value=placeholder)})
            try:
                cond = self.condition(node.cond, Acc())
            finally:
                self.scopes.pop()
            if cond is None:
                return False
            cond = self.compile_time(cond) if not isinstance(cond, bool) else cond
            if op in ("<<", ">>") and not 0 <= factor < 64:
                return False
            while len(values) <= limit:
                holds = cond.subs(placeholder, v)
                if holds not in (sympy.true, sympy.false):
                    return False
                if holds == sympy.false:
                    break
                values.append(v)
                v = {"*": v * factor, "/": int(v / factor), "<<": v << factor, ">>": v >> factor}[op]
            else:
                return False
            assigned, declared = _assigned_names(node.stmt)
            if name in assigned and name not in declared:
                return False
            self.emit(node)
            for v in values:
                self.scopes.append({name: Var(var.ctype, value=sympy.Integer(v))})
                try:
                    self.out.extend(self.nested(_body_items(node.stmt)))
                finally:
                    self.scopes.pop()
            return True
        finally:
            self.scopes.pop()

    def _loop_header(self, node: c_ast.For, fixed_step=None):
        """(var name, start, step, cond) for an affine counted loop, else None (with a diagnostic).
        `fixed_step` replaces the increment's value (a CUDA grid-stride loop steps once per thread)."""
        nxt = node.next
        name, step = _step_of(nxt)
        if name is None:
            self.diag("SR102", "loop increment is not of the form `i++`, `i--`, `i += c` or `i -= c`", node)
            return None
        # initialisation
        start = None
        inits = []
        if isinstance(node.init, c_ast.DeclList):
            inits = node.init.decls
        elif node.init is not None:
            inits = node.init.exprs if isinstance(node.init, c_ast.ExprList) else [node.init]
        for it in inits:
            if isinstance(it, c_ast.Decl):
                self.declaration(it)
                if it.name == name:
                    start = self.lookup(name).value
            else:
                self.value(it, self.acc)
                if isinstance(it, c_ast.Assignment) and isinstance(it.lvalue, c_ast.ID) and it.lvalue.name == name:
                    start = self.lookup(name).value
        self.emit(node)
        if not inits or start is None:
            var = self.lookup(name)
            start = var.value if var is not None and var.ctype.is_int else None
        if start is None or self.opaque_reason([start]):
            why = self.opaque_reason([start]) or "it is not affine"
            self.diag("SR102", f"the start value of `{name}` is unknown: {why}", node)
            return None
        step_v = fixed_step if fixed_step is not None else (
            step if isinstance(step, int) else self._folded_step(step, node))
        if step_v is None or not sympy.sympify(step_v).is_Integer:
            self.diag("SR102", f"the step of `{name}` is not a constant", node)
            return None
        step_v = int(step_v)
        if step_v == 0:
            self.diag("SR109", "loop step is zero", node)
            return None
        assigned, declared = _assigned_names(node.stmt)
        if name in assigned and name not in declared:
            self.diag("SR102", f"`{name}` is modified inside the loop body", node)
            return None
        if node.cond is None:
            self.diag("SR103", "loop has no exit condition", node)
            return None
        # condition, with the loop variable as a placeholder symbol
        placeholder = sympy.Symbol(f"__loopvar_{name}")
        self.scopes.append({name: Var(INT, value=placeholder)})
        try:
            cond = self.condition(node.cond, self.acc)
        finally:
            self.scopes.pop()
        self.acc = Acc()  # a loop condition reading arrays is rare; its reads are not counted
        if cond is None:
            self.diag("SR102", "the loop condition is not affine", node.cond)
            return None
        cond = _monotone(cond, placeholder, step_v)
        if cond is None:
            self.diag("SR109", f"the condition of `{name}` does not bound it in the direction of its step", node.cond)
            return None
        return name, sympy.expand(start), step_v, cond

    def _unknown_loop(self, node, body_nodes, init=None):
        line = node.coord.line if node.coord else 0
        sym = self.size_symbol(f"trip_L{line}", origin="trip count")
        t = sympy.Dummy("t")
        self.scopes.append({})
        try:
            self._invalidate(body_nodes)
            self.loop_syms.add(t)
            self.depth += 1
            items = _body_items(body_nodes[0]) + [b for b in body_nodes[1:] if b is not None]
            body = self.nested(items, loop_body=True)
            self.depth -= 1
            self.loop_syms.discard(t)
        finally:
            self.scopes.pop()
        self._invalidate(body_nodes)
        self.out.append(Loop(t, sympy.Integer(0), sympy.Lt(t, sym), 1, body, "seq", _loc(node, self.tu.path)))

    def while_loop(self, node):
        kind = "while" if isinstance(node, c_ast.While) else "do-while"
        line = node.coord.line if node.coord else 0
        self.diag("SR103", f"`{kind}` loop: trip count modeled as the size `trip_L{line}`", node)
        self._invalidate([node.stmt, node.cond])
        cond_stmt = c_ast.Compound([node.cond], coord=node.cond.coord) if node.cond is not None else None
        self._unknown_loop(node, [node.stmt, cond_stmt])

    # -- expressions ---------------------------------------------------------------------
    def condition(self, node, acc: Acc):
        """A sympy boolean if `node` is an affine condition on integers, else None (reads recorded)."""
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            a = self.condition(node.left, acc)
            b = self.condition(node.right, acc)
            if a is None or b is None:
                return None
            return sympy.And(a, b) if node.op == "&&" else sympy.Or(a, b)
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            a = self.condition(node.expr, acc)
            return None if a is None else sympy.Not(a)
        if isinstance(node, c_ast.BinaryOp) and node.op in _CMP:
            a = self.value(node.left, acc)
            b = self.value(node.right, acc)
            if a.ctype.is_int and b.ctype.is_int and a.expr is not None and b.expr is not None:
                why = self.opaque_reason([a.expr, b.expr])
                if why:
                    self.cond_why = why
                    return None
                lhs, rhs = self.compared(a.expr, b.expr, node)
                if _affine(lhs - rhs, self.loop_syms, allow_size_products=True):
                    return _CMP[node.op](lhs, rhs)
            return None
        v = self.value(node, acc)
        if v.ctype.is_int and v.expr is not None and _affine(v.expr, self.loop_syms, True):
            return sympy.Ne(v.expr, 0)
        return None

    def load(self, v: Val, acc: Acc, node) -> Val:
        """Use `v` as an rvalue: an array element becomes a read."""
        if v.ctype.kind == "struct":
            return structs.load(self, v, acc, node)
        if v.element is not None:
            array, index, why = v.element
            for idx in _lanes_of(index, v.ctype):
                acc.refs.append(Ref(array, idx, "read", _loc(node, self.tu.path), why))
            return Val(v.ctype, why=f"read from `{array}`")
        return v

    def value(self, node, acc: Acc) -> Val:
        return self.load(self.expr(node, acc), acc, node)

    def expr(self, node, acc: Acc) -> Val:
        m = getattr(self, "_e_" + type(node).__name__, None)
        if m is None:
            raise Unsupported(f"expression `{type(node).__name__}`", node)
        return m(node, acc)

    def _e_Constant(self, node, acc):
        t, text = node.type, node.value
        if t in ("float", "double", "long double"):
            return Val(replace(FLOAT["fp32" if t == "float" else "fp64"], literal=True))
        if t == "char":
            return Val(INT, sympy.Integer(_char_value(text)))
        if t == "string":
            return Val(CType("ptr", base=INT))
        digits = text.rstrip("uUlL")
        try:
            v = int(digits, 8) if re.match(r"^0[0-7]+$", digits) else int(digits, 0)
        except ValueError:
            return Val(INT, why=f"constant {text}")
        return Val(INT, sympy.Integer(v))

    def _e_ID(self, node, acc):
        name = node.name
        var = self.lookup(name)
        if var is None:
            if name in self.tu.enums:
                return Val(INT, sympy.Integer(self.tu.enums[name]))
            if name in self.tu.globals:
                var = self._global(name)
            elif name in self.tu.funcs or name in self.tu.protos:
                return Val(CType("other", "function"))
            else:
                default = self.tu.pragma_sizes.get(name)
                return Val(INT, self.size_symbol(name, default, origin="undeclared identifier"))
        if var.ctype.is_pointer and var.array is not None:
            if var.prefix is None:
                return Val(var.ctype, why=var.why or "pointer changes inside the loop", array=var.array, prefix=None)
            return Val(var.ctype, array=var.array, prefix=var.prefix, offset=var.offset)
        if var.ctype.is_int:
            return Val(var.ctype, var.value, var.why)
        if var.record is not None:
            return Val(var.ctype, record=var.record)
        acc.use_scalar(var, "read")
        return Val(var.ctype)

    def _global(self, name) -> Var:
        decl, t = self.tu.globals[name]
        if t.is_pointer:
            var = Var(t, array=self.new_array(name, t, "global", decl))
        elif t.is_int:
            default = None
            if decl.init is not None:
                v = self.value(decl.init, Acc())
                default = int(v.expr) if v.expr is not None and v.expr.is_Integer else None
            if "const" in (decl.quals or []) and default is not None:
                var = Var(t, value=self.size_symbol(name, default, origin="global constant"))
            else:
                var = Var(t, value=self.size_symbol(name, default, origin="global variable"))
        elif t.kind == "struct":
            var = structs.variable(self, name, t, "global")
        else:
            var = Var(folding.global_type(self, decl, t))  # `static const float k = 1.0f / 3.0f;`
        self.gscope[name] = var
        return var

    def _e_FuncCall(self, node, acc):
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        args = node.args.exprs if node.args is not None else []
        if name == SIZE_MARK:
            size = args[0].name
            default = int(args[1].value.rstrip("uUlL"), 0)
            return Val(INT, self.size_symbol(size, default, origin="macro"))
        if name is None:
            raise Unsupported("call through a function pointer", node)
        if name in self.tu.funcs:
            return self._inline(name, node, args, acc)
        entry = costs.classify(name)
        if entry is not None and entry["kind"] == "outputs":  # sincosf(x, &s, &c): see outputs.py
            return outputs.lower(self, name, entry, node, args, acc)
        vals = [self.value(a, acc) for a in args]
        ret = self.tu.protos.get(name)
        if entry is not None:
            if ret is None or not ret.is_float:
                ret = _guess_math_type(name, vals)
            if folding.call(self, vals, ret) is not None:  # `sqrtf(2.0f / M_PI)`
                return folding.call(self, vals, ret)
            # (C only: CUDA's C++ math library overloads `sqrt(float)` to the float function)
            if ret.prec == "fp64" and self.kernel.language == "c" and costs.classify(name + "f") is not None:
                lower = next((v.ctype.prec for v in vals if v.ctype.is_float and v.ctype.prec != "fp64"), None)
                if lower is not None:  # C converts the argument: `sqrt(x)` of a float is the fp64 function
                    self.diag("SR107", f"`{name}` of {lower} runs in fp64 (`{name}f` is the fp32 function)", node)
            if entry["kind"] == "special":
                key = (name, ret.prec)
                acc.special[key] = acc.special.get(key, 0) + 1
            elif entry["kind"] == "fma":
                acc.flop(ret.prec, entry["flops"])
            return Val(ret)
        if name in ("malloc", "calloc", "realloc", "aligned_alloc", "alloca"):
            return Val(CType("ptr", base=VOID))
        if name in ("memcpy", "memmove", "memset"):
            self.diag("SR105", f"`{name}` moves memory the analysis does not count", node)
        elif name not in self.tu.library:
            self.diag("SR105", f"call to `{name}`, which is not defined in this file: its work is not counted", node)
        return Val(ret or INT, why=f"result of `{name}`")

    def sub_lowering(self, callee, bindings) -> "FunctionLowering":
        """The lowering of an inlined callee: same kernel, its own scopes, the caller's loops."""
        sub = type(self)(self.tu, self.kernel, callee, self.stack, bindings, self.gscope)
        sub.loop_syms = set(self.loop_syms)
        sub.opaque = self.opaque
        sub.folded = self.folded
        return sub

    def _with_defaults(self, expr):
        """An integer argument's value using the sizes' defaults (`ni = NI` with `#define NI 1000`)."""
        if expr is None:
            return None
        subs = {}
        for sym in expr.free_symbols:
            size = self.kernel.sizes.get(sym.name)
            if size is None or size.default is None:
                return None
            subs[sym] = size.default
        v = expr.subs(subs)
        return int(v) if v.is_Integer else None

    def callee(self, name, node, args, vals) -> c_ast.FuncDef:
        """The definition a call of `name` takes (C defines a name once; see CudaLowering)."""
        return self.tu.funcs[name]

    def recursive_call(self, name, callee) -> bool:
        return name in self.stack or name in self.tu.recursive

    def _inline(self, name, node, args, acc):
        vals = [self.value(a, acc) for a in args]
        callee = self.callee(name, node, args, vals)
        if self.recursive_call(name, callee):
            self.diag("SR106", f"recursive call to `{name}` is not followed", node)
            return Val(self.tu.protos.get(name) or INT, why="recursive call")
        decl = callee.decl.type
        params = [p for p in (decl.args.params if decl.args is not None else [])
                  if not isinstance(p, c_ast.EllipsisParam) and p.name is not None]
        bindings = {}
        for p, a, v in zip(params, args, vals):
            t = self.tu.types.resolve(p.type)
            if t.is_pointer:
                v = convert(self, v, t, a)
                if v.array is not None:
                    bindings[p.name] = Var(t, array=v.array, prefix=v.prefix, offset=v.offset)
            elif t.is_int:
                const = self._with_defaults(v.expr)
                if const is not None:
                    self.tu.callsite_sizes.setdefault(name, {})[p.name] = (const, _loc(node, self.tu.path))
                bindings[p.name] = Var(t, value=v.expr, why=v.why or f"argument `{p.name}` of `{name}`")
            else:
                bindings[p.name] = Var(t, record=structs.argument(v, p.name))
        saved = self.acc
        self.acc = acc
        self.emit(node)  # what the statement did before the call happens before the callee
        sub = self.sub_lowering(callee, bindings)
        self.out.extend(sub.lower())
        acc.reset()
        self.acc = acc if saved is acc else saved
        ret = self.tu.protos.get(name) if callee is self.tu.funcs[name] else self.tu.types.resolve(decl.type)
        return Val(ret or VOID, why=f"result of `{name}`")

    def _e_ArrayRef(self, node, acc):
        subs = []
        base = node
        while isinstance(base, c_ast.ArrayRef):
            subs.append(base.subscript)
            base = base.name
        subs.reverse()
        b = self.value(base, acc)
        idx_vals = [self.value(s, acc) for s in subs]
        return self._subscript(b, idx_vals, node)

    def _subscript(self, b: Val, idx_vals, node) -> Val:
        if b.array is None:
            if isinstance(node, c_ast.ArrayRef) and isinstance(node.name, c_ast.StructRef):
                raise Unsupported("array inside a struct", node)
            raise Unsupported("subscript of something that is not a known array", node)
        arr_t = b.ctype
        exprs = []
        why = b.why if b.prefix is None else ""
        for v in idx_vals:
            if not v.ctype.is_int or v.expr is None:
                why = why or (v.why or "index is not an integer expression")
            exprs.append(v.expr)
        if b.prefix is None:
            why = why or "pointer changes inside the loop"
        full = list(b.prefix or ()) + exprs
        if full and not why:
            k = len(b.prefix or ())
            # offsets are in the array's own elements; a vector pointer steps `lanes` of them
            full[k] = full[k] * _lanes(arr_t) + b.offset
            why = self.opaque_reason(full)
        rank = self.kernel_rank(b.array)
        if len(full) < rank:
            return Val(arr_t, array=b.array, prefix=tuple(full) if not why else None, offset=0, why=why)
        elem = arr_t.element()
        index = None
        if not why:
            index = tuple(sympy.expand(e) for e in full)
            for e in index:
                if not _affine(e, self.loop_syms, allow_size_products=True, allow_linearized=True):
                    why = f"index `{e}` is not affine in the loop variables"
                    index = None
                    break
        if index is None:
            self.diag("SR101", f"`{b.array}`: {why}; each access counts as a new element", node)
        return Val(elem, element=(b.array, index, why))

    def kernel_rank(self, array: str) -> int:
        return max(1, len(self.kernel.arrays[array].dims))

    def _e_UnaryOp(self, node, acc):
        op = node.op
        if op == "sizeof":
            t = self.tu.types.resolve(node.expr) if isinstance(node.expr, c_ast.Typename) else \
                self.expr(node.expr, Acc()).ctype
            n = structs.sizeof(self.tu, t) if t.kind == "struct" else None
            return Val(INT, sympy.Integer(n if n is not None else _sizeof(t)))
        if op == "&":
            v = self.expr(node.expr, acc)
            if v.element is not None:
                array, index, why = v.element
                if index is None:
                    return Val(CType("ptr", base=v.ctype), array=array, prefix=None, why=why)
                return Val(CType("ptr", base=v.ctype), array=array, prefix=index[:-1], offset=index[-1])
            return Val(CType("ptr", base=v.ctype))
        if op == "*":
            b = self.value(node.expr, acc)
            if b.array is None:
                raise Unsupported("dereference of something that is not a known array", node)
            return self._subscript(b, [Val(INT, sympy.Integer(0))], node)
        if op in ("++", "--", "p++", "p--"):
            target = self.expr(node.expr, acc)
            return self._update(node.expr, target, "+" if "+" in op else "-", Val(INT, sympy.Integer(1)), acc, node)
        v = self.value(node.expr, acc)
        if op == "-":
            return Val(v.ctype, -v.expr if v.expr is not None else None, v.why)
        if op == "+":
            return v
        if op == "!":
            return Val(INT, why="logical not")
        if op == "~":
            return Val(INT, -v.expr - 1 if v.expr is not None else None, v.why)
        raise Unsupported(f"unary operator `{op}`", node)

    def _e_BinaryOp(self, node, acc):
        op = node.op
        a = self.value(node.left, acc)
        b = self.value(node.right, acc)
        return self._binary(op, a, b, acc, node)

    def _binary(self, op, a: Val, b: Val, acc, node) -> Val:
        folded = folding.binary(self, op, a, b)  # `1.0f / 3.0f`: the compiler's work, not the kernel's
        if folded is not None:
            return folded
        if op in ("+", "-", "*", "/") and (a.ctype.is_float or b.ctype.is_float):
            t = arith(a.ctype, b.ctype)
            acc.flop(t.prec)
            if t.prec == "fp64":
                for x, y in ((a, b), (b, a)):
                    if x.ctype.is_float and x.ctype.prec != "fp64" and y.ctype.prec == "fp64":
                        what = "a double literal" if y.ctype.literal else "a double operand"
                        self.diag("SR107", f"`{op}` on {x.ctype.prec} and {what} runs in fp64", node)
                        break
            return Val(t)
        if op in ("+", "-") and (a.array is not None or b.array is not None):
            p, q = (a, b) if a.array is not None else (b, a)
            if q.expr is None or p.prefix is None:
                return Val(p.ctype, array=p.array, prefix=None, why=q.why or p.why)
            off = p.offset + _lanes(p.ctype) * (q.expr if op == "+" else -q.expr)
            return Val(p.ctype, array=p.array, prefix=p.prefix, offset=off)
        if op in _CMP or op in ("&&", "||"):
            return Val(INT, why="comparison")
        if a.ctype.is_int and b.ctype.is_int:
            if op in ("*", "/", "%") and a.expr is not None and b.expr is not None:
                a, b = self._fold_constants(op, a, b, node)
            return Val(INT, *_int_op(op, a, b))
        return Val(INT, why=f"`{op}` on non-numbers")

    _COMPILE_TIME = ("macro", "global constant", "template argument")

    def compile_time(self, expr):
        """`expr` with every compile-time size replaced by its value (a runtime size stays)."""
        subs = {}
        for sym in sympy.sympify(expr).free_symbols:
            size = self.kernel.sizes.get(sym.name)
            if size is not None and size.origin in self._COMPILE_TIME:
                value = self.tu.bindings.get(sym.name, size.default)
                if value is not None:
                    subs[sym] = value
        return sympy.sympify(expr).subs(subs) if subs else sympy.sympify(expr)

    def _folded_step(self, step_node, node):
        """A loop step given by a compile-time size (`k += ROWS`) is that size's value."""
        v = self.value(step_node, Acc())
        if v.expr is None or v.expr.is_Integer:
            return v.expr
        one = Val(INT, sympy.Integer(1))
        _, folded = self._fold_constants("/", one, v, node)
        return folded.expr

    def _fold_constants(self, op, a: Val, b: Val, node):
        """A compile-time size (a `#define`d, `const` or template value) that scales a loop index,
        or divides one, is folded to its value as the compiler does: `blockIdx.x * TILE` and
        `i / TILE` stay affine.  Runtime sizes (parameters) stay symbols."""
        def varying(e):
            return bool(e.free_symbols & (self.loop_syms | set(self.opaque)))

        def fold(e):
            return self.fold(e, node, "scales or divides a loop index")

        if op == "*" and varying(a.expr) and not varying(b.expr):
            b = replace(b, expr=fold(b.expr))
        elif op == "*" and varying(b.expr) and not varying(a.expr):
            a = replace(a, expr=fold(a.expr))
        elif op in ("/", "%") and not b.expr.is_Integer:
            b = replace(b, expr=fold(b.expr))
        return a, b

    def fold(self, e, node, where: str):
        """`e` with its compile-time sizes replaced by their values (SR115, said once per size)."""
        subs = {}
        for sym in e.free_symbols:
            size = self.kernel.sizes.get(sym.name)
            if size is not None and size.origin in self._COMPILE_TIME:
                value = self.tu.bindings.get(sym.name, size.default)
                if value is not None:
                    subs[sym] = value
                    if sym.name not in self.folded:
                        self.folded.add(sym.name)
                        self.diag("SR115", f"`{sym.name}` is folded to {value} where it {where} (a compile-time "
                                  "constant)", node)
        return e.subs(subs) if subs else e

    def compared(self, a, b, node):
        """The two sides of an integer comparison, as the analysis should see them (a front end may
        fold compile-time sizes a thread index is compared with)."""
        return a, b

    def _e_Assignment(self, node, acc):
        rhs = self.value(node.rvalue, acc)
        if isinstance(node.lvalue, c_ast.ID):  # a plain store does not read the variable
            target = self.expr(node.lvalue, Acc())
            if node.op != "=":
                acc.use_scalar(self.lookup(node.lvalue.name), "read")
        else:
            target = self.expr(node.lvalue, acc)
        if node.op == "=":
            return self._store(node.lvalue, target, rhs, acc, node)
        return self._update(node.lvalue, target, node.op[:-1], rhs, acc, node)

    def _update(self, lnode, target: Val, op, rhs: Val, acc, node) -> Val:
        """`target op= rhs`: read the old value, combine, store."""
        old = self.load(target, acc, lnode) if target.element is not None else target
        new = self._binary(op, old, rhs, acc, node)
        return self._store(lnode, target, new, acc, node)

    def _store(self, lnode, target: Val, v: Val, acc, node) -> Val:
        if target.record is not None or target.ctype.kind == "struct":
            return structs.store(self, lnode, target, v, acc, node)
        if target.element is not None:
            array, index, why = target.element
            for idx in _lanes_of(index, target.ctype):
                acc.refs.append(Ref(array, idx, "write", _loc(lnode, self.tu.path), why))
            return v
        if isinstance(lnode, c_ast.ID):
            var = self.lookup(lnode.name)
            if var is None and lnode.name in self.tu.globals:
                var = self._global(lnode.name)
            if var is None:
                return v
            acc.use_scalar(var, "write")
            if var.ctype.is_int:
                new = replace(var, value=v.expr if v.ctype.is_int else None,
                              why=v.why if v.ctype.is_int else "converted from a float")
            elif var.ctype.is_pointer:
                v = convert(self, v, var.ctype, node)
                if v.array is not None:
                    new = replace(var, array=v.array, prefix=v.prefix, offset=v.offset)
                elif _is_alloc(node.rvalue if isinstance(node, c_ast.Assignment) else None):
                    new = replace(var, array=self.new_array(lnode.name, var.ctype, "global", node), prefix=(), offset=0)
                else:
                    new = replace(var, prefix=None)
            else:
                new = var
            self._assign_in_scope(lnode.name, new)
        return v

    def _assign_in_scope(self, name, var):
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = var
                return
        if name in self.gscope:
            self.gscope[name] = var
            return
        self.scopes[-1][name] = var

    def _e_Cast(self, node, acc):
        t = self.tu.types.resolve(node.to_type)
        v = self.value(node.expr, acc)
        if t.is_int:
            return Val(t, v.expr if v.ctype.is_int else None, v.why or "converted from a float")
        if t.is_pointer:
            return convert(self, replace(v, ctype=t), t, node)
        return Val(folding.cast(self, v, t))

    def _e_TernaryOp(self, node, acc):
        cond = self.condition(node.cond, acc)
        a_acc, b_acc = Acc(), Acc()
        a = self.value(node.iftrue, a_acc)
        b = self.value(node.iffalse, b_acc)
        acc.scalars.extend(a_acc.scalars + b_acc.scalars)  # conservative: a use in either branch
        if a.ctype.is_int and b.ctype.is_int and cond is not None and a.expr is not None and b.expr is not None:
            result = Val(INT, why="conditional value")
        else:
            result = Val(arith(a.ctype, b.ctype) if (a.ctype.is_float or b.ctype.is_float) else a.ctype,
                         why="conditional value")
        if a_acc.empty() and b_acc.empty():
            return result
        if a_acc.flops == b_acc.flops and a_acc.special == b_acc.special and not a_acc.refs and not b_acc.refs:
            for p, n in a_acc.flops.items():
                acc.flop(p, n)
            return result
        if cond is not None and acc is self.acc:
            # an affine condition: each branch's work runs only where its condition holds
            self.emit(node)
            loc = _loc(node, self.tu.path)
            then = [Stmt(a_acc.flops, a_acc.special, a_acc.refs, loc, self.group)] if not a_acc.empty() else []
            orelse = [Stmt(b_acc.flops, b_acc.special, b_acc.refs, loc, self.group)] if not b_acc.empty() else []
            if cond == sympy.true:
                self.out.extend(then)
            elif cond == sympy.false:
                self.out.extend(orelse)
            else:
                self.out.append(Guard(cond, then, orelse, loc))
            scalars = acc.scalars
            acc.reset()  # the rest of the statement goes on in `acc`
            acc.scalars = scalars
            self.acc = acc
            return result
        self.diag("SR104", "`?:` condition depends on data and its branches differ in work or traffic; "
                  "both are counted", node)
        for p in set(a_acc.flops) | set(b_acc.flops):
            acc.flop(p, max(a_acc.flops.get(p, 0), b_acc.flops.get(p, 0)))
        for k in set(a_acc.special) | set(b_acc.special):
            acc.special[k] = acc.special.get(k, 0) + max(a_acc.special.get(k, 0), b_acc.special.get(k, 0))
        acc.refs.extend(a_acc.refs + b_acc.refs)
        return result

    def _e_ExprList(self, node, acc):
        v = Val(VOID)
        for e in node.exprs:
            v = self.value(e, acc)
        return v

    def _e_StructRef(self, node, acc):
        return structs.member(self, node, self.expr(node.name, acc), acc)

    def _e_CompoundLiteral(self, node, acc):
        raise Unsupported("compound literal", node)

    def _e_Typename(self, node, acc):
        return Val(self.tu.types.resolve(node))


# ---------------------------------------------------------------------------------------------
# Small pure helpers

def _exits(node):
    """"return" or "continue" if `node` always ends with one, else None."""
    if isinstance(node, c_ast.Return):
        return "return"
    if isinstance(node, c_ast.Continue):
        return "continue"
    if isinstance(node, c_ast.Compound) and node.block_items:
        return _exits(node.block_items[-1])
    return None


def _body_items(stmt) -> list:
    if stmt is None:
        return []
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


def _strip_exit(node) -> list:
    """The branch without its final `return`/`continue` (a returned expression is still evaluated)."""
    if isinstance(node, (c_ast.Return, c_ast.Continue)):
        return [node.expr] if isinstance(node, c_ast.Return) and node.expr is not None else []
    items = list(node.block_items or [])
    last = items.pop()
    if isinstance(last, c_ast.Return) and last.expr is not None:
        items.append(last.expr)
    return [c_ast.Compound(items, node.coord)]


def _lanes(ptr: CType) -> int:
    """Array elements per step of a pointer (4 for `float4 *` into a float array)."""
    elem = ptr.base if ptr.kind == "ptr" else ptr.element()
    return elem.lanes if elem is not None and elem.is_vector else 1


def _lanes_of(index, ctype: CType):
    """The element indices a load/store of `ctype` at `index` touches (a vector touches several)."""
    if index is None or not ctype.is_vector or ctype.lanes == 1:
        return [index]
    return [index[:-1] + (index[-1] + k,) for k in range(ctype.lanes)]


def _is_alloc(node) -> bool:
    while isinstance(node, c_ast.Cast):
        node = node.expr
    return (isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID)
            and node.name.name in ("malloc", "calloc", "realloc", "aligned_alloc", "alloca"))


def _step_of(nxt):
    """(loop variable name, step) from a for-loop increment, or (None, None)."""
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID):
        if nxt.op in ("++", "p++"):
            return nxt.expr.name, 1
        if nxt.op in ("--", "p--"):
            return nxt.expr.name, -1
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID):
        name = nxt.lvalue.name
        if nxt.op in ("+=", "-="):
            return name, _signed(nxt.rvalue, -1 if nxt.op == "-=" else 1)
        if nxt.op == "=" and isinstance(nxt.rvalue, c_ast.BinaryOp) and nxt.rvalue.op in ("+", "-"):
            r = nxt.rvalue
            if isinstance(r.left, c_ast.ID) and r.left.name == name:
                return name, _signed(r.right, -1 if r.op == "-" else 1)
            if r.op == "+" and isinstance(r.right, c_ast.ID) and r.right.name == name:
                return name, _signed(r.left, 1)
    return None, None


def _substitute(nodes, subs: dict) -> None:
    """Replace symbols throughout an IR body, in place."""
    for n in nodes:
        if isinstance(n, Loop):
            n.start, n.cond = n.start.xreplace(subs), n.cond.xreplace(subs)
            _substitute(n.body, subs)
        elif isinstance(n, Guard):
            if n.cond is not None:
                n.cond = n.cond.xreplace(subs)
            _substitute(n.then, subs)
            _substitute(n.orelse, subs)
        elif isinstance(n, Stmt):
            for r in n.refs:
                if r.index is not None:
                    r.index = tuple(sympy.sympify(e).xreplace(subs) for e in r.index)


def _mult_step(nxt):
    """(name, op, factor) for `s >>= c`, `s <<= c`, `s *= c`, `s /= c` or `s = s op c`, else Nones."""
    ops = {">>=": ">>", "<<=": "<<", "*=": "*", "/=": "/"}
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID):
        name, r = nxt.lvalue.name, nxt.rvalue
        if nxt.op in ops and isinstance(r, c_ast.Constant) and r.type == "int":
            return name, ops[nxt.op], int(r.value.rstrip("uUlL"), 0)
        if (nxt.op == "=" and isinstance(r, c_ast.BinaryOp) and r.op in (">>", "<<", "*", "/")
                and isinstance(r.left, c_ast.ID) and r.left.name == name
                and isinstance(r.right, c_ast.Constant) and r.right.type == "int"):
            return name, r.op, int(r.right.value.rstrip("uUlL"), 0)
    return None, None, None


def _signed(node, sign):
    if isinstance(node, c_ast.Constant) and node.type == "int":
        return sign * int(node.value.rstrip("uUlL"), 0)
    if sign == 1:
        return node
    return c_ast.UnaryOp("-", node, node.coord)


def _monotone(cond, var, step):
    """Check (and normalise `!=`) so the condition holds for a prefix of the iterations."""
    conjuncts = list(cond.args) if isinstance(cond, sympy.And) else [cond]
    out = []
    for c in conjuncts:
        if not isinstance(c, sympy.Rel) or var not in c.free_symbols:
            if isinstance(c, (sympy.Or, sympy.Not)) and var in c.free_symbols:
                return None
            out.append(c)
            continue
        diff = sympy.expand(c.lhs - c.rhs)
        a = diff.coeff(var)
        if not a.is_Integer or a == 0 or var in (diff - a * var).free_symbols:
            return None
        rel = c.rel_op
        if rel == "!=":
            if abs(step) != 1 or abs(a) != 1:
                return None
            rel = "<" if (a > 0) == (step > 0) else ">"
        if rel == "==":
            return None
        upper = (rel in ("<", "<=")) == (a > 0)  # bounds the variable from above
        if upper != (step > 0):
            return None
        out.append(sympy.Rel(diff, 0, rel))
    return sympy.And(*out) if len(out) > 1 else out[0]


def _affine(expr, loop_syms, allow_size_products=False, allow_linearized=False) -> bool:
    expr = sympy.expand(sympy.sympify(expr))
    for term in sympy.Add.make_args(expr):
        factors = sympy.Mul.make_args(term)
        loops = [f for f in factors if f.free_symbols & loop_syms]
        others = [f for f in factors if not f.is_Number and not (f.free_symbols & loop_syms)]
        if len(loops) > 1:
            return False
        if loops:
            f = loops[0]
            if isinstance(f, (sympy.floor, sympy.Mod)):
                if not _affine(f.args[0], loop_syms) or (isinstance(f, sympy.Mod) and not f.args[1].is_Integer):
                    return False
            elif not f.is_Symbol:
                return False
            if others and not allow_linearized:
                return False
        elif others and len(others) > 1 and not allow_size_products:
            return False
    return True


def _int_op(op, a: Val, b: Val):
    x, y = a.expr, b.expr
    if x is None or y is None:
        return None, a.why or b.why
    if op == "+":
        return x + y, ""
    if op == "-":
        return x - y, ""
    if op == "*":
        return sympy.expand(x * y), ""
    if op == "/":
        if y.is_Integer and y > 0:
            return sympy.floor(x / y), ""
        if x.is_Integer and y.is_Integer and y != 0:
            return sympy.Integer(int(x / y)), ""
        return None, "division by a non-constant"
    if op == "%":
        if y.is_Integer and y > 0:
            return sympy.Mod(x, y), ""
        return None, "remainder by a non-constant"
    if op in ("<<", ">>") and y.is_Integer and not 0 <= y < 64:  # undefined in C: never evaluated
        return None, f"shift by {y} bits (undefined for a 64-bit integer)"
    if op == "<<" and y.is_Integer and y >= 0:
        return x * 2 ** int(y), ""
    if op == ">>" and y.is_Integer and y >= 0:
        return sympy.floor(x / 2 ** int(y)), ""
    if op == "&" and y.is_Integer and y > 0 and (int(y) + 1) & int(y) == 0:
        return sympy.Mod(x, int(y) + 1), ""
    return None, f"`{op}` on integers"


def _char_value(text: str) -> int:
    body = text.strip("'")
    if body.startswith("\\"):
        esc = {"n": 10, "t": 9, "0": 0, "r": 13, "\\": 92, "'": 39}
        return esc.get(body[1:2], 0)
    return ord(body[0]) if body else 0


def _sizeof(t: CType) -> int:
    from ..ir import DTYPE_BYTES

    if t.kind == "array":
        return 8
    if t.kind == "ptr":
        return 8
    if t.kind in ("float", "int"):
        return DTYPE_BYTES.get(t.prec, 4)
    return 1


def _guess_math_type(name: str, vals) -> CType:
    if name.endswith("f") and name[:-1] in costs.table():
        return FLOAT["fp32"]
    return FLOAT["fp64"]


# ---------------------------------------------------------------------------------------------
# Entry point

@dataclass
class FrontendResult:
    kernels: list = field(default_factory=list)  # Kernel
    failed: list = field(default_factory=list)  # (name, Location, Diagnostic) for unsupported kernels
    diagnostics: list = field(default_factory=list)  # file-level
    drivers: set = field(default_factory=set)  # names of `main` and other drivers (see drivers.py)


def lower_translation_unit(path: str, text: str, size_macros: dict, grammars_dir: str,
                           language: str = "c", bindings: Optional[dict] = None) -> FrontendResult:
    res = FrontendResult()
    ext, diags, failed = parse_translation_unit(text, path)
    res.diagnostics.extend(diags)
    res.failed.extend(failed)
    tu = TranslationUnit(path, ext, size_macros, grammars_dir)
    tu.bindings = dict(bindings or {})
    for name, fn in tu.funcs.items():
        if fn.coord is not None and fn.coord.file and fn.coord.file.startswith(grammars_dir):
            continue
        kernel = Kernel(name, language, _loc(fn.decl, path))
        try:
            kernel.body = FunctionLowering(tu, kernel, fn).lower()
        except (Unsupported, RecursionError) as e:
            if tu.is_kernel(fn):
                what = f"unsupported {e}" if isinstance(e, Unsupported) else "expression nesting too deep"
                node = getattr(e, "node", None)
                d = Diagnostic("SR002", f"`{name}`: {what}", _loc(node, path) if node else kernel.location)
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

