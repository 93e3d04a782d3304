"""`staticroof lint PATH...`: the selected rules' findings as `file:line:col: CODE message`.

Exit status: 1 when a selected rule reports something, 0 otherwise, 2 for usage errors (a bad
option or configuration, a missing file, a `-D` value a size cannot take).  Files of a type no
front end reads are skipped, so a pre-commit hook may pass any file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..workers import jobs_option


def _split(values) -> list:
    return [c.strip().upper() for v in values for c in v.split(",") if c.strip()]


def _explain(code: str) -> None:
    from .docs import render
    from .registry import load

    rules = load()
    rule = rules.get(code.strip().upper())
    if rule is None:
        click.echo(f"staticroof: no lint rule {code}; the rules are {', '.join(rules)}", err=True)
        sys.exit(2)
    click.echo(render(rule))


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--select", "select", multiple=True, metavar="CODES",
              help="Only these rule codes or prefixes (comma-separated; replaces the configuration's `select`).")
@click.option("--ignore", "ignore", multiple=True, metavar="CODES",
              help="Also ignore these rule codes or prefixes (comma-separated; added to the configuration's).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True, help="text (file:line:col: CODE message), json, SARIF 2.1.0, GitHub annotations.")
@click.option("--statistics", is_flag=True, default=False,
              help="Print how often each rule fired instead (with text or json).")
@click.option("--explain", "explain", metavar="CODE", default=None, help="Print the documentation of a rule.")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
              help="Bind a size (function parameter or #define'd size) or define a preprocessor macro.")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Search DIR for #include \"...\" headers.")
@click.option("--dtype", "dtypes", multiple=True, metavar="NAME=TYPE",
              help="Element type of a Python kernel's untyped parameter (x=float32).")
@click.option("--cost", "costs", multiple=True, metavar="NAME=W", help="Weight of a special function in W.")
@click.option("--grid", "grids", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]", help="CUDA launch grid.")
@click.option("--block", "blocks", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]", help="CUDA block size.")
@click.option("--machine", "machine_name", metavar="NAME", help="The machine RF302 and RF101 measure against.")
@click.option("--unit", type=click.Choice(["cuda", "tensor"]), default=None)
@click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False))
@click.option("--cache", "cache", metavar="SIZE", default=None, help="Cache size for the cache-bounded Q.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Read the configuration from this file (default: the nearest staticroof.toml or pyproject.toml).")
@click.option("--no-cache", is_flag=True, default=False,
              help="Neither read nor fill the content-hash cache (.staticroof_cache/ beside the configuration).")
@click.option("--baseline", "baseline", type=click.Path(dir_okay=False), default=None,
              help="Also report kernels that regressed against this file (`staticroof baseline`): RD101-RD103.")
@jobs_option
def lint(paths, select, ignore, fmt, statistics, explain, defines, include_dirs, dtypes, costs, grids, blocks,
         machine_name, unit, machine_files, cache, config_file, no_cache, baseline, jobs):
    """Report kernels with an intensity problem in PATHS (files or folders), like ruff or flake8."""
    if explain:
        _explain(explain)
        return
    if not paths:
        raise click.UsageError("give one or more files or folders (or --explain CODE)")
    if statistics and fmt in ("sarif", "github"):
        raise click.UsageError("--statistics prints counts as text or json, not as " + fmt)
    from .. import cli
    from ..config import ConfigError, load
    from .engine import lint_files
    from .registry import valid_pattern
    from .settings import from_config

    try:
        cfg = load(Path(config_file) if config_file else None)
    except ConfigError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    for option, codes in (("--select", _split(select)), ("--ignore", _split(ignore))):
        bad = [c for c in codes if not valid_pattern(c)]
        if bad:
            raise click.BadParameter(f"`{bad[0]}` is not a lint code or prefix (RF, RF2, RF202, ALL)",
                                     param_hint=option)
    settings = from_config(cfg, _split(select), _split(ignore))
    options = cli.options_from(cfg, defines, include_dirs, costs, grids, blocks, machine_name, unit, machine_files,
                               cache, dtypes, jobs=jobs)
    files, errors = cli.collect_sources(paths)
    from ..frontends import source_file

    errors = [d for d in errors if "unsupported file type" not in d.message]  # a hook passes every file
    for d in errors:
        click.echo(f"{d.location}: {d.code} {d.message}", err=True)
    store = None
    if not no_cache:
        from ..cache import Cache, usable

        store = usable(Cache.beside(cfg.path))
    findings, usage = lint_files([f for f in files if source_file(f)], options, settings, store, cfg.path)
    if baseline:  # staticroof/diff/baseline.py: the comparison `diff` makes, against a file
        from ..diff.baseline import BaselineError, lint_findings

        try:
            findings.extend(lint_findings(Path(baseline), [p for p in files if source_file(p)], options, store,
                                          cfg.path))
        except BaselineError as e:
            click.echo(f"staticroof: {e}", err=True)
            sys.exit(2)
    from .output import render

    click.echo(render(findings, fmt, statistics), nl=False)
    for d in usage:
        click.echo(f"{d.location}: {d.code} {d.message}", err=True)
    if errors or usage:
        sys.exit(2)
    sys.exit(1 if findings else 0)

