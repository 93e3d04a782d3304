"""A `.h` header named on its own (on the command line, or by `diff` when it changed): read as C,
CUDA or C++ by what it contains, since the suffix does not say.  A folder walk does not pick headers
up: their kernels are reported through the sources that include them."""

from __future__ import annotations

import re

_CUDA = re.compile(r"\b(__global__|__device__|__shared__|__constant__)\b")
_CXX = re.compile(r"\btemplate\s*<|\bclass\s+[A-Za-z_]\w*\s*[{:]|\bnamespace\b|::|\bstd::")
SNIFF_BYTES = 1 << 20


def header_language(text: str) -> str:
    """"cuda", "cpp" or "c" for a header's text (its first SNIFF_BYTES)."""
    head = text[:SNIFF_BYTES]
    if _CUDA.search(head):
        return "cuda"
    return "cpp" if _CXX.search(head) else "c"


def header_file_language(path) -> str:
    from ...inputs import InputError, read_text

    try:
        return header_language(read_text(path))
    except InputError:
        return "c"


def load_header(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    language = header_file_language(path)
    if language == "cuda":
        from .load import load_cuda

        return load_cuda(path, defines, include_dirs, launches)
    if language == "cpp":
        from .host import load_cpp

        return load_cpp(path, defines, include_dirs, launches)
    from ..c.load import load_c

    return load_c(path, defines, include_dirs, launches)
