"""Instrument C kernels so that running them counts what they really do.

Every floating `+ - * /` reports its precision as the C compiler decides it (`_Generic` on the
result's type, not staticroof's own typing), every math-library call is counted by name, and every
array element access reports its address and kind before it happens, with the right-hand side of
an assignment evaluated before the store (so a first read is seen as first).  The access-level
register rule is applied the way the analysis states it: a reference that does not change in its
innermost enclosing loop counts once per execution of that loop, unless another pointer of the loop
may alias it (aliasing.py), and identical references in one statement count once.  The output is
C (GNU statement expressions, `__typeof__`), for gcc or clang.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import ClassVar

from pycparser import c_ast, c_generator

from .. import mathlib
from .aliasing import derived_pointers, pointer_name, pointer_params, touched, unheld_condition
from .overloads import select
from .program import names_read, pointer_depth

_ARITH = ("+", "-", "*", "/")


@dataclass
class _Loop:
    var: str
    assigned: set  # names assigned or declared inside the loop (they change with it)
    token: str  # C variable holding this loop execution's instance id
    used: set = field(default_factory=set)  # pointers accessed in the loop
    written: set = field(default_factory=set)  # pointers written in the loop


@dataclass
class Instrumenter:
    specials: list = field(default_factory=list)  # site id -> function name
    groups: dict = field(default_factory=dict)  # (statement id, key) -> group id
    intrinsics: dict = field(default_factory=dict)  # CUDA: name -> entry of grammars/cuda.toml
    overloads: dict = field(default_factory=dict)  # CUDA: name -> [(C name, [parameter type])]
    constants: set = field(default_factory=set)  # names of compile-time integers (template values, enums)
    shared_static: bool = False  # CUDA: `__shared__` (lowered as `register`) becomes `static`
    cxx_math: bool = False  # CUDA: C++ overloads `sqrt(float)`, `fma(float, float, float)` to the float function
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self):
        self.gen = c_generator.CGenerator()
        self.ranks: dict = {}  # the function's names -> pointer/array rank
        self._vla_sites = itertools.count()
        self.loops: list = []
        self.pointers: dict = {}  # the function's pointer parameters -> (restrict?, depth)
        self.derived: dict = {}  # local pointers into a parameter -> the parameter
        self.stmt_token = "0"
        self.stmt_id = 0

    def fresh(self, base: str) -> str:
        return f"__sr_{base}{next(self._names)}"

    # -- functions -------------------------------------------------------------------------
    def function(self, fn: c_ast.FuncDef, register: list | None = None) -> str:
        """The instrumented definition of `fn`; `register` lists (name, rank, bytes[, element[, keep]])
        of the arrays to register on entry (the traced kernel's pointer parameters and file-scope
        arrays; bytes 0 for a parameter's region; `element` an expression of the element type, or
        None; `keep` for an array whose values are its own)."""
        head = self.gen.visit(fn.decl)
        self.ranks = {p.name: pointer_depth(p.type) for p in (fn.decl.type.args.params if fn.decl.type.args else [])
                      if isinstance(p, c_ast.Decl)}
        self.pointers = pointer_params(fn)
        self.derived = derived_pointers(fn, self.pointers)
        body = [self.register(name, rank, nbytes, *rest) for name, rank, nbytes, *rest in register or []]
        body += [self.stmt(s) for s in (fn.body.block_items or [])]
        return head + "\n{\n" + "\n".join(body) + "\n}\n"

    # -- statements ------------------------------------------------------------------------
    def stmt(self, node) -> str:
        if node is None:
            return ";"
        if isinstance(node, c_ast.Compound):
            return "{\n" + "\n".join(self.stmt(s) for s in (node.block_items or [])) + "\n}"
        if isinstance(node, c_ast.For):
            return self.loop(node)
        if isinstance(node, (c_ast.While, c_ast.DoWhile)):
            return self.loop(node)
        if isinstance(node, c_ast.If):
            return self.with_statement(lambda: f"if ({self.expr(node.cond)}) {self.stmt(node.iftrue)}"
                                       + (f" else {self.stmt(node.iffalse)}" if node.iffalse else ""))
        if isinstance(node, c_ast.Return):
            return self.with_statement(lambda: f"return {self.expr(node.expr)};" if node.expr else "return;")
        if isinstance(node, c_ast.Switch):
            return self.with_statement(lambda: f"switch ({self.expr(node.cond)}) {self.stmt(node.stmt)}")
        if isinstance(node, (c_ast.Case, c_ast.Default, c_ast.Label)):
            label = (f"case {self.gen.visit(node.expr)}:" if isinstance(node, c_ast.Case)
                     else "default:" if isinstance(node, c_ast.Default) else f"{node.name}:")
            stmts = [node.stmt] if isinstance(node, c_ast.Label) else (node.stmts or [])
            return label + " ;\n" + "\n".join(self.stmt(s) for s in stmts)
        if isinstance(node, (c_ast.Break, c_ast.Continue, c_ast.EmptyStatement, c_ast.Pragma)):
            return self.gen.visit(node) + (";" if isinstance(node, (c_ast.Break, c_ast.Continue)) else "")
        if isinstance(node, c_ast.Decl):
            return self.with_statement(lambda: self.decl(node), wrap_block=False)
        if isinstance(node, c_ast.DeclList):
            return "\n".join(self.stmt(d) for d in node.decls)
        if isinstance(node, c_ast.Typedef):
            return self.gen.visit(node) + ";"
        return self.with_statement(lambda: self.expr(node) + ";" + self.allocated(node))

    def with_statement(self, make, wrap_block=True) -> str:
        """A source statement: its accesses share one instance id (for the identical-reference rule)."""
        saved = self.stmt_token, self.stmt_id
        self.stmt_id = next(self._names)
        token = self.fresh("s")
        self.stmt_token = token
        try:
            body = make()
        finally:
            self.stmt_token, self.stmt_id = saved
        if token not in body:
            return body
        # the token must be visible to the statement: declared just before it (a declaration stays
        # in its block so that what it declares stays in scope)
        if wrap_block:
            return f"{{ long {token} = __sr_next(); {body} }}"
        return f"long {token} = __sr_next(); {body}"

    def decl(self, d: c_ast.Decl, in_for: bool = False) -> str:
        if self.shared_static and "register" in (d.storage or []):
            d.storage = ["static" if x == "register" else x for x in d.storage if x != "extern"]
        rank = pointer_depth(d.type)
        if d.name:
            self.ranks[d.name] = rank
            const = "const" in (getattr(d.type, "quals", None) or [])
            if const and d.init is not None and _constant(d.init, self.constants):
                self.constants.add(d.name)
        if not in_for and _is_vla(d, self.constants):
            # a variable-length local array is a DRAM array: a region of its own, named after it (the
            # same one each time its declaration runs, as the stack gives back the same place)
            vla = copy.copy(d)
            vla.type = c_ast.PtrDecl([], d.type.type)
            vla.init = c_ast.ID(f"__sr_vla({next(self._vla_sites)})")
            return self.gen.visit(vla) + "; " + self.register(d.name, rank)
        after = self.register(d.name, rank) if not in_for and rank and d.init is not None and _is_alloc(d.init) else ""
        if d.init is None or (isinstance(d.init, c_ast.InitList) and not self._list_reads(d)):
            return self.gen.visit(d) + ";"
        saved = d.init
        d.init = c_ast.ID("__SR_INIT__")
        text = self.gen.visit(d)
        d.init = saved
        init = "{" + ", ".join(self.expr(e) for e in saved.exprs) + "}" if isinstance(saved, c_ast.InitList) else \
            self.expr(saved)
        return text.replace("__SR_INIT__", init) + "; " + after

    @staticmethod
    def _list_reads(d: c_ast.Decl) -> bool:
        """A local's flat brace initializer (`float2 v = {x[i], 1.0f};`), instrumented element by element
        (its reads count); a static one, or a nested or designated list, is left as written."""
        return "static" not in (d.storage or []) and not any(
            isinstance(e, (c_ast.InitList, c_ast.NamedInitializer)) for e in d.init.exprs)

    def register(self, name: str, rank: int, nbytes: str = "0", elem: str | None = None, keep: bool = False) -> str:
        """Register an array (a pointer parameter's region, an allocation: bytes 0) under its name;
        `keep`: its elements keep their values (an initialized or const file-scope array)."""
        elem = elem or name + "[0]" * rank
        fill = "-1" if keep else f"__SR_FILL({elem})"
        return f'__sr_register("{name}", (void *){name}, sizeof({elem}), {nbytes}, {fill});'

    def allocated(self, node) -> str:
        """The registration after a statement that allocates into a named pointer (`p = malloc(n)`,
        `posix_memalign(&p, ...)`), or ''."""
        if (isinstance(node, c_ast.Assignment) and node.op == "=" and isinstance(node.lvalue, c_ast.ID)
                and _is_alloc(node.rvalue)):
            name = node.lvalue.name
        elif (isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.args
              and node.name.name == "posix_memalign" and isinstance(_uncast(node.args.exprs[0]), c_ast.UnaryOp)
              and _uncast(node.args.exprs[0]).op == "&" and isinstance(_uncast(node.args.exprs[0]).expr, c_ast.ID)):
            name = _uncast(node.args.exprs[0]).expr.name
        else:
            return ""
        return " " + self.register(name, self.ranks.get(name, 1))

    def loop(self, node) -> str:
        token = self.fresh("l")
        var = None
        if isinstance(node, c_ast.For) and isinstance(node.next, (c_ast.UnaryOp, c_ast.Assignment)):
            target = node.next.expr if isinstance(node.next, c_ast.UnaryOp) else node.next.lvalue
            var = target.name if isinstance(target, c_ast.ID) else None
        assigned = _names_changed(node.stmt)
        if isinstance(node, c_ast.For) and node.next is not None:
            assigned |= _names_changed(node.next)  # `i++, j--`: both change with the loop
        used, written = touched(node.stmt, node.cond, getattr(node, "next", None))
        used, written = {self.derived.get(u, u) for u in used}, {self.derived.get(w, w) for w in written}
        self.loops.append(_Loop(var or "", assigned, token, used, written))
        try:
            if isinstance(node, c_ast.For):
                init, before = "", ""
                if isinstance(node.init, c_ast.DeclList) and len(node.init.decls) > 1:
                    # `int i = 0, j = n - 1`: declared in the block around the loop (one C declaration
                    # per variable cannot sit in a for's header)
                    before = " ".join(self.decl(d, in_for=True) for d in node.init.decls) + "\n"
                    init = ";"
                elif isinstance(node.init, c_ast.DeclList):
                    init = " ".join(self.decl(d, in_for=True) for d in node.init.decls)
                elif node.init is not None:
                    init = self.expr(node.init) + ";"
                else:
                    init = ";"
                cond = self.expr(node.cond) if node.cond is not None else ""
                nxt = self.expr(node.next) if node.next is not None else ""
                text = f"{before}for ({init} {cond}; {nxt}) {self.stmt(node.stmt)}"
            elif isinstance(node, c_ast.While):
                text = f"while ({self.expr(node.cond)}) {self.stmt(node.stmt)}"
            else:
                text = f"do {self.stmt(node.stmt)} while ({self.expr(node.cond)});"
        finally:
            self.loops.pop()
        return f"{{ long {token} = __sr_next();\n{text}\n}}"

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node) -> str:
        if node is None:
            return ""
        if isinstance(node, (c_ast.BinaryOp, c_ast.FuncCall, c_ast.Cast)) and _folded(node, self.constants):
            return self.gen.visit(node)  # a compile-time constant: the compiler's work (frontends/folding.py)
        if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
            return f"(*{self.access(node, 0)})"
        if isinstance(node, c_ast.Assignment):
            return self.assignment(node)
        if isinstance(node, c_ast.BinaryOp):
            a, b = self.expr(node.left), self.expr(node.right)
            text = f"(({a}) {node.op} ({b}))"
            return self.counted(text) if node.op in _ARITH else text
        if isinstance(node, c_ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, c_ast.FuncCall):
            return self.call(node)
        if isinstance(node, c_ast.TernaryOp):
            return f"(({self.expr(node.cond)}) ? ({self.expr(node.iftrue)}) : ({self.expr(node.iffalse)}))"
        if isinstance(node, c_ast.Cast):
            return f"(({self.gen.visit(node.to_type)})({self.expr(node.expr)}))"
        if isinstance(node, c_ast.ExprList):
            return "(" + ", ".join(self.expr(e) for e in node.exprs) + ")"
        return self.gen.visit(node)

    def counted(self, text: str) -> str:
        v = self.fresh("v")
        return f"({{ __typeof__({text}) {v} = {text}; __sr_flop(__SR_PREC({v}), 1); {v}; }})"

    def address(self, node) -> str:
        """The address of an array element, its index expressions evaluated (and their reads traced)."""
        if isinstance(node, c_ast.ArrayRef):
            return f"(&({self.expr_base(node.name)})[{self.expr(node.subscript)}])"
        return f"({self.expr(node.expr)})"  # `*p`

    def expr_base(self, node) -> str:
        # the base of a subscript chain is an address, not an element read
        if isinstance(node, c_ast.ArrayRef):
            return f"({self.expr_base(node.name)})[{self.expr(node.subscript)}]"
        return self.expr(node)

    def site(self, node, kind: int) -> tuple[int | str, str]:
        """(group id, token variable) for the register and identical-reference rules: C expressions
        choosing at run time where the element types decide whether pointers may alias."""
        key = _canon(node) + ("/w" if kind else "/r")
        inner = self.loops[-1] if self.loops else None
        if inner is None or names_read(node) & (inner.assigned | {inner.var}):
            return self.groups.setdefault((self.stmt_id, key), len(self.groups)), self.stmt_token
        held = self.groups.setdefault((inner.token, self.stmt_id, key), len(self.groups))  # once per loop execution
        name = pointer_name(node)
        unheld = unheld_condition(self.derived.get(name, name) if name else None, kind, inner.used, inner.written,
                                  self.pointers)
        if unheld is None:
            return held, inner.token
        plain = self.groups.setdefault((self.stmt_id, key), len(self.groups))
        return f"({unheld} ? {plain} : {held})", f"({unheld} ? {self.stmt_token} : {inner.token})"

    def access(self, node, kind: int) -> str:
        addr = self.address(node)
        group, token = self.site(node, kind)
        return f"((__typeof__({addr})){self.record(addr, kind, group, token, node)})"

    def record(self, p: str, kind: int, group, token: str, node) -> str:
        """The runtime call for one access at address `p` (a C expression evaluated once)."""
        return f"__sr_access((void *){p}, sizeof(*{p}), {kind}, {group}, {token}, (void *)({_root(node)}))"

    def assignment(self, node: c_ast.Assignment) -> str:
        lv = node.lvalue
        is_mem = isinstance(lv, c_ast.ArrayRef) or (isinstance(lv, c_ast.UnaryOp) and lv.op == "*")
        rhs = self.expr(node.rvalue)
        r = self.fresh("r")
        if node.op == "=":
            if not is_mem:
                return f"({self.gen.visit(lv)} = {rhs})"
            return f"({{ __typeof__({self.gen.visit(lv)}) {r} = {rhs}; *{self.access(lv, 1)} = {r}; }})"
        op = node.op[:-1]
        if not is_mem:
            target = self.gen.visit(lv)
            value = f"(({target}) {op} ({r}))"
            value = self.counted(value) if op in _ARITH else value
            return f"({{ __typeof__({rhs}) {r} = {rhs}; {target} = {value}; }})"
        p, o = self.fresh("p"), self.fresh("o")
        addr = self.address(lv)
        g_r, t_r = self.site(lv, 0)
        g_w, t_w = self.site(lv, 1)
        value = f"(({o}) {op} ({r}))"
        value = self.counted(value) if op in _ARITH else value
        return (f"({{ __typeof__({rhs}) {r} = {rhs}; __typeof__({addr}) {p} = {addr}; "
                f"__typeof__(*{p}) {o} = *(__typeof__({p})){self.record(p, 0, g_r, t_r, lv)}; "
                f"*(__typeof__({p})){self.record(p, 1, g_w, t_w, lv)} = {value}; }})")

    def unary(self, node: c_ast.UnaryOp) -> str:
        op = node.op
        if op in ("++", "--", "p++", "p--"):
            target = node.expr
            sign = "+" if "+" in op else "-"
            if isinstance(target, c_ast.ArrayRef) or (isinstance(target, c_ast.UnaryOp) and target.op == "*"):
                p, o = self.fresh("p"), self.fresh("o")
                addr = self.address(target)
                g_r, t_r = self.site(target, 0)
                g_w, t_w = self.site(target, 1)
                result = o if op.startswith("p") else f"({o} {sign} 1)"
                return (f"({{ __typeof__({addr}) {p} = {addr}; "
                        f"__typeof__(*{p}) {o} = *(__typeof__({p})){self.record(p, 0, g_r, t_r, target)}; "
                        f"__sr_flop(__SR_PREC({o}), 1); "
                        f"*(__typeof__({p})){self.record(p, 1, g_w, t_w, target)} = {o} {sign} 1; {result}; }})")
            text = self.gen.visit(target)
            c_op = op[1:] if op.startswith("p") else op
            expr = f"{text}{c_op}" if op.startswith("p") else f"{c_op}{text}"
            return f"({{ __sr_flop(__SR_PREC({text}), 1); {expr}; }})"
        if op == "&":
            inner = node.expr
            if isinstance(inner, c_ast.ArrayRef):
                return self.address(inner)
            return f"(&{self.expr(inner)})" if not isinstance(inner, c_ast.ID) else f"(&{inner.name})"
        if op == "sizeof":
            return self.gen.visit(node)
        return f"({op}({self.expr(node.expr)}))"

    def call(self, node: c_ast.FuncCall) -> str:
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        if name is not None and name in self.intrinsics:
            return self.intrinsic(name, node)
        entry = mathlib.classify(name) if name else None
        if name and entry is not None and entry["kind"] == "outputs":
            return self.outputs(name, node, entry)
        arg_texts = [self.expr(a) for a in (node.args.exprs if node.args else [])]
        args = ", ".join(arg_texts)
        callee = self.gen.visit(node.name)
        # C++ overload resolution on the arguments' real types (overloads.py)
        if name is not None and name in self.overloads:
            cands = [c for c in self.overloads[name] if len(c[1]) == len(arg_texts)] or self.overloads[name]
            callee = select(name, cands, arg_texts)
        text = f"{callee}({args})"
        if self.cxx_math and name is not None and name not in self.overloads and entry is not None \
                and mathlib.classify(name + "f") is not None and arg_texts:
            text = self.float_overload(name, arg_texts)
        if entry is None or entry["kind"] == "free":
            return text
        v = self.fresh("v")
        if entry["kind"] == "fma":
            return f"({{ __typeof__({text}) {v} = {text}; __sr_flop(__SR_PREC({v}), {entry['flops']}); {v}; }})"
        site = len(self.specials)
        self.specials.append(name)
        return f"({{ __typeof__({text}) {v} = {text}; __sr_special({site}, __SR_PREC({v})); {v}; }})"


    def float_overload(self, name: str, arg_texts: list) -> str:
        """A C++ math call as overload resolution picks it: the float function (`sqrtf`) when every
        argument is a float, else the double one (C would convert a float to double)."""
        tmps = [self.fresh("m") for _ in arg_texts]
        decls = "".join(f"__typeof__({a}) {t} = {a}; " for a, t in zip(arg_texts, tmps, strict=True))
        floats = " && ".join(f"__builtin_types_compatible_p(__typeof__({t}), float)" for t in tmps)
        args = ", ".join(tmps)
        return f"({{ {decls}__builtin_choose_expr({floats}, {name}f({args}), {name}({args})); }})"

    def outputs(self, name: str, node: c_ast.FuncCall, entry: dict) -> str:
        """A call that also returns results through pointer arguments (`sincosf(x, &s, &c)`,
        `modf(x, &ip)`; the tables' `outputs`): its arguments are evaluated (reads traced), a store
        is recorded through each output pointer (an array element there is written; a local is in
        no array), and the call counts one special call of each function in `counts_as`, in the
        precision the compiler gives its result, or, for a function returning void (sincos), the
        type its first output points to (a CUDA intrinsic's precision is the table's)."""
        args = node.args.exprs if node.args else []
        outs = [k for k in entry.get("outputs", ()) if k < len(args)]
        names, text = [], "({ "
        for a in args:
            v, value = self.fresh("a"), self.expr(a)
            text += f"__auto_type {v} = {value}; "
            names.append(v)
        for k in outs:
            target = c_ast.UnaryOp("*", args[k])
            group, token = self.site(target, 1)
            text += f"{self.record(names[k], 1, group, token, target)}; "
        call = f"{name}({', '.join(names)})"
        if entry.get("precision"):
            prec = str(self._PREC_INDEX.get(entry["precision"], -1))
        else:
            void = f"__SR_PREC(*{names[outs[0]]})" if outs else "-1"
            prec = f"_Generic((__typeof__({call}) *)0, void *: {void}, default: __SR_PREC({call}))"
        for fname in entry.get("counts_as", ()):
            site = len(self.specials)
            self.specials.append(fname)
            text += f"__sr_special({site}, {prec}); "
        return text + f"{call}; }})"

    _PREC_INDEX: ClassVar[dict[str, int]] = {"fp64": 0, "fp32": 1, "fp16": 2}

    def intrinsic(self, name: str, node: c_ast.FuncCall) -> str:
        """A CUDA intrinsic: its value from the prelude's C, its cost from the builtin table."""
        entry = self.intrinsics[name]
        kind = entry["kind"]
        if kind == "outputs":
            return self.outputs(name, node, entry)
        args = node.args.exprs if node.args else []
        v = self.fresh("v")
        if kind in ("atomic", "load", "store"):
            target = c_ast.UnaryOp("*", args[0])
            if kind == "load":
                return f"(*{self.access(target, 0)})"
            value = self.expr(args[1]) if len(args) > 1 else "0"
            if kind == "store":
                return f"(*{self.access(target, 1)} = {value})"
            p, o, r = self.fresh("p"), self.fresh("o"), self.fresh("r")
            addr = self.address(target)
            g_r, t_r = self.site(target, 0)
            g_w, t_w = self.site(target, 1)
            op = {"atomicAdd": "+", "atomicSub": "-"}.get(name)
            new = f"({o} {op} {r})" if op else r
            count = f"__sr_flop(__SR_PREC({o}), {entry.get('flops', 0)});" if op else ""
            return (f"({{ __typeof__({value}) {r} = {value}; __typeof__({addr}) {p} = {addr}; "
                    f"__typeof__(*{p}) {o} = *(__typeof__({p})){self.record(p, 0, g_r, t_r, target)}; "
                    f"{count} *(__typeof__({p})){self.record(p, 1, g_w, t_w, target)} = {new}; {o}; }})")
        text = f"{name}({', '.join(self.expr(a) for a in args)})"
        prec = entry.get("precision")
        if kind in ("arith", "fma") and prec in self._PREC_INDEX:
            return (f"({{ __typeof__({text}) {v} = {text}; "
                    f"__sr_flop({self._PREC_INDEX[prec]}, {entry['flops']}); {v}; }})")
        if kind == "special" or (kind == "rng" and prec in self._PREC_INDEX):  # a cuRAND draw: one special call
            site = len(self.specials)
            self.specials.append(name)
            return (f"({{ __typeof__({text}) {v} = {text}; "
                    f"__sr_special({site}, {self._PREC_INDEX.get(prec, -1)}); {v}; }})")
        return text


def _canon(node) -> str:
    """A reference's text up to the order of sums and products (`a[j + i + 1]` is `a[i + j + 1]`):
    identical references are identical expressions, as the analysis compares them."""
    gen = c_generator.CGenerator()

    def terms(n, sign, out):
        if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-"):
            terms(n.left, sign, out)
            terms(n.right, sign if n.op == "+" else -sign, out)
        else:
            out.append(("-" if sign < 0 else "+") + canon(n))

    def factors(n, out):
        if isinstance(n, c_ast.BinaryOp) and n.op == "*":
            factors(n.left, out)
            factors(n.right, out)
        else:
            out.append(canon(n))

    def canon(n):
        if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-"):
            out: list = []
            terms(n, 1, out)
            out = [t for t in out if t not in ("+0", "-0")]  # `C * j + 0` is `C * j`
            return "(" + "".join(sorted(out)) + ")" if len(out) != 1 or out[0][0] == "-" else out[0][1:]
        if isinstance(n, c_ast.BinaryOp) and n.op == "*":
            out = []
            factors(n, out)
            out = [f for f in out if f != "1"] or ["1"]
            return "(" + "*".join(sorted(out)) + ")" if len(out) > 1 else out[0]
        if isinstance(n, c_ast.ArrayRef):
            return f"{canon(n.name)}[{canon(n.subscript)}]"
        if isinstance(n, c_ast.UnaryOp) and n.op == "*":
            return f"*{canon(n.expr)}"
        return gen.visit(n)

    return canon(node)


_ALLOC = ("malloc", "calloc", "realloc", "aligned_alloc", "alloca")


def _uncast(node):
    while isinstance(node, c_ast.Cast):
        node = node.expr
    return node


def _is_alloc(node) -> bool:
    node = _uncast(node)
    return isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name in _ALLOC


def _constant(n, names=frozenset()) -> bool:
    """A compile-time array extent: literals, size macros (`__SR_SIZE`), sizeof, `names` (template
    values, enumerators, const integers), and arithmetic on them."""
    if isinstance(n, c_ast.Constant):
        return True
    if isinstance(n, c_ast.ID):
        return n.name in names
    if isinstance(n, c_ast.FuncCall):
        return isinstance(n.name, c_ast.ID) and n.name.name == "__SR_SIZE"
    if isinstance(n, c_ast.UnaryOp):
        return n.op == "sizeof" or _constant(n.expr, names)
    if isinstance(n, c_ast.BinaryOp):
        return _constant(n.left, names) and _constant(n.right, names)
    if isinstance(n, c_ast.Cast):
        return _constant(n.expr, names)
    if isinstance(n, c_ast.TernaryOp):
        return all(_constant(x, names) for x in (n.cond, n.iftrue, n.iffalse))
    return False


def _folded(n, names) -> bool:
    """A compile-time constant the compiler folds: literals, compile-time names, and arithmetic, casts
    and math-library calls on them (`sqrtf(2.0f / M_PI)`, `(float)(1.0 / 6.0)`)."""
    if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.args is not None and n.args.exprs:
        entry = mathlib.classify(n.name.name)
        if entry is not None and entry["kind"] in ("special", "fma", "free"):
            return all(_folded(a, names) for a in n.args.exprs)
    if isinstance(n, c_ast.Constant):
        return n.type != "string"
    if isinstance(n, (c_ast.ID, c_ast.FuncCall)):
        return _constant(n, names)
    if isinstance(n, c_ast.UnaryOp):
        return n.op in ("-", "+", "sizeof") and (n.op == "sizeof" or _folded(n.expr, names))
    if isinstance(n, c_ast.BinaryOp):
        return n.op in _ARITH and _folded(n.left, names) and _folded(n.right, names)
    if isinstance(n, c_ast.Cast):
        return _folded(n.expr, names)
    return False


def _is_vla(d: c_ast.Decl, names=frozenset()) -> bool:
    if not isinstance(d.type, c_ast.ArrayDecl) or set(d.storage or []) & {"static", "extern", "register"}:
        return False
    t, dims = d.type, []
    while isinstance(t, c_ast.ArrayDecl):
        dims.append(t.dim)
        t = t.type
    return any(x is not None and not _constant(x, names) for x in dims)


def file_constants(ext) -> set:
    """Names a file defines as compile-time integers: enumerators and `const` integers with a
    constant value (CUDA's `constexpr`)."""
    out = set()

    def visit(n):
        if isinstance(n, c_ast.Enumerator):
            out.add(n.name)
        for _, child in n.children():
            visit(child)

    for n in ext:
        if isinstance(n, c_ast.Decl) and not isinstance(n.type, c_ast.FuncDecl):
            if "const" in (getattr(n.type, "quals", None) or []) and n.init is not None and _constant(n.init, out):
                out.add(n.name)
        if not isinstance(n, c_ast.FuncDef):
            visit(n)
    return out


def _pure(n) -> bool:
    """An expression evaluated twice gives the same value with no effect (names, constants, casts,
    members, address arithmetic): safe to name an access's base pointer a second time."""
    if isinstance(n, (c_ast.ID, c_ast.Constant)):
        return True
    if isinstance(n, c_ast.Cast):
        return _pure(n.expr)
    if isinstance(n, c_ast.StructRef):
        return _pure(n.name)
    if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-", "*", "/", "%", "<<", ">>"):
        return _pure(n.left) and _pure(n.right)
    return False


def _pointer_of(n) -> str:
    """C for the pointer operand of pure address arithmetic (`a` in `a + i*n + j`), chosen by the
    compiler from the operands' types."""
    gen = c_generator.CGenerator()
    if isinstance(n, c_ast.BinaryOp) and n.op == "+":
        left, right = _pointer_of(n.left), _pointer_of(n.right)
        return (f"__builtin_choose_expr(__builtin_classify_type({gen.visit(n.left)}) == 5, "
                f"(void *)({left}), (void *)({right}))")
    if isinstance(n, c_ast.BinaryOp) and n.op == "-":
        return _pointer_of(n.left)
    return f"({gen.visit(n)})"


def _root(node) -> str:
    """C for the pointer an access indexes (`a` in `a[i][j]` and `*(a + i)`), or `0` where naming it
    would evaluate something twice; the runtime books the access to the array that pointer is in."""
    if isinstance(node, c_ast.ArrayRef):
        n = node.name
        while isinstance(n, c_ast.ArrayRef):
            n = n.name
        return _pointer_of(n) if _pure(n) else "0"
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        e = node.expr
        if isinstance(e, c_ast.UnaryOp) and e.op == "&" and isinstance(e.expr, c_ast.ArrayRef):
            return _root(e.expr)
        return _pointer_of(e) if _pure(e) else "0"
    return "0"


def _names_changed(node) -> set:
    """Names assigned (`x = `, `x += `; `s.a.b = ` changes the struct variable s), incremented,
    decremented or declared anywhere under `node`: the trace's own walk of C's rules, not the front
    end's (whose register rule the trace checks)."""
    found: set = set()

    def root(n):
        while isinstance(n, c_ast.StructRef) and n.type == ".":
            n = n.name
        return n.name if isinstance(n, c_ast.ID) else None

    def visit(n):
        if isinstance(n, c_ast.Assignment):
            found.add(root(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            found.add(root(n.expr))
        elif isinstance(n, c_ast.Decl) and n.name:
            found.add(n.name)
        for _, child in n.children():
            visit(child)

    if node is not None:
        visit(node)
    found.discard(None)
    return found
