"""Member functions of C++ host classes as kernels of their own (`Field2D::jacobi_sweep`).

The class model (classdefs.py) turns each member function into a C function `__srm_<Class>_<name>_<k>`
whose body names the members bare.  In a GPU kernel an object lives in registers; a host member
function instead works on an object in memory whose data are its members, so when one is
lowered as a kernel (host.py) its object is bound as a struct parameter would be (structs.py):

- an integer member (`int nx_`) is a size named after it (`nx_`), a static constant one its value;
  one the function assigns is memory, as a floating-point member;
- a pointer, `std::vector` (containers.py) or array member is a DRAM array named after it (`u_`);
- a floating-point member is element 0 of a one-element array named after it, as a struct
  member behind a pointer is (structs.py): its reads and stores are traffic (once, where loop-
  invariant: kept in a register);
- a struct member is a struct variable, a class-typed member an object in registers.

The object is the kernel's `this`: calls of other member functions bind to it (classes.py), so
`this->swap()` or `norm()` inside `step()` are inlined on the same members.  A class template's
member functions are lowered once per instantiation the file spells (`Grid<double>::step`), or
with its type parameters taken as float (SR114: approximate) when it spells none.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from pycparser import c_ast

from ...ir import Guard, Loop, Stmt, walk
from ..c import structs
from ..c.types import FLOAT, INT, CType
from ..c.values import Var, assigned_names
from . import classes as CL
from .classdefs import registry

_ORIGIN = "class member"
_OPERATORS = {f"__sr_op_{v}": k for k, v in CL.OPS.items()}


def kernel_name(fname: str, cls_name: str | None = None) -> str | None:
    """`Class::name` for the C function of a member function (`cls_name`: the class's name to
    write, `Grid<double>`), None for any other function."""
    m = registry().methods.get(fname)
    cls = registry().classes.get(m.owner) if m is not None else None
    if m is None or cls is None:
        return None
    name = cls.written if m.name == "__ctor__" else m.name
    if name in _OPERATORS:
        name = f"operator{_OPERATORS[name]}"
    elif name == "__sr_op_conv":
        name = "operator (conversion)"
    return f"{cls_name or cls.written}::{name}"


@dataclass
class Instance:
    """A class template's instantiation the file spells (`Grid<double>`): its result's class name,
    its type parameters' aliases' C types and its non-type parameters' values."""

    label: str
    types: dict
    values: dict


def instances(fname: str, tu) -> list:
    """The instantiations of the class template whose member function `fname` is, that the file
    spells with arguments of its own (`Grid<double> g;`, not `Grid<T>` inside another template):
    each a result of its own.  [] for a member function of a plain class, or of a template the file
    never instantiates."""
    from . import templates as T

    m = registry().methods.get(fname)
    cls = registry().classes.get(m.owner) if m is not None else None
    if cls is None or not cls.tparams:
        return []
    out: dict = {}
    for mangled, (c, args) in list(registry().mangled.items()):
        if c is not cls or mangled == cls.generic:
            continue
        types, values, labels = {}, {}, []
        for k, p in enumerate(cls.tparams):
            a = args[k] if k < len(args) else p.default
            if p.is_type:
                t = T.resolve_type(a, tu.types.builtin, tu) if isinstance(a, str) and "__sr_" not in a else None
                if t is None:
                    break
                types[cls.alias(p.name)] = t
                labels.append(T.normalize(a))
            else:
                try:
                    values[p.name] = int(str(a), 0)
                except (TypeError, ValueError):
                    break
                labels.append(str(values[p.name]))
        else:
            label = f"{cls.written}<{', '.join(labels)}>"
            out.setdefault(label, Instance(label, types, values))
    return list(out.values())


def bind_this(low, fn: c_ast.FuncDef, inst: Instance | None = None) -> None:
    """Before `fn` (a member function's C function) is lowered as a kernel: its object's members
    in scope below its parameters, and the object as `this` for the calls it makes.  A class
    template's parameters are `inst`'s (its types already bound by the caller), else float (SR114)
    and sizes."""
    m = registry().methods.get(fn.decl.name)
    cls = registry().classes.get(m.owner) if m is not None else None
    if m is None or cls is None:
        return
    members: dict = {}
    for p in cls.tparams:
        if p.is_type and inst is None:
            low.tu.types.builtin[cls.alias(p.name)] = FLOAT["fp32"]
            low.diag("SR114", f"`{cls.written}::{m.name}`: the class template's type `{p.name}` has no instantiation "
                     "in this file; assuming float", fn.decl)
        elif not p.is_type:
            value = inst.values.get(p.name) if inst is not None else None
            members[p.name] = Var(INT, value=sympy.Integer(value) if value is not None else low.size_symbol(
                p.name, origin="template parameter"))
    if not m.static:
        fields = low.tu.funcs.get(f"__srf_{cls.name}")
        assigned, declared = assigned_names(fn.body)
        for d in (fields.body.block_items or []) if fields is not None else []:
            if isinstance(d, c_ast.Decl) and d.name and not isinstance(d.type, c_ast.FuncDecl):
                members[d.name] = _member(low, d, d.name in assigned - declared)
    obj = CL.host_object(low, cls, members)
    low.scopes.insert(0, obj.members)
    low.this_obj = obj
    low.this_cls = cls


def _member(low, d: c_ast.Decl, stored: bool) -> Var:
    """`stored`: the member function assigns the member (an integer one is then memory, not a size)."""
    t = low.tu.types.resolve(d.type)
    if t.is_int and not stored:
        constant = "const" in (d.quals or []) and d.init is not None
        if constant:  # `static const int N = 64;`, `const int n_ = 8;`: its value
            v = low.value(d.init, low.acc)
            if v.expr is not None and v.expr.is_Integer:
                return Var(t, value=v.expr)
        return Var(t, value=low.size_symbol(d.name, origin=_ORIGIN))
    if t.is_pointer:
        return Var(t, array=low.new_array(d.name, t, "global", d))
    if t.kind == "struct":
        return structs.variable(low, d.name, t, "param")
    if CL.is_class(t):
        return Var(CL.new_object(low, t, d).ctype)
    # a floating-point member, or an integer one the function stores to: element 0 of a one-element
    # array, as a struct's behind a pointer
    arr = low.new_array(d.name, CType("array", base=t, dims=()), "global", d)
    low.kernel.arrays[arr].dims = (sympy.Integer(1),)
    return Var(t, array=arr, scalar_array=True)


def is_member(kernel) -> bool:
    """Whether a kernel is a member function's (under its C function's name, or its class instance's)."""
    return kernel_name(kernel.name) is not None or "::" in kernel.name


def prune_sizes(kernel) -> None:
    """A member function's kernel lists the sizes of the members it uses only (every integer
    member became one when its object was bound)."""
    used: set = set()
    for node in walk(kernel.body):
        if isinstance(node, Loop):
            used |= _symbols(node.start) | _symbols(node.cond)
        elif isinstance(node, Guard):
            used |= _symbols(node.cond)
        elif isinstance(node, Stmt):
            for r in node.refs:
                for e in r.index or ():
                    used |= _symbols(e)
    for a in kernel.arrays.values():
        for e in a.dims or ():
            used |= _symbols(e)
    for name, s in list(kernel.sizes.items()):
        if s.origin == _ORIGIN and name not in used:
            del kernel.sizes[name]


def _symbols(e) -> set:
    return {str(s) for s in getattr(e, "free_symbols", ())}
