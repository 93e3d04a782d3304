"""The CUDA grammar table (grammars/cuda.toml: builtin variables, vector types, qualifiers, intrinsics),
read once; apart from the lowering, as the C++ rewrites and the CUDA trace read it too."""

from __future__ import annotations

import tomllib
from functools import lru_cache

from ...resources import grammar_path


@lru_cache(maxsize=1)
def table() -> dict:
    with open(grammar_path("cuda.toml"), "rb") as f:
        return tomllib.load(f)
