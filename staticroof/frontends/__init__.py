"""Front ends: source files to loop IR.  Picks the front end by file extension."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostic, Location
from ..resources import grammars_dir

C_SUFFIXES = (".c", ".h")
SUFFIXES = C_SUFFIXES


def supported(path: Path) -> bool:
    return path.suffix in SUFFIXES and path.suffix != ".h"


def load(path: str, defines: dict, include_dirs=()):
    """Read, preprocess and lower one file.  Returns (FrontendResult, size bindings from -D)."""
    from .c import FrontendResult, lower_translation_unit
    from .preprocess import preprocess

    res = FrontendResult()
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        res.diagnostics.append(Diagnostic("SR003", f"cannot read: {e.strerror or e}", Location(path)))
        return res, {}
    text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    pp = preprocess(path, text, defines, include_dirs)
    res.diagnostics.extend(pp.diagnostics)
    if not pp.ok:
        return res, pp.bindings
    lowered = lower_translation_unit(path, pp.text, pp.size_macros, str(grammars_dir()))
    lowered.diagnostics = res.diagnostics + lowered.diagnostics
    if not lowered.kernels and not lowered.failed and not any(
            d.severity == "error" for d in lowered.diagnostics):
        lowered.diagnostics.append(Diagnostic("SR006", "no kernels (functions with loops or array accesses)",
                                              Location(path)))
    return lowered, pp.bindings
