"""What a lint run is configured with: the analysis options of a file and the lint settings.
Plain data, cheap to import (a warm run that only reads the cache imports nothing heavier)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..roofline.machines import Machine


@dataclass
class Settings:
    """The lint part of the configuration (config.py reads it; the command line overrides it)."""

    select: list = field(default_factory=lambda: ["ALL"])
    ignore: list = field(default_factory=list)
    per_file_ignores: dict = field(default_factory=dict)  # glob (relative to `root`) -> [code prefixes]
    root: Path | None = None  # the configuration's folder
    min_intensity: float | None = None  # RF301: FLOP/B
    ridge_factor: float = 10.0  # RF302: how far below the ridge is too far

@dataclass
class Options:
    """Everything the analysis of one file takes (the same as `analyze`'s)."""

    defines: dict = field(default_factory=dict)
    include_dirs: list = field(default_factory=list)
    weights: dict = field(default_factory=dict)
    launches: dict = field(default_factory=dict)
    kernel_sizes: dict = field(default_factory=dict)
    cache_bytes: int | None = None
    machine: Machine | None = None
    unit: str | None = None
    dtypes: dict = field(default_factory=dict)  # {None or kernel: {parameter: type}} (--dtype, config)
    time_budget: float | None = None  # CPU seconds per kernel before it falls back (None: the default)
    jobs: int | None = None  # worker processes for many files (None: every core); no part of any result
