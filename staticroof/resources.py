"""Where the data shipped from `grammars/` lives, in a source checkout and in an installed wheel.

The wheel maps the top-level `grammars/` folder to the package `staticroof.grammars`; a source
checkout run without installing finds it beside the package.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def grammars_dir() -> Path:
    """The folder beside the package's modules (a wheel's `staticroof/grammars`, or a checkout's
    `grammars/`), looked up on disk first: importing importlib.resources costs a warm cached run
    about a tenth of its time, and it is needed only where the package is not a folder (a zip)."""
    here = Path(__file__).resolve().parent
    for p in (here / "grammars", here.parent / "grammars"):
        if (p / "math.toml").is_file():
            return p
    try:
        from importlib.resources import files

        p = Path(str(files("staticroof.grammars")))
        if (p / "math.toml").is_file():
            return p
    except (ModuleNotFoundError, TypeError):
        pass
    raise FileNotFoundError("staticroof's grammars/ data is missing from this installation")


def grammar_path(*parts: str) -> Path:
    return grammars_dir().joinpath(*parts)
