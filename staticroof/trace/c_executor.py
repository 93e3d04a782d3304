"""The C executor: instrument, compile with the system C compiler, run at the sizes, read counts.

Arrays are allocated by the driver (one generous buffer per pointer parameter, filled with random
non-zero values by the kernel's own registration, so the element type is the kernel's), integer
parameters take the sizes, floating parameters 1.25.  The program is compiled once and can be run
at several size assignments (`CProgram.run`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from pycparser import c_ast, c_generator

from ..frontends.c import parse_translation_unit
from ..frontends.preprocess import preprocess
from ..resources import grammars_dir
from . import ArrayTrace, Trace, TraceError, executor
from .instrument import Instrumenter

RUNTIME_DIR = Path(__file__).resolve().parent


def compiler() -> str:
    for cand in ("cc", "gcc", "clang"):
        exe = shutil.which(cand)
        if exe:
            return exe
    raise TraceError("staticroof trace needs a C compiler (cc, gcc or clang) on PATH; none was found")


def _rank(t) -> int:
    n = 0
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        n += 1
        t = t.type
    return n


def _is_int(t, typedefs) -> bool:
    while isinstance(t, c_ast.TypeDecl):
        t = t.type
    if isinstance(t, c_ast.IdentifierType):
        names = t.names
        if len(names) == 1 and names[0] in typedefs:
            return _is_int(typedefs[names[0]], typedefs)
        return not any(n in ("float", "double", "_Float16", "half", "__bf16") for n in names)
    return False


class CProgram:
    """An instrumented kernel compiled once, run at any sizes of its integer parameters."""

    def __init__(self, path: str, kernel: str, defines: dict, include_dirs=(), macro_sizes: dict | None = None):
        text = Path(path).read_text()
        pp = preprocess(path, text, defines, include_dirs)
        if not pp.ok:
            raise TraceError("; ".join(str(d) for d in pp.diagnostics))
        ext, diags, failed = parse_translation_unit(pp.text, path)
        if diags or any(name == kernel for name, _, _ in failed):
            raise TraceError("; ".join(str(d) for d in diags + [f[2] for f in failed]))
        gen = c_generator.CGenerator()
        fn = next((n for n in ext if isinstance(n, c_ast.FuncDef) and n.decl.name == kernel), None)
        if fn is None:
            raise TraceError(f"no function `{kernel}` in {path}")
        self.params = params_of(fn, ext)
        inst = Instrumenter()
        stub_root = str(grammars_dir())
        sizes_macros = dict(pp.size_macros)
        sizes_macros.update(macro_sizes or {})
        lines = [f'#include "{RUNTIME_DIR / "runtime.h"}"', "#define __SR_SIZE(name, d) __sr_size_##name"]
        lines += [f"#define __sr_size_{n} ({int(v)})" for n, v in sizes_macros.items()]
        lines.append("extern unsigned long __sr_array_bytes;")
        file_arrays = []
        for node in ext:
            coord = getattr(node, "coord", None)
            if coord is not None and coord.file == "<staticroof-prelude>":
                continue
            if isinstance(node, c_ast.FuncDef):
                if coord is not None and coord.file and coord.file.startswith(stub_root):
                    continue
                register = None
                if node is fn:
                    register = [(n, r, "__sr_array_bytes") for n, k, r in self.params if k == "ptr"]
                    register += [(n, r, f"sizeof({n})") for n, r in file_arrays]
                lines.append(inst.function(node, register))
            else:
                if isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.ArrayDecl) and node.name:
                    file_arrays.append((node.name, _rank(node.type)))
                lines.append(gen.visit(node) + ";")
        args = []
        for k, (name, kind, _rank_) in enumerate(self.params):
            if kind == "ptr":
                args.append(f"__sr_buf{k}")
            elif kind == "int":
                args.append(f"__sr_size_arg{k}")
            else:
                args.append("1.25")
        main = ["void *__sr_alloc(unsigned long);", "long __sr_arg(char **, int);",
                "int main(int argc, char **argv) {", "  __sr_array_bytes = (unsigned long)__sr_arg(argv, 1);"]
        slot = 2
        for k, (name, kind, _rank_) in enumerate(self.params):
            if kind == "ptr":
                main.append(f"  void *__sr_buf{k} = __sr_alloc(__sr_array_bytes);")
            elif kind == "int":
                main.append(f"  long __sr_size_arg{k} = __sr_arg(argv, {slot});")
                slot += 1
        main += [f"  {kernel}({', '.join(args)});", "  __sr_report();", "  return 0;", "}"]
        self.specials = inst.specials
        self.exe = build("\n".join(lines + main) + "\n")

    def run(self, sizes: dict, weights: dict | None = None, timeout: float = 60, lru_bytes: int | None = None) -> Trace:
        """Run at `sizes`; with `lru_bytes`, also the traffic of an LRU cache of that many bytes."""
        ints = [name for name, kind, _ in self.params if kind == "int"]
        missing = [n for n in ints if n not in sizes]
        if missing:
            raise TraceError(f"give a value for {', '.join(missing)} (-D {missing[0]}=64)")
        biggest = max([int(v) for v in sizes.values()] + [8])
        nbytes = min(16 * (biggest + 8) ** 3, 1 << 36)  # virtual: only touched pages are backed
        argv = [str(self.exe), str(nbytes)] + [str(int(sizes[n])) for n in ints]
        try:
            env = dict(os.environ, STATICROOF_LRU_BYTES=str(lru_bytes or 0))
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise TraceError(f"the kernel ran longer than {timeout:.0f} s at these sizes") from None
        if proc.returncode != 0:
            raise TraceError(f"the instrumented kernel failed (exit {proc.returncode}): {proc.stderr[:500]}")
        return _parse(proc.stdout, self.specials, weights or {})


def build(source: str) -> Path:
    """Compile an instrumented kernel with the runtime and driver; the executable's path."""
    work = Path(tempfile.mkdtemp(prefix="staticroof-trace-"))
    src = work / "kernel.c"
    src.write_text(source)
    exe = work / "kernel"
    cmd = [compiler(), "-std=gnu11", "-O0", "-w", "-o", str(exe), str(src), str(RUNTIME_DIR / "runtime.c"),
           str(RUNTIME_DIR / "driver.c"), "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise TraceError(f"the instrumented kernel did not compile:\n{proc.stderr[:2000]}")
    return exe


def params_of(fn, ext) -> list:
    """(name, "ptr" | "int" | "float", rank) for each parameter of the traced function."""
    typedefs = {n.name: n.type for n in ext if isinstance(n, c_ast.Typedef)}
    out = []
    for p in (fn.decl.type.args.params if fn.decl.type.args else []):
        if isinstance(p, c_ast.EllipsisParam) or p.name is None:
            continue
        rank = _rank(p.type)
        if rank >= 2 and isinstance(p.type, c_ast.PtrDecl) and isinstance(p.type.type, c_ast.PtrDecl):
            raise TraceError(f"`{p.name}`: pointer-to-pointer parameters cannot be traced")
        out.append((p.name, "ptr" if rank else ("int" if _is_int(p.type, typedefs) else "float"), rank))
    return out


def _parse(out: str, specials: list, weights: dict) -> Trace:
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
            name, elem, first_read, written, loads, stores = parts[1], *map(int, parts[2:7])
            t.arrays[name] = ArrayTrace(name, elem, first_read, written, loads, stores)
    t.flops = {p: n for p, n in t.flops.items() if n}
    return t


@executor("c")
class CExecutor:
    def run(self, path, kernel, sizes, defines, include_dirs, weights, launch):
        program = CProgram(path, kernel, defines, include_dirs, macro_sizes=sizes)
        return program.run(sizes, weights)
