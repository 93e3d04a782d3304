"""The loop IR: what every front end produces and every analysis reads.

A kernel is a tree of loops, guards and statements.  Expressions are sympy expressions over
loop-variable and size symbols; the front end guarantees they are integer-valued and says when
one is not affine (`None` plus a diagnostic).  Nothing here knows any source language: C, CUDA
and Python front ends all lower to these classes, and the analyses never see syntax.

Conventions
- A loop's values are ``start + step*t`` for ``t = 0, 1, ...`` while ``cond`` holds; ``cond`` is
  a sympy boolean in the loop variable that the front end has checked is monotone (it holds for
  a prefix of ``t``).  ``step`` is a non-zero integer; a negative step is a counted-down loop and
  its program order is reversed.
- A guard restricts the iteration domain of its ``then`` body by ``cond`` and of its ``orelse``
  body by ``Not(cond)``.  ``cond is None`` means a data-dependent condition: both bodies are
  treated as executed.
- A statement's references are listed in evaluation order (right-hand-side reads before the
  write they feed).  ``index is None`` marks a non-affine reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, Location

if TYPE_CHECKING:  # annotations only: importing the IR (`staticroof rules`) costs no sympy
    import sympy

# Precision keys are part of the JSON interface.
PRECISIONS = ("fp64", "fp32", "fp16", "bf16", "fp8")

# Element sizes in bytes for every dtype name the IR uses.
DTYPE_BYTES = {
    "fp64": 8, "fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1,
    "int64": 8, "int32": 4, "int16": 2, "int8": 1,
    "uint64": 8, "uint32": 4, "uint16": 2, "uint8": 1, "bool": 1,
    "complex128": 16, "complex64": 8,  # NumPy's complex: two floats (its arithmetic counts in theirs)
}

# Memory spaces: only global and constant arrays cross DRAM.
DRAM_SPACES = ("global", "constant")


@dataclass
class Array:
    name: str
    dtype: str
    dims: tuple = ()  # sympy expressions or None for an unknown extent; () = 1-D of unknown size
    space: str = "global"  # global | shared | local | constant
    location: Location | None = None
    # A member of a struct in memory (`b[i].x`, `p->coef[k]`), modeled as its own array indexed
    # like the structs (then the member's subscripts): `parent` is the array of structs, `member`
    # the member path ("pos.x"), `record_bytes` the struct's sizeof (None if unknown) and
    # `member_offset` the member's byte offset in it, so a lint can set the bytes touched against
    # what an array-of-structures layout moves.
    parent: str | None = None
    member: str | None = None
    record_bytes: int | None = None
    member_offset: int | None = None
    # A `restrict` pointer: the compiler may keep its elements in registers across other stores
    # (nothing else aliases it), so an accumulator through it need not go to memory every trip.
    restrict: bool = False

    @property
    def elem_bytes(self) -> int:
        return DTYPE_BYTES[self.dtype]


@dataclass
class Ref:
    array: str
    index: tuple | None  # sympy expressions, one per dimension; None if not affine
    kind: str  # "read" | "write"
    location: Location | None = None
    reason: str = ""  # why the index is not affine


@dataclass
class Stmt:
    flops: dict = field(default_factory=dict)  # precision -> count per execution
    special: dict = field(default_factory=dict)  # (function, precision) -> calls per execution
    refs: list = field(default_factory=list)  # Ref, in evaluation order
    location: Location | None = None
    # Statements lowered from one source statement (split around an inlined call) share a group:
    # identical references within a group are one access, as within one statement.
    group: int = 0
    # Uses of floating-point local variables, ("name#k", "read" | "write") in evaluation order: the
    # register data flow the cache bound needs (an accumulator `s` is the matrix C in disguise).
    scalars: tuple = ()


@dataclass
class Loop:
    var: sympy.Symbol
    start: sympy.Expr
    cond: sympy.Basic  # boolean in var (and outer vars, sizes)
    step: int
    body: list = field(default_factory=list)
    kind: str = "seq"  # seq | grid.x | block.x | prange | ...
    location: Location | None = None


@dataclass
class Guard:
    cond: sympy.Basic | None
    then: list = field(default_factory=list)
    orelse: list = field(default_factory=list)
    location: Location | None = None


Node = Loop | Guard | Stmt


# What a size symbol stands for.  Front ends give every size a role; the analyses ask the role of a
# name through `size_role` and never parse a front end's spelling.
PARAMETER = "parameter"  # a function parameter, a shape (`x.shape[0]`), a macro or global constant
TRIP_COUNT = "trip count"  # the unknown trip count of a loop the front end could not bound
LAUNCH_GRID = "launch grid"  # a grid dimension (blocks per grid along x, y or z)
LAUNCH_BLOCK = "launch block"  # a block dimension (threads per block along x, y or z)
ROLES = (PARAMETER, TRIP_COUNT, LAUNCH_GRID, LAUNCH_BLOCK)

_LAUNCH_NAMES = {LAUNCH_GRID: "gridDim", LAUNCH_BLOCK: "blockDim"}


def launch_size(role: str, axis: str) -> str:
    """The size name of a launch dimension: every front end (CUDA C, Numba CUDA) uses these, so a
    grid is the same symbol whatever the language, and `--grid`/`--block` bind it."""
    return f"{_LAUNCH_NAMES[role]}_{axis}"


def size_role(name) -> str:
    """The role of a size symbol (or its name): a launch dimension, else a parameter-like size (the
    trip-count sizes are told apart by their `Size.role` in the kernel)."""
    if not isinstance(name, str):
        # a plain sympy Symbol prints as its name (a Dummy does not: `_i`), and printing is slow:
        # the self-check asks this of every parameter of every count at every point
        kind = type(name)
        name = name.name if kind.__name__ == "Symbol" and kind.__module__.startswith("sympy.") else str(name)
    return _role(name)


@lru_cache(maxsize=4096)
def _role(name: str) -> str:
    """size_role of a name, once per name (a function of the text alone)."""
    for role, prefix in _LAUNCH_NAMES.items():
        if name.startswith(prefix + "_") and name[len(prefix) + 1:] in ("x", "y", "z"):
            return role
    return PARAMETER


def is_grid_size(name) -> bool:
    return size_role(name) == LAUNCH_GRID


def is_block_size(name) -> bool:
    return size_role(name) == LAUNCH_BLOCK


@dataclass
class Size:
    """A size symbol: its default value (if the source gives one), where that came from, and what
    it stands for (`role`, one of ROLES)."""

    name: str
    default: int | None = None
    origin: str = ""  # "parameter", "macro", "call site file:line", "trip count"
    role: str = PARAMETER


@dataclass
class Kernel:
    name: str
    language: str
    location: Location
    arrays: dict = field(default_factory=dict)  # name -> Array
    sizes: dict = field(default_factory=dict)  # name -> Size
    body: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)  # Diagnostic
    params: list = field(default_factory=list)  # parameter names in order
    # The same kernel modeled another way, for when this one's formulas depend on something the
    # other pins down (CUDA: the launch grid as formulas in the kernel's parameters).
    alternative: Kernel | None = None
    # GPU kernels: {"grid": (x, y, z), "block": (x, y, z), "origin": str, "model": str}; None entries
    # are unknown sizes.  "model" says how the grid enters the counts.
    launch: dict = field(default_factory=dict)
    # GPU kernels launched from the file: the launch site and, per pointer parameter, the host
    # variable passed there (`d_sq`), so kernels that share a buffer can be chained (lint's fusion).
    launch_site: Location | None = None
    launch_args: dict = field(default_factory=dict)  # parameter name -> host identifier

    def diag(self, code: str, message: str, location: Location | None = None) -> None:
        d = Diagnostic(code, message, location)
        if d not in self.diagnostics:
            self.diagnostics.append(d)


def walk(nodes):
    """Yield every node of a body in program order (depth first)."""
    for n in nodes:
        yield n
        if isinstance(n, Loop):
            yield from walk(n.body)
        elif isinstance(n, Guard):
            yield from walk(n.then)
            yield from walk(n.orelse)
