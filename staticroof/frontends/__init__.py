"""Front ends: source files to loop IR, one registered :class:`Frontend` per language.

Each language is registered here as data: its file suffixes, its `load` (a "module:function" path,
imported only when a file of that language is read, so that `analyze` on C never imports the Python
front end and the reverse, and no language package imports this one), the names its source uses for
the math cost table's functions, and the module holding its trace executor.  Adding a language
touches nothing else: the pipeline, the analyses and the reports only see the loop IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from ..diagnostics import Diagnostic, Location
from .python.mathnames import cost_aliases  # plain data: no libcst, no lowering


@dataclass(frozen=True)
class Frontend:
    language: str  # the kernel's `language` in reports ("c", "cuda", "cpp", "python")
    suffixes: tuple
    # "module:function": load(path, defines, include_dirs, launches) -> (FrontendResult, bindings),
    # the bindings being the `-D` values that are sizes (name -> int)
    loader: str
    # the trace executor's module (it registers itself with staticroof.trace.executor); "" for none
    executor: str = ""
    # source spellings of the cost table's functions, per precision: {"math.sqrt": {"fp64": "sqrt",
    # "fp32": "sqrtf"}} (the C front ends use the table's own names)
    cost_aliases: dict = field(default_factory=dict)
    # does `load` take `dtypes` ({None or kernel: {parameter: type}}: --dtype and the configuration)?
    # C and CUDA state every type in the source
    typed_by_options: bool = False

    def load(self, path: str, defines: dict, include_dirs=(), launches: dict | None = None,
             dtypes: dict | None = None):
        module, _, function = self.loader.partition(":")
        loader = getattr(import_module(module), function)
        if self.typed_by_options:
            return loader(path, defines, include_dirs, launches, dtypes=dtypes)
        return loader(path, defines, include_dirs, launches)


FRONTENDS: dict[str, Frontend] = {}
HEADER_SUFFIXES = (".h",)


def register(frontend: Frontend) -> Frontend:
    FRONTENDS[frontend.language] = frontend
    return frontend


register(Frontend("c", (".c",), "staticroof.frontends.c.load:load_c", "staticroof.trace.c.executor"))
register(Frontend("cuda", (".cu", ".cuh"), "staticroof.frontends.cuda.load:load_cuda",
                  "staticroof.trace.cuda.executor"))
# C++ host code: the CUDA front end's C++ layer, every function read as C reads it (cuda/host.py)
register(Frontend("cpp", (".cpp", ".cc", ".cxx", ".hpp"), "staticroof.frontends.cuda.host:load_cpp"))
# a `.h` named on its own: C, CUDA or C++ by its content (cuda/header.py); never found by a folder walk
register(Frontend("header", HEADER_SUFFIXES, "staticroof.frontends.cuda.header:load_header"))
register(Frontend("python", (".py",), "staticroof.frontends.python.frontend:load", "staticroof.trace.python.executor",
                  cost_aliases(), typed_by_options=True))

SUFFIXES = tuple(s for f in FRONTENDS.values() for s in f.suffixes)


def frontend_for(path) -> Frontend | None:
    suffix = Path(path).suffix
    return next((f for f in FRONTENDS.values() if suffix in f.suffixes), None)


def supported(path: Path) -> bool:
    return frontend_for(path) is not None


def source_file(path: Path) -> bool:
    """A file analyzed on its own by a folder walk or `lint`: a supported one that is no `.h` (a
    header's kernels are reported through the sources that include it)."""
    return supported(path) and Path(path).suffix not in HEADER_SUFFIXES


def language_of(path) -> str:
    f = frontend_for(path)
    if f is not None and f.language == "header":
        from .cuda.header import header_file_language

        return header_file_language(path)
    return f.language if f is not None else "c"


def load(path: str, defines: dict, include_dirs=(), launches: dict | None = None, dtypes: dict | None = None):
    """Read and lower one file with its language's front end.  Returns (FrontendResult, size bindings
    from -D).  `launches` maps a kernel name (or None for all) to {"grid": (...), "block": (...)};
    `dtypes` a kernel name (or None for all) to {parameter: type} for front ends that take them."""
    frontend = frontend_for(path) or FRONTENDS["c"]
    lowered, bindings = frontend.load(path, defines, include_dirs, launches, dtypes)
    if not lowered.kernels and not lowered.failed and not any(
            d.severity == "error" for d in lowered.diagnostics):
        lowered.diagnostics.append(Diagnostic("SR006", "no kernels (functions with loops or array accesses)",
                                              Location(path)))
    return lowered, bindings

