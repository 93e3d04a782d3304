"""The options of an analysis: one frozen object, built once from the command line and the
configuration (cli.options_from), and carried as it is by every command, `pipeline.run`, the
worker processes (staticroof/workers.py) and the cache keys (cache/runner.py, lint/cached.py).

Adding an option touches the field here, the command line, the configuration reader (config.py)
and the one place that reads it: each field says in its metadata which cache key it belongs to,
and the keys are made from the fields (`key_fields`, `placement_fields`), so no key can forget it.
tests/test_options.py checks that every field is in a key or says why it is not.

Plain data, cheap to import (no sympy, no front end): a warm run that only reads the cache builds it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# Which cache key a field belongs to (its metadata's "key"):
ANALYSIS = "analysis"  # read by pipeline.run: in the analysis key (runner.py) and so in lint's too
PLACEMENT = "placement"  # read when the kernels are placed under a machine's roofline: in lint's key
# ... or None, with the reason in the metadata's "why": it never changes a stored result.


def _analysis(default: Any = None, factory: Any = None) -> Any:
    meta = {"key": ANALYSIS}
    return field(default_factory=factory, metadata=meta) if factory is not None else field(default=default,
                                                                                              metadata=meta)


class FrozenMap(Mapping):
    """An immutable, hashable and picklable mapping that keeps its order; the dicts, lists and sets
    inside it are frozen too.  `thaw()` gives a plain dict again (what the front ends take)."""

    __slots__ = ("_d", "_hash")

    def __init__(self, data: Mapping | None = None):
        self._d = {k: freeze(v) for k, v in dict(data or {}).items()}
        self._hash: int | None = None

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self) -> Iterator:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __eq__(self, other) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __reduce__(self):
        return (FrozenMap, (self._d,))

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def thaw(self) -> dict:
        return {k: thaw(v) for k, v in self._d.items()}


def freeze(value):
    """`value` with its dicts as FrozenMaps, lists as tuples and sets as frozensets."""
    if isinstance(value, FrozenMap):
        return value
    if isinstance(value, Mapping):
        return FrozenMap(value)
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(v) for v in value)
    return value


def thaw(value):
    """`value` with its FrozenMaps as plain dicts (tuples and frozensets stay)."""
    if isinstance(value, FrozenMap):
        return value.thaw()
    if isinstance(value, tuple):
        return tuple(thaw(v) for v in value)
    return value


@dataclass(frozen=True)
class AnalysisOptions:
    """Everything an analysis is run with.  Mappings may be given as dicts: they are stored frozen
    (FrozenMap); `include_dirs` as any sequence (stored as a tuple of strings), `only` as any
    collection of kernel names (a frozenset; empty: every kernel).  `dataclasses.replace` makes a
    variant for one call (validate's launches, diff's repository-relative include folders)."""

    defines: Mapping = _analysis(factory=FrozenMap)  # -D and [sizes]: name -> value (None: a bare -D NAME)
    include_dirs: tuple = _analysis(default=())  # -I, then the configuration's `include`
    weights: Mapping = _analysis(factory=FrozenMap)  # --cost and [costs]: function -> FLOPs per call
    only: frozenset = _analysis(default=frozenset())  # --kernel: the kernels to report (empty: all)
    launches: Mapping = _analysis(factory=FrozenMap)  # --grid/--block, [launch]: kernel or None -> {"grid", "block"}
    kernel_sizes: Mapping = _analysis(factory=FrozenMap)  # [sizes.KERNEL]: kernel -> {size: value}
    dtypes: Mapping = _analysis(factory=FrozenMap)  # --dtype, [dtypes]: None or kernel -> {parameter: type}
    all_functions: bool = _analysis(default=False)  # --all-functions: report drivers (`main`, setup) too
    cache_bytes: int | None = _analysis()  # the cache-bounded Q's cache: --cache or `cache`, else the machine's L2
    l1_bytes: int | None = _analysis()  # the machine's L1/shared memory per SM
    # CPU seconds to count one kernel before it falls back (None: STATICROOF_TIME_BUDGET or the default)
    time_budget: float | None = field(default=None, metadata={
        "key": None, "why": "a result that fell back is never stored, and one that did not is the same under "
                           "any budget"})
    machine: Any = field(default=None, hash=False, metadata={"key": PLACEMENT})  # roofline.Machine or None
    unit: str | None = field(default=None, metadata={"key": PLACEMENT})  # --unit: "cuda", "tensor" or None
    jobs: int | None = field(default=1, metadata={  # -j: worker processes for many files (None: every core)
        "key": None, "why": "how many processes analyze the files, never what they compute"})

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "include_dirs":
                value = tuple(str(d) for d in value or ())
            elif f.name == "only":
                value = frozenset(value or ())
            elif isinstance(value, Mapping) or (value is None and f.default_factory is FrozenMap):
                value = FrozenMap(value)
            object.__setattr__(self, f.name, value)

    def key_fields(self) -> dict:
        """The analysis cache key's part of the options (runner.py): every field pipeline.run reads,
        as JSON-ready data."""
        return _key(self, (ANALYSIS,))

    def placement_fields(self) -> dict:
        """The analysis fields and those that place the kernels under a machine: what a lint
        finding depends on besides the file and the lint settings (lint/cached.py)."""
        return _key(self, (ANALYSIS, PLACEMENT))


def _key(options: AnalysisOptions, kinds: tuple) -> dict:
    out = {}
    for f in dataclasses.fields(options):
        if "key" not in f.metadata:
            raise TypeError(f"AnalysisOptions.{f.name} says in no cache key whether it belongs there")
        if f.metadata["key"] in kinds:
            out[f.name] = _key_value(getattr(options, f.name))
    return out


def _key_value(value):
    if isinstance(value, Mapping):  # None, a mapping's "every kernel", is "*": no kernel has that name
        return {"*" if k is None else k: _key_value(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, tuple):
        return [_key_value(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)  # a Machine: every number it holds


__all__ = ["AnalysisOptions", "FrozenMap", "freeze", "thaw"]
