"""The source a traced Python kernel runs: its file's functions, undecorated, rewritten so that the
run can count what the analysis counts.

- every subscript `A[i]` becomes `_sr_sub(A, K)[i]`, K an id naming the reference: its canonical
  form (the base and its index expressions expanded, a chain `A[i][j]` as `A[i, j]`, so identical
  references compare equal as the analysis compares them) and the statement it is in;
- every `for ... in range/prange(...)` becomes `_sr_range(L, ...)`, L naming the loop, whose body's
  references are known (a new execution of the loop forgets their registers), with the arrays its
  body subscripts and those it writes, and each reference's array name and innermost loop (the
  register rule's aliasing condition, runtime.Aliasing);
- `cuda.syncthreads()` (and its `_count/_and/_or` forms, `cuda.syncwarp()`) becomes a `yield` to the
  thread scheduler (cuda.py), and a call of a function that reaches one a `yield from`;
- arrays made in the kernel (`np.zeros`, `cuda.shared.array`, ...) learn where they are made
  (`_sr_loc`, the position the analysis names them by), and a name bound to an array expression
  (`z = x * y`, `return a + b`) becomes a new array there (`_sr_bind`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ...frontends.python.kernels import imports, qualified

CONSTRUCTORS = {f"numpy.{n}" for n in ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like")} | {
    "numba.cuda.shared.array", "numba.cuda.local.array", "numba.cuda.const.array_like"}
BARRIERS = {"numba.cuda.syncthreads": None, "numba.cuda.syncwarp": None, "numba.cuda.syncthreads_count": "count",
            "numba.cuda.syncthreads_and": "and", "numba.cuda.syncthreads_or": "or"}
_LOOPS = ("range", "prange", "numba.prange")


@dataclass
class Rewritten:
    code: str
    refs: dict = field(default_factory=dict)  # subscript id -> (canonical reference, statement id)
    loops: dict = field(default_factory=dict)  # loop id -> subscript ids in its body
    generators: set = field(default_factory=set)  # functions that reach a barrier
    sites: dict = field(default_factory=dict)  # subscript id -> (array name or None, innermost loop id, function)
    arrays: dict = field(default_factory=dict)  # loop id -> (names subscripted in its body, names written)


def rewrite(module: cst.Module, names: dict | None = None, stencils: frozenset = frozenset(),
            prefer: tuple = ()) -> Rewritten:
    """The file's functions (decorators removed; nested ones, kernels defined in test functions and
    methods, taken out to the top level), rewritten as the module says; a call of one of the
    `stencils` learns where it is (its output is named after the call).  `prefer`: the enclosing
    definitions of the traced kernel, whose functions win over others of the same name."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    from ...frontends.python.kernels import nested_functions

    names = names if names is not None else imports(module)
    wrapper = MetadataWrapper(module)
    pos = wrapper.resolve(PositionProvider)
    found = [(f, tuple(s.name.value for s in scope)) for f, scope in nested_functions(wrapper.module)
             if not f.asynchronous]
    fns = [f for f, _ in found] + [f for f, path in found if path and path == tuple(prefer[:len(path)])]
    generators = _generators(fns, names)
    out = Rewritten("", generators=generators)
    transformer = _Transformer(names, pos, out, generators, stencils)
    new: list = []
    for fn in fns:
        transformer.function = fn.name.value
        new.append(fn.with_changes(decorators=[]).visit(transformer))
    out.code = cst.Module(new).code
    return out


def _generators(fns: list, names: dict) -> set:
    """Functions that reach a barrier, directly or through the file's functions they call."""
    direct, calls = set(), {}

    class V(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.barrier, self.called = False, set()

        def visit_Call(self, node) -> None:
            q = qualified(node.func, names) if isinstance(node.func, (cst.Name, cst.Attribute)) else ""
            self.barrier = self.barrier or q in BARRIERS
            if isinstance(node.func, cst.Name):
                self.called.add(node.func.value)

    for fn in fns:
        v = V()
        fn.visit(v)
        if v.barrier:
            direct.add(fn.name.value)
        calls[fn.name.value] = v.called
    out = set(direct)
    changed = True
    while changed:
        changed = False
        for name, called in calls.items():
            if name not in out and called & out:
                out.add(name)
                changed = True
    return out


def _code(node) -> str:
    return cst.Module([]).code_for_node(node)


def canonical(node) -> str:
    """An index expression in a form that identical expressions share (`j + i + 1` is `i + j + 1`)."""
    import sympy

    code = _code(node).strip()
    names: set = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n) -> None:
            names.add(n.value)

        def visit_Attribute(self, n) -> bool:
            return False

    simple = isinstance(node, (cst.Name, cst.Integer, cst.BinaryOperation, cst.UnaryOperation))
    if simple:
        node.visit(V())
        try:
            expr = sympy.sympify(code, locals={n: sympy.Symbol(n) for n in names})
            return str(sympy.expand(expr))
        except (sympy.SympifyError, SyntaxError, TypeError, ValueError, AttributeError):
            pass
    return "".join(code.split())


def _chain(node: cst.Subscript) -> tuple:
    """(base, [index element nodes]) of a subscript chain `A[i][j]` (`A`, [i, j])."""
    elems: list = []
    base: cst.BaseExpression = node
    while isinstance(base, cst.Subscript):
        elems = list(base.slice) + elems
        base = base.value
    return base, elems


def _element(e: cst.SubscriptElement) -> str:
    s = e.slice
    if isinstance(s, cst.Index):
        if isinstance(s.value, cst.Tuple):
            return ", ".join(canonical(x.value) for x in s.value.elements)
        return canonical(s.value)
    return "".join(_code(s).split())


class _Transformer(cst.CSTTransformer):
    def __init__(self, names: dict, pos, out: Rewritten, generators: set, stencils: frozenset):
        self.names, self.pos, self.out, self.generators = names, pos, out, generators
        self.stencils = stencils
        self.stmts: list = [0]
        self.next_stmt = 0
        self.open_loops: list = []
        self.next_key = 0
        self.next_loop = 0
        self.function = ""

    # -- statements: each simple statement, and each compound statement's header, is one
    def _push(self):
        self.next_stmt += 1
        self.stmts.append(self.next_stmt)

    def _pop(self):
        self.stmts.pop()

    # A statement with nothing else to rewrite only opens its number for the references inside it;
    # the ones below with more to do (Assign, Return, For) push and pop in their own methods.
    _NUMBERED = (cst.AugAssign, cst.AnnAssign, cst.Expr, cst.If, cst.While, cst.Assert)

    def on_visit(self, node) -> bool:
        if isinstance(node, self._NUMBERED):
            self._push()
        return super().on_visit(node)

    def on_leave(self, original, updated):
        if isinstance(original, self._NUMBERED):
            self._pop()
        return super().on_leave(original, updated)

    def visit_SimpleStatementLine(self, node) -> None:
        return None

    def visit_Assign(self, node) -> None:
        self._push()
        for t in node.targets:
            self._written(t.target)

    def visit_AugAssign(self, node) -> None:
        self._written(node.target)

    def _written(self, target) -> None:
        """Names of the arrays an assignment target stores to, for the loops around it."""
        if isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._written(e.value)
            return
        if isinstance(target, cst.Subscript):
            root, _ = _chain(target)
            if isinstance(root, cst.Name):
                for loop, _keys in self.open_loops:
                    self.out.arrays[loop][1].add(root.value)

    def leave_Assign(self, original, updated):
        self._pop()
        if len(updated.targets) != 1 or not isinstance(updated.targets[0].target, cst.Name):
            return updated
        value = updated.value
        if _constructor(original.value, self.names) and isinstance(value, cst.Call):
            # `t = np.zeros(n)`: the analysis names the array after the assignment, where it starts
            args = [a for a in value.args if not (a.keyword is not None and a.keyword.value == "_sr_loc")]
            return updated.with_changes(value=value.with_changes(args=[*args, _kwarg("_sr_loc", self._loc(original))]))
        if _binds(original.value, self.names):
            name = updated.targets[0].target.value
            return updated.with_changes(value=self._bind(original, name, value))
        return updated

    def visit_Return(self, node) -> None:
        self._push()

    def leave_Return(self, original, updated):
        self._pop()
        if updated.value is not None and not isinstance(original.value, cst.Name):
            return updated.with_changes(value=self._bind(original, "result", updated.value))
        return updated

    def visit_IfExp(self, node) -> None:
        return None

    # -- loops
    def visit_For(self, node) -> None:
        self._push()
        self.next_loop += 1
        self.open_loops.append((self.next_loop, set()))
        self.out.arrays[self.next_loop] = (set(), set())

    def leave_For(self, original, updated):
        self._pop()
        loop, keys = self.open_loops.pop()
        self.out.loops[loop] = keys
        it = updated.iter
        if (isinstance(it, cst.Call) and qualified(it.func, self.names) in _LOOPS) or (
                isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value == "prange"):
            assert isinstance(it, cst.Call)
            return updated.with_changes(iter=it.with_changes(
                func=cst.Name("_sr_range"), args=[cst.Arg(cst.Integer(str(loop))), *it.args]))
        return updated

    # -- references
    def leave_Subscript(self, original, updated):
        base = original.value
        if isinstance(base, cst.Attribute) and base.attr.value in ("shape", "strides"):
            return updated
        self.next_key += 1
        key = self.next_key
        root, elems = _chain(original)
        canon = _code(root) + "[" + ", ".join(_element(e) for e in elems) + "]"
        self.out.refs[key] = (canon, self.stmts[-1])
        self._site(key, root.value if isinstance(root, cst.Name) else None)
        call = cst.Call(cst.Name("_sr_sub"), [cst.Arg(updated.value), cst.Arg(cst.Integer(str(key)))])
        return updated.with_changes(value=call)

    # -- calls: barriers, atomics, arrays made in the kernel, functions that are generators
    def leave_Call(self, original, updated):
        q = qualified(original.func, self.names) if isinstance(original.func, (cst.Name, cst.Attribute)) else ""
        if q in BARRIERS:
            kind = BARRIERS[q]
            payload = None if kind is None else cst.Tuple([cst.Element(cst.SimpleString(f'"{kind}"')),
                                                           *[cst.Element(a.value) for a in updated.args[:1]]])
            return cst.Yield(payload, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if q.startswith("numba.cuda.atomic.") and len(original.args) >= 2:
            self.next_key += 1
            key = self.next_key
            canon = _code(original.args[0].value) + "[" + _index_canon(original.args[1].value) + "]"
            self.out.refs[key] = (canon, self.stmts[-1])
            target = original.args[0].value
            while isinstance(target, cst.Subscript):
                target = target.value
            name = target.value if isinstance(target, cst.Name) else None
            self._site(key, name)
            if name is not None:
                for loop, _keys in self.open_loops:
                    self.out.arrays[loop][1].add(name)
            return updated.with_changes(args=[*updated.args, _kwarg("_sr_key", cst.Integer(str(key)))])
        if q in CONSTRUCTORS or (isinstance(original.func, cst.Name) and original.func.value in self.stencils):
            return updated.with_changes(args=[*updated.args, _kwarg("_sr_loc", self._loc(original))])
        if isinstance(original.func, cst.Name) and original.func.value in self.generators:
            return cst.Yield(cst.From(updated), lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return updated

    def _site(self, key: int, name: str | None) -> None:
        for loop, keys in self.open_loops:
            keys.add(key)
            if name is not None:
                self.out.arrays[loop][0].add(name)
        inner = self.open_loops[-1][0] if self.open_loops else None
        self.out.sites[key] = (name, inner, self.function)

    def _loc(self, node) -> cst.BaseExpression:
        r = self.pos.get(node)
        line, col = (r.start.line, r.start.column + 1) if r is not None else (0, 0)
        return cst.Tuple([cst.Element(cst.Integer(str(line))), cst.Element(cst.Integer(str(col)))])

    def _bind(self, original, name: str, value):
        return cst.Call(cst.Name("_sr_bind"), [cst.Arg(self._loc(original)), cst.Arg(cst.SimpleString(f'"{name}"')),
                                               cst.Arg(value)])


def _constructor(value, names: dict) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)) and qualified(
        value.func, names) in CONSTRUCTORS


def _binds(value, names: dict) -> bool:
    """Could `name = value` bind a new array (an array expression; not an alias, a view, a
    constructor or a constant)?"""
    if isinstance(value, (cst.Name, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString, cst.Attribute)):
        return False
    return not _constructor(value, names)


def _index_canon(node) -> str:
    if isinstance(node, cst.Tuple):
        return ", ".join(canonical(e.value) for e in node.elements)
    return canonical(node)


def _kwarg(name: str, value) -> cst.Arg:
    return cst.Arg(value, keyword=cst.Name(name), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
