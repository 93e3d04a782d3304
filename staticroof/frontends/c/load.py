"""The C and CUDA front ends' `load`: read, preprocess (the system preprocessor, or pcpp) and lower
one file.  The preprocessor decides which `-D` values bind sizes and which are macros."""

from __future__ import annotations

from ...diagnostics import Diagnostic, Location
from ...resources import grammars_dir


def load_c(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    return _load(path, defines, include_dirs, launches, cuda=False)


def load_cuda(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    return _load(path, defines, include_dirs, launches, cuda=True)


def _load(path: str, defines: dict, include_dirs, launches, cuda: bool):
    from ...inputs import InputError, read_text
    from ..common.lowering import FrontendResult
    from ..common.preprocess import preprocess
    from .frontend import lower_translation_unit

    res = FrontendResult()
    try:
        text = read_text(path)
    except InputError as e:
        res.diagnostics.append(Diagnostic("SR003", str(e), Location(path)))
        return res, {}
    from ..common.comments import pragma_text, size_pragmas

    text += pragma_text(size_pragmas(text, "cuda" if cuda else "c"))  # `// staticroof: N=4096` is a size pragma
    if cuda:
        from ..cuda.frontend import CUDA_MACROS, lower_cuda

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
    return lowered, pp.bindings
