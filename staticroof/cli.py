"""Command line: `staticroof analyze`, `staticroof rules`.

Exit status: 0 success, 1 when a kernel (or a whole file) could not be analyzed, 2 for usage
errors and unreadable input.  Heavy imports (sympy, isl, pycparser) happen inside the commands,
so `--help` stays instant.  The `staticroof` command reaches main() through staticroof/launcher.py,
in this process or in a fork of a start-up server (staticroof/server): nothing here may read the
environment or the working folder at import time.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

import click

from . import __version__
from .workers import jobs_option


def _parse_defines(values) -> dict:
    out = {}
    for v in values:
        name, eq, value = v.partition("=")
        name = name.strip()
        member = "." in name  # `-D p.n=1000`: a struct member's size (see structs.py)
        if not all(part.isidentifier() for part in name.split(".")) or (member and not eq):
            raise click.BadParameter(f"`{v}`: expected NAME or NAME=VALUE (a member size `p.n` needs a value)",
                                     param_hint="-D")
        out[name] = value.strip() if eq else None
    return out


def _parse_dtypes(values) -> dict:
    """`--dtype x=float32`: the element type of a Python kernel's parameter (name -> type name)."""
    out: dict = {}
    for v in values:
        from .frontends.python.numba_types import (
            dtype_name,  # in the loop: no --dtype, no import  # in the loop: no --dtype, no import
        )

        name, eq, t = v.partition("=")
        name, t = name.strip(), t.strip()
        if not eq or not name.isidentifier():
            raise click.BadParameter(f"`{v}`: expected NAME=TYPE (a parameter and a type such as float32)",
                                     param_hint="--dtype")
        if dtype_name(t) is None:
            raise click.BadParameter(f"`{v}`: `{t}` is not a type name (float32, float64, int32, f4, ...)",
                                     param_hint="--dtype")
        out[name] = t
    return out


def _parse_costs(values) -> dict:
    out = {}
    for v in values:
        name, eq, w = v.partition("=")
        try:
            out[name.strip()] = int(w) if w.strip().isdigit() else float(w)
        except ValueError:
            raise click.BadParameter(f"`{v}`: expected NAME=WEIGHT", param_hint="--cost") from None
        if not eq or not name.strip():
            raise click.BadParameter(f"`{v}`: expected NAME=WEIGHT", param_hint="--cost")
        if not math.isfinite(out[name.strip()]) or out[name.strip()] < 0:
            raise click.BadParameter(f"`{v}`: a cost is a non-negative finite number of FLOPs per call "
                                     "(fractions such as 4.5 are allowed)", param_hint="--cost")
    return out


_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30,
          "k": 2**10, "m": 2**20, "g": 2**30}


def _parse_size(text: str) -> int:
    import re

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", text)
    if not m or m.group(2).lower() not in _UNITS:
        raise click.BadParameter(f"`{text}`: expected a size such as 40MiB, 50MB or 1048576",
                                 param_hint="--cache")
    from decimal import Decimal

    size = int(Decimal(m.group(1)) * _UNITS[m.group(2).lower()])  # exact: `9...9` (400 digits) is no float
    if size < 1:
        raise click.BadParameter(f"`{text}`: a cache holds at least one byte", param_hint="--cache")
    if size.bit_length() > 64:
        raise click.BadParameter(f"`{text}`: a cache size is at most 2**64 bytes", param_hint="--cache")
    return size


def _machine(name, machine_files, pyproject):
    from .roofline import MachineError, get, load_database

    try:
        return get(name, load_database(machine_files, pyproject))
    except MachineError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)


def options_from(cfg, defines=(), include_dirs=(), costs=(), grids=(), blocks=(), machine_name=None, unit=None,
                 machine_files=(), cache=None, dtypes=(), time_budget=None, jobs=None, kernels=(),
                 all_functions=False):
    """The configuration under the command-line options: the one AnalysisOptions (staticroof/options.py)
    every command builds here and hands down.  `all_functions` is the flag: `analyze` and `plot`
    add the configuration's.  Exits 2 on a bad machine; raises click's errors on bad options."""
    from .options import AnalysisOptions

    defs = {name: str(v) for name, v in cfg.sizes.items()}
    given = _parse_defines(defines)
    defs.update(given)
    kernel_sizes = {k: {n: v for n, v in sizes.items() if n not in given} for k, sizes in cfg.kernel_sizes.items()}
    weights = dict(cfg.costs)
    weights.update(_parse_costs(costs))
    launches = _parse_launches(grids, blocks, cfg.launch)
    # an option given empty (`--machine ''`, `--cache ''`) is an error, not the option left out
    machine_name = cfg.machine if machine_name is None else machine_name
    machine = _machine(machine_name, machine_files, cfg.path) if machine_name is not None else None
    if machine is None and machine_files:  # read (a missing or broken file is an error), never silent
        from .roofline import MachineError, load_database

        try:
            load_database(machine_files, cfg.path)
        except MachineError as e:
            click.echo(f"staticroof: {e}", err=True)
            sys.exit(2)
        click.echo("staticroof: warning: --machine-file without --machine (or `machine` in the configuration): "
                   "no kernel is placed on a roofline", err=True)
    if cache is None and cfg.cache is not None:
        cache = str(cfg.cache)
    cache_bytes = _parse_size(cache) if cache is not None else None
    return AnalysisOptions(
        defines=defs, include_dirs=(*include_dirs, *cfg.include), weights=weights, only=frozenset(kernels),
        launches=launches, kernel_sizes=kernel_sizes, dtypes=_types_from(cfg, given, _parse_dtypes(dtypes)),
        all_functions=all_functions,
        cache_bytes=cache_bytes or (machine.l2_bytes if machine is not None else None),
        l1_bytes=machine.smem_bytes_per_sm if machine is not None else None,
        time_budget=cfg.time_budget if time_budget is None else time_budget, machine=machine, unit=unit or cfg.unit,
        jobs=cfg.jobs if jobs is None else jobs)


def _types_from(cfg, given: dict, typed: dict) -> dict:
    """{None: the types of every kernel, KERNEL: that kernel's}: the configuration's tables under
    `--dtype` and `-D x=float32` (a name given on the command line is taken out of the file's)."""
    out: dict = {}
    shared = {n: t for n, t in cfg.dtypes.items() if n not in given}
    shared.update(typed)
    if shared:
        out[None] = shared
    for kernel, table in cfg.kernel_dtypes.items():
        own = {n: t for n, t in table.items() if n not in given and n not in typed}
        if own:
            out[kernel] = own
    return out


class _Setup(NamedTuple):
    """What `analyze` and `plot` run with: the configuration, the options, the files (and the
    usage errors of the paths that are not) and the cache, if any."""

    cfg: Any
    options: Any  # options.AnalysisOptions
    files: list
    errors: list
    store: Any = None  # cache.Cache under --use-cache
    given: tuple = ()  # the command line's (`-D` or `--dtype`, NAME, VALUE): each must name something (_unmatched)


def _setup(paths, defines, include_dirs, kernels, costs=(), grids=(), blocks=(), machine_name=None, unit=None,
           machine_files=(), cache=None, config_file=None, all_functions=False, use_cache=False, dtypes=(),
           time_budget=None, jobs=None) -> _Setup:
    """Config, options and files; exits 2 on usage errors.  `use_cache`: read and fill the
    content-hash cache (staticroof/cache) beside the configuration file.  `jobs`: worker processes
    (None: the configuration's, else every core)."""
    from .config import ConfigError, load

    try:
        cfg = load(Path(config_file) if config_file else None)
    except ConfigError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    o = options_from(cfg, defines, include_dirs, costs, grids, blocks, machine_name, unit, machine_files, cache,
                     dtypes, time_budget, jobs, kernels, all_functions or getattr(cfg, "all_functions", False))
    files, errors = collect_sources(paths)
    if errors and not files:
        for d in errors:
            click.echo(f"{d.location}: {d.code} {d.message}", err=True)
        sys.exit(2)
    store = None
    if use_cache:
        from .cache import Cache, usable

        store = usable(Cache.beside(cfg.path))
    given = (*(("-D", n, v) for n, v in _parse_defines(defines).items()),
             *(("--dtype", n, t) for n, t in _parse_dtypes(dtypes).items()))
    return _Setup(cfg, o, files, errors, store, given)


def _unmatched(s: _Setup, names) -> list:
    """The warnings for the command line's `--dtype NAME=TYPE` (and `-D NAME=TYPE`) whose NAME is no
    parameter of any Python kernel read, and for its `-D NAME[=VALUE]` whose NAME is no parameter or
    size of a kernel read and, for C-family files, no name the source or its headers spell (a macro
    they use), a name the preprocessor defines or one the stub headers test (`NDEBUG`); with the
    closest names.  `names`: pipeline.Report.names of every file (C-family ones as `#NAME`), so a
    name used by another file matches."""
    import difflib

    from .frontends.python.numba_types import dtype_name

    python = sorted(n for n in names if not n.startswith("#"))
    known = sorted({n.lstrip("#") for n in names})
    out = []
    for option, name, value in s.given:
        typed = option == "--dtype" or (value is not None and dtype_name(str(value)) is not None)
        if name in python or (option == "-D" and (f"#{name}" in names or _preprocessor_name(name))):
            continue
        if option == "-D" and len(python) < len(known):  # a C-family file was read
            where, what = "analyzed file or its headers", "name"
        else:
            where, what = "analyzed Python kernel", "parameter" if typed else "parameter or size"
        pool = python if option == "--dtype" else known
        close = [c for c in pool if c.lower() == name.lower() and c != name] or \
            difflib.get_close_matches(name, pool, n=3)
        hint = f" (did you mean {', '.join(f'`{c}`' for c in close)}?)" if close else ""
        given = f"{name}={value}" if value is not None else name
        if what == "name":
            out.append(f"staticroof: warning: `{option} {given}`: no analyzed file or its headers use "
                       f"`{name}`{hint}; it is ignored")
        else:
            out.append(f"staticroof: warning: `{option} {given}`: `{name}` is no {what} of any {where}{hint}; "
                       "it is ignored")
    return out


def _preprocessor_name(name: str) -> bool:
    """Whether `-D NAME` can change what the preprocessor does without the source spelling NAME: a
    reserved name (`__CUDA_ARCH__`), a predefined one (`_OPENMP`), one a stub header tests (`NDEBUG`)."""
    from .frontends.common.predefined import PREDEFINED_NAMES
    from .frontends.common.stubs import stub_names

    return name.startswith("__") or name in PREDEFINED_NAMES or name in stub_names()


def _analyze_files(s: _Setup, files):
    """The report of `files` (through the cache, if any), placed under the machine's roofline when
    one is named; exits 2 when a kernel has no roof on it."""
    from .cache.runner import run

    return _place(s, run(files, s.options, cache=s.store, config_path=s.cfg.path))


def _place(s: _Setup, report):
    if s.options.machine is not None:
        from .roofline import MachineError
        from .roofline.place import place

        for k in report.kernels:
            try:
                k.roofline = place(k, s.options.machine, s.options.unit)
            except MachineError as e:
                click.echo(f"staticroof: {e}", err=True)
                sys.exit(2)
    return report


def _run(paths, defines, include_dirs, kernels, costs=(), grids=(), blocks=(), machine_name=None, unit=None,
         machine_files=(), cache=None, config_file=None, all_functions=False, use_cache=False, dtypes=(), jobs=None):
    """Config, options and files to a report (placed under a machine's roofline when one is named):
    what `plot` runs.  Exits 2 on usage errors."""
    s = _setup(paths, defines, include_dirs, kernels, costs, grids, blocks, machine_name, unit, machine_files, cache,
               config_file, all_functions, use_cache, dtypes, jobs=jobs)
    return _analyze_files(s, s.files), s.errors, s.options.machine


def _printed(report, fmt: str, color: bool, verbose: bool = False):
    """A report as the parts `analyze` prints (cache.printed.Printed)."""
    from .cache.printed import Printed
    from .cache.runner import transient

    kernels: list
    diags: list
    if fmt == "json":
        from .reports import json as json_report

        kernels = [json_report.kernel(k) for k in report.kernels]
        diags = [json_report.diagnostic(d) for d in report.file_diagnostics]
    else:
        from .reports import text

        kernels = [text.kernel_block(k, color, verbose) for k in report.kernels]
        diags = text.diagnostic_lines(report.file_diagnostics, color, verbose)
    return Printed(kernels, diags, [d.code for d in report.file_diagnostics], report.failed, transient(report),
                   sorted(report.names))


def _printed_files(s: _Setup, fmt: str, color: bool, verbose: bool = False) -> list:
    """[Printed] of each file: with the cache, each read from its entry when it holds this way of
    printing (printing then needs no analysis, nor sympy); without, the whole report in one."""
    if s.store is None:
        return [_printed(_analyze_files(s, s.files), fmt, color, verbose)]
    import dataclasses

    from .cache import printed

    machine = s.options.machine
    view = {"format": fmt, "color": color, "unit": s.options.unit,
            "machine": dataclasses.asdict(machine) if machine is not None else None}
    if verbose and fmt == "text":  # only when set: the other views keep their names (and cache entries)
        view["verbose"] = True
    return printed.run(s.files, s.options, view, lambda report: _printed(_place(s, report), fmt, color, verbose),
                       s.store, s.cfg.path)


def _parse_launches(grids, blocks, configured: dict) -> dict:
    """{kernel name or None: {"grid": (x, y, z), "block": (x, y, z)}} from --grid/--block and config."""
    out = {k: dict(v) for k, v in configured.items()}
    for option, values in (("grid", grids), ("block", blocks)):
        for v in values:
            kernel, _eq, dims = v.rpartition("=")
            try:
                if "=" in kernel:  # `k=a=4`: one `=` at most
                    raise ValueError
                nums = tuple(int(x) for x in dims.split(","))
            except ValueError:
                raise click.BadParameter(f"`{v}`: expected [KERNEL=]X[,Y[,Z]]", param_hint=f"--{option}") from None
            if not 1 <= len(nums) <= 3 or min(nums) < 1:
                raise click.BadParameter(f"`{v}`: 1 to 3 positive sizes", param_hint=f"--{option}")
            out.setdefault(kernel or None, {})[option] = nums
    for kernel, launch in out.items():
        for option, nums in launch.items():
            why = _launch_limit(option, tuple(nums))
            if why:
                where = f"{kernel}=" if kernel else ""
                raise click.BadParameter(f"`{where}{','.join(map(str, nums))}`: {why}", param_hint=f"--{option}")
    return out


# CUDA's limits on every GPU since compute capability 3.0 (CUDA C++ Programming Guide, "Features and
# Technical Specifications"): a launch beyond them fails, so it is a usage error, not a size.
_GRID_MAX = (2**31 - 1, 65535, 65535)
_BLOCK_MAX = (1024, 1024, 64)


def _launch_limit(option: str, nums: tuple):
    limits = _GRID_MAX if option == "grid" else _BLOCK_MAX
    for d, (n, most) in enumerate(zip(nums, limits, strict=False)):
        if n > most:
            return f"{option} dimension {'xyz'[d]} = {n:,} exceeds CUDA's limit of {most:,}"
    if option == "block" and math.prod(nums) > 1024:
        return f"a block of {math.prod(nums):,} threads exceeds CUDA's limit of 1,024"
    return None


def _names_like(wanted, files) -> str:
    """` (did you mean ...?)` with the names defined in `files` closest to those `wanted`, or ""."""
    import difflib
    import re

    from .inputs import InputError, read_text

    names: set = set()
    for f in files:
        try:
            names |= set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(", read_text(f)))
        except InputError:
            continue
    close = [c for w in wanted for c in difflib.get_close_matches(w.split(":")[-1], sorted(names), n=3, cutoff=0.75)]
    return f" (did you mean {' or '.join(dict.fromkeys(close))}?)" if close else ""


def collect_sources(paths) -> tuple[list[Path], list]:
    from .diagnostics import Diagnostic, Location
    from .frontends import HEADER_SUFFIXES, SUFFIXES, source_file, supported

    files, errors = [], []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            # headers are reported through the sources that include them (frontends.source_file)
            found = sorted(f for f in path.rglob("*") if f.is_file() and source_file(f)
                           and not any(part.startswith(".") for part in f.relative_to(path).parts))
            if not found:
                errors.append(Diagnostic("SR003", "no source file in this folder (suffixes: "
                                         f"{', '.join(s for s in SUFFIXES if s not in HEADER_SUFFIXES)})",
                                         Location(str(path))))
            files.extend(found)
        elif path.is_file():
            if not supported(path):
                errors.append(Diagnostic("SR003", f"unsupported file type `{path.suffix}`", Location(str(path))))
            elif not os.access(path, os.R_OK):
                errors.append(Diagnostic("SR003", "cannot read: permission denied", Location(str(path))))
            else:
                files.append(path)
        elif path.is_symlink() and not path.exists():
            errors.append(Diagnostic("SR003", f"a broken symbolic link (to {os.readlink(path)}, which does not exist)",
                                     Location(str(path))))
        elif os.path.lexists(path):
            errors.append(Diagnostic("SR003", "not a regular file (a device, FIFO or socket is never read)",
                                     Location(str(path))))
        else:
            errors.append(Diagnostic("SR003", "no such file or directory", Location(str(path))))
    return files, errors


DTYPE_HELP = ("Element type of a Python kernel's parameter that its source leaves untyped (x=float32; "
              "repeatable). A signature, an annotation or a pragma in the source wins.")


class _LazyGroup(click.Group):
    """A group whose commands in other modules are imported only when run (or listed by
    `--help`): `analyze` and `--version` do not pay for lint's, diff's or validate's modules."""

    def __init__(self, *args, lazy: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})  # command name -> "module:attribute"

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in self.commands and cmd_name in self.lazy:
            from importlib import import_module

            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(import_module(module, __package__), attribute), cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            for name in self.lazy:  # click's "Did you mean 'lint'?" looks among the loaded commands
                self.get_command(ctx, name)
            return super().resolve_command(ctx, args)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             lazy={"lint": ".lint.command:lint", "validate": ".validate.command:validate",
                   "profile": ".validate.profile:profile", "diff": ".diff.command:diff",
                   "baseline": ".diff.command:baseline", "server": ".server.command:server"})
@click.version_option(__version__, prog_name="staticroof")
def main():
    """Static roofline analysis: W (FLOPs), Q (DRAM bytes) and I = W/Q of C and CUDA kernels, before anything runs."""
    _exit_on_sigterm()


def _exit_on_sigterm() -> None:
    """A CI job's timeout or a hook runner sends SIGTERM, a closed terminal SIGHUP, Ctrl-\\ SIGQUIT
    (crashes.ENDING): exit through Python (status 128 + the signal) so every `finally` runs and no
    temporary folder or preprocessor process is left behind."""
    import signal
    import threading

    from .crashes import ENDING, exit_on_signal

    if threading.current_thread() is threading.main_thread():
        for number in ENDING:
            signal.signal(number, exit_on_signal)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
              help="Bind a size (function parameter or #define'd size) or define a preprocessor macro.")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Search DIR for #include \"...\" headers.")
@click.option("--dtype", "dtypes", multiple=True, metavar="NAME=TYPE", help=DTYPE_HELP)
@click.option("--kernel", "kernels", multiple=True, metavar="NAME", help="Only report this kernel (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--cost", "costs", multiple=True, metavar="NAME=W",
              help="Weight of a special function in W (default 1 FLOP per call).")
@click.option("--grid", "grids", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]",
              help="CUDA launch grid (for every kernel, or one kernel); overrides a launch site's.")
@click.option("--block", "blocks", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]",
              help="CUDA block size (for every kernel, or one kernel); overrides a launch site's.")
@click.option("--machine", "machine_name", metavar="NAME", help="Place each kernel under this machine's roofline.")
@click.option("--unit", type=click.Choice(["cuda", "tensor"]), default=None,
              help="Roof to use: CUDA cores/vector units (default) or tensor/matrix units.")
@click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False),
              help="More machines (TOML, same format as the shipped database).")
@click.option("--cache", "cache", metavar="SIZE", default=None,
              help="Cache size for the cache-bounded Q (e.g. 40MiB; default: the machine's L2).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Read [tool.staticroof] from this file (default: the nearest pyproject.toml).")
@click.option("--color/--no-color", default=None, help="Color the text report (default: when a terminal).")
@click.option("--all-functions", is_flag=True, default=False,
              help="Also report drivers (`main`, setup functions: no floating-point work, no loop over arrays).")
@click.option("--use-cache/--no-cache", "use_cache", default=False, show_default=True,
              help="Read and fill the content-hash cache in .staticroof_cache/ (off by default: a plain analyze "
                   "writes nothing outside its temporary folder).")
@click.option("--time-budget", "time_budget", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="CPU seconds to count one kernel before it falls back to its sizes, then to a bound "
                   "(SR124-SR126; default 20, 0: none).")
@click.option("--verbose", "-v", is_flag=True, default=False,
              help="Text report: every occurrence of a diagnostic on its own line (by default one line per "
                   "cause per kernel, `CODE xN`, at its first occurrence; the JSON lists every one).")
@jobs_option
def analyze(paths, defines, include_dirs, dtypes, kernels, fmt, costs, grids, blocks, machine_name, unit,
            machine_files, cache, config_file, color, all_functions, use_cache, time_budget, verbose, jobs):
    """Analyze the kernels in PATHS (files or folders)."""
    s = _setup(paths, defines, include_dirs, kernels, costs, grids, blocks, machine_name, unit, machine_files, cache,
               config_file, all_functions, use_cache, dtypes, time_budget, jobs)
    use_color = sys.stdout.isatty() if color is None else color
    parts = _printed_files(s, fmt, use_color, verbose)
    for line in _unmatched(s, {n for p in parts for n in p.names}):
        click.echo(line, err=True)
    if kernels and not any(p.kernels for p in parts):
        click.echo(f"staticroof: no kernel named {', '.join(kernels)}{_names_like(kernels, s.files)}", err=True)
        sys.exit(2)
    blocks_out = [b for p in parts for b in p.kernels]
    if fmt == "json":
        from .reports import json as json_report

        diags = [json_report.diagnostic(d) for d in s.errors] + [d for p in parts for d in p.diagnostics]
        click.echo(json_report.join(blocks_out, diags))
    else:
        from .reports import text

        lines = [text.diagnostic_line(d, use_color) for d in s.errors] + [d for p in parts for d in p.diagnostics]
        click.echo(text.join(lines, blocks_out))
    if s.errors or any(c in ("SR003", "SR007") for p in parts for c in p.codes):
        sys.exit(2)  # a usage error or unreadable input: a missing or binary file, a -D value a size cannot take
    sys.exit(1 if any(p.failed for p in parts) else 0)


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Sizes to run at (and macros).")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR")
@click.option("--kernel", "kernels", multiple=True, metavar="NAME", help="Only this kernel (repeatable).")
@click.option("--grid", "grids", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]", help="CUDA launch grid.")
@click.option("--block", "blocks", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]", help="CUDA block size.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def trace(path, defines, include_dirs, kernels, grids, blocks, fmt):
    """Run kernels at concrete sizes with instrumentation and compare with the static counts.

    Exit 1 when an exact kernel's static and traced numbers differ, 2 when a kernel could not be
    traced (the file's other kernels are still traced and reported)."""
    from .config import Config
    from .pipeline import run
    from .trace import TraceError, compare, run as run_trace

    defs = _parse_defines(defines)
    files, errors = collect_sources([path])
    if errors:
        for d in errors:
            click.echo(f"{d.location}: {d.code} {d.message}", err=True)
        sys.exit(2)
    # no configuration: the sizes, folders, kernels and launches given here, and nothing else
    report = run(files, options_from(Config(), defines, include_dirs, grids=grids, blocks=blocks, kernels=kernels))
    if not report.kernels:
        click.echo(f"staticroof: no kernel to trace in {path}", err=True)
        sys.exit(2)
    from .trace.budget import refusal

    out: list[tuple] = []  # (kernel, rows, None) or (kernel, None, why it was not traced)
    for k in report.kernels:
        if k.failed:  # `main` of a benchmark file, host code: `analyze` says why
            click.echo(f"{k.location}: {k.name}: not analyzed, not traced", err=True)
            continue
        unbound = sorted(n for n in k.size_origins if k.sizes.get(n) is None)
        if unbound:
            from .ir import LAUNCH_BLOCK, LAUNCH_GRID, size_role

            launch = [n for n in unbound if size_role(n) in (LAUNCH_GRID, LAUNCH_BLOCK)]
            hint = "--grid/--block" if launch else f"-D {unbound[0]}=VALUE"
            out.append((k, None, f"needs {', '.join(unbound)} to run: give {hint}"))
            continue
        why = refusal(k)
        if why:
            out.append((k, None, why))
            continue
        try:  # one kernel the trace cannot run costs only itself: the others are still traced
            traced = run_trace(str(files[0]), k.name, dict(k.sizes), k.language, defs, include_dirs,
                               launch=k.launch or None)
        except TraceError as e:
            out.append((k, None, str(e)))
            continue
        out.append((k, compare(k, traced), None))
    if not out:
        click.echo(f"staticroof: no kernel in {path} could be analyzed to trace it", err=True)
        sys.exit(2)
    # 2: a kernel could not be traced (usage: sizes, memory; or the trace failed); 1: an exact
    # kernel's static and traced numbers differ
    status = 2 if any(err for _, _, err in out) else int(any(k.exact and not all(r.ok for r in rows)
                                                             for k, rows, _ in out))
    from .reports import trace as trace_report

    click.echo(trace_report.render_json(out) if fmt == "json" else trace_report.render_text(out))
    sys.exit(status)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--machine", "machine_name", required=True, metavar="NAME")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="roofline.png, .svg or .pdf")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR")
@click.option("--kernel", "kernels", multiple=True, metavar="NAME")
@click.option("--unit", type=click.Choice(["cuda", "tensor"]), default=None)
@click.option("--cache", "cache", metavar="SIZE", default=None)
@click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False))
@click.option("--grid", "grids", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]")
@click.option("--block", "blocks", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None)
@click.option("--ncu", "ncu_report", metavar="REPORT", default=None,
              help="Also draw the launches Nsight Compute measured (see `staticroof validate`).")
@jobs_option
def plot(paths, machine_name, output, defines, include_dirs, kernels, unit, cache, machine_files, grids, blocks,
         config_file, ncu_report, jobs):
    """Draw the kernels of PATHS under MACHINE's roofline (one point per kernel and level)."""
    if Path(output).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise click.BadParameter("the output must end in .png, .svg or .pdf", param_hint="-o")
    folder = Path(output).resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise click.BadParameter(f"`{output}`: the folder {folder} does not exist or is not writable", param_hint="-o")
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        click.echo("staticroof: `plot` needs matplotlib: install the plot extra, "
                   "python3 -m pip install 'staticroof[plot]'", err=True)
        sys.exit(2)
    report, _errors, machine = _run(paths, defines, include_dirs, kernels, (), grids, blocks, machine_name, unit,
                                    machine_files, cache, config_file, jobs=jobs)
    from .reports.plot import draw, points

    measured: list = []
    if ncu_report:
        from .ncu import ReportError
        from .validate.points import measured_points

        try:
            measured, notes = measured_points(ncu_report, report.kernels)
        except ReportError as e:
            click.echo(f"staticroof: {e}", err=True)
            sys.exit(2)
        for note in notes:
            click.echo(note, err=True)
    try:
        pts = draw(report.kernels, machine, output, measured)
    except OSError as e:
        click.echo(f"staticroof: -o {output}: cannot write the plot: {e.strerror or e}", err=True)
        sys.exit(1)
    shown_kernels = {p["kernel"] for p in pts if not p["level"].startswith("measured")}
    for k in report.kernels:  # say which kernels have no point, and why
        if k.name not in shown_kernels:
            why = ("could not be analyzed" if k.failed else "has no numeric W and Q (give its sizes with -D)"
                   if not points([k]) else "has no point")
            click.echo(f"{k.location}: {k.name}: not plotted: it {why}", err=True)
    nk, npts = len(shown_kernels), len(pts)
    shown = f" ({len(measured):,} measured)" if measured else ""
    click.echo(f"{output}: {nk:,} kernel{'' if nk == 1 else 's'}, {npts:,} point{'' if npts == 1 else 's'}{shown}")


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False))
def machines(fmt, machine_files):
    """List the machine database with its ridge points (FLOP/byte)."""
    from .config import find
    from .reports import machines as machines_report
    from .roofline import MachineError, load_database

    try:
        db = load_database(machine_files, find(Path.cwd()))
    except MachineError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    click.echo(machines_report.render_json(db) if fmt == "json" else machines_report.render_text(db))


@main.command()
def rules():
    """List the diagnostic codes and the lint rules, and what each means."""
    from .diagnostics import RULES
    from .lint.registry import load

    for r in RULES.values():
        click.echo(f"{r.code}  {r.severity:<7} {r.summary}")
        click.echo(f"       {r.doc}\n")
    click.echo("Lint rules (`staticroof lint`; `staticroof lint --explain CODE` prints a rule's page):\n")
    for code, rule in load().items():
        needs = f" (needs {rule.needs.split(':')[0]})" if rule.needs else ""
        click.echo(f"{code}  {rule.name}: {rule.summary}{needs}")
    from .diff.compare import RULES as DIFF_RULES

    click.echo("\nRegressions (`staticroof diff`, `staticroof lint --baseline`):\n")
    for code, (name, doc) in DIFF_RULES.items():
        click.echo(f"{code}  {name}: {doc}")


if __name__ == "__main__":  # pragma: no cover
    main()
