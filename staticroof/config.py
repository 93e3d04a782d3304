"""Project configuration: `[tool.staticroof]` in the nearest `pyproject.toml` (or `--config FILE`).

```toml
[tool.staticroof]
include = ["include"]          # like -I, relative to the pyproject.toml
all-functions = false          # like --all-functions
[tool.staticroof.sizes]        # like -D NAME=VALUE for sizes
N = 1024
[tool.staticroof.costs]        # like --cost NAME=W
expf = 4
[tool.staticroof.launch.saxpy] # like --grid saxpy=4096 --block saxpy=256 ("*" for every kernel)
grid = [4096]
block = [256]
```
Command-line options win over the file.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .inputs import TOML_LIMIT, InputError, read_text


class ConfigError(Exception):
    pass


@dataclass
class Config:
    path: Path | None = None
    sizes: dict = field(default_factory=dict)
    costs: dict = field(default_factory=dict)
    include: list = field(default_factory=list)
    launch: dict = field(default_factory=dict)  # kernel name -> {"grid": (...), "block": (...)}
    all_functions: bool = False  # like --all-functions: report drivers (`main`, setup) too


def find(start: Path) -> Path | None:
    for d in [start, *start.parents]:
        p = d / "pyproject.toml"
        if p.is_file():
            return p
    return None


def load(path: Path | None = None, start: Path | None = None) -> Config:
    if path is None:
        path = find((start or Path.cwd()).resolve())
        if path is None:
            return Config()
    try:
        data = tomllib.loads(read_text(path, TOML_LIMIT))
    except (InputError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {e}") from None
    section = data.get("tool", {}).get("staticroof", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.staticroof] must be a table")
    cfg = Config(path=Path(path))
    for key, target in (("sizes", cfg.sizes), ("costs", cfg.costs)):
        table = section.get(key, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.staticroof.{key}] must be a table")
        for name, value in table.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (key == "sizes" and not isinstance(value, int)):
                raise ConfigError(f"{path}: tool.staticroof.{key}.{name} must be a number")
            if not math.isfinite(value) or value < 0:
                raise ConfigError(f"{path}: tool.staticroof.{key}.{name} must be a non-negative finite number")
            target[name] = value
    cfg.all_functions = section.get("all-functions", False)
    if not isinstance(cfg.all_functions, bool):
        raise ConfigError(f"{path}: tool.staticroof.all-functions must be true or false")
    include = section.get("include", [])
    if not isinstance(include, list) or not all(isinstance(i, str) for i in include):
        raise ConfigError(f"{path}: tool.staticroof.include must be a list of folders")
    cfg.include = [str((Path(path).parent / i).resolve()) for i in include]
    launch = section.get("launch", {})
    if not isinstance(launch, dict):
        raise ConfigError(f"{path}: [tool.staticroof.launch] must be a table")
    for kernel, spec in launch.items():
        if not isinstance(spec, dict):
            raise ConfigError(f"{path}: [tool.staticroof.launch.{kernel}] must be a table")
        entry = {}
        for key in ("grid", "block"):
            if key in spec:
                v = spec[key]
                if not (isinstance(v, list) and 1 <= len(v) <= 3 and all(isinstance(x, int) and x > 0 for x in v)):
                    raise ConfigError(f"{path}: tool.staticroof.launch.{kernel}.{key} must be 1 to 3 positive integers")
                entry[key] = tuple(v)
        cfg.launch[None if kernel == "*" else kernel] = entry
    return cfg
