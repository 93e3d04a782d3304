"""Argument types from the file's own calls of its kernels, as Numba's dispatch would see them: the
host code that makes the arguments (`x = np.zeros(n, dtype=np.float32)`, `np.random.rand(n)`,
`a.astype(np.float32)`, `np.float32(2.0)`, literals, `cuda.to_device(x)`, `cuda.device_array(n,
dtype=...)`, arrays returned by the file's other functions) is read, never run.

A kernel's call `saxpy(a, x, y)` or launch `k[blocks, threads](d_x, d_y)` gives one type per
argument, or None where the host code does not say (a parameter of the calling function, a value
from a file).  NumPy's defaults are NumPy's, not guesses: `np.zeros(n)` is float64, `np.arange(n)`
int64, a Python float a float64 scalar (Numba types Python numbers as int64 and float64).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .kernels import block_of, nested_blocks, qualified
from .numba_types import PyType, dtype_name, promote, true_divide

_FLOAT_MAKERS = {"rand", "randn", "random", "random_sample", "ranf", "sample", "uniform", "normal",
                 "standard_normal", "exponential", "gamma", "beta", "lognormal", "standard_exponential"}
_INT_MAKERS = {"randint", "integers", "choice", "permutation", "poisson", "binomial"}
_LIKE = {"zeros_like", "ones_like", "empty_like", "full_like", "copy", "ascontiguousarray", "asfortranarray",
         "array", "asarray"}
_SAME = {"copy", "copy_to_host", "ravel", "flatten", "reshape", "transpose", "T", "squeeze"}


@dataclass(frozen=True)
class HostVal:
    """A host value's type: an array (`rank` None when the host code does not say), a scalar (`weak`:
    a Python literal, which NumPy's arithmetic with an array does not promote), a dtype object, a tuple
    of values, or a random generator."""

    kind: str  # array | scalar | dtype | tuple | generator
    dtype: str = ""
    rank: int | None = None
    weak: bool = False
    items: tuple = ()


@dataclass
class CallTypes:
    """One call of a kernel in the file: its location and the type of each parameter (None: unknown)."""

    location: object
    types: list


def call_types(modules: list, ctx, kdefs: list) -> dict:
    """id(KernelDef) -> [CallTypes] for every call or launch of each kernel in the file, in source order."""
    out: dict = {id(k): [] for k in kdefs}
    functions: dict = {}
    classes: dict = {}
    for m in modules:
        for stmt in m.body:
            if isinstance(stmt, cst.FunctionDef):
                functions.setdefault(stmt.name.value, stmt)
            elif isinstance(stmt, cst.ClassDef):
                classes.setdefault(stmt.name.value, stmt)
    walker = _Walker(ctx, kdefs, out, functions)
    walker.classes = classes
    for m in modules:
        walker.body(list(m.body), {}, ())
    return out


class _Walker:
    def __init__(self, ctx, kdefs, out, functions):
        self.ctx, self.kdefs, self.out, self.functions = ctx, kdefs, out, functions
        self.names = ctx.names
        self.classes: dict = {}  # the module's classes by name

    # statements, in order: an assignment binds the name's type from then on
    def body(self, stmts: list, env: dict, scope: tuple) -> None:
        for stmt in stmts:
            self.statement(stmt, env, scope)

    def statement(self, stmt, env: dict, scope: tuple) -> None:
        if isinstance(stmt, cst.FunctionDef):
            inner = dict(env)
            for p in stmt.params.params:  # `def main(n=1000)`: the default's type (what a bare call runs)
                inner[p.name.value] = self.typeof(p.default, env) if p.default is not None else None
            self.body(block_of(stmt), inner, scope + (stmt,))
            return
        if isinstance(stmt, cst.ClassDef):
            self.body(block_of(stmt), dict(env), scope + (stmt,))
            return
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                self.calls(small, env, scope)
                if isinstance(small, cst.Assign):
                    value = self.typeof(small.value, env)
                    for t in small.targets:
                        self.bind(t.target, value, env)
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    self.bind(small.target, self.typeof(small.value, env), env)
                elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
                    pass  # x += y keeps x's array type (NumPy casts in place)
            return
        for h in (getattr(stmt, "test", None), getattr(stmt, "iter", None)):
            if isinstance(h, cst.BaseExpression):
                self.calls(h, env, scope)
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                self.calls(item.item, env, scope)
                if item.asname is not None:
                    self.bind(item.asname.name, self.typeof(item.item, env), env)
        if isinstance(stmt, cst.For):
            self.bind(stmt.target, self.element(self.typeof(stmt.iter, env)), env)
        for block in nested_blocks(stmt):
            self.body(block, env, scope)

    def bind(self, target, value, env: dict) -> None:
        if isinstance(target, cst.Name):
            env[target.value] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            items = value.items if value is not None and value.kind == "tuple" else ()
            for k, e in enumerate(target.elements):
                self.bind(e.value, items[k] if k < len(items) else None, env)

    @staticmethod
    def element(v):
        """The loop variable of `for x in v`."""
        if v is not None and v.kind == "tuple" and v.items and len(set(v.items)) == 1:
            return v.items[0]
        return None

    # calls of kernels anywhere in a statement
    def calls(self, node, env: dict, scope: tuple) -> None:
        walker = self

        class V(cst.CSTVisitor):
            def visit_Lambda(self, node) -> bool:
                return False

            def visit_Call(self, node) -> None:
                f = node.func
                if isinstance(f, cst.Subscript):  # k[blocks, threads](args): a CUDA launch
                    f = f.value
                elif isinstance(f, cst.Call) and isinstance(f.func, cst.Attribute) \
                        and f.func.attr.value in ("configure", "forall"):
                    f = f.func.value  # k.configure(blocks, threads)(args), k.forall(n)(args): launches too
                kdef = None
                if isinstance(f, cst.Name):
                    kdef = walker.resolve(f.value, scope)
                elif isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name):
                    kdef = walker.member(f.value.value, f.attr.value, scope)
                if kdef is not None:
                    walker.record(kdef, node, env)

        node.visit(V())

    def resolve(self, name: str, scope: tuple):
        """The kernel `name` means in `scope`: the one defined in the innermost enclosing scope."""
        best, depth = None, -1
        for k in self.kdefs:
            if k.bound != name or len(k.scope) > len(scope):
                continue
            if all(a is b for a, b in zip(k.scope, scope, strict=False)) and len(k.scope) > depth:
                best, depth = k, len(k.scope)
        return best

    def member(self, base: str, attr: str, scope: tuple):
        """The kernel `base.attr` means in `scope`, when it is one defined in a class body: `Cls.k`
        (a class of the scope or of the module: the function itself, its arguments as written), or
        `self.k` in a method of that class when k is a @staticmethod (an instance binds a plain
        function's first parameter to itself, which a kernel cannot take)."""
        cls = next((s for s in reversed(scope) if isinstance(s, cst.ClassDef) and s.name.value == base),
                   self.classes.get(base))
        static_only = False
        if cls is None and len(scope) >= 2 and isinstance(scope[-2], cst.ClassDef):
            method = scope[-1]
            params = method.params.params if isinstance(method, cst.FunctionDef) else ()
            if params and params[0].name.value == base and not _decorated(method, "staticmethod", self.names):
                cls, static_only = scope[-2], True
        if cls is None:
            return None
        for k in self.kdefs:
            if k.bound == attr and k.scope and k.scope[-1] is cls:
                if static_only and not _decorated(k.node, "staticmethod", self.names):
                    return None
                return k
        return None

    def record(self, kdef, call: cst.Call, env: dict) -> None:
        params = [p.name.value for p in kdef.node.params.params]
        types: list = [None] * len(params)
        for k, a in enumerate(call.args):
            if a.star:
                return
            v = self.typeof(a.value, env)
            if a.keyword is not None:
                if a.keyword.value in params:
                    types[params.index(a.keyword.value)] = _pytype(v)
            elif k < len(params):
                types[k] = _pytype(v)
        self.out[id(kdef)].append(CallTypes(self.ctx.loc(call), types))

    # expressions
    def typeof(self, node, env: dict, depth: int = 0):
        if depth > 8:
            return None
        q = qualified(node, self.names) if isinstance(node, (cst.Name, cst.Attribute)) else ""
        if isinstance(node, cst.Integer):
            return HostVal("scalar", "int64", weak=True)
        if isinstance(node, cst.Float):
            return HostVal("scalar", "fp64", weak=True)
        if isinstance(node, cst.Name):
            if node.value in ("True", "False"):
                return HostVal("scalar", "bool", weak=True)
            if node.value in env:
                return env[node.value]
            if node.value in self.ctx.constants:
                c = self.ctx.constants[node.value]
                return HostVal("scalar", "fp64" if isinstance(c, float) else "int64", weak=True)
        if q:
            d = _dtype_of(q)
            if d is not None:
                return HostVal("dtype", d)
        if isinstance(node, cst.UnaryOperation):
            return self.typeof(node.expression, env, depth + 1)
        if isinstance(node, (cst.Tuple, cst.List)):
            return HostVal("tuple", items=tuple(self.typeof(e.value, env, depth + 1) for e in node.elements))
        if isinstance(node, cst.BinaryOperation):
            return _arith(node.operator, self.typeof(node.left, env, depth + 1),
                          self.typeof(node.right, env, depth + 1))
        if isinstance(node, cst.Attribute):
            base = self.typeof(node.value, env, depth + 1)
            if base is not None and base.kind == "array":
                if node.attr.value == "T":
                    return base
                if node.attr.value == "dtype":
                    return HostVal("dtype", base.dtype)
                if node.attr.value in ("real", "imag"):
                    return None
            return None
        if isinstance(node, cst.Subscript):
            base = self.typeof(node.value, env, depth + 1)
            if base is None or base.kind != "array":
                return base.items[0] if base is not None and base.kind == "tuple" and base.items and \
                    len(set(base.items)) == 1 else None
            dropped = sum(1 for e in node.slice if isinstance(e.slice, cst.Index))
            if base.rank is None:
                return HostVal("array", base.dtype) if dropped == 0 else None
            rank = base.rank - dropped
            return HostVal("array", base.dtype, rank) if rank > 0 else HostVal("scalar", base.dtype)
        if isinstance(node, cst.Call):
            return self.call(node, env, depth)
        return None

    def call(self, node: cst.Call, env: dict, depth: int):
        f = node.func
        args = [a.value for a in node.args if a.keyword is None and not a.star]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        dtype = self.dtype_arg(kw.get("dtype"), env, depth)
        if isinstance(f, cst.Attribute):
            base = self.typeof(f.value, env, depth + 1)
            method = f.attr.value
            if base is not None and base.kind == "array":
                if method == "astype" and args:
                    d = self.dtype_arg(args[0], env, depth)
                    return HostVal("array", d, base.rank) if d is not None else None
                if method in ("ravel", "flatten"):
                    return HostVal("array", base.dtype, 1)
                if method == "reshape":
                    shape = args[0] if len(args) == 1 else cst.Tuple([cst.Element(a) for a in args])
                    return HostVal("array", base.dtype, _rank(self.typeof(shape, env, depth + 1)))
                if method in _SAME:
                    return base
                return None
            if base is not None and base.kind == "generator":  # rng.random(n, dtype=np.float32)
                if method in _FLOAT_MAKERS:
                    return HostVal("array", dtype or "fp64", self.shape_rank(args, kw, env, depth))
                if method in _INT_MAKERS:
                    return HostVal("array", dtype or "int64", self.shape_rank(args, kw, env, depth))
                return None
        q = qualified(f, self.names) if isinstance(f, (cst.Name, cst.Attribute)) else ""
        short = q.rsplit(".", 1)[-1]
        if q in ("numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator"):
            return HostVal("generator")
        d = _dtype_of(q)
        if d is not None:  # np.float32(2.0), numba.float32(x)
            return HostVal("scalar", d)
        if q in ("float", "int", "bool"):
            return HostVal("scalar", {"float": "fp64", "int": "int64", "bool": "bool"}[q])
        if q in ("numpy.random.rand", "numpy.random.randn"):  # rand(512, 512): one argument per dimension
            return HostVal("array", "fp64", len(args)) if args else HostVal("scalar", "fp64")
        if q.startswith("numpy.random.") and short in _FLOAT_MAKERS:
            size = kw.get("size", args[2] if short in ("uniform", "normal", "lognormal", "gamma", "beta") and
                          len(args) > 2 else args[0] if short not in ("uniform", "normal", "lognormal", "gamma",
                                                                      "beta") and args else None)
            if size is None:
                return HostVal("scalar", "fp64")
            return HostVal("array", "fp64", _rank(self.typeof(size, env, depth + 1)))
        if q.startswith("numpy.random.") and short in _INT_MAKERS:
            size = kw.get("size", args[2] if len(args) > 2 else None)
            return HostVal("array", "int64", self.shape_rank([size] if size is not None else [], {}, env, depth))
        if q.startswith("numpy.") and short in ("zeros", "ones", "empty", "full"):
            k = 2 if short == "full" else 1  # np.zeros(n, np.float32): the dtype as a positional argument
            if dtype is None and len(args) > k:
                dtype = self.dtype_arg(args[k], env, depth)
                if dtype is None:
                    return None
            if short == "full" and dtype is None and len(args) > 1:
                fill = self.typeof(args[1], env, depth + 1)
                dtype = fill.dtype if fill is not None and fill.kind == "scalar" else None
                if dtype is None:
                    return None
            return HostVal("array", dtype or "fp64", self.shape_rank(args[:1], kw, env, depth))
        if q in ("numpy.arange", "numpy.linspace"):
            if dtype is None:
                if short == "linspace":
                    dtype = "fp64"
                else:
                    types = [self.typeof(a, env, depth + 1) for a in args]
                    if any(t is None for t in types):
                        return None
                    dtype = "fp64" if any(t.dtype == "fp64" for t in types) else "int64"
            return HostVal("array", dtype, 1)
        if q.startswith("numpy.") and short in _LIKE and args:
            base = self.typeof(args[0], env, depth + 1)
            if base is not None and base.kind == "array":
                return HostVal("array", dtype or base.dtype, base.rank)
            if short in ("array", "asarray") and base is not None and base.kind == "tuple":
                leaves = _leaves(base)
                if leaves and all(x is not None and x.kind == "scalar" for x in leaves):
                    d = dtype or ("fp64" if any(x.dtype == "fp64" for x in leaves) else "int64")
                    return HostVal("array", d, _depth(base))
            return None
        if q in ("numba.cuda.to_device", "numba.cuda.device_array_like", "numba.cuda.pinned_array_like") and args:
            base = self.typeof(args[0], env, depth + 1)
            return base if base is not None and base.kind == "array" else None
        if q in ("numba.cuda.device_array", "numba.cuda.pinned_array", "numba.cuda.mapped_array"):
            dims = args[:1] or ([kw["shape"]] if "shape" in kw else [])
            d = dtype if dtype is not None else self.dtype_arg(args[1], env, depth) if len(args) > 1 else "fp64"
            return HostVal("array", d, self.shape_rank(dims, {}, env, depth)) if d is not None else None
        if isinstance(f, cst.Name) and f.value in self.functions and depth < 4:
            return self.returned(self.functions[f.value], node, env, depth)
        return None

    def dtype_arg(self, node, env: dict, depth: int):
        if node is None:
            return None
        if isinstance(node, cst.SimpleString):
            return dtype_name(str(node.evaluated_value))
        if isinstance(node, cst.Call) and qualified(node.func, self.names) == "numpy.dtype" and node.args:
            return self.dtype_arg(node.args[0].value, env, depth)
        v = self.typeof(node, env, depth + 1)
        return v.dtype if v is not None and v.kind == "dtype" else None

    def shape_rank(self, args: list, kw: dict, env: dict, depth: int):
        shape = args[0] if args else kw.get("shape")
        if shape is None:
            return 0 if not args else None
        return _rank(self.typeof(shape, env, depth + 1))

    def returned(self, fn: cst.FunctionDef, call: cst.Call, env: dict, depth: int):
        """The type of what a function of the file returns, its parameters bound to the call's arguments."""
        inner: dict = {p.name.value: None for p in fn.params.params}
        for k, a in enumerate(call.args):
            if a.keyword is None and k < len(fn.params.params):
                inner[fn.params.params[k].name.value] = self.typeof(a.value, env, depth + 1)
        found: list = []
        walker = self

        class V(cst.CSTVisitor):
            def visit_FunctionDef(self, node) -> bool:
                return node is fn

            def visit_SimpleStatementLine(self, node) -> None:
                for small in node.body:
                    if isinstance(small, cst.Assign):
                        value = walker.typeof(small.value, inner, depth + 1)
                        for t in small.targets:
                            walker.bind(t.target, value, inner)
                    elif isinstance(small, cst.Return) and small.value is not None:
                        found.append(walker.typeof(small.value, inner, depth + 1))

        fn.visit(V())
        return found[0] if found and all(v == found[0] for v in found) else None


def _dtype_of(q: str):
    """The dtype a qualified name names as a type object (`numpy.float32`, `numba.f4`, `float`)."""
    if q in ("float", "builtins.float"):
        return "fp64"
    if q in ("int", "builtins.int"):
        return "int64"
    parts = q.split(".")
    if len(parts) >= 2 and parts[0] in ("numpy", "numba"):
        return dtype_name(parts[-1]) if parts[-1] not in ("int", "float", "bool") else None
    return None


def _rank(v):
    if v is None:
        return None
    if v.kind == "scalar":
        return 1
    if v.kind == "tuple":
        return len(v.items)
    return None


def _leaves(v) -> list:
    if v is None or v.kind != "tuple":
        return [v]
    return [x for item in v.items for x in _leaves(item)]


def _depth(v) -> int:
    return 1 + max((_depth(x) for x in v.items if x is not None and x.kind == "tuple"), default=0)


def _arith(op, a, b):
    """NumPy's result type of `a op b` (NEP 50: a Python literal does not promote an array)."""
    if a is None or b is None or a.kind not in ("array", "scalar") or b.kind not in ("array", "scalar"):
        return None
    divide = isinstance(op, cst.Divide)
    if a.kind == "array" or b.kind == "array":
        arr, other = (a, b) if a.kind == "array" else (b, a)
        if other.kind == "scalar" and other.weak:
            d = arr.dtype
            if other.dtype == "fp64" and not d.startswith("fp"):
                d = "fp64"
        else:
            d = promote(a.dtype, b.dtype)
        if divide and not d.startswith("fp"):
            d = "fp64"
        ranks = [x.rank for x in (a, b) if x.kind == "array"]
        rank = None if any(r is None for r in ranks) else max(ranks)
        return HostVal("array", d, rank)
    if a.weak and not b.weak:
        a, b = b, a
    if b.weak and not a.weak:  # np.float32(2) * 3: float32
        d = a.dtype if not (b.dtype == "fp64" and not a.dtype.startswith("fp")) else "fp64"
    else:
        d = true_divide(a.dtype, b.dtype) if divide else promote(a.dtype, b.dtype)
    if divide and not d.startswith("fp"):
        d = "fp64"
    return HostVal("scalar", d, weak=a.weak and b.weak)


def _decorated(fn, name: str, names: dict) -> bool:
    """Is `fn` decorated with the builtin `name` (`@staticmethod`)?"""
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == name and name not in names
               for d in fn.decorators)


def _pytype(v):
    """A host value as a kernel parameter's type (rank -1: an array whose rank the host does not say)."""
    if v is None:
        return None
    if v.kind == "scalar":
        return PyType(v.dtype)
    if v.kind == "array" and v.dtype:
        return PyType(v.dtype, v.rank if v.rank is not None and v.rank > 0 else -1)
    return None
