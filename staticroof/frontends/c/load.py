"""The C front end's `load`: read, preprocess (the system preprocessor, or pcpp) and lower one file.
The preprocessor decides which `-D` values bind sizes and which are macros.  `read_and_lower` is the
steps every C-family language shares (the CUDA front end's `load` passes its own lowering)."""

from __future__ import annotations

from ...diagnostics import Diagnostic, Location
from ...resources import grammars_dir


def load_c(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    from .frontend import lower_translation_unit

    return read_and_lower(path, defines, include_dirs, "c", lambda pp: lower_translation_unit(
        path, pp.text, pp.size_macros, str(grammars_dir()), bindings=pp.bindings))


def read_and_lower(path: str, defines: dict, include_dirs, language: str, lower, **preprocess_options):
    """(FrontendResult, size bindings from -D): the file read, its `// staticroof: N=4096` size pragmas
    (for `language`) added as definitions, preprocessed with `preprocess_options`, and `lower(pp)`
    called on the preprocessed result unless reading or preprocessing failed."""
    from ...inputs import InputError, read_text
    from ..common.lowering import FrontendResult
    from ..common.preprocess import preprocess

    res = FrontendResult()
    try:
        text = read_text(path)
    except InputError as e:
        res.diagnostics.append(Diagnostic("SR003", str(e), Location(path)))
        return res, {}
    from ..common.comments import pragma_text, size_pragmas

    text += pragma_text(size_pragmas(text, language))  # `// staticroof: N=4096` is a size pragma
    pp = preprocess(path, text, defines, include_dirs, **preprocess_options)
    res.diagnostics.extend(pp.diagnostics)
    if not pp.ok:
        return res, pp.bindings
    lowered = lower(pp)
    lowered.diagnostics = res.diagnostics + lowered.diagnostics
    lowered.names = set(pp.spelled)
    if pp.missing:
        _undeclared(lowered, pp.missing)
    return lowered, pp.bindings


def _undeclared(lowered, missing: list) -> None:
    """With a user header read as empty (SR131), a size the file declares nowhere may be one of its
    macros: SR132 on each kernel that uses one (approximate)."""
    headers = ", ".join(f"`{h}`" for h in missing)
    for kernel in lowered.kernels:
        for size in kernel.sizes.values():
            if size.origin == "undeclared identifier":
                kernel.diag("SR132", f"`{size.name}` is declared nowhere in reach: it may come from the missing "
                            f"header {headers} (pass the -I that finds it); taken as a size", kernel.location)
