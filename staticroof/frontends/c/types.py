"""C types as the counting rules need them: floating precision, integer width, pointers and arrays.

Only what decides a count is kept: which precision an operation runs in (C's usual arithmetic
conversions), how many bytes an element moves, and how many subscripts an array takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

# Spellings of floating types, checked before typedefs are resolved so that the prelude's
# placeholder typedefs (`typedef float _Float16;`) never hide the real precision.
FLOAT_NAMES = {
    "float": "fp32", "double": "fp64", "_Float32": "fp32", "_Float64": "fp64", "_Float16": "fp16",
    "__fp16": "fp16", "half": "fp16", "__half": "fp16", "__bf16": "bf16", "__nv_bfloat16": "bf16",
    "bfloat16": "bf16", "_Float8": "fp8", "__nv_fp8_e4m3": "fp8", "__nv_fp8_e5m2": "fp8",
}

# Declared by the prelude so that pycparser knows these names as types.
PRELUDE_TYPES = ("_Float16", "__fp16", "__bf16", "half", "_Float32", "_Float64")

FLOAT_RANK = {"fp8": 0, "fp16": 1, "bf16": 1, "fp32": 2, "fp64": 3}

_INT_BYTES = {"char": 1, "short": 2, "int": 4, "long": 8, "_Bool": 1, "bool": 1}


@dataclass(frozen=True)
class CType:
    kind: str  # "float" | "int" | "void" | "ptr" | "array" | "struct" | "other"
    prec: str = ""  # float: fp64/fp32/...; int: int32/uint64/...
    base: CType | None = None  # element type of ptr/array
    dims: tuple = ()  # array extents (pycparser nodes or None), outermost first
    literal: bool = False  # an unsuffixed or suffixed floating literal
    lanes: int = 1  # vector types (float4: kind "vector", prec "fp32", lanes 4)

    @property
    def pointee(self) -> CType:
        """The element type of a pointer or array (which always has one)."""
        if self.base is None:
            raise ValueError(f"a {self.kind} type without an element type")
        return self.base

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def is_vector(self) -> bool:
        return self.kind == "vector"

    @property
    def is_pointer(self) -> bool:
        return self.kind in ("ptr", "array")

    def element(self) -> CType:
        t = self
        while t.kind in ("ptr", "array") and t.base is not None:
            t = t.base
        return t

    def rank(self) -> int:
        """Subscripts needed to reach an element: `float *` 1, `double A[N][M]` 2, `float **` 2."""
        n, t = 0, self
        while t.kind in ("ptr", "array") and t.base is not None:
            n += max(1, len(t.dims)) if t.kind == "array" else 1
            t = t.base
        return n

    def all_dims(self) -> list:
        out, t = [], self
        while t.kind in ("ptr", "array") and t.base is not None:
            out += list(t.dims) if t.kind == "array" else [None]
            t = t.base
        return out


FLOAT = {p: CType("float", p) for p in FLOAT_RANK}
INT = CType("int", "int32")
VOID = CType("void")


def int_dtype(names: list) -> str:
    unsigned = "unsigned" in names
    core = [n for n in names if n not in ("unsigned", "signed", "const", "volatile")]
    nbytes = 4
    if core.count("long"):
        nbytes = 8
    elif "short" in core:
        nbytes = 2
    elif "char" in core:
        nbytes = 1
    elif "_Bool" in core or "bool" in core:
        return "bool"
    return ("uint" if unsigned else "int") + str(nbytes * 8)


def arith(a: CType, b: CType) -> CType:
    """The type of `a op b` under C's usual arithmetic conversions."""
    if a.is_float and b.is_float:
        if a.prec == b.prec:
            return CType("float", a.prec)
        ra, rb = FLOAT_RANK[a.prec], FLOAT_RANK[b.prec]
        if ra == rb:  # fp16 with bf16 meet in fp32
            return FLOAT["fp32"]
        return CType("float", a.prec if ra > rb else b.prec)
    if a.is_float:
        return CType("float", a.prec)
    if b.is_float:
        return CType("float", b.prec)
    return INT


class TypeTable:
    """Resolves pycparser type nodes through the translation unit's typedefs."""

    def __init__(self):
        self.typedefs: dict[str, c_ast.Node] = {}
        self.builtin: dict[str, CType] = {"__sr_auto": CType("auto")}  # names a front end defines
        self.records: dict[str, c_ast.Node] = {}  # struct/union key -> its definition (see record)

    def record(self, node) -> str:
        """A struct or union type's key: its tag, or a key of its own when it has none.  Its
        definition is remembered under the key for its layout (structs.py)."""
        key = node.name or f"<anonymous {type(node).__name__.lower()} {id(node)}>"
        if node.decls is not None:
            self.records[key] = node
        return key

    def resolve(self, node) -> CType:
        if isinstance(node, c_ast.Typename):
            return self.resolve(node.type)
        if isinstance(node, c_ast.Decl):
            return self.resolve(node.type)
        if isinstance(node, c_ast.TypeDecl):
            return self.resolve(node.type)
        if isinstance(node, c_ast.PtrDecl):
            return CType("ptr", base=self.resolve(node.type))
        if isinstance(node, c_ast.ArrayDecl):
            dims, t = [], node
            while isinstance(t, c_ast.ArrayDecl):
                dims.append(t.dim)
                t = t.type
            return CType("array", base=self.resolve(t), dims=tuple(dims))
        if isinstance(node, c_ast.IdentifierType):
            names = [n for n in node.names if n not in ("const", "volatile", "restrict")]
            if len(names) == 1 and names[0] in self.builtin:
                return self.builtin[names[0]]
            for n in names:
                if n in FLOAT_NAMES:
                    return FLOAT[FLOAT_NAMES[n]]
            if names == ["long", "double"] or "double" in names:
                return FLOAT["fp64"]
            if "void" in names:
                return VOID
            if len(names) == 1 and names[0] in self.typedefs:
                return self.resolve(self.typedefs[names[0]])
            if any(n in _INT_BYTES or n in ("unsigned", "signed") for n in names):
                return CType("int", int_dtype(names))
            return CType("other", " ".join(names))
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return CType("struct", self.record(node))
        if isinstance(node, c_ast.Enum):
            return INT
        if isinstance(node, c_ast.FuncDecl):
            return CType("other", "function")
        return CType("other")
