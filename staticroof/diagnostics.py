"""Diagnostics shared by every stage: what went wrong or is uncertain, and where.

Every stage (front end, analysis, CLI) reports through the same type so that the reports can
print `file:line:col: CODE message` lines the way ruff and flake8 do, and so that a kernel's
result can say *why* it is approximate.  The rule codes and their documentation live in
:data:`RULES`; `staticroof rules` prints them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

# A file name travels through `#line "..."` directives, which cannot hold every name (`"`, `\\`, a
# newline): such a name is replaced there by an alias, and turned back when a location is shown.
_SAFE_NAME = re.compile(r"[^\x00-\x1f\x7f\"\\\udc80-\udcff]*")  # no control, quote, backslash or non-UTF-8 byte
_ALIASES: dict = {}


def line_name(path: str) -> str:
    """`path` as it may be written inside `#line "..."`: itself, or an alias that `shown` reverses."""
    path = str(path)
    if _SAFE_NAME.fullmatch(path):
        return path
    alias = f"<staticroof-file-{hashlib.sha1(path.encode('utf-8', 'surrogateescape')).hexdigest()[:16]}>"
    _ALIASES[alias] = path
    return alias


def aliases() -> dict:
    """The aliases made in this process (a worker sends them back with its results)."""
    return dict(_ALIASES)


def add_aliases(made: dict) -> None:
    _ALIASES.update(made)


def printable(name: str) -> str:
    """A file name as one line of a report: control characters escaped (`\\n`), bytes that are not UTF-8
    (kept as surrogates by os.fsdecode) as `\\xff`."""
    out = []
    for ch in str(name):
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:
            out.append(f"\\x{o - 0xDC00:02x}")
        elif not ch.isprintable() and ch != " ":
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def shown(file):
    """The real name of a file that may be a `line_name` alias."""
    return _ALIASES.get(file, file) if file else file


@dataclass(frozen=True)
class Location:
    """A position in a source file (1-based line and column; 0 when unknown)."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{shown(self.file)}:{self.line}:{self.col or 1}"
        return shown(self.file)


@dataclass(frozen=True)
class Rule:
    code: str
    severity: str  # "error" | "warning" | "note"
    approximate: bool  # does a hit make the kernel's numbers approximate?
    summary: str
    doc: str


# One entry per rule code.  Errors stop a kernel (or a file); warnings that are `approximate`
# mark the kernel's result inexact; notes are informational.
_RULES = [
    Rule("SR001", "error", True, "syntax error",
         "The file (or one function in it) could not be parsed. The message gives the first token "
         "the parser could not accept. Other functions in the same file are still analyzed."),
    Rule("SR002", "error", True, "unsupported construct",
         "A construct the front end does not model sits where no single statement can be dropped in its "
         "place (the kernel's own setup, expressions nested too deeply to lower). The kernel is reported "
         "as unsupported and the construct is named with its location. A construct inside one statement "
         "costs only that statement (SR123)."),
    Rule("SR003", "error", True, "unreadable input",
         "The path does not exist, is not readable, or is not a supported language."),
    Rule("SR004", "note", False, "system header replaced by an empty stub",
         "A `#include <...>` names a header that staticroof has no stub for in `grammars/include`. "
         "The analysis never reads the host's system headers; it substitutes an empty file. If the "
         "kernel needs types or prototypes from it, parsing may fail at their first use."),
    Rule("SR005", "error", True, "preprocessor error",
         "The C preprocessor failed (a missing user header, an `#error`, a malformed directive). "
         "Pass project include folders with `-I DIR`."),
    Rule("SR006", "note", False, "empty input",
         "The file contains no function definitions with loops or array accesses, or only drivers: "
         "functions with no floating-point work and no loop over array data (`main`, setup, timers), "
         "which are not reported unless `--all-functions` is given."),
    Rule("SR007", "error", True, "invalid -D value for a size",
         "A `-D NAME=VALUE` names a size of the source (an integer parameter or local, or an integer "
         "`#define`) but VALUE is not an integer constant within 64 bits (`-D n=abc`, `-D n=1e30`), is "
         "missing, or is negative for a size that counts something. A usage error: exit status 2. "
         "Give the size as a non-negative integer (`-D n=1000000`); a `-D` for a name the source does "
         "not use as a size is passed to the preprocessor as usual."),
    Rule("SR099", "error", True, "internal error",
         "staticroof itself failed on this kernel. The other kernels are still reported. Please report "
         "the kernel and the message."),
    Rule("SR101", "warning", True, "index is not affine",
         "An array index depends on data (`x[idx[i]]`), on a variable that changes inside a loop, or "
         "on a product of loop variables. Distinct elements cannot be counted exactly: every dynamic "
         "access is assumed to touch a new element (an upper bound)."),
    Rule("SR102", "warning", True, "loop trip count is not affine",
         "A loop bound depends on data or on a non-affine expression. The trip count becomes a new "
         "size symbol named after the loop's line (bind it with `-D trip_L12=100`)."),
    Rule("SR103", "warning", True, "while/do loop",
         "A `while` or `do` loop has no static trip count. Its trip count becomes a new size symbol "
         "named after the loop's line."),
    Rule("SR104", "warning", True, "data-dependent condition",
         "An `if` or `?:` condition depends on data, so its branch cannot be decided statically. Both "
         "branches are counted as if executed (an upper bound)."),
    Rule("SR105", "warning", True, "call to an unknown function",
         "A call to a function that is neither defined in the file nor in the math cost table. Its "
         "work and traffic are not counted."),
    Rule("SR106", "warning", True, "recursive call",
         "A call that is part of a recursion cycle in the call graph. It is not followed: the callee's "
         "work and traffic at that call are not counted, and the result is approximate."),
    Rule("SR107", "warning", False, "operation promoted to fp64",
         "A floating operation has a `double` operand (often an unsuffixed literal such as `2.0` next "
         "to a `float`), so C's usual arithmetic conversions make it an fp64 operation. Write `2.0f` "
         "if fp32 was meant: on GPUs fp64 throughput is often 2-64x lower. In a Numba kernel, the same "
         "for a Python float (`0.5 * x[i]`), a float64 variable or accumulator (`s = 0.0`), or an "
         "int32/int64 operand (`x[i] * i`, `x[i] / 2`) meeting a float32: Numba's promotion makes the "
         "operation float64 (write `np.float32(0.5)`)."),
    Rule("SR108", "warning", True, "linearized index not provably injective",
         "An index such as `A[i*lda + j]` could not be split into rows and columns because the column "
         "part is not provably within `[0, lda)`. The distinct-element count is exact only when all "
         "sizes are given."),
    Rule("SR109", "warning", True, "loop may not terminate",
         "The loop's step moves away from its exit condition or is zero, so the loop may not terminate: "
         "its trip count becomes the size `trip_L<line>` (bind it with `-D trip_L12=100`) and the result "
         "is approximate."),
    Rule("SR110", "warning", True, "pointer aliasing or arithmetic not modeled",
         "An array is reached through a pointer expression the analysis does not follow (a pointer "
         "variable reassigned in a loop, a cast between element types)."),
    Rule("SR113", "warning", True, "needs the launch configuration",
         "A CUDA index, condition or loop bound uses `threadIdx`/`blockIdx` in a way that is affine only "
         "once the block size is known (a thread index alone, a tile size that is not `blockDim`). Give "
         "the launch with a launch site in the file, `--block`/`--grid`, or config."),
    Rule("SR114", "warning", True, "template type assumed",
         "A template kernel's type parameter has no instantiation in the file (or a template `__device__` "
         "function's is not deduced from a call's arguments); the analysis assumes `float`, which decides "
         "the bytes per element and the precision, so the result is approximate. A launch site "
         "(`kernel<double><<<...>>>`, or arguments of declared types), an explicit instantiation "
         "(`template __global__ void kernel<double>(...);`) or a call of a template launcher in the file "
         "decides it; each distinct instantiation is then its own result, named `kernel<double>`."),
    Rule("SR115", "note", False, "compile-time constant folded",
         "A `#define`d, `const` or template size that multiplies or divides a loop or thread index is "
         "folded to its value, as the compiler does, so that the index stays affine. Formulas hold for "
         "that value; `-D NAME=VALUE` folds another."),
    Rule("SR116", "error", True, "counting too complex",
         "Exact counting of this kernel exceeded staticroof's work budget (a linearized index with large "
         "constant strides, many overlapping references). Give the sizes with `-D`, or raise the budget "
         "with STATICROOF_ISL_BUDGET (isl operations per kernel, default 800000)."),
    Rule("SR117", "warning", False, "formula holds at the given sizes only",
         "A linearized index such as `A[i*m + j]` could not be proven injective for all sizes (the column "
         "range is not provably below the row length), so the distinct elements were counted with the "
         "given sizes substituted: the numbers are exact, but the formula shown for this array holds "
         "only at those sizes."),
    Rule("SR118", "warning", False, "compulsory traffic counted at the given sizes",
         "Symbolic first-access counting exceeded the work budget, so the distinct elements were counted "
         "with every size fixed at its value: the numbers are exact, the compulsory-traffic formula holds "
         "only at those sizes (W and the access level stay symbolic)."),
    Rule("SR119", "warning", False, "launch grid does not cover the sizes",
         "A CUDA launch's grid, evaluated where it is written (often `main` with its own sizes), launches "
         "fewer threads than the kernel's guards admit at the sizes in force (say `-D N=8192` with a grid "
         "sized for N = 1024). The numbers count the threads launched; the formulas assume a grid that "
         "covers the guards. Give the grid with `--grid`, or sizes that match the launch."),
    Rule("SR121", "error", True, "self-check failed",
         "Before a result is reported exact, its formulas are checked against the exact counts at a few "
         "size points (the sizes in force, small sizes, each constant the kernel compares sizes with and "
         "its neighbours), and the counts against running the loop nest at small sizes. They disagreed: "
         "this is a bug in staticroof, and the result is not reported exact. Please report the kernel."),
    Rule("SR120", "warning", False, "launch dimension the kernel does not index",
         "A CUDA kernel is launched with more than one thread (or block) along a dimension whose "
         "`threadIdx`/`blockIdx` it never reads (a 1-D kernel launched with `dim3 block(32, 8)`): every "
         "thread along it runs the whole body again. W and the accesses are counted that many times; the "
         "compulsory traffic is unchanged (the same elements), and the repeated threads write the same "
         "elements (a race unless the values agree). An extent the launch gives but staticroof cannot fold "
         "stays a size in the formulas (`blockDim_y`)."),
    Rule("SR122", "warning", True, "overloaded call not resolved",
         "A call of a function the file defines more than once (C++ overloads such as `float sq(float)` "
         "and `double sq(double)`) has no single best definition for its arguments' types, as C++ ranks "
         "them (exact match, promotion, conversion): the call is ambiguous, no definition takes those "
         "arguments, or an argument's type is not known where the definitions differ. The first "
         "definition's work is counted and the result is approximate. A cast of the argument "
         "(`sq((float)v)`) decides it."),
    Rule("SR123", "warning", True, "statement not modeled",
         "One statement uses a construct the analysis does not model (a `goto`, a call through a "
         "function pointer, a subscript of something that is not a known array, a `switch` with too "
         "many conditional `break`s, ...). That statement is dropped: its work and traffic are not "
         "counted, and a variable it declares or assigns is unknown afterwards (a later statement that "
         "needs it reports its own diagnostic). For a loop, `if` or `switch` whose header is not "
         "modeled, the whole statement is dropped. The rest of the kernel is analyzed; the result is "
         "approximate (the dropped statement's cost is missing)."),
    Rule("SR124", "warning", False, "time budget: counted at the sizes in force",
         "Counting this kernel took more CPU time than its budget (`--time-budget`, `time-budget` in the "
         "configuration or STATICROOF_TIME_BUDGET; 20 seconds by default, 0 for none), and every size it "
         "reads has a value, so it was counted again with every size fixed at its value: W and Q are exact "
         "numbers at these sizes, and the formulas shown are those numbers (as for SR118, the result is "
         "exact at these sizes only). A result that fell back is not stored in the cache."),
    Rule("SR125", "warning", True, "time budget: compulsory traffic bounded",
         "Counting this kernel took more CPU time than its budget, and a size has no value (or counting "
         "at the sizes ran out of time too): W and the access level are counted, but no first access is "
         "computed; each array's compulsory traffic is bounded above by its loads and stores (every "
         "access a new element), so Q compulsory is an upper bound, I a lower bound, and there is no "
         "cache-bounded Q. Give the sizes with `-D` for exact numbers, or raise the budget."),
    Rule("SR126", "error", True, "time budget: not counted",
         "Counting this kernel, counting it at the sizes in force and bounding its traffic all took more "
         "CPU time than the budget each: the kernel is reported as not counted. Also each kernel of a "
         "file left when the file's budget (three kernels' budgets, its loading included) is spent. Raise "
         "the budget (`--time-budget 60`, STATICROOF_TIME_BUDGET=60; 0 for none)."),
    Rule("SR127", "error", True, "analysis crashed",
         "The process analyzing this kernel crashed: a signal such as SIGSEGV or SIGABRT from native "
         "code (isl, barvinok), or SIGKILL from the system's out-of-memory killer. The kernel's result "
         "is missing (or, at the file's location, every kernel of the file: it crashed while loading "
         "the file); every other kernel and file was analyzed again in a fresh process and prints what "
         "it prints without the crash. Exit status 1. Please report the kernel and the signal."),
    Rule("SR128", "warning", True, "narrow loop counter wraps",
         "A loop counter of a `char` or `short` type (signed or not, `uint8_t`, `int16_t`, ...) must pass "
         "its largest value: the loop `for (unsigned char i = 0; i < 300; i++)` never ends, as the counter "
         "wraps to 0. It is counted as if it stopped at its condition, and the result is approximate. (A "
         "constant stored in such a variable takes its converted, wrapped value, exactly; another value "
         "not provably in range makes the variable's value unknown, and an index or bound built from it "
         "SR101/SR102.) Use `int` (or a wider type) for indices and counters."),
    Rule("SR129", "note", False, "narrow loop counter: counted where it fits",
         "A loop counter of a `char` or `short` type is bounded by a size: the loop ends before the counter "
         "wraps only for some sizes (`for (short p = 0; p < npix; p++)` for npix <= 32767). The counts "
         "hold for those sizes, which the note names; sizes given past them (-D, defaults) make the result "
         "approximate (SR128)."),
    Rule("SR130", "note", False, "on-chip array index not affine",
         "The index of a `__shared__` (or a local, on-chip) array is not affine in the loop variables "
         "(data-dependent, `s_hist[data[i]]`). No count depends on which element it is: such an array "
         "moves no DRAM data, and its loads and stores (Q shared) are counted one per access whatever "
         "their address. The result stays exact."),
    Rule("SR131", "warning", False, "missing user header read as empty",
         "A header included with quotes (`#include \"solver_types.h\"`) is not found beside the file or "
         "through -I: the message names the -I to pass (and folders near the file that have it). The "
         "file is read with the header empty, so that no kernel is lost: a kernel that uses nothing it "
         "declares is counted as always; one that uses a name declared nowhere in reach (a type, a "
         "macro, a function) is approximate (SR132, SR141, SR105)."),
    Rule("SR132", "warning", True, "name declared nowhere in reach",
         "An identifier is declared nowhere the analysis can see, and a header the file includes is "
         "missing (SR131): it may be that header's macro or constant. It is taken as a size of its own "
         "name, and the result is approximate. Pass the -I that finds the header."),
    Rule("SR140", "warning", True, "inline PTX not modeled",
         "An `asm(...)`/`asm volatile(...)` statement runs PTX that staticroof does not read: its own "
         "operations and memory accesses are not counted (the reads of its input operands are), each "
         "output operand receives an unknown value, and the rest of the kernel is analyzed."),
    Rule("SR141", "warning", True, "unknown type assumed opaque",
         "A type name that no header in reach defines (`my_real_t x;`, `Foo::Bar v;`, a typedef from a "
         "header that is not present) is assumed to be an opaque 4-byte scalar instead of a syntax "
         "error: its values are not indices, arithmetic on them alone is not counted as floating-point "
         "work, mixed with a floating-point value it counts in that value's precision, and an array of "
         "it moves 4 bytes per element. These are assumptions, so the result is approximate; `-I DIR` "
         "with the header that defines the type makes it exact."),
    Rule("SR142", "warning", True, "cooperative-groups operation not counted",
         "A `cg::reduce` whose operator staticroof does not know (not `cg::plus`, `cg::less`, "
         "`cg::greater` or a bitwise one), or over a group whose size the declaration does not say (a "
         "coalesced group, a `thread_group`): its N - 1 operations per group are not counted."),
    Rule("SR160", "warning", True, "Python element type guessed",
         "A parameter of a Python kernel has no type from a call of the kernel in the same file "
         "(`saxpy(a, x, y)` after `x = np.zeros(n, dtype=np.float32)`, a launch `k[g, b](d_x)` after "
         "`d_x = cuda.to_device(x)`), a signature (`@njit(\"void(float32[:], ...)\")`), an annotation, a "
         "`# staticroof: x=float32` pragma, `--dtype x=float32` (or `-D x=float32`) or the configuration's "
         "`[dtypes]` tables: it is counted as float64, the type NumPy gives `np.ones(n)` and Python floats. "
         "That is a guess (an array of another type compiles to other code, with other bytes per element "
         "and another precision), so the result is approximate; the message lists the `--dtype` flags "
         "that would type every parameter."),
    Rule("SR170", "warning", True, "power counted without its exponent",
         "A `**` in a Python kernel whose work depends on a value staticroof does not know: an integer "
         "exponent known only at run time (`x ** n`: Numba's loop multiplies twice per bit of |n|, and "
         "calls pow beyond 65536), counted as one pow call; or a complex power other than `z ** 2` "
         "(Numba calls numba_cpow, whose work is not counted). The result is approximate; a literal "
         "exponent or a module constant (`ORDER = 3`) makes it exact."),
    Rule("SR150", "note", False, "kernel launched in a host loop",
         "The launch site the kernel's configuration comes from sits inside a host `for`/`while` loop "
         "(a time-stepping loop: `for (t = 0; t < steps; t++) k<<<g, b>>>(...)`). W and Q are per "
         "launch; the note gives the loop and, where it folds, its trip count (the total is that many "
         "times the per-launch counts, when every launch has the same sizes)."),
    Rule("SR151", "note", False, "grid formula from floating-point host code",
         "The launch grid is computed in floating point (`ceil((float)n / block.x)`). Numbers are folded "
         "exactly as IEEE single or double precision computes them, at any size. The grid's formula in "
         "the kernel's sizes takes the quotient as exact (`ceiling(n/32)`), which holds while the "
         "numerator is below 2**24 (float) or 2**53 (double), as the note states (a non-integral a/b lies "
         "at least 1/b from every integer, and the rounding error is below a/b * 2**-24)."),
    Rule("SR153", "warning", True, "grid changes between launches in a host loop",
         "The kernel is launched inside a host loop, and its grid is computed from a variable the loop "
         "assigns (`for (s = n; s > 1; s = (s + 255) / 256) k<<<(s + 255) / 256, 256>>>(x, n)`), but "
         "not from values the kernel receives, so the grid is neither one number nor a formula in the "
         "kernel's parameters. The counts take a grid that covers the kernel's guards, which a launch "
         "of the loop may not have: the result is approximate. Passing the loop's size to the kernel "
         "(`k<<<...>>>(x, s)`) makes each launch's grid a formula in it (counted per launch, SR150)."),
    Rule("SR154", "note", False, "counted under a named run-time assumption",
         "The counts hold under an assumption about a value only the running program knows, which the note "
         "names: a CUDA block size that is not known is a multiple of the warp size when the kernel "
         "splits it into warps (llm.c's one warp per row, `blockIdx.x * (blockDim.x / 32) + threadIdx.x / "
         "32`; a partial warp would share its row with the next block's first warp), and a pointer "
         "parameter compared with `nullptr`/`NULL`/0 (an optional output, `if (mean != nullptr)`) is not "
         "null, as an integer parameter used as a flag is counted for a nonzero value (every size is at "
         "least 1). The result stays exact under it."),
    Rule("SR155", "warning", True, "launch contradicts the kernel's own bounds",
         "The block the kernel is counted under (from `--block`, the configuration or a launch site) breaks "
         "what the kernel states about its block: more threads than its `__launch_bounds__(N)`, or an "
         "`assert` on `blockDim` that fails (`assert(blockDim.x == 32)`).  Such a launch does not run; the "
         "counts are for it all the same, so the result is approximate.  Give the block the kernel was "
         "written for (`--block KERNEL=32`)."),
    Rule("SR152", "warning", True, "grid formula beyond its floating-point bound",
         "A size is given (or passed by the host) beyond the bound under which a grid formula from "
         "floating-point host code is exact (SR151): the hardware's rounded quotient may differ from the "
         "formula there, so the counts are approximate."),
]
RULES: dict[str, Rule] = {r.code: r for r in _RULES}


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    location: Location | None = None

    @property
    def rule(self) -> Rule:
        return RULES[self.code]

    @property
    def severity(self) -> str:
        return self.rule.severity

    @property
    def approximate(self) -> bool:
        return self.rule.approximate

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.code} {self.message}"

