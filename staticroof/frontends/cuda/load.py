"""The CUDA front end's `load`: the C front end's reading and preprocessing (with the CUDA macros and
the stub headers of the CUDA grammar), then the CUDA lowering."""

from __future__ import annotations

from ...resources import grammars_dir
from ..c.load import read_and_lower


def load_cuda(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    from .frontend import CUDA_MACROS, lower_cuda

    return read_and_lower(path, defines, include_dirs, "cuda", lambda pp: lower_cuda(
        path, pp.text, pp.size_macros, str(grammars_dir()), pp.bindings, launches),
                          predefined=CUDA_MACROS, stub_dirs=[grammars_dir() / "cuda"])
