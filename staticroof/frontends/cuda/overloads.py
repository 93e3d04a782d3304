"""C++ overload resolution for calls of functions defined in the file (CUDA C++).

Every definition of a name is kept (`__device__ float sq(float)` and `__device__ double
sq(double)`), and each call takes the one C++ would choose from its arguments' types:

- candidates: the definitions with as many parameters as the call has arguments (or, when none
  has, those with more: default arguments are not kept by the C rewrite);
- each argument's conversion to its parameter is ranked as C++ ranks implicit conversion
  sequences ([over.ics.rank]): exact match (the same type; an array for a pointer; adding
  `const`), promotion (float to double; an integer narrower than int, or bool, to int),
  conversion (any other arithmetic conversion, a pointer to `void *`, the constant 0 to a
  pointer), user-defined (to or from `__half`/`__nv_bfloat16`, which CUDA defines as classes:
  from one, its `operator float()` and then a standard conversion, which ranks two such sequences
  against each other; to one, a constructor, and two constructors are not ranked); anything else
  (a vector type for a scalar, pointers to different types) is not viable;
- the best viable function is no worse than every other in each argument and better in one
  ([over.match.best]).

When there is no single best (an ambiguous call, no viable candidate, or an argument whose type
the analysis does not know where the candidates differ), SR122 says so, the first definition's
work is counted and the result is approximate: never a silent guess.

An argument's type is the lowering's for floating-point values (its typing is C's usual
arithmetic conversions, which C++ shares); the lowering types every integer expression as `int`,
so an integer argument's type is worked out here from the expression as C++ types it (literal
suffixes, declared types, `threadIdx.x` unsigned, integer promotions and the usual arithmetic
conversions, a comparison `bool`); where it cannot be (a call's result), it is unknown.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from ..c.types import CType
from ..c.values import parameters

EXACT, PROMOTION, CONVERSION, USER = 0, 1, 2, 3
ELLIPSIS = 4  # an argument taken by `...`: worse than any conversion ([over.ics.ellipsis])
_CLASS_TYPES = ("fp16", "bf16")  # CUDA's __half and __nv_bfloat16 are classes
_NARROW = ("int8", "uint8", "int16", "uint16", "bool")


def collect(ext) -> dict:
    """name -> [FuncDef, ...] (in file order) for each name defined more than once."""
    by_name: dict = {}
    for n in ext:
        if isinstance(n, c_ast.FuncDef):
            by_name.setdefault(n.decl.name, []).append(n)
    return {name: defs for name, defs in by_name.items() if len(defs) > 1}


def params_of(low, fn) -> list:
    """The parameter types by position, named or not (`f(void)` has none)."""
    params = parameters(fn)
    types = [low.tu.types.resolve(p.type) for p in params]
    return [] if len(params) == 1 and params[0].name is None and types[0].kind == "void" else types


def _variadic(fn) -> bool:
    args = fn.decl.type.args
    return args is not None and any(isinstance(p, c_ast.EllipsisParam) for p in args.params)


def _norm(t: CType | None):
    """A type as overload resolution compares it (array is pointer, qualifiers and literal-ness dropped)."""
    if t is None:
        return None
    if t.kind in ("ptr", "array"):
        return ("ptr", _norm(t.base))
    if t.kind == "vector":
        return ("vector", t.prec, t.lanes)
    if t.kind in ("float", "int"):
        return (t.kind, t.prec)
    if t.kind == "void":
        return ("void",)
    return None  # unknown to the lowering: struct, auto, other


def rank(arg: CType | None, param: CType, null: bool = False):
    """The rank of converting an argument of type `arg` to `param` (EXACT..USER), None if not
    viable, or "unknown" if the argument's type is not known.  `null`: the argument is the
    constant 0 (a null pointer constant)."""
    a, p = _norm(arg), _norm(param)
    if a is None:
        return "unknown"
    if p is None:
        return None
    if a == p:
        return EXACT
    if a[0] in ("float", "int") and p[0] in ("float", "int"):
        if p[1] in _CLASS_TYPES:
            return USER  # a constructor of __half / __nv_bfloat16
        if a[1] in _CLASS_TYPES:  # operator float(), then float to the parameter
            return USER + rank(CType("float", "fp32"), param) / 10
        if a == ("float", "fp32") and p == ("float", "fp64"):
            return PROMOTION
        if a[0] == "int" and a[1] in _NARROW and p == ("int", "int32"):
            return PROMOTION
        return CONVERSION
    if p[0] == "ptr":
        if a[0] == "ptr":
            return CONVERSION if p[1] == ("void",) else None
        if null and a[0] == "int":
            return CONVERSION
    return None


_INT_RANK = {"bool": 0, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 3, "uint32": 3,
             "int64": 4, "uint64": 4}
_BUILTIN_INDEX = ("threadIdx", "blockIdx", "blockDim", "gridDim")  # uint3 / dim3: unsigned members


def arg_type(low, node, val) -> CType | None:
    """The type C++ gives the argument `node` (whose value the lowering computed as `val`), or
    None if it cannot be told."""
    return _int_type(low, node) if val.ctype.is_int else val.ctype


def _int(prec: str) -> CType:
    return CType("int", prec)


def _promote(t):
    if t is None or not t.is_int:
        return t
    return _int("int32") if _INT_RANK.get(t.prec, 3) < 3 else t


def _usual(a, b):
    a, b = _promote(a), _promote(b)
    if a is None or b is None or not (a.is_int and b.is_int):
        return None
    if a.prec == b.prec:
        return a
    ra, rb = _INT_RANK.get(a.prec, 3), _INT_RANK.get(b.prec, 3)
    ua, ub = a.prec.startswith("u"), b.prec.startswith("u")
    if ua == ub:
        return a if ra >= rb else b
    u, sgn = (a, b) if ua else (b, a)
    ru, rs = _INT_RANK.get(u.prec, 3), _INT_RANK.get(sgn.prec, 3)
    if ru >= rs:
        return u
    return sgn if rs > ru else _int("u" + sgn.prec)


def _int_type(low, n):
    """C++'s type of an integer expression (None where unknown)."""
    from ..common.preprocess import SIZE_MARK
    from .templates import static_type

    if isinstance(n, c_ast.Constant):
        if n.type == "char":
            return _int("int8")
        if "int" not in n.type:
            return None
        return _int(("uint" if "unsigned" in n.type else "int") + ("64" if "long" in n.type else "32"))
    if isinstance(n, c_ast.ID):
        var = low.lookup(n.name)
        if var is not None:
            return var.ctype if var.ctype.is_int else None
        known = n.name in low.tu.enums or n.name in getattr(low, "tparams", {}) or n.name == "warpSize"
        return _int("int32") if known else None
    if isinstance(n, c_ast.FuncCall):
        return _int("int32") if isinstance(n.name, c_ast.ID) and n.name.name == SIZE_MARK else None
    if isinstance(n, c_ast.StructRef):
        base = n.name
        return _int("uint32") if isinstance(base, c_ast.ID) and base.name in _BUILTIN_INDEX else None
    if isinstance(n, (c_ast.ArrayRef, c_ast.Cast)) or (isinstance(n, c_ast.UnaryOp) and n.op == "*"):
        t = static_type(low, n)
        return t if t is not None and t.is_int else None
    if isinstance(n, c_ast.UnaryOp):
        if n.op == "!":
            return _int("bool")
        if n.op == "sizeof":
            return _int("uint64")
        t = _int_type(low, n.expr)
        return _promote(t) if n.op in ("-", "+", "~") else t
    if isinstance(n, c_ast.BinaryOp):
        if n.op in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
            return _int("bool")
        if n.op in ("<<", ">>"):
            return _promote(_int_type(low, n.left))
        return _usual(_int_type(low, n.left), _int_type(low, n.right))
    if isinstance(n, c_ast.TernaryOp):
        return _usual(_int_type(low, n.iftrue), _int_type(low, n.iffalse))
    if isinstance(n, c_ast.Assignment):
        return _int_type(low, n.lvalue)
    return None


def _better(r1: list, r2: list) -> bool:
    return all(x <= y for x, y in zip(r1, r2, strict=True)) and any(x < y for x, y in zip(r1, r2, strict=True))


def _is_template(low, fn) -> bool:
    """Does `fn` have template type parameters (the C rewrite's `__sr_<name>_<T>` aliases)?"""
    aliases = getattr(low.tu, "template_defaults", {})
    found = []

    def visit(n):
        if isinstance(n, c_ast.IdentifierType) and any(x in aliases for x in n.names):
            found.append(n)
        for _, child in n.children():
            visit(child)

    visit(fn.decl)
    return bool(found)


def resolve(low, name: str, defs: list, args: list, vals: list, node):
    """The definition of `name` this call takes (`args`: the argument nodes, `vals`: their values)."""
    if any(_is_template(low, f) for f in defs):
        return _unresolved(low, name, defs, args, vals, node, "a template definition is not ranked against the "
                           "others")
    fits = [f for f in defs if len(params_of(low, f)) == len(vals)
            or (_variadic(f) and len(params_of(low, f)) <= len(vals))]
    if not fits:
        fits = [f for f in defs if len(params_of(low, f)) > len(vals)]
    ranked, unknown = [], False
    for f in fits:
        ranks = []
        # not strict: a parameter past the arguments has a default, an argument past the parameters is
        # taken by `...` (ranked ELLIPSIS below)
        for a, v, p in zip(args, vals, params_of(low, f), strict=False):
            null = isinstance(a, c_ast.Constant) and a.value == "0"
            r = rank(arg_type(low, a, v), p, null)
            if r is None:
                break
            if r == "unknown":
                unknown = True
                r = EXACT  # decided below: the candidates must agree on this parameter
            ranks.append(r)
        else:
            ranked.append((f, ranks + [ELLIPSIS] * (len(vals) - len(ranks))))
    if unknown and ranked:
        for k, (a, v) in enumerate(zip(args, vals, strict=True)):
            if _norm(arg_type(low, a, v)) is None and len({_norm(params_of(low, f)[k]) for f, _ in ranked
                                               if k < len(params_of(low, f))}) > 1:
                return _unresolved(low, name, defs, args, vals, node, f"the type of argument {k + 1} is not known")
    if not ranked:
        return _unresolved(low, name, defs, args, vals, node, "no definition takes these arguments")
    # the candidates no other is better than; a single one is better than all the others
    best = [f for f, r in ranked if not any(_better(r2, r) for g, r2 in ranked if g is not f)]
    if len(best) == 1:
        return best[0]
    return _unresolved(low, name, best, args, vals, node, "the call is ambiguous")


def _unresolved(low, name, defs, args, vals, node, why):
    types = ", ".join(_spell(arg_type(low, a, v)) for a, v in zip(args, vals, strict=True))
    cands = "; ".join(_signature(low, name, f) for f in defs)
    low.diag("SR122", f"`{name}({types})`: {why} among the overloads {cands}; the first one's work is "
             "counted", node)
    return defs[0]


def _signature(low, name, fn) -> str:
    gen = c_generator.CGenerator()
    decl = fn.decl.type
    params = list(decl.args.params) if decl.args is not None else []
    spelled = (gen.visit(p.type) if isinstance(p, (c_ast.Decl, c_ast.Typename)) else "..." for p in params)
    return f"`{name}({', '.join(spelled)})`"


_SPELL = {"fp64": "double", "fp32": "float", "fp16": "__half", "bf16": "__nv_bfloat16", "int32": "int",
          "int8": "char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
          "uint32": "unsigned", "int64": "long", "uint64": "unsigned long", "bool": "bool"}


def _spell(t: CType | None) -> str:
    if t is None:
        return "?"
    if t.kind in ("ptr", "array"):
        return _spell(t.base) + " *"
    if t.kind in ("float", "int"):
        return _SPELL.get(t.prec, t.prec)
    if t.kind == "vector":
        return f"{t.prec} x {t.lanes}"
    return "?"
