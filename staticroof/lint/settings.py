"""What a lint run is configured with besides the analysis options (staticroof/options.py): the
lint settings.  Plain data, cheap to import (a warm run that only reads the cache imports nothing
heavier)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Settings:
    """The lint part of the configuration (config.py reads it; the command line overrides it)."""

    select: list = field(default_factory=lambda: ["ALL"])
    ignore: list = field(default_factory=list)
    per_file_ignores: dict = field(default_factory=dict)  # glob (relative to `root`) -> [code prefixes]
    root: Path | None = None  # the configuration's folder
    min_intensity: float | None = None  # RF301: FLOP/B
    ridge_factor: float = 10.0  # RF302: how far below the ridge is too far


def from_config(cfg, select=(), ignore=()) -> Settings:
    """The lint settings of a configuration (config.Config), `select`/`ignore` from the command line
    replacing and extending its own (as `lint` and `diff` both take them)."""
    s = Settings(select=list(select) or cfg.select or ["ALL"], ignore=cfg.ignore + list(ignore),
                 per_file_ignores=cfg.per_file_ignores, root=Path(cfg.path).parent if cfg.path else None)
    if "min-intensity" in cfg.thresholds:
        s.min_intensity = cfg.thresholds["min-intensity"]
    if "ridge-factor" in cfg.thresholds:
        s.ridge_factor = cfg.thresholds["ridge-factor"]
    return s
