"""Project configuration: `[tool.staticroof]` in the nearest `pyproject.toml`, or the top level
of a `staticroof.toml` (for repositories without Python packaging; it wins over a pyproject.toml
in the same folder), or `--config FILE`.

```toml
[tool.staticroof]
include = ["include"]          # like -I, relative to the configuration file
all-functions = false          # like --all-functions
machine = "a100"               # like --machine (analyze, plot, lint)
unit = "cuda"                  # like --unit
cache = "40MiB"                # like --cache (the cache-bounded Q)
time-budget = 5                # like --time-budget: CPU seconds per kernel before it falls back (0: none)
jobs = 4                       # like -j/--jobs (default: every core; 1: one file after another)
select = ["RF"]                # lint: rule codes or prefixes to report ("ALL": every rule)
ignore = ["RF901"]             # lint: codes or prefixes not to report
diff-lint = "fail"             # diff: a new RF1xx/RF2xx finding at a changed kernel fails the gate
                               # ("fail"), is only reported ("report"), or is not looked for ("off")
[tool.staticroof.per-file-ignores]  # lint: glob (relative to the configuration file) -> codes
"bench/*.c" = ["RF9"]
[tool.staticroof.thresholds]   # lint: RF301 and RF302
min-intensity = 0.5            # FLOP/B
ridge-factor = 10              # how far below the ridge a memory-bound kernel may sit
[tool.staticroof.sizes]        # like -D NAME=VALUE for sizes
N = 1024
[tool.staticroof.sizes.gemm]   # sizes of one kernel (over the global ones; -D wins)
N = 256
[tool.staticroof.dtypes]       # like --dtype NAME=TYPE: Python kernels' untyped parameters
x = "float32"
[tool.staticroof.dtypes.saxpy] # the types of one kernel's parameters (over the global ones)
a = "float32"
[tool.staticroof.costs]        # like --cost NAME=W
expf = 4
[tool.staticroof.launch.saxpy] # like --grid saxpy=4096 --block saxpy=256 ("*" for every kernel)
grid = [4096]
block = [256]
[tool.staticroof.machines.mygpu]  # more machines (see roofline/machines.py)
```
Command-line options win over the file.  An unknown key or a bad value is an error that names
the key and the file (exit 2), so a typo never silently changes what is checked.
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
    kernel_sizes: dict = field(default_factory=dict)  # kernel name -> {size: value}
    dtypes: dict = field(default_factory=dict)  # parameter name -> element type ("float32")
    kernel_dtypes: dict = field(default_factory=dict)  # kernel name -> {parameter: type}
    costs: dict = field(default_factory=dict)
    include: list = field(default_factory=list)
    launch: dict = field(default_factory=dict)  # kernel name -> {"grid": (...), "block": (...)}
    all_functions: bool = False  # like --all-functions: report drivers (`main`, setup) too
    machine: str | None = None
    unit: str | None = None
    cache: str | int | None = None  # a size such as "40MiB", or bytes
    time_budget: float | None = None  # CPU seconds per kernel (analysis/budget.py); None: the default
    jobs: int | None = None  # like -j: worker processes (None: every core)
    select: list | None = None
    ignore: list = field(default_factory=list)
    per_file_ignores: dict = field(default_factory=dict)  # glob -> [codes]
    thresholds: dict = field(default_factory=dict)  # "min-intensity", "ridge-factor" -> number
    diff_lint: str = "fail"  # one of DIFF_LINT


# Every key the schema knows; anything else is an error naming it.  Other commands' sections
# (`machines`, read by roofline/machines.py) are listed so they pass.
KEYS = ("include", "all-functions", "machine", "unit", "cache", "time-budget", "jobs", "select", "ignore",
        "per-file-ignores", "thresholds", "diff-lint", "sizes", "dtypes", "costs", "launch", "machines")
DIFF_LINT = ("fail", "report", "off")
THRESHOLDS = {"min-intensity": 0, "ridge-factor": 1}  # key -> the smallest value that makes sense


def find(start: Path) -> Path | None:
    """The nearest configuration file: staticroof.toml, else pyproject.toml, folder by folder up."""
    for d in [start, *start.parents]:
        for name in ("staticroof.toml", "pyproject.toml"):
            p = d / name
            if p.is_file():
                return p
    return None


def section_of(data: dict, path: Path) -> tuple[dict, str]:
    """The staticroof table of a parsed file and the prefix its keys are named with: a
    pyproject.toml (or any file with a [tool.staticroof] table) holds it there, a staticroof.toml
    at the top level."""
    tool = data.get("tool")
    if Path(path).name == "pyproject.toml" or (isinstance(tool, dict) and "staticroof" in tool):
        section = tool.get("staticroof", {}) if isinstance(tool, dict) else {}
        if not isinstance(section, dict):
            raise ConfigError(f"{path}: [tool.staticroof] must be a table")
        return section, "tool.staticroof."
    return data, ""


def load(path: Path | None = None, start: Path | None = None) -> Config:
    if path is None:
        path = find((start or Path.cwd()).resolve())
        if path is None:
            return Config()
    try:
        data = tomllib.loads(read_text(path, TOML_LIMIT))
    except (InputError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {e}") from None
    section, pre = section_of(data, path)

    def fail(key: str, what: str):
        raise ConfigError(f"{path}: {pre}{key} {what}")

    for key in section:
        if key not in KEYS:
            hint = f" (did you mean `{_close(key)}`?)" if _close(key) else ""
            fail(key, f"is not a known key{hint}; known: {', '.join(KEYS)}")
    cfg = Config(path=Path(path))
    for key, target in (("sizes", cfg.sizes), ("costs", cfg.costs)):
        table = section.get(key, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [{pre}{key}] must be a table")
        for name, value in table.items():
            if key == "sizes" and isinstance(value, dict):  # [sizes.KERNEL]: that kernel's own sizes
                cfg.kernel_sizes[name] = {n: _size(v, f"{key}.{name}.{n}", fail) for n, v in value.items()}
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                    key == "sizes" and not isinstance(value, int)):
                fail(f"{key}.{name}", "must be a number")
            if not math.isfinite(value) or value < 0:
                fail(f"{key}.{name}", "must be a non-negative finite number")
            target[name] = value
    _dtypes(section, cfg, fail, f"[{pre}dtypes]", path)
    cfg.all_functions = section.get("all-functions", False)
    if not isinstance(cfg.all_functions, bool):
        fail("all-functions", "must be true or false")
    budget = section.get("time-budget")
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) or budget < 0:
            fail("time-budget", "must be a non-negative number of seconds (0: no budget)")
        cfg.time_budget = float(budget)
    include = section.get("include", [])
    if not isinstance(include, list) or not all(isinstance(i, str) for i in include):
        fail("include", "must be a list of folders")
    cfg.include = [str((Path(path).parent / i).resolve()) for i in include]
    jobs = section.get("jobs")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        fail("jobs", f"must be a positive number of processes, got {jobs!r}")
    cfg.jobs = jobs
    launch = section.get("launch", {})
    if not isinstance(launch, dict):
        raise ConfigError(f"{path}: [{pre}launch] must be a table")
    for kernel, spec in launch.items():
        if not isinstance(spec, dict):
            raise ConfigError(f"{path}: [{pre}launch.{kernel}] must be a table")
        entry = {}
        for key in spec:
            if key not in ("grid", "block"):
                fail(f"launch.{kernel}.{key}", "is not a known key; known: grid, block")
        for key in ("grid", "block"):
            if key in spec:
                v = spec[key]
                if not (isinstance(v, list) and 1 <= len(v) <= 3 and all(isinstance(x, int) and x > 0 for x in v)):
                    fail(f"launch.{kernel}.{key}", "must be 1 to 3 positive integers")
                entry[key] = tuple(v)
        cfg.launch[None if kernel == "*" else kernel] = entry
    _roofline(section, cfg, fail)
    _lint(section, cfg, fail)
    cfg.diff_lint = section.get("diff-lint", "fail")
    if cfg.diff_lint not in DIFF_LINT:
        fail("diff-lint", f"must be one of {', '.join(map(repr, DIFF_LINT))}, got {cfg.diff_lint!r}")
    return cfg


def _dtypes(section: dict, cfg: Config, fail, table_name: str, path) -> None:
    """`[dtypes]`: parameter -> type name, and `[dtypes.KERNEL]` tables for one kernel."""
    table = section.get("dtypes", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {table_name} must be a table")

    def one(key: str, value) -> str:
        # here, not above: a configuration without [dtypes] (every C and CUDA user's) never loads it
        from .frontends.python.numba_types import dtype_name

        if not isinstance(value, str) or dtype_name(value) is None:
            fail(key, f"must be a type name such as \"float32\" or \"float64\", got {value!r}")
        return value

    for name, value in table.items():
        if isinstance(value, dict):
            cfg.kernel_dtypes[name] = {n: one(f"dtypes.{name}.{n}", v) for n, v in value.items()}
        else:
            cfg.dtypes[name] = one(f"dtypes.{name}", value)


def _size(v, key: str, fail) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        fail(key, "must be a non-negative integer")
    return v


def _roofline(section: dict, cfg: Config, fail) -> None:
    for key in ("machine", "unit"):
        v = section.get(key)
        if v is not None and (not isinstance(v, str) or not v.strip()):
            fail(key, "must be a name (a string)")
    cfg.machine = section.get("machine")
    cfg.unit = section.get("unit")
    if cfg.unit is not None and cfg.unit not in ("cuda", "tensor"):
        fail("unit", f"must be \"cuda\" or \"tensor\", got {cfg.unit!r}")
    cache = section.get("cache")
    if cache is not None:
        if isinstance(cache, bool) or not isinstance(cache, (int, str)) or (isinstance(cache, int) and cache < 1):
            fail("cache", "must be a size such as \"40MiB\" or a number of bytes (at least 1)")
        cfg.cache = cache


def _codes(section: dict, key: str, fail) -> list | None:
    v = section.get(key)
    if v is None:
        return None
    from .lint.registry import valid_pattern  # only for a configuration that lists codes

    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        fail(key, "must be a list of rule codes such as [\"RF202\", \"RF9\"]")
    bad = [c for c in v if not valid_pattern(c.strip().upper())]
    if bad:
        fail(key, f"has `{bad[0]}`, which is not a lint code or prefix (RF, RF2, RF202, ALL)")
    return [c.strip().upper() for c in v]


def _lint(section: dict, cfg: Config, fail) -> None:
    cfg.select = _codes(section, "select", fail)
    cfg.ignore = _codes(section, "ignore", fail) or []
    pfi = section.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        fail("per-file-ignores", "must be a table of glob = [codes]")
    for glob in pfi:
        cfg.per_file_ignores[glob] = _codes(pfi, glob, lambda k, what: fail(f"per-file-ignores.\"{k}\"", what))
    thresholds = section.get("thresholds", {})
    if not isinstance(thresholds, dict):
        fail("thresholds", "must be a table")
    for key, value in thresholds.items():
        if key not in THRESHOLDS:
            fail(f"thresholds.{key}", f"is not a known key; known: {', '.join(THRESHOLDS)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or value < THRESHOLDS[key]:
            fail(f"thresholds.{key}", f"must be a finite number >= {THRESHOLDS[key]}, got {value!r}")
        cfg.thresholds[key] = value


def _close(key: str) -> str | None:
    import difflib

    found = difflib.get_close_matches(key, KEYS, n=1)
    return found[0] if found else None
