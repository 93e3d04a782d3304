"""The C executor: instrument, compile with the system C compiler, run at the sizes, read counts.

Each pointer parameter gets its own region (driver.c), whose elements get random non-zero values
of the kernel's own element type just before their first read; integer parameters take the
sizes, floating ones 1.25, and parameters the kernel never reads any value.  Only the kernel and
the functions it calls are compiled, so a benchmark file with its own `main`, timers and printing
runs as it is.  The program is compiled once and can be run at several size assignments
(`CProgram.run`).
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from ...frontends.c.frontend import prototype
from ...frontends.c.parse import parse_translation_unit
from ...frontends.common.preprocess import preprocess
from ...inputs import InputError, read_text
from ...resources import grammars_dir
from .. import Trace, TraceError, executor
from .instrument import Instrumenter, file_constants
from .program import ALLOCATION, RUNTIME_DIR, Program, driver, names_read, own_values, params_of, parse, pointer_depth

USER_MAIN = "__sr_user_main"


def reachable(kernel, ext) -> set:
    """Names of the functions the kernel (or a file-scope declaration) can call."""
    funcs = {n.decl.name: n for n in ext if isinstance(n, c_ast.FuncDef)}
    todo = [kernel.decl.name]
    for n in ext:
        if not isinstance(n, c_ast.FuncDef):
            todo += [x for x in names_read(n) if x in funcs]
    seen: set = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in funcs:
            continue
        seen.add(name)
        todo += [x for x in names_read(funcs[name].body) if x in funcs]
    return seen


def rename(fn: c_ast.FuncDef, name: str) -> None:
    fn.decl.name = name
    t = fn.decl.type
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    t.declname = name


class CProgram:
    """An instrumented kernel compiled once, run at any sizes of its integer parameters."""

    def __init__(self, path: str, kernel: str, defines: dict, include_dirs=(), macro_sizes: dict | None = None):
        try:
            text = read_text(path)
        except InputError as e:
            raise TraceError(f"{path}: {e}") from None
        pp = preprocess(path, text, defines, include_dirs)
        if not pp.ok:
            raise TraceError("; ".join(str(d) for d in pp.diagnostics))
        ext, diags, failed = parse_translation_unit(pp.text, path)
        if any(name == kernel for name, _, _ in failed):
            raise TraceError("; ".join(str(d) for d in diags + [f[2] for f in failed if f[0] == kernel]))
        for node in ext:
            if isinstance(node, c_ast.FuncDef) and isinstance(node.decl.type, c_ast.FuncDecl):
                prototype(node)  # K&R: the generated C is a prototype definition
        gen = c_generator.CGenerator()
        fn = next((n for n in ext if isinstance(n, c_ast.FuncDef) and n.decl.name == kernel), None)
        if fn is None:
            raise TraceError(f"no function `{kernel}` in {path}")
        self.params = params_of(fn, ext)
        keep = reachable(fn, ext)
        kept = [n for n in ext if isinstance(n, c_ast.FuncDef) and n.decl.name in keep]
        called = set().union(*(names_read(n.body) for n in kept))
        unparsed = [str(d) for name, _, d in failed if name in called]  # a function the kernel needs
        if unparsed:
            raise TraceError("; ".join(unparsed))
        for node in kept:  # the file's own `main` (when the kernel calls it) never clashes with the driver's
            if node.decl.name == "main":
                rename(node, USER_MAIN)
        kept_ids = {id(n) for n in kept}
        inst = Instrumenter(constants=file_constants(ext))
        stub_root = str(grammars_dir())
        sizes_macros = dict(pp.size_macros)
        sizes_macros.update(macro_sizes or {})
        lines = [f'#include "{RUNTIME_DIR / "runtime.h"}"', "#define __SR_SIZE(name, d) __sr_size_##name"]
        lines += ALLOCATION
        lines += [f"#define __sr_size_{n} ({int(v)})" for n, v in sizes_macros.items()]
        file_arrays: list = []
        for node in ext:
            coord = getattr(node, "coord", None)
            if coord is not None and coord.file == "<staticroof-prelude>":
                continue
            if isinstance(node, c_ast.FuncDef):
                if coord is not None and coord.file and coord.file.startswith(stub_root):
                    continue
                if id(node) not in kept_ids:
                    continue
                register: list[tuple] | None = None  # (name, rank, first index[, element, keep])
                if node is fn:
                    register = [(n, r, "0") for n, k, r, _ in self.params if k == "ptr"]
                    register += [(n, r, f"sizeof({n})", None, keep) for n, r, keep in file_arrays]
                lines.append(inst.function(node, register))
            elif isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl) and node.name == "main":
                continue  # its prototype
            else:
                if isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.ArrayDecl) and node.name:
                    file_arrays.append((node.name, pointer_depth(node.type), own_values(node)))
                lines.append(gen.visit(node) + ";")
        main, self.sizes = driver(fn.decl.name, self.params)
        self.specials = inst.specials
        self.program = Program("\n".join(lines + main) + "\n")

    def close(self):
        self.program.close()

    def run(self, sizes: dict, weights: dict | None = None, timeout: float = 60, lru_bytes: int | None = None) -> Trace:
        """Run at `sizes`; with `lru_bytes`, also the traffic of an LRU cache of that many bytes."""
        missing = [n for n in self.sizes if sizes.get(n) is None]
        if missing:
            raise TraceError(f"give a value for {', '.join(missing)} (-D {missing[0]}=64)")
        out = self.program.execute([int(sizes[n]) for n in self.sizes], timeout, lru_bytes)
        return parse(out, self.specials, weights or {})


@executor("c")
class CExecutor:
    def run(self, path, kernel, sizes, defines, include_dirs, weights, launch):
        program = CProgram(path, kernel, defines, include_dirs, macro_sizes=sizes)
        try:
            return program.run(sizes, weights)
        finally:
            program.close()
