"""What the C and CUDA executors share: the kernel's parameters, the generated driver, compiling
in a temporary folder that is removed with the program (also on error), running it, and reading
its counts.

A failure is always a :class:`TraceError` with a clear message: the runtime reports an access
outside its array, or a crash, on stderr under a fixed prefix (see driver.c), which becomes the
message.
"""

from __future__ import annotations

import copy
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from pycparser import c_ast, c_generator

from .. import ArrayTrace, Trace, TraceError

RUNTIME_DIR = Path(__file__).resolve().parent
# the kernel's own allocations come from the runtime (a region each, see driver.c)
ALLOCATION = [f"#define {name} __sr_{name}" for name in
              ("malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign", "alloca", "free")]
_ERROR = "staticroof-trace-error: "
_FLOAT_NAMES = ("float", "double", "_Float16", "half", "__half", "__bf16", "__nv_bfloat16")


def compiler() -> str:
    for cand in ("cc", "gcc", "clang"):
        exe = shutil.which(cand)
        if exe:
            return exe
    raise TraceError("staticroof trace needs a C compiler (cc, gcc or clang) on PATH; none was found")


def pointer_depth(t) -> int:
    """How many pointer and array declarators wrap the type (`float **a`, `float a[4][4]`: 2)."""
    n = 0
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        n += 1
        t = t.type
    return n


def _kind(t, typedefs: dict, spelled: dict) -> str:
    """"int", "float", "tex" (a texture object) or "other" for a scalar parameter's type."""
    while isinstance(t, c_ast.TypeDecl):
        t = t.type
    if isinstance(t, c_ast.Enum):
        return "int"
    if not isinstance(t, c_ast.IdentifierType):
        return "other"
    names = t.names
    if len(names) == 1 and names[0] == "cudaTextureObject_t":
        return "tex"
    if len(names) == 1 and names[0] in spelled:  # a template type parameter: its instantiation
        return "float" if any(f in spelled[names[0]].split() for f in _FLOAT_NAMES) else "int"
    if len(names) == 1 and names[0] in typedefs:
        return _kind(typedefs[names[0]], typedefs, spelled)
    return "float" if any(n in _FLOAT_NAMES for n in names) else "int"


def names_read(node) -> set:
    """Every identifier under `node` (a parameter not among them is never read)."""
    out = set()

    def visit(n):
        if isinstance(n, c_ast.ID):
            out.add(n.name)
        for _, child in n.children():
            visit(child)

    visit(node)
    return out


def params_of(fn, ext, spelled: dict | None = None) -> list:
    """(name, kind, rank, decl) for each parameter of the traced function; kind is "ptr", "int",
    "float", "tex", or "unused" for a scalar the body never reads (it needs no value)."""
    from ..records import refuse_structs

    refuse_structs(fn, ext)  # not traceable yet: said, never run with counts that cannot match
    typedefs = {n.name: n.type for n in ext if isinstance(n, c_ast.Typedef)}
    used = names_read(fn.body)
    out = []
    for k, p in enumerate(fn.decl.type.args.params if fn.decl.type.args else []):
        if isinstance(p, c_ast.EllipsisParam) or _is_void(p):
            continue
        if getattr(p, "name", None) is None:  # an unnamed parameter (`std::bool_constant<B>`, a tag): any value
            name = f"__sr_unnamed{k}"
            decl = c_ast.Decl(name, list(getattr(p, "quals", []) or []), [], [], [], copy.deepcopy(p.type), None, None)
            out.append((name, "unused", 0, decl))
            continue
        rank = pointer_depth(p.type)
        if rank >= 2 and isinstance(p.type, c_ast.PtrDecl) and isinstance(p.type.type, c_ast.PtrDecl):
            raise TraceError(f"`{p.name}`: pointer-to-pointer parameters cannot be traced")
        kind = "ptr" if rank else _kind(p.type, typedefs, spelled or {})
        if not rank and p.name not in used:
            kind = "unused"
        elif kind == "other":
            raise TraceError(f"`{p.name}`: a parameter of this type ({_type_text(p.type)}) cannot be given a value")
        out.append((p.name, kind, rank, p))
    return out


def _is_void(p) -> bool:
    """`f(void)`'s parameter list."""
    t = getattr(p, "type", None)
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and t.type.names == ["void"] \
        and getattr(t, "declname", None) is None


def own_values(decl: c_ast.Decl) -> bool:
    """Does a file-scope array keep its own values (initialized, or const and so maybe read-only)?
    The trace fills the other arrays' elements before their first read."""
    return decl.init is not None or "const" in (decl.quals or [])


def _type_text(t) -> str:
    t = copy.deepcopy(t)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl) and hasattr(inner, "type"):
        inner = inner.type
    if isinstance(inner, c_ast.TypeDecl):
        inner.declname = None
    return c_generator.CGenerator().visit(c_ast.Typename(None, [], None, t))


def driver(kernel: str, params: list, around=(), first_slot: int = 1) -> tuple[list, list]:
    """The generated `main`: a region per pointer parameter, the sizes from the command line (from
    argument `first_slot` on), the call (inside the `around` lines: the CUDA thread loops).
    Returns (lines, the names of the size arguments in order)."""
    gen = c_generator.CGenerator()
    main = ["int main(int argc, char **argv) {"]
    args, sizes = [], []
    for k, (name, kind, _dims, decl) in enumerate(params):
        if kind in ("ptr", "tex"):
            main.append(f"  void *__sr_buf{k} = __sr_region();")
            args.append(f"__sr_buf{k}" if kind == "ptr" else f"(cudaTextureObject_t)__sr_buf{k}")
        elif kind == "int":
            sizes.append(name)
            main.append(f"  long __sr_size_arg{k} = __sr_arg(argv, {first_slot + len(sizes) - 1});")
            args.append(f"__sr_size_arg{k}")
        elif kind == "float":
            args.append("1.25")
        else:  # never read: any value of its type
            d = copy.deepcopy(decl)
            d.name = f"__sr_unused{k}"
            inner = d.type
            while not isinstance(inner, c_ast.TypeDecl) and hasattr(inner, "type"):
                inner = inner.type
            if isinstance(inner, c_ast.TypeDecl):
                inner.declname = d.name
            d.init, d.quals, d.storage = None, [], []
            main.append(f"  {gen.visit(d)}; memset(&{d.name}, 0, sizeof {d.name});")
            args.append(d.name)
    call = f"{kernel}({', '.join(args)});"
    body = [f"  {line}" for line in around] + [f"    {call}"]
    return ["void *memset(void *, int, unsigned long);"] + main + body + ["  __sr_report();", "  return 0;", "}"], sizes


class Program:
    """Instrumented C compiled once in its own temporary folder (removed by `close`, when the
    program is collected, or at exit); `execute` runs it."""

    def __init__(self, source: str):
        self._dir = tempfile.TemporaryDirectory(prefix="staticroof-trace-")
        try:
            work = Path(self._dir.name)
            src = work / "kernel.c"
            src.write_text(source)
            self.exe = work / "kernel"
            cmd = [compiler(), "-std=gnu11", "-O0", "-w", "-Wno-error=implicit-function-declaration",
                   "-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types", "-o", str(self.exe),
                   str(src), str(RUNTIME_DIR / "runtime.c"), str(RUNTIME_DIR / "driver.c"), "-lm"]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                raise TraceError("the C compiler took longer than 120 s") from None
            if proc.returncode != 0:
                raise TraceError(f"the instrumented kernel did not compile:\n{proc.stderr[:2000]}")
        except BaseException:
            self.close()
            raise

    def close(self):
        self._dir.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def execute(self, args: list, timeout: float, lru_bytes: int | None = None) -> str:
        """Run with `args`; its stdout, or a TraceError that says what went wrong."""
        env = dict(os.environ, STATICROOF_LRU_BYTES=str(lru_bytes or 0))
        try:
            proc = subprocess.run([str(self.exe), *map(str, args)], capture_output=True, text=True,
                                  timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise TraceError(f"the kernel ran longer than {timeout:.0f} s at these sizes: trace at smaller "
                             "sizes") from None
        if proc.returncode != 0:
            said = [ln[len(_ERROR):] for ln in proc.stderr.splitlines() if ln.startswith(_ERROR)]
            if said:
                raise TraceError(said[0])
            if proc.returncode < 0:
                raise TraceError(f"the instrumented kernel was killed by {_signal(-proc.returncode)}"
                                 + (f": {proc.stderr[:500]}" if proc.stderr.strip() else ""))
            raise TraceError(f"the instrumented kernel failed (exit {proc.returncode}): {proc.stderr[:500]}")
        return proc.stdout


# What a signal that ends the kernel means (SIGSEGV, SIGBUS and SIGFPE are caught by driver.c's
# fault handler, which says more; these are the ones it cannot catch or does not).
_SIGNALS = {"SIGABRT": "it aborted (abort() or a failed assert)", "SIGKILL": "killed from outside (out of memory?)",
            "SIGILL": "an illegal instruction (__builtin_trap()?)", "SIGSEGV": "an invalid memory access",
            "SIGBUS": "a misaligned or unmapped memory access", "SIGTERM": "terminated from outside",
            "SIGFPE": "an arithmetic exception (an integer division by zero?)", "SIGXCPU": "out of CPU time"}


def _signal(number: int) -> str:
    """`SIGABRT (signal 6): it aborted ...`: the name and what it means, never `exit -6`."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    meaning = _SIGNALS.get(name)
    return f"{name} (signal {number})" + (f", {meaning}" if meaning else "")


def parse(out: str, specials: list, weights: dict) -> Trace:
    """The counts a run printed (see `__sr_report`)."""
    t = Trace()
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "flops":
            t.flops[parts[1]] = t.flops.get(parts[1], 0) + int(parts[2])
        elif parts[0] == "special":
            name, prec, n = specials[int(parts[1])], parts[2], int(parts[3])
            t.special[name] = t.special.get(name, 0) + n
            t.flops[prec] = t.flops.get(prec, 0) + n * weights.get(name, 1)
        elif parts[0] == "lru":
            t.lru_bytes = int(parts[2])
        elif parts[0] == "array":
            name, elem, first_read, written, loads, stores, touched, lo, hi = parts[1], *map(int, parts[2:10])
            new = ArrayTrace(name, elem, first_read, written, loads, stores, (lo, hi) if touched else None)
            old = t.arrays.get(name)
            if old is not None:  # one variable's successive allocations: one array
                reached = [r for r in (old.reached, new.reached) if r]
                new = ArrayTrace(name, elem, old.first_read + first_read, old.written + written,
                                 old.loads + loads, old.stores + stores,
                                 (min(r[0] for r in reached), max(r[1] for r in reached)) if reached else None)
            t.arrays[name] = new
    t.flops = {p: n for p, n in t.flops.items() if n}
    return t
