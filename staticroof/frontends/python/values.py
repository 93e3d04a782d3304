"""Values during the lowering of a Python kernel, and the file-level facts (imports, positions,
pragmas, module constants) every kernel's lowering reads."""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from ...diagnostics import Location


@dataclass
class PVal:
    kind: str  # int | float | bool | array | tuple | none | module | unknown
    dtype: str = ""  # scalars: their dtype; arrays: the element dtype
    expr: sympy.Expr | None = None  # ints: the symbolic value (None = unknown, `why` says why)
    why: str = ""
    array: str | None = None  # arrays: the kernel array; tuples from `x.shape`: the array
    prefix: tuple = ()  # arrays: subscripts already applied (`A[i]` of a 2-D array)
    element: tuple | None = None  # an array element: (array, index | None, why)
    literal: bool = False  # a Python constant: an operation on constants is folded, not counted
    items: tuple = ()  # tuples: their items (PVal)
    key: str | None = None  # floating-point locals: a name unique in the kernel (ir.Stmt.scalars)
    name: str = ""  # modules and their attributes: the qualified name (`numpy.sqrt`)
    number: float | complex | None = None  # float and imaginary constants written in the source (`x ** 0.5`, `1j`)

    @property
    def is_number(self) -> bool:
        return self.kind in ("int", "float", "bool")


def int_val(expr, why: str = "", literal: bool = False, dtype: str = "int64") -> PVal:
    return PVal("int", dtype, expr if expr is None else sympy.sympify(expr), why, literal=literal)


def float_val(dtype: str, literal: bool = False) -> PVal:
    return PVal("float", dtype, literal=literal)


@dataclass
class FileContext:
    """What the whole file says: imports, node positions, pragmas, module-level constants and the
    functions defined in it (device functions are inlined at their calls)."""

    path: str
    names: dict  # local name -> qualified name (imports)
    positions: dict  # cst node -> CodeRange
    pragma_types: dict = field(default_factory=dict)  # name -> [(line, dtype)] (`# staticroof: x=float32`)
    pragma_sizes: dict = field(default_factory=dict)  # name -> int (`# staticroof: N=4096`)
    constants: dict = field(default_factory=dict)  # module-level `N = 1024` -> 1024
    strings: dict = field(default_factory=dict)  # module-level `SIG = "..."` -> the string node
    functions: dict = field(default_factory=dict)  # name -> cst.FunctionDef
    dtypes: dict = field(default_factory=dict)  # -D x=float32, --dtype, config: name -> dtype
    kernel_dtypes: dict = field(default_factory=dict)  # config [dtypes.KERNEL]: kernel -> {name: dtype}
    launches: dict = field(default_factory=dict)  # kernel -> python_cuda.Site (the first launch by that name)
    launch_at: dict = field(default_factory=dict)  # every launch's Location -> (module, kernel name, Site)
    shared_names: set = field(default_factory=set)  # names two kernels of the file are bound to (cuda.site_for)
    overrides: dict = field(default_factory=dict)  # --grid/--block: kernel (or None) -> {"grid", "block"}

    def pragma_type(self, name: str, fn):
        """The pragma type of `name` in the function `fn` (a comment in it, or just above it)."""
        r = self.positions.get(fn)
        first = min([r.start.line] + [self.positions[d].start.line for d in fn.decorators
                                      if d in self.positions]) if r is not None else 0
        for line, dtype in self.pragma_types.get(name, ()):
            if r is not None and first - 1 <= line <= r.end.line:
                return dtype
        return None

    def loc(self, node, fallback=None) -> Location:
        r = self.positions.get(node) if node is not None else None
        if r is None:
            return fallback or Location(self.path)
        return Location(self.path, r.start.line, r.start.column + 1)
