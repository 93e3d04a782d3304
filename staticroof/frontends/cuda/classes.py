"""C++ classes and structs with member functions in CUDA kernels (the 128-bit vector struct of
LLM-training code, small vector classes with `operator+`), lowered without a C++ object model.

Why this shape: a class object a kernel declares lives in registers, so what decides W and Q is
only what its member functions *do* to DRAM arrays and floating-point values.  So:

- on tokens (:func:`rewrite`, called from cuda.to_c), a class definition becomes C: its data
  members are the declarations of a fields function `__srf_<Class>`, each member function (with
  constructors and operators, `operator[]` spelled `__sr_op_index`) a C function
  `__srm_<Class>_<name>_<k>` whose body names members bare (`this->` dropped); a class template's
  type parameters are aliases bound per object, like a template function's (templates.py);
  `Packed128<float>` is one mangled type name, `X::m` a static member, `X{...}`/`X(...)` a
  constructor call `__sr_ctor((X *)0, ...)`;
- in the lowering (:class:`ClassLowering`, mixed into CudaLowering), an object is a set of member
  variables (scalars, and `local` arrays: registers, never DRAM), named by its type
  `CType("class", "<mangled>@<n>")`; member function calls, operators and constructors are inlined
  like `__device__` functions with the object's members in scope, and a `return` hands back its
  value (an lvalue for `T& operator[]`), so `p[k]` is element k of the member array.

What crosses DRAM is what the member functions load and store: `*reinterpret_cast<const int4 *>(x)`
in a constructor reads the 4 floats it covers (views.py), and so on.  Inheritance, virtual calls
and arrays of class objects are not modeled (the statement is SR002).
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pycparser import c_ast

from ..c.types import INT, VOID, CType
from ..c.values import STATEMENT_GROUPS, Val, Var, basic_sizeof, named_arguments, parameters
from ..common.lowering import Acc, Unsupported
from . import containers as CN, references as RF, wmma as WM
from .classdefs import (
    OPS,
    ClassDef,
    begin,
    emit,
    prelude,
    registry,
    rename_operators,
    rewrite,
    strip_for_trace,
    types,
    using_typedefs,
)

# the token stage, for cuda.py and the trace (classdefs.py)
__all__ = ["ClassLowering", "member", "begin", "emit", "prelude", "rename_operators", "rewrite", "strip_for_trace",
           "types", "using_typedefs"]

# ---------------------------------------------------------------------------------------------
# The lowering

@dataclass
class Obj:
    cls: ClassDef
    targs: dict  # alias -> CType, non-type parameter -> int
    members: dict  # name -> Var
    ctype: CType


_COUNT = itertools.count(1)


def _objects(tu) -> dict:
    if not hasattr(tu, "class_objects"):
        tu.class_objects = {}
        tu.class_protos = {}
    return tu.class_objects


def is_class(t) -> bool:
    return t is not None and t.kind == "class"


def obj_of(low, ctype) -> Obj | None:
    return _objects(low.tu).get(ctype.prec) if is_class(ctype) else None


def _resolve_args(low, cls: ClassDef, args: tuple) -> dict:
    from . import templates as T

    targs = {}
    for k, p in enumerate(cls.tparams):
        spelling = args[k] if k < len(args) else p.default
        if p.is_type:
            t = T.resolve_type(spelling, low.tu.types.builtin, low.tu) if isinstance(spelling, str) else None
            targs[cls.alias(p.name)] = t or low.tu.types.builtin.get(spelling or "", CType("float", "fp32"))
        else:
            try:
                targs[p.name] = int(str(spelling), 0)
            except (TypeError, ValueError):
                v = low.lookup(str(spelling)) if spelling else None
                targs[p.name] = v.value if v is not None and v.ctype.is_int else None
    return targs


def _entry(low, ctype: CType) -> tuple:
    """(class, arguments) of a class type: the explicit specialization its arguments select
    (`template<> struct SharedMemory<double>` for `SharedMemory<T>` with T = double), else the
    class template itself."""
    cls, args = registry().entry(ctype.prec)
    if cls is None or not cls.specs:
        return cls, args
    targs = _resolve_args(low, cls, args)
    for spelled, spec in cls.specs:
        if len(spelled) == len(cls.tparams) and targs == _resolve_args(low, cls, spelled):
            return spec, ()
    return cls, args


@contextmanager
def bound(low, obj: Obj | None):
    """The object's template type parameters bound while its member functions are lowered."""
    saved = {}
    if obj is not None:
        for alias, t in obj.targs.items():
            if alias.startswith("__sr_"):
                saved[alias] = low.tu.types.builtin.get(alias)
                low.tu.types.builtin[alias] = t
    try:
        yield
    finally:
        for alias, t in saved.items():
            if t is None:
                low.tu.types.builtin.pop(alias, None)
            else:
                low.tu.types.builtin[alias] = t


def new_object(low, ctype: CType, node) -> Obj:
    """A fresh object of a class type: its members declared as the fields function says."""
    cls, args = _entry(low, ctype)
    if cls is None:
        raise Unsupported(f"class type `{ctype.prec}` that is not defined in this file", node)
    targs = _resolve_args(low, cls, args)
    key = f"{ctype.prec.split('@')[0]}@{next(_COUNT)}"
    obj = Obj(cls, targs, {}, CType("class", key))
    fields = low.tu.funcs.get(f"__srf_{cls.name}")
    if fields is not None:
        with bound(low, obj):
            sub = low.sub_lowering(fields, {})
            for name, v in targs.items():
                if not name.startswith("__sr_"):
                    sub.bind(name, Var(INT, value=v))
            for d in fields.body.block_items or []:
                if isinstance(d, c_ast.Decl):
                    sub.declaration(d)
            sub.acc = Acc()
            obj.members = sub.scopes[-1]
    obj.members["__sr_this"] = Var(obj.ctype)
    _objects(low.tu)[key] = obj
    return obj


def host_object(low, cls: ClassDef, members: dict) -> Obj:
    """The object a host member function lowered as a kernel works on (methods.py): `members`
    as its member variables, bound by the caller."""
    key = f"{cls.generic or cls.name}@{next(_COUNT)}"
    obj = Obj(cls, {}, members, CType("class", key))
    obj.members["__sr_this"] = Var(obj.ctype)
    _objects(low.tu)[key] = obj
    return obj


def prototype(low, ctype: CType, node) -> Obj:
    """One object per class instantiation for its static members and static member functions."""
    _objects(low.tu)
    cls, args = _entry(low, ctype)
    key = (ctype.prec.split("@")[0], tuple(sorted((k, str(v)) for k, v in _resolve_args(low, cls, args).items()))
           if cls else ())
    if key not in low.tu.class_protos:
        low.tu.class_protos[key] = new_object(low, ctype, node)
    return low.tu.class_protos[key]


def member(low, base, node, acc):
    """`obj.name`: the member variable, as the lowering sees a variable of that name."""
    if base.ctype.kind == "fragment":
        return WM.member(low, base, node, acc)
    obj = obj_of(low, base.ctype)
    if obj is None:
        obj = new_object(low, base.ctype, node)
        if isinstance(node.name, c_ast.ID):
            low._assign_in_scope(node.name.name, Var(obj.ctype))
    name = node.field.name
    if name not in obj.members:
        raise Unsupported(f"member `{name}` of class `{obj.cls.name}`", node)
    low.scopes.append(obj.members)
    try:
        return low._e_ID(c_ast.ID(name, coord=node.coord), acc)
    finally:
        low.scopes.pop()


def _pick(methods, arity):
    return next((m for m in methods or [] if m.arity == arity), None)


def inline(low, callee, node, args, acc, obj: Obj | None = None, vals=None):
    """A call of `callee` (a member function when `obj` is given) inlined like a __device__
    function, returning the value its `return` hands back."""
    from ..c.views import convert

    if vals is None:
        vals = [low.value(a, acc) for a in args]
    decl = callee.decl.type
    bindings = {}
    for p, a, v, t in named_arguments(low, callee, args, vals):
        if t.is_pointer:
            v = convert(low, v, t, a)
            bindings[p.name] = Var(t, array=v.array, prefix=v.prefix, offset=v.offset) if v.array else Var(t)
        elif t.is_int:
            bindings[p.name] = Var(t, value=v.expr if v.ctype.is_int else None,
                                     why=v.why or f"argument `{p.name}` of `{callee.decl.name}`")
        elif is_class(t) and is_class(v.ctype):
            bindings[p.name] = Var(v.ctype)  # the object travels (registers: a copy is the same values)
        else:
            bindings[p.name] = Var(t)
    saved = low.acc
    low.acc = acc
    low.emit(node)
    sub = low.sub_lowering(callee, bindings)
    m = registry().methods.get(callee.decl.name)
    sub.capture, sub.returned, sub.returns_ref = True, None, bool(m and m.returns_ref)
    if obj is not None:
        sub.scopes.insert(0, obj.members)
        sub.this_obj = obj
        sub.this_cls = registry().classes.get(m.owner) if m is not None else None
    with bound(low, obj):
        low.out.extend(sub.lower())
    acc.reset()
    low.acc = acc if saved is acc else saved
    if sub.returned is not None:
        return sub.returned
    with bound(low, obj):
        ret = low.tu.types.resolve(decl.type)
    return Val(ret if ret.kind in ("float", "int", "vector") else VOID, why=f"result of `{callee.decl.name}`")


def call_method(low, obj: Obj, name: str, node, args, acc, vals=None, cls=None):
    methods = (cls or obj.cls).methods.get(name)
    m = _pick(methods, len(args) if vals is None else len(vals))
    if m is None:
        raise Unsupported(f"member function `{name}` of `{obj.cls.name}` with {len(args)} arguments", node)
    fn = low.tu.funcs.get(m.cname)
    if fn is None:
        raise Unsupported(f"member function `{name}` of `{obj.cls.name}` (its definition did not parse)", node)
    return inline(low, fn, node, args, acc, obj, vals)


def operator(low, op: str, a, b, node, acc):
    """`a op b` with a class operand: a member `operator op` of a's class, else a free one."""
    names = [f"__sr_op_{OPS[op + '=']}"] if op + "=" in OPS and getattr(low, "_compound", False) else []
    names.append(f"__sr_op_{OPS[op]}")
    oa = obj_of(low, a.ctype)
    for name in names:
        if oa is not None and _pick(oa.cls.methods.get(name), 1):
            return call_method(low, oa, name, node, [node], acc, vals=[b])
    name = names[-1]
    defs = getattr(low.tu, "overloads", {}).get(name) or ([low.tu.funcs[name]] if name in low.tu.funcs else [])
    for fn in defs:
        ps = fn.decl.type.args.params if fn.decl.type.args else []
        if len(ps) == 2 and all(is_class(low.tu.types.resolve(p.type)) == is_class(v.ctype)
                                for p, v in zip(ps, (a, b), strict=True)):
            return inline(low, fn, node, [node, node], acc, None, [a, b])
    raise Unsupported(f"`{op}` on a class value with no `operator{op}` defined in this file", node)


def free_operator(low, op: str, a, b):
    """The file's free `operator op` (or, in a compound assignment, `operator op=`) whose parameters
    take a and b (a vector type of the same lanes and precision; a scalar for a scalar), or None."""
    names = [f"__sr_op_{OPS[op + '=']}"] if op + "=" in OPS and getattr(low, "_compound", False) else []
    names.append(f"__sr_op_{OPS[op]}")
    for name in names:
        defs = getattr(low.tu, "overloads", {}).get(name) or ([low.tu.funcs[name]] if name in low.tu.funcs else [])
        for fn in defs:
            ps = fn.decl.type.args.params if fn.decl.type.args else []
            if len(ps) == 2 and all(_takes(low.tu.types.resolve(p.type), v.ctype) for p, v in zip(ps, (a, b),
                                                                                                  strict=True)):
                return fn
    return None


def _takes(param, arg) -> bool:
    if param.is_vector or arg.is_vector:
        return param.is_vector and arg.is_vector and (param.prec, param.lanes) == (arg.prec, arg.lanes)
    return param.kind in ("float", "int") and arg.kind in ("float", "int")


def dispatch_call(low, node, acc):
    """Calls the class model owns: constructors, statics, member functions.  None for others."""
    args = node.args.exprs if node.args is not None else []
    if isinstance(node.name, c_ast.StructRef) and isinstance(node.name.name, c_ast.ID):
        var = low.lookup(node.name.name.name)
        if var is None or not is_class(var.ctype):
            return None
        base = low.expr(node.name.name, acc)
        obj = obj_of(low, base.ctype) or _rebind(low, node.name.name.name, base, node)
        return call_method(low, obj, node.name.field.name, node, args, acc)
    if isinstance(node.name, c_ast.StructRef) and node.name.type == ".":  # `v.scaled(0.5f).norm2()`
        base = low.expr(node.name.name, acc)
        obj = obj_of(low, base.ctype)
        if obj is None:
            raise Unsupported(f"call of member `{node.name.field.name}` of something that is not a class "
                                "object", node)
        return call_method(low, obj, node.name.field.name, node, args, acc)
    name = node.name.name if isinstance(node.name, c_ast.ID) else None
    if name in ("__sr_ctor", "__sr_static", "__sr_scall"):
        t = low.tu.types.resolve(args[0].to_type).base
        if name == "__sr_ctor":
            return construct(low, t, node, args[1:], acc)
        proto = prototype(low, t, node)
        mname = args[1].name
        if name == "__sr_static":
            return member(low, Val(proto.ctype), c_ast.StructRef(c_ast.ID("__sr_this"), ".", c_ast.ID(mname),
                                                                     coord=node.coord), acc)
        return call_method(low, proto, mname, node, args[2:], acc)
    var = low.lookup(name) if name is not None and name not in low.tu.funcs else None
    if var is not None and is_class(var.ctype):  # a function object: `op(x[i])` calls its operator()
        base = low.expr(node.name, acc)
        obj = obj_of(low, base.ctype) or _rebind(low, name, base, node)
        return call_method(low, obj, "__sr_op_call", node, args, acc)
    this = getattr(low, "this_obj", None)
    scope = getattr(low, "this_cls", None) or (this.cls if this is not None else None)
    if name is not None and this is not None and scope is not None and name in scope.methods \
            and name not in low.tu.funcs:
        return call_method(low, this, name, node, args, acc, cls=scope)  # bound where it is written
    if name in ("memcpy", "memmove") and len(args) >= 2 and _registers_only(low, args[:2]):
        return Val(VOID)  # a copy between register objects (`memcpy(&bits, &payload, 16)`): no traffic
    return None


def _rebind(low, name, base, node):
    obj = new_object(low, base.ctype, node)
    low._assign_in_scope(name, Var(obj.ctype))
    return obj


def _registers_only(low, args) -> bool:
    for a in args:
        v = low.expr(a, Acc())
        if v.array is not None and low.kernel.arrays[v.array].space != "local":
            return False
    return True


def construct(low, t: CType, node, args, acc):
    """`X(args)` / `X{args}`: a new object, its constructor inlined (or its members initialized
    in order, an aggregate: registers, so only the arguments' own work counts)."""
    obj = new_object(low, t, node)
    m = _pick(obj.cls.methods.get("__ctor__"), len(args))
    if m is not None and m.cname in low.tu.funcs:
        inline(low, low.tu.funcs[m.cname], node, args, acc, obj)
    else:
        for a in args:
            low.value(a, acc)
    return Val(obj.ctype)


def declare(low, d, t: CType):
    """A local of class type: an object (sharing the object its initializer makes)."""
    if d.init is not None and not isinstance(d.init, c_ast.InitList):
        v = low.value(d.init, low.acc)
        if obj_of(low, v.ctype) is not None:
            low.bind(d.name, Var(v.ctype))
            return
    elif isinstance(d.init, c_ast.InitList):
        for e in d.init.exprs:
            low.value(e, low.acc)
    obj = new_object(low, t, d)
    low.bind(d.name, Var(obj.ctype))


def sizeof(low, t: CType, node) -> int | None:
    """sizeof of vectors (lanes x element), fixed arrays and class objects (their data members,
    packed: the classes kernels use are arrays of one type); None for what C's rule knows."""
    from ...ir import DTYPE_BYTES

    if t.kind == "vector":
        return t.lanes * DTYPE_BYTES.get(t.prec, 4)
    if t.kind == "array":
        n = 1
        for dim in t.dims:
            v = low.dim_expr(dim)
            if v is None or not v.is_Integer:
                return None
            n *= int(v)
        inner = sizeof(low, t.pointee, node)
        if inner is None:
            inner = basic_sizeof(t.pointee)
        return n * inner
    if is_class(t):
        obj = obj_of(low, t) or prototype(low, t, node)
        total = 0
        for name, var in obj.members.items():
            if name in obj.cls.statics or name == "__sr_this" or not hasattr(var, "ctype"):
                continue
            if var.array is not None:
                arr = low.kernel.arrays[var.array]
                n = 1
                for dim in arr.dims:
                    n *= int(dim) if dim is not None and getattr(dim, "is_Integer", False) else 1
                total += n * DTYPE_BYTES.get(arr.dtype, 4)
            else:
                total += sizeof(low, var.ctype, node) or DTYPE_BYTES.get(var.ctype.prec, 4)
        return total
    return None


if TYPE_CHECKING:  # what the mixin extends, for the type checker (a mixin: CudaLowering adds the base)
    from ..c.frontend import FunctionLowering as _Lowering
else:
    _Lowering = object


class ClassLowering(_Lowering):
    """Mixed into CudaLowering ahead of the C lowering: the hooks of the class model."""

    capture = False
    returned: Val | None = None
    returns_ref = False
    this_obj = None
    this_cls = None

    def class_sizeof(self, cls: CType) -> int | None:
        """The C front end's hook for cast views of a buffer (`(const x128 *)x`): an object's bytes."""
        return sizeof(self, cls, None)

    def statement(self, node):
        if isinstance(node, c_ast.Return) and node.expr is not None and self.capture:

            self.group = next(STATEMENT_GROUPS)
            v = self.expr(node.expr, self.acc) if self.returns_ref else self.value(node.expr, self.acc)
            self.returned = v
            self.emit(node)
            if self.depth or node is not self.final:
                self.diag("SR102", "`return` inside a loop or before the end of a member function: what follows "
                          "is counted as if executed", node)
            return
        return super().statement(node)

    def declaration(self, d):
        if d.name is not None and RF.declare(self, d):  # `float &r = y[i];` (references.py)
            return None
        if d.name is not None and not isinstance(d.type, c_ast.FuncDecl):
            t = self.tu.types.resolve(d.type)
            if is_class(t):
                return declare(self, d, t)
            if t.kind == "array" and is_class(t.element()):
                raise Unsupported("an array of class objects (each element's members are not modeled)", d)
        return super().declaration(d)

    def _e_ID(self, node, acc):
        ref = RF.element(self, node)  # a reference to an array element (references.py)
        return ref if ref is not None else super()._e_ID(node, acc)

    def class_conversion(self, v, to: CType, node):
        """An object converted to a non-class type: its conversion operator (`operator T *()`,
        renamed `__sr_op_conv`) inlined; the first one whose result has the kind of `to`."""
        obj = obj_of(self, v.ctype)
        if obj is None:
            return v
        for m in obj.cls.methods.get("__sr_op_conv", []):
            fn = self.tu.funcs.get(m.cname)
            if fn is None or m.arity:
                continue
            with bound(self, obj):
                ret = self.tu.types.resolve(fn.decl.type.type)
            if ret.is_pointer == to.is_pointer:
                return inline(self, fn, node, [], self.acc, obj, [])
        raise Unsupported(f"`{obj.cls.written}` object converted to a type it has no conversion operator for", node)

    def _e_FuncCall(self, node, acc):
        if isinstance(node.name, c_ast.ID) and node.name.name == CN.EXTENT:
            return CN.extent(self, node, acc)
        if isinstance(node.name, c_ast.ID) and node.name.name == CN.CONSTRUCTED:
            return CN.construct(self, node)
        v = dispatch_call(self, node, acc)
        if v is None:
            v = CN.call(self, node, acc)  # `x.size()`, `x.data()` on a std::vector (containers.py)
        return v if v is not None else super()._e_FuncCall(node, acc)

    def _e_ArrayRef(self, node, acc):
        if isinstance(node.name, c_ast.ID):
            var = self.lookup(node.name.name)
            if var is not None and is_class(var.ctype):
                base = self.expr(node.name, acc)
                obj = obj_of(self, base.ctype) or _rebind(self, node.name.name, base, node)
                return call_method(self, obj, "__sr_op_index", node, [node.subscript], acc)
        return super()._e_ArrayRef(node, acc)

    def _binary(self, op, a, b, acc, node):
        if (is_class(a.ctype) or is_class(b.ctype)) and op in OPS:
            return operator(self, op, a, b, node, acc)
        return super()._binary(op, a, b, acc, node)

    def _update(self, lnode, target, op, rhs, acc, node):
        self._compound = True
        try:
            return super()._update(lnode, target, op, rhs, acc, node)
        finally:
            self._compound = False

    def _e_UnaryOp(self, node, acc):
        if node.op == "sizeof":

            t = self.tu.types.resolve(node.expr) if isinstance(node.expr, c_ast.Typename) else \
                self.expr(node.expr, Acc()).ctype
            n = sizeof(self, t, node)
            if n is not None:
                import sympy

                return Val(INT, sympy.Integer(n))
        return super()._e_UnaryOp(node, acc)

    def _inline(self, name, node, args, acc):
        """A function taking or returning a class object: inlined by the class model (the C
        inlining passes scalars only and drops the returned value)."""
        fn = self.tu.funcs[name]
        decl = fn.decl.type
        ps = parameters(fn)
        if not (is_class(self.tu.types.resolve(decl.type)) or any(is_class(self.tu.types.resolve(p.type)) for p in ps)):
            return super()._inline(name, node, args, acc)
        vals = [self.value(a, acc) for a in args]
        callee = self.callee(name, node, args, vals)
        if self.recursive_call(name, callee):
            self.diag("SR106", f"recursive call to `{name}` is not followed", node)
            return Val(INT, why="recursive call")
        return inline(self, callee, node, args, acc, None, vals)


