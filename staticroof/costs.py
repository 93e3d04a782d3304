"""The math-function cost table (`grammars/math.toml`): which calls are special functions, which
are FMAs, which are free, and the weight a special call adds to W.

Front ends use it to classify calls; the W analysis uses the weights.  Users override weights
with ``--cost NAME=W`` or ``[tool.staticroof.costs]`` (see :mod:`staticroof.config`).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache

from .resources import grammar_path


@lru_cache(maxsize=1)
def table() -> dict:
    """name -> {"kind": "special"|"fma"|"free"|"outputs", "weight": int, "flops": int}; an
    "outputs" entry also has `outputs` (the positions of its output pointer arguments) and
    `counts_as` (the special functions one call counts as)."""
    with open(grammar_path("math.toml"), "rb") as f:
        data = tomllib.load(f)
    out = {}
    for kind, entries in data.items():
        if not isinstance(entries, dict) or kind == "meta":
            continue
        if kind == "outputs":
            for name, spec in entries.items():
                out[name] = {"kind": kind, "weight": 1, "flops": 0, "outputs": list(spec.get("outputs", [])),
                             "counts_as": list(spec.get("counts_as", []))}
            continue
        weight = entries.get("weight", 1)
        flops = entries.get("flops", 0)
        for name in entries.get("functions", []):
            out[name] = {"kind": kind, "weight": weight, "flops": flops}
    return out


def classify(name: str):
    return table().get(name)

