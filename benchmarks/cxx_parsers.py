"""Would a real C++ parser beat the CUDA front end's token rewriting?  A measurement (issue #28).

staticroof's CUDA/C++ front end never parses C++: it preprocesses, tokenizes, splits the file at top
level on tokens and rewrites each kernel to C for pycparser.  This script puts two real parsers on
the same files, without changing anything in staticroof: for every .cu/.cuh/.cpp file under
tests/data/real and samples (or the paths given), per file and in total,

- staticroof today: kernels reported, analyzed (not unsupported), exact, the `__global__`
  functions of the source text analyzed (benchmarks/corpus_coverage.py's count), and the CPU time
  of the pipeline on the file (`staticroof.pipeline.run`, in process, after a warm-up file), and
  of the front end alone (`staticroof.frontends.load`: what a parser could replace);
- tree-sitter-cuda (a syntax tree of the raw, unpreprocessed text): parse time, ERROR/MISSING
  nodes, and the `__global__` function definitions it recovers with a body free of errors;
- libclang (`-x cuda --cuda-host-only -nocudainc -nocudalib -std=c++17`, the project's stub
  headers grammars/cuda and grammars/include, no system headers): once bare, and once with a
  prelude that declares what nvcc's own headers would (the CUDA attributes as clang spells them,
  threadIdx & co., the vector types and the intrinsics of grammars/cuda.toml, the launch call, the
  C stubs made callable on the device as nvcc's headers make the C library), as any move to
  libclang would need, since staticroof never ships the CUDA SDK.  Per file: parse
  time, error diagnostics (and how many are only a missing declaration: "undeclared identifier",
  "unknown type name", "no member named ... in namespace"), and the `__global__` functions that
  come out as FUNCTION_DECL (or FUNCTION_TEMPLATE) cursors with a body, and of those the ones
  without an error diagnostic inside them.

The start-up cost each option would add to a process (a pre-commit hook starts one per commit) is
measured in fresh interpreters: `import` of each package, against a bare interpreter and against
`python -m staticroof analyze samples/saxpy.cu --format json`.

Not a test, and tree-sitter, tree-sitter-cuda and libclang are not dependencies of staticroof:

    pip install tree-sitter tree-sitter-cuda libclang
    python benchmarks/cxx_parsers.py [PATH ...] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
DEFAULT = [ROOT / "tests" / "data" / "real", ROOT / "samples"]
SUFFIXES = (".cu", ".cuh", ".cpp")
CLANG_ARGS = ["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17", "-nostdinc",
              "-nostdinc++", "-ferror-limit=0", "-D__CUDACC__=1",
              # the stubs are C99 for pycparser: `restrict` and a wchar_t typedef are not C++
              "-Drestrict=__restrict__", "-Dwchar_t=__sr_wchar_t"]
_MISSING_DECL = re.compile(r"undeclared identifier|unknown type name|no member named .* in namespace|"
                           r"expected namespace name|no template named|unknown template name|no type named")


def _optional():
    """The three optional modules, or None with the install line printed."""
    try:
        import clang.cindex as cindex
        import tree_sitter
        import tree_sitter_cuda
    except ImportError as e:
        print(f"benchmarks/cxx_parsers.py needs packages staticroof does not depend on ({e.name} is missing):\n"
              "    pip install tree-sitter tree-sitter-cuda libclang")
        return None
    return cindex, tree_sitter, tree_sitter_cuda


# ---- the CUDA prelude libclang needs (nvcc's headers are never available to staticroof) ----------

_ELEMENT = {"fp32": "float", "fp64": "double", "fp16": "__half", "bf16": "__nv_bfloat16", "int32": "int",
            "uint32": "unsigned int", "int8": "signed char", "uint8": "unsigned char", "int": "int"}
_PAIR = {"fp16": "__half2", "bf16": "__nv_bfloat162"}


def cuda_prelude() -> str:
    """Declarations for clang of the CUDA names grammars/cuda.toml lists (its one table of them):
    enough for a parse, not a model of the SDK.  Intrinsics are variadic templates returning the
    type of their precision and lanes; atomics, shuffles and loads return the element type."""
    table = tomllib.loads((ROOT / "grammars" / "cuda.toml").read_text())
    out = ["#define __global__ __attribute__((global))", "#define __device__ __attribute__((device))",
           "#define __host__ __attribute__((host))", "#define __shared__ __attribute__((shared))",
           "#define __constant__ __attribute__((constant))", "#define __managed__ __attribute__((managed))",
           "#define __forceinline__ __inline__ __attribute__((always_inline))",
           "#define __noinline__ __attribute__((noinline))",
           "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))",
           "#define __align__(n) __attribute__((aligned(n)))", "#define __grid_constant__",
           "typedef unsigned long __sr_size_t;",
           "struct __sr_any { template <class T> __host__ __device__ operator T() const; };",
           "struct __half { unsigned short __x; __host__ __device__ __half(); __host__ __device__ __half(float);"
           " __host__ __device__ operator float() const; };",
           "struct __nv_bfloat16 { unsigned short __x; __host__ __device__ __nv_bfloat16();"
           " __host__ __device__ __nv_bfloat16(float); __host__ __device__ operator float() const; };",
           "typedef __half half; typedef __nv_bfloat16 nv_bfloat16;"]
    lanes_names = "xyzw"
    for name, (precision, lanes) in table["vector_types"].items():
        if name == "dim3" or name in ("half2", "nv_bfloat162"):
            continue
        fields = " ".join(f"{_ELEMENT[precision]} {lanes_names[i]};" for i in range(lanes))
        out.append(f"struct {name} {{ {fields} }};")
    out += ["typedef __half2 half2; typedef __nv_bfloat162 nv_bfloat162;",
            "struct dim3 { unsigned int x, y, z; __host__ __device__ dim3(unsigned int x = 1, unsigned int y = 1,"
            " unsigned int z = 1) : x(x), y(y), z(z) {} __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}"
            " __host__ __device__ operator uint3() const { return uint3{x, y, z}; } };",
            "extern \"C\" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, __sr_size_t shmem = 0,"
            " struct CUstream_st *stream = 0);"]
    for name, role in table["variables"].items():
        kind = "int" if role == "warp_size" else "uint3" if role in ("thread", "block") else "dim3"
        out.append(f"extern const __device__ {kind} {name};")
    for name, spec in table["intrinsics"].items():
        kind, precision, lanes = spec["kind"], spec.get("precision"), spec.get("lanes")
        if name.startswith("__sr_") or kind in ("wmma", "group_opaque", "group_reduce") or name == "__syncthreads":
            continue  # staticroof's own names, C++ namespaces' members, a clang builtin
        if kind in ("atomic", "load"):
            out.append(f"template <class T, class... A> __host__ __device__ T {name}(T *, A...);")
            continue
        if kind == "shuffle":
            out.append(f"template <class T, class... A> __host__ __device__ T {name}(unsigned, T, A...);")
            continue
        if precision == "same":
            out.append(f"template <class T> __host__ __device__ T {name}(T, T);")
            continue
        if precision in _ELEMENT:
            ret = (_PAIR.get(precision) if lanes == 2 and precision in _PAIR
                   else f"{_ELEMENT[precision].split()[-1]}{lanes}" if lanes and precision in ("fp32", "fp64")
                   else ("int" if precision == "int32" else "uint") + str(lanes) if lanes
                   else _ELEMENT[precision])
        else:
            ret = "void" if kind in ("sync", "store") or precision == "none" else "__sr_any"
        if kind == "sync":
            ret = "unsigned"
        out.append(f"template <class... A> __host__ __device__ {ret} {name}(A...);")
    out += ["typedef unsigned int uint;",
            # nvcc's headers make the C library callable on the device; clang's wrapper does it so
            "#pragma clang force_cuda_host_device begin", "#include <cuda_runtime.h>",
            "#pragma clang force_cuda_host_device end"]
    return "\n".join(out) + "\n"


# ---- staticroof ------------------------------------------------------------------------------


def staticroof_row(path: Path) -> dict:
    from corpus_coverage import analyze_one

    from staticroof.frontends import load
    t0 = time.process_time()
    row = analyze_one(path, {})
    cpu = time.process_time() - t0
    # the front end alone (preprocess, tokens, rewriting, pycparser, the IR): what a parser could replace
    t0 = time.process_time()
    load(str(path), {})
    frontend = time.process_time() - t0
    return {"kernels": row["kernels"], "analyzed": row["kernels"] - row["unsupported"], "exact": row["exact"],
            "globals_analyzed": row["global_ok"], "cpu_s": cpu, "frontend_cpu_s": frontend}


def scanned_globals(path: Path) -> set:
    """The `__global__` function names of the source text, as benchmarks/corpus_coverage.py scans
    them (for .cuh and .cpp too)."""
    from corpus_coverage import _GLOBAL, _code
    return {m.group(1) for m in _GLOBAL.finditer(_code(path.read_text(errors="replace")))}


# ---- tree-sitter-cuda ------------------------------------------------------------------------


def _best_cpu(fn, repeat=3):
    best, value = None, None
    for _ in range(repeat):
        t0 = time.process_time()
        value = fn()
        t = time.process_time() - t0
        best = t if best is None else min(best, t)
    return best, value


def _nodes(root):
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def _declared_name(node):
    """The identifier a function_declarator declares (the last part of a qualified name)."""
    while node is not None and node.type not in ("identifier", "field_identifier", "qualified_identifier",
                                                 "destructor_name", "operator_name"):
        node = node.child_by_field_name("declarator")
    if node is not None and node.type == "qualified_identifier":
        return node.text.decode(errors="replace").rsplit("::", 1)[-1].strip()
    return node.text.decode(errors="replace") if node is not None else None


def tree_sitter_row(ts, parser, path: Path, expected: set) -> dict:
    src = path.read_bytes()
    cpu, tree = _best_cpu(lambda: parser.parse(src))
    errors = sum(1 for n in _nodes(tree.root_node) if n.is_error or n.is_missing)
    clean = set()
    for n in _nodes(tree.root_node):
        if n.type != "function_definition":
            continue
        body = n.child_by_field_name("body")
        if body is None or n.has_error or b"__global__" not in src[n.start_byte:body.start_byte]:
            continue
        name = _declared_name(n.child_by_field_name("declarator"))
        if name:
            clean.add(name)
    return {"parse_cpu_s": cpu, "errors": errors, "globals_clean": len(clean & expected)}


# ---- libclang --------------------------------------------------------------------------------


def clang_row(cindex, index, path: Path, expected: set, args: list) -> dict:
    cpu, tu = _best_cpu(lambda: index.parse(str(path), args=args))
    errors = [d for d in tu.diagnostics if d.severity >= cindex.Diagnostic.Error]
    missing_decl = sum(1 for d in errors if _MISSING_DECL.search(d.spelling))
    # after a fatal error (a missing header) clang reports nothing more: no function is known clean
    fatal = any(d.severity >= cindex.Diagnostic.Fatal for d in errors)
    main = str(path)
    kinds = (cindex.CursorKind.FUNCTION_DECL, cindex.CursorKind.FUNCTION_TEMPLATE)
    with_body, clean = set(), set()
    for c in tu.cursor.walk_preorder():
        if c.kind not in kinds or c.location.file is None or c.location.file.name != main:
            continue
        children = list(c.get_children())
        if not any(k.kind == cindex.CursorKind.CUDAGLOBAL_ATTR for k in children):
            continue
        if not any(k.kind == cindex.CursorKind.COMPOUND_STMT for k in children):
            continue
        with_body.add(c.spelling)
        lo, hi = c.extent.start.line, c.extent.end.line
        if not fatal and not any(d.location.file is not None and d.location.file.name == main
                                 and lo <= d.location.line <= hi for d in errors):
            clean.add(c.spelling)
    return {"parse_cpu_s": cpu, "errors": len(errors), "missing_decl": missing_decl,
            "globals_body": len(with_body & expected), "globals_clean": len(clean & expected)}


# ---- start-up ---------------------------------------------------------------------------------


def _child_cpu(code: list, repeat: int = 5) -> float:
    """Median CPU seconds (user + system) of a fresh interpreter running `code`."""
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(code, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return sorted(times)[len(times) // 2]


def startup() -> dict:
    py = sys.executable
    return {
        "python_bare_s": _child_cpu([py, "-c", "pass"]),
        "import_tree_sitter_cuda_s": _child_cpu(
            [py, "-c", "import tree_sitter, tree_sitter_cuda; tree_sitter.Parser(tree_sitter.Language("
                       "tree_sitter_cuda.language()))"]),
        "import_libclang_s": _child_cpu([py, "-c", "import clang.cindex; clang.cindex.Index.create()"]),
        "staticroof_analyze_saxpy_cu_s": _child_cpu(
            [py, "-m", "staticroof", "analyze", "samples/saxpy.cu", "--format", "json"], repeat=3),
    }


def _package_mb(module) -> float:
    folder = Path(module.__file__).parent
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


# ---- main -------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--json", type=Path, help="write the record here")
    ap.add_argument("--no-startup", action="store_true", help="skip the fresh-interpreter start-up timings")
    args = ap.parse_args(argv)
    mods = _optional()
    if mods is None:
        return 0
    cindex, ts, tsc = mods
    from staticroof.pipeline import run

    files = []
    for p in args.paths:
        files += [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES)
    files = [f.resolve() for f in files]

    parser = ts.Parser(ts.Language(tsc.language()))
    index = cindex.Index.create()
    stubs = ["-I" + str(ROOT / "grammars" / "cuda"), "-I" + str(ROOT / "grammars" / "include")]
    with tempfile.TemporaryDirectory() as tmp:
        prelude = Path(tmp) / "staticroof_cuda_prelude.h"
        prelude.write_text(cuda_prelude())
        bare_args = CLANG_ARGS + stubs
        prelude_args = CLANG_ARGS + stubs + ["-include", str(prelude)]
        t0 = time.process_time()
        run([ROOT / "samples" / "saxpy.cu"])  # warm-up: the pipeline's lazy imports
        warmup = time.process_time() - t0
        rows = []
        for f in files:
            expected = scanned_globals(f)
            bare = clang_row(cindex, index, f, expected, bare_args)
            rows.append({"file": str(f.relative_to(ROOT)), "globals": len(expected),
                         "staticroof": staticroof_row(f),
                         "tree_sitter": tree_sitter_row(ts, parser, f, expected),
                         "libclang": clang_row(cindex, index, f, expected, prelude_args),
                         "libclang_bare": {"errors": bare["errors"], "globals_body": bare["globals_body"]}})

    def total(tool, key):
        return sum(r[tool][key] for r in rows)

    print(f"{'file':42} {'glob':>4} | {'sr kern':>7} {'anlz':>4} {'exact':>5} {'glob':>4} {'cpu':>6} {'fe':>5} | "
          f"{'ts err':>6} {'glob':>4} {'ms':>5} | {'cl err':>6} {'decl':>4} {'body':>4} {'clean':>5} {'ms':>5} "
          "| bare err")
    for r in rows:
        print(_line(r["file"][-42:], r["globals"], r["staticroof"], r["tree_sitter"], r["libclang"],
                    r["libclang_bare"]))
    totals = {
        "files": len(rows), "globals_in_source": sum(r["globals"] for r in rows),
        "staticroof": {k: total("staticroof", k) for k in ("kernels", "analyzed", "exact", "globals_analyzed",
                                                             "cpu_s", "frontend_cpu_s")}
        | {"warmup_cpu_s": warmup},
        "tree_sitter": {"errors": total("tree_sitter", "errors"),
                        "globals_clean": total("tree_sitter", "globals_clean"),
                        "parse_cpu_s": total("tree_sitter", "parse_cpu_s"),
                        "files_without_errors": sum(r["tree_sitter"]["errors"] == 0 for r in rows)},
        "libclang": {k: total("libclang", k) for k in ("errors", "missing_decl", "globals_body", "globals_clean",
                                                        "parse_cpu_s")}
        | {"files_without_errors": sum(r["libclang"]["errors"] == 0 for r in rows)},
        "libclang_bare": {"errors": total("libclang_bare", "errors"),
                          "globals_body": total("libclang_bare", "globals_body"),
                          "files_without_errors": sum(r["libclang_bare"]["errors"] == 0 for r in rows)},
    }
    t, c = totals["tree_sitter"], totals["libclang"]
    print(_line("total", totals["globals_in_source"], totals["staticroof"], t, c, totals["libclang_bare"]))
    print(f"files parsed without an error: tree-sitter {t['files_without_errors']}/{len(rows)}, "
          f"libclang {c['files_without_errors']}/{len(rows)} (bare {totals['libclang_bare']['files_without_errors']})")
    print("columns: glob = __global__ functions in the source text;\n"
          "  staticroof: kernels reported, analyzed, exact, __global__ analyzed, CPU s, of which the front end (fe);\n"
          "  tree-sitter: ERROR/MISSING nodes, __global__ definitions without errors, parse CPU ms;\n"
          "  libclang (with the prelude): error diagnostics, of them missing declarations, __global__ with a body,\n"
          "  of them without an error inside, parse CPU ms; bare: errors without the prelude")
    record = {
        "command": "python benchmarks/cxx_parsers.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "usable_cores": len(os.sched_getaffinity(0)),
                    "loadavg": os.getloadavg(), "python": platform.python_version(), "platform": platform.platform()},
        "versions": {"tree_sitter": _version("tree-sitter"), "tree_sitter_cuda": _version("tree-sitter-cuda"),
                     "libclang": _version("libclang")},
        "installed_mb": {"clang": _package_mb(cindex), "tree_sitter": _package_mb(ts),
                         "tree_sitter_cuda": _package_mb(tsc)},
        "clang_args": CLANG_ARGS + ["-I grammars/cuda", "-I grammars/include", "(-include prelude)"],
        "totals": totals, "files": rows,
    }
    if not args.no_startup:
        record["startup_cpu_s"] = startup()
        print("start-up CPU s (fresh interpreter, median):",
              ", ".join(f"{k} {v:.3f}" for k, v in record["startup_cpu_s"].items()))
    print("installed MB:", ", ".join(f"{k} {v:.1f}" for k, v in record["installed_mb"].items()))
    if args.json:
        args.json.write_text(json.dumps(record, indent=2) + "\n")
    return 0


def _line(label, globals_, s, t, c, bare) -> str:
    return (f"{label:42} {globals_:4} | {s['kernels']:7} {s['analyzed']:4} {s['exact']:5} {s['globals_analyzed']:4} "
            f"{s['cpu_s']:6.2f} {s['frontend_cpu_s']:5.2f} | {t['errors']:6} {t['globals_clean']:4} "
            f"{1e3 * t['parse_cpu_s']:5.1f} | {c['errors']:6} {c['missing_decl']:4} {c['globals_body']:4} "
            f"{c['globals_clean']:5} {1e3 * c['parse_cpu_s']:5.1f} | {bare['errors']}")


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    sys.exit(main())
