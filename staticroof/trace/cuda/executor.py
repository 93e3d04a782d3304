"""The CUDA executor: the kernel's C rewrite (the same one the analysis parses), made runnable
(cuda_rewrite.py), instrumented, and run serially over every block and thread of the launch on
the CPU.

Serial execution gives the launch's counts for kernels whose control flow and addresses do not
depend on other threads' values (`__syncthreads()` does nothing here; the values computed differ).
The launch is the analysis's (or `--grid/--block`), else the file's launch site at these sizes.
Like `CProgram`, a `CudaProgram` compiles once and runs at several sizes and launches.
"""

from __future__ import annotations

from pathlib import Path

import sympy
from pycparser import c_ast, c_generator

from ...frontends.c.parse import parse_translation_unit
from ...frontends.common.predefined import CUDA_MACROS
from ...frontends.common.preprocess import preprocess
from ...frontends.cuda.classes import strip_for_trace
from ...frontends.cuda.grammar import table
from ...frontends.cuda.launch import grid_in_params
from ...frontends.cuda.source import cuda_source
from ...inputs import InputError, read_text
from ...resources import grammars_dir
from .. import Trace, TraceError, executor
from ..c.instrument import Instrumenter, file_constants
from ..c.program import ALLOCATION, RUNTIME_DIR, Program, driver, own_values, params_of, parse, pointer_depth
from .rewrite import instance, instantiate, overloads, references, shared_memory, textures

_DIMS = ("x", "y", "z")

PRELUDE = Path(__file__).resolve().parent / "prelude.h"  # CUDA builtins for the host compiler


class CudaProgram:
    """A CUDA kernel compiled once for serial execution; `run` at any sizes and launch."""

    def __init__(self, path: str, kernel: str, defines: dict, include_dirs=(), macro_sizes: dict | None = None):
        macro_sizes = macro_sizes or {}
        try:
            text = read_text(path)
        except InputError as e:
            raise TraceError(f"{path}: {e}") from None
        pp = preprocess(path, text, defines, include_dirs, predefined=CUDA_MACROS,
                        stub_dirs=[grammars_dir() / "cuda"])
        if not pp.ok:
            raise TraceError("; ".join(str(d) for d in pp.diagnostics))
        ctext, tex_types = textures(pp.text, path)
        src = cuda_source(path, ctext, pp.bindings)
        ext, diags, failed = parse_translation_unit(src.ctext, path)
        ext = [n for n in ext if not (getattr(n, "coord", None) and (n.coord.file or "").startswith("<staticroof"))]
        base, inst_types, inst_values, self.site = instance(src, kernel)
        ext, why = strip_for_trace(ext, base)  # C++ classes and wmma: the analysis's alone (classes.py)
        if why:
            raise TraceError(why)
        spelled = {alias: spelling or "float" for alias, (spelling, _p, _it) in src.type_aliases.items()}
        spelled.update(inst_types)
        candidates = list(dict.fromkeys([*inst_types.values(), *(s for s, _p, _it in src.type_aliases.values() if s),
                                         "float", "double"]))
        ext = instantiate(ext, src, candidates)
        references(ext, src.references)
        funcs = [n for n in ext if isinstance(n, c_ast.FuncDef)]
        if sum(1 for n in funcs if n.decl.name == base) > 1:
            raise TraceError(f"`{kernel}` is overloaded: which one a launch runs cannot be told")
        fn = next((n for n in funcs if n.decl.name == base), None)
        if fn is None or any(name in (base, kernel) for name, _, _ in failed):
            # the kernel's own syntax error, else (it was not found) the file's
            why = [d for name, _, d in failed if name in (base, kernel)] or (diags if fn is None else [])
            raise TraceError(f"`{kernel}` could not be parsed for tracing" + "".join(f": {d}" for d in why))
        self.params = params_of(fn, ext, spelled)
        # by position, None for an unnamed one: the launch's arguments are matched to them in order
        self.param_names = [p.name if isinstance(p, c_ast.Decl) else None
                            for p in (fn.decl.type.args.params if fn.decl.type.args else [])
                            if not isinstance(p, c_ast.EllipsisParam)]
        # template values: each function's own, defined around its definition (the traced one's from
        # its instantiation, or -D)
        values = {id(n): dict(src.tparam_info.get(n.decl.name, {})) for n in funcs}
        values[id(fn)].update({k: v for k, v in inst_values.items() if v is not None})
        for v in values.values():
            v.update({k: macro_sizes[k] for k in v if k in macro_sizes})
        # file-scope arrays in device memory (`__constant__`, `__device__`) are DRAM arrays, as the
        # analysis counts them; `__shared__` ones (storage `register` until shared_memory) are on-chip
        file_arrays = [(n.name, pointer_depth(n.type), own_values(n)) for n in ext
                       if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.ArrayDecl) and n.name
                       and not {"register", "extern"} & set(n.storage or []) and n.type.dim is not None]
        shared_memory(ext)
        renamed = overloads(funcs)
        gen = c_generator.CGenerator()
        constants = file_constants(ext) | {n for tvals in src.tparam_info.values() for n in tvals}
        inst = Instrumenter(intrinsics=table()["intrinsics"], shared_static=True, overloads=renamed, cxx_math=True,
                            constants=constants)
        sizes_macros = dict(pp.size_macros)
        sizes_macros.update({k: v for k, v in macro_sizes.items() if k in sizes_macros})
        lines = [f'#include "{RUNTIME_DIR / "runtime.h"}"', f'#include "{PRELUDE}"',
                 "#define __SR_SIZE(name, d) __sr_size_##name",
                 "__sr_uint3 threadIdx, blockIdx, blockDim, gridDim;"]
        lines += ALLOCATION
        lines += [f"#define __sr_size_{n} ({int(v)})" for n, v in sizes_macros.items()]
        lines += [f"typedef {spelling} {alias};" for alias, spelling in spelled.items()]
        register: list[tuple] = []  # (name, rank, first index[, the texture's element])
        for name, kind, rank, _decl in self.params:
            if kind == "ptr":
                register.append((name, rank, "0"))
            elif kind == "tex":
                elem = tex_types.get(name) or set().union(*tex_types.values()) if tex_types else set()
                if len(elem) != 1:
                    raise TraceError(f"`{name}`: the element type of this texture object is not known "
                                     "(no single tex1Dfetch<T> reads it)")
                register.append((name, 0, "0", f"((({next(iter(elem))} *)({name}))[0])"))
        register += [(n, r, f"sizeof({n})", None, keep) for n, r, keep in file_arrays]
        prototypes = [gen.visit(f.decl) + ";" for f in funcs if f.decl.name.partition("__sr_overload")[2]]
        for node in ext:
            if isinstance(node, c_ast.FuncDef):
                lines += prototypes
                prototypes = []
                tvals = values.get(id(node), {})
                lines += [f"#define {name} ({int(value or 0)})" for name, value in tvals.items()]
                lines.append(inst.function(node, register if node is fn else None))
                lines += [f"#undef {name}" for name in tvals]
            elif isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl) and node.name in renamed:
                continue  # a prototype of an overloaded name: the renamed ones are declared above
            else:
                lines.append(gen.visit(node) + ";")
        loops = [f"gridDim.{d} = __sr_arg(argv, {k + 1}); blockDim.{d} = __sr_arg(argv, {k + 4});"
                 for k, d in enumerate(_DIMS)]
        loops += [f"for (blockIdx.{d} = 0; blockIdx.{d} < gridDim.{d}; blockIdx.{d}++)" for d in reversed(_DIMS)]
        loops += [f"for (threadIdx.{d} = 0; threadIdx.{d} < blockDim.{d}; threadIdx.{d}++)" for d in reversed(_DIMS)]
        main, self.sizes = driver(fn.decl.name, self.params, loops, first_slot=7)
        self.kernel = kernel
        self.specials = inst.specials
        self.program = Program("\n".join(lines + main) + "\n")

    def close(self):
        self.program.close()

    def launch_at(self, sizes: dict, launch: dict | None) -> tuple:
        """(grid, block) as numbers: the given launch, else the launch site's at these sizes."""
        grid = tuple((launch or {}).get("grid") or (None,) * 3)
        block = tuple((launch or {}).get("block") or (None,) * 3)
        site = self.site
        if site is not None and None in block:
            block = tuple(site.block)
        if site is not None and None in grid:
            formula = grid_in_params(site, self.param_names)
            grid = tuple(_at(e, sizes) if e is not None and _at(e, sizes) is not None else g
                         for e, g in zip(formula, site.grid, strict=True))
        if None in grid or None in block:
            raise TraceError(f"`{self.kernel}`: the launch configuration is unknown; add a launch site or give "
                             "--grid/--block to `staticroof analyze` (and config) before tracing")
        return tuple(int(g) for g in grid), tuple(int(b) for b in block)

    def run(self, sizes: dict, launch: dict | None = None, weights: dict | None = None, timeout: float = 120) -> Trace:
        grid, block = self.launch_at(sizes, launch)
        missing = [n for n in self.sizes if sizes.get(n) is None]
        if missing:
            raise TraceError(f"give a value for {', '.join(missing)} (-D {missing[0]}=64)")
        out = self.program.execute([*grid, *block, *(int(sizes[n]) for n in self.sizes)], timeout)
        return parse(out, self.specials, weights or {})


def _at(expr, sizes: dict):
    """A launch formula in the kernel's parameters at these sizes (None if one is missing)."""
    expr = sympy.sympify(expr)
    values = {s: sizes.get(s.name) for s in expr.free_symbols}
    if any(v is None for v in values.values()):
        return None
    value = expr.subs(values)
    return int(value) if value.is_number else None


@executor("cuda")
class CudaExecutor:
    def run(self, path, kernel, sizes, defines, include_dirs, weights, launch):
        program = CudaProgram(path, kernel, defines, include_dirs, macro_sizes=sizes)
        try:
            return program.run(sizes, launch, weights)
        finally:
            program.close()
