"""The names the stub headers (grammars/include, grammars/cuda) test in their conditional directives.

A `-D` of one (`NDEBUG`: assert.h's stub) changes what the preprocessor does though the user's source
never spells it; the CLI warns of every other `-D` name no analyzed source spells.
"""

from __future__ import annotations

from functools import lru_cache

from ...resources import grammar_path
from .preprocess import directive_names


@lru_cache(maxsize=1)
def stub_names() -> frozenset:
    """Every identifier the stub headers' `#if`/`#ifdef`/`#ifndef`/`#elif` lines mention."""
    found: set = set()
    for folder in (grammar_path("include"), grammar_path("cuda")):
        for f in folder.rglob("*"):
            if f.is_file():
                found |= directive_names(f.read_text(encoding="utf-8", errors="replace"))
    return frozenset(found)
