"""Front ends: source files to loop IR.  Picks the front end by file extension."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostic, Location
from ..resources import grammars_dir

C_SUFFIXES = (".c",)
CUDA_SUFFIXES = (".cu",)
SUFFIXES = C_SUFFIXES + CUDA_SUFFIXES


def supported(path: Path) -> bool:
    return path.suffix in SUFFIXES


def language_of(path) -> str:
    return "cuda" if Path(path).suffix in CUDA_SUFFIXES else "c"


def load(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    """Read, preprocess and lower one file.  Returns (FrontendResult, size bindings from -D).
    `launches` maps a kernel name (or None for all) to {"grid": (...), "block": (...)} for CUDA."""
    from ..inputs import InputError, read_text
    from .c import FrontendResult, lower_translation_unit
    from .preprocess import preprocess

    res = FrontendResult()
    try:
        text = read_text(path)
    except InputError as e:
        res.diagnostics.append(Diagnostic("SR003", str(e), Location(path)))
        return res, {}
    cuda = language_of(path) == "cuda"
    from .comments import pragma_text, size_pragmas

    text += pragma_text(size_pragmas(text, language_of(path)))  # `// staticroof: N=4096` is a size pragma
    if cuda:
        from .cuda import CUDA_MACROS, lower_cuda

        pp = preprocess(path, text, defines, include_dirs, extra_macros=CUDA_MACROS,
                        stub_dirs=[grammars_dir() / "cuda"])
    else:
        pp = preprocess(path, text, defines, include_dirs)
    res.diagnostics.extend(pp.diagnostics)
    if not pp.ok:
        return res, pp.bindings
    if cuda:
        lowered = lower_cuda(path, pp.text, pp.size_macros, str(grammars_dir()), pp.bindings, launches)
    else:
        lowered = lower_translation_unit(path, pp.text, pp.size_macros, str(grammars_dir()), bindings=pp.bindings)
    lowered.diagnostics = res.diagnostics + lowered.diagnostics
    if not lowered.kernels and not lowered.failed and not any(
            d.severity == "error" for d in lowered.diagnostics):
        lowered.diagnostics.append(Diagnostic("SR006", "no kernels (functions with loops or array accesses)",
                                              Location(path)))
    return lowered, pp.bindings
