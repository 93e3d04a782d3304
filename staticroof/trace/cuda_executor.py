"""The CUDA executor: the kernel's C rewrite (the same one the analysis parses), instrumented, run
serially over every block and thread of the launch on the CPU.

Serial execution gives the launch's counts for kernels whose control flow and addresses do not
depend on other threads' values (`__syncthreads()` does nothing here; the values computed differ).
Kernels with dynamic shared memory (`extern __shared__`) or without a known launch are refused.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from pycparser import c_ast, c_generator

from ..frontends.c import parse_translation_unit
from ..frontends.cuda import CUDA_MACROS, cuda_source, table
from ..frontends.preprocess import preprocess
from ..resources import grammars_dir
from . import TraceError, executor
from .c_executor import RUNTIME_DIR, _parse, build, params_of
from .instrument import Instrumenter

_C_SPELLING = {"fp32": "float", "fp64": "double", "fp16": "_Float16"}


@executor("cuda")
class CudaExecutor:
    def run(self, path, kernel, sizes, defines, include_dirs, weights, launch):
        grid = tuple((launch or {}).get("grid") or (None,) * 3)
        block = tuple((launch or {}).get("block") or (None,) * 3)
        if None in grid or None in block:
            raise TraceError(f"`{kernel}`: the launch configuration is unknown; add a launch site or give "
                             "--grid/--block to `staticroof analyze` (and config) before tracing")
        text = Path(path).read_text()
        pp = preprocess(path, text, defines, include_dirs, extra_macros=CUDA_MACROS,
                        stub_dirs=[grammars_dir() / "cuda"])
        if not pp.ok:
            raise TraceError("; ".join(str(d) for d in pp.diagnostics))
        src = cuda_source(path, pp.text, pp.bindings)
        ext, diags, failed = parse_translation_unit(src.ctext, path)
        fn = next((n for n in ext if isinstance(n, c_ast.FuncDef) and n.decl.name == kernel), None)
        if fn is None or any(name == kernel for name, _, _ in failed):
            raise TraceError(f"`{kernel}` could not be parsed for tracing")
        if "extern" in _storages(fn):
            raise TraceError(f"`{kernel}`: dynamic shared memory (extern __shared__) cannot be traced")
        params = params_of(fn, ext)
        gen = c_generator.CGenerator()
        inst = Instrumenter(intrinsics=table()["intrinsics"], shared_static=True)
        sizes_macros = dict(pp.size_macros)
        sizes_macros.update({k: v for k, v in sizes.items() if k in sizes_macros})
        lines = [f'#include "{RUNTIME_DIR / "runtime.h"}"', f'#include "{RUNTIME_DIR / "cuda_prelude.h"}"',
                 "#define __SR_SIZE(name, d) __sr_size_##name",
                 "__sr_uint3 threadIdx, blockIdx, blockDim, gridDim;",
                 "extern unsigned long __sr_array_bytes;"]
        lines += [f"#define __sr_size_{n} ({int(v)})" for n, v in sizes_macros.items()]
        for tvals in src.tparam_info.values():  # every function of the file is compiled
            for name, value in tvals.items():
                lines.append(f"#undef {name}\n#define {name} ({int(sizes.get(name, value) or 0)})")
        for alias, (spelling, _pname, _it) in src.type_aliases.items():
            lines.append(f"typedef {spelling or 'float'} {alias};")
        for node in ext:
            coord = getattr(node, "coord", None)
            if coord is not None and (coord.file or "").startswith("<staticroof"):
                continue
            if isinstance(node, c_ast.FuncDef):
                register = [(n, r, "__sr_array_bytes") for n, k, r in params if k == "ptr"] if node is fn else None
                lines.append(inst.function(node, register))
            else:
                lines.append(gen.visit(node) + ";")
        args, main = [], ["void *__sr_alloc(unsigned long);", "long __sr_arg(char **, int);",
                          "int main(int argc, char **argv) {",
                          "  __sr_array_bytes = (unsigned long)__sr_arg(argv, 1);"]
        for k, (name, kind, _r) in enumerate(params):
            if kind == "ptr":
                main.append(f"  void *__sr_buf{k} = __sr_alloc(__sr_array_bytes);")
                args.append(f"__sr_buf{k}")
            elif kind == "int":
                if name not in sizes:
                    raise TraceError(f"give a value for {name} (-D {name}=64)")
                args.append(str(int(sizes[name])))
            else:
                args.append("1.25")
        main.append(f"  gridDim.x = {grid[0]}; gridDim.y = {grid[1]}; gridDim.z = {grid[2]};")
        main.append(f"  blockDim.x = {block[0]}; blockDim.y = {block[1]}; blockDim.z = {block[2]};")
        main += ["  for (blockIdx.z = 0; blockIdx.z < gridDim.z; blockIdx.z++)",
                 "  for (blockIdx.y = 0; blockIdx.y < gridDim.y; blockIdx.y++)",
                 "  for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)",
                 "  for (threadIdx.z = 0; threadIdx.z < blockDim.z; threadIdx.z++)",
                 "  for (threadIdx.y = 0; threadIdx.y < blockDim.y; threadIdx.y++)",
                 "  for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)",
                 f"    {kernel}({', '.join(args)});", "  __sr_report();", "  return 0;", "}"]
        exe = build("\n".join(lines + main) + "\n")
        biggest = max([int(v) for v in sizes.values() if v is not None] + [8])
        threads = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]
        nbytes = min(16 * max((biggest + 8) ** 3, threads + 64), 1 << 36)  # virtual, lazily backed
        try:
            run = subprocess.run([str(exe), str(nbytes)], capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise TraceError("the serial run took longer than 120 s: trace at smaller sizes") from None
        if run.returncode != 0:
            raise TraceError(f"the instrumented kernel failed (exit {run.returncode}): {run.stderr[:500]}")
        return _parse(run.stdout, inst.specials, weights or {})


def _storages(fn) -> set:
    out = set()

    def visit(n):
        if isinstance(n, c_ast.Decl) and "register" in (n.storage or []):
            out.update(n.storage)
        for _, child in n.children():
            visit(child)

    visit(fn)
    return out
