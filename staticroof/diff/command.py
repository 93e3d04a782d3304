"""`staticroof diff BASE [HEAD]` and `staticroof baseline PATH...` (click commands; cli.py adds them).

diff's exit status: 1 when a kernel regresses (diff/compare.py: its time floor past `--fail-under`, or
a new lint finding with `--lint fail`), 0 otherwise, 2 for usage errors
(no git repository, an unknown revision, a bad option or configuration).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

FORMATS = ["text", "markdown", "json", "sarif", "github"]


def _analysis_options(f):
    """The options `analyze` takes for the analysis itself (same names, same meaning)."""
    for option in reversed([
        click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
                     help="Bind a size (function parameter or #define'd size) or define a preprocessor macro."),
        click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
                     help="Search DIR for #include \"...\" headers (inside the repository: the revision's own)."),
        click.option("--dtype", "dtypes", multiple=True, metavar="NAME=TYPE",
                     help="Element type of a Python kernel's untyped parameter (x=float32)."),
        click.option("--cost", "costs", multiple=True, metavar="NAME=W", help="Weight of a special function in W."),
        click.option("--grid", "grids", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]", help="CUDA launch grid."),
        click.option("--block", "blocks", multiple=True, metavar="[KERNEL=]X[,Y[,Z]]", help="CUDA block size."),
        click.option("--machine", "machine_name", metavar="NAME",
                     help="Place the kernels under this machine's roofline (default: the configuration's)."),
        click.option("--unit", type=click.Choice(["cuda", "tensor"]), default=None),
        click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False)),
        click.option("--cache", "cache", metavar="SIZE", default=None,
                     help="Cache size for the cache-bounded Q (default: the machine's L2)."),
        click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
                     help="The configuration (default: the nearest staticroof.toml or pyproject.toml)."),
        click.option("--use-cache/--no-cache", "use_cache", default=True, show_default=True,
                     help="Read and fill the content-hash cache in .staticroof_cache/."),
    ]):
        f = option(f)
    from ..workers import jobs_option

    return jobs_option(f)


def _setup(config_file, defines, include_dirs, costs, grids, blocks, machine_name, unit, machine_files, cache,
           use_cache, dtypes=(), jobs=None):
    """(configuration, analysis options, cache or None, configuration path), or exit 2."""
    from .. import cli
    from ..cache import Cache, cache_root
    from ..config import ConfigError, load

    try:
        cfg = load(Path(config_file).resolve() if config_file else None)
    except ConfigError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    options = cli.options_from(cfg, defines, include_dirs, costs, grids, blocks, machine_name, unit, machine_files,
                               cache, dtypes, jobs=jobs)
    config_path = Path(cfg.path).resolve() if cfg.path else None
    store = Cache(cache_root(config_path).resolve()) if use_cache else None
    return cfg, options, store, config_path


@click.command()
@click.argument("base")
@click.argument("head", required=False)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--fail-under", "fail_under", type=click.FloatRange(0, 100), default=10.0, show_default=True,
              metavar="PERCENT",
              help="Exit 1 when a kernel's time floor rises by more than PERCENT (without a machine or "
                   "sizes: its I drops as its bytes rise, or its attainable performance drops at no fewer FLOPs).")
@click.option("--lint", "lint_mode", type=click.Choice(["fail", "report", "off"]), default=None,
              help="A new RF1xx/RF2xx lint finding at a changed kernel: fails the gate, is only reported, or is "
                   "not looked for (default: the configuration's diff-lint, else fail).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the report to this file (default: standard output).")
@click.option("--write", "writes", multiple=True, metavar="FORMAT:FILE",
              help="Also write the same comparison in another format to FILE (repeatable: one analysis, "
                   "every report; the Action writes json and markdown beside the github annotations).")
@_analysis_options
def diff(base, head, fmt, fail_under, lint_mode, output, writes, defines, include_dirs, dtypes, costs, grids,
         blocks, machine_name, unit, machine_files, cache, config_file, use_cache, jobs):
    """Compare the kernels of files changed between BASE and HEAD (default: the working tree).

    Per kernel: W, Q, I, the bound and the attainable performance before and after, with the
    change in percent; new and removed kernels are listed."""
    from ..cache import usable
    from . import git
    from .run import run

    extra = []
    for w in writes:
        kind, sep, path = w.partition(":")
        if not sep or kind not in FORMATS or not path:
            raise click.BadParameter(f"`{w}`: give FORMAT:FILE with FORMAT one of {', '.join(FORMATS)}",
                                     param_hint="--write")
        extra.append((kind, path))
    cfg, options, store, config_path = _setup(config_file, defines, include_dirs, costs, grids, blocks,
                                              machine_name, unit, machine_files, cache, use_cache, dtypes, jobs)
    mode = lint_mode or cfg.diff_lint
    settings = None
    if mode != "off":
        from ..lint.settings import from_config

        settings = from_config(cfg)
    try:
        store = usable(store)
        result = run(base, head, options, Path.cwd(), store, config_path, fail_under, settings, mode == "fail")
    except git.GitError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    for kind, path in extra:
        _write(path, _render(kind, result))
    text = _render(fmt, result)
    if output:
        _write(output, text)
    else:
        click.echo(text, nl=not text.endswith("\n"))
    sys.exit(1 if result.regressions else 0)


def _render(fmt: str, result) -> str:
    from ..reports import diff as diff_report

    if fmt == "markdown":
        from ..reports.markdown import render_diff

        return render_diff(result)
    if fmt == "sarif":
        from ..reports.sarif import render_diff as sarif_diff

        return sarif_diff(result)
    if fmt == "github":
        from ..reports import github

        return github.render(diff_report.diff_annotations(result))
    return diff_report.render_json(result) if fmt == "json" else diff_report.render_text(result)


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as e:
        click.echo(f"staticroof: {path}: {e.strerror or e}", err=True)
        sys.exit(2)


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default="staticroof-baseline.json",
              show_default=True, help="The baseline file to write.")
@_analysis_options
def baseline(paths, output, defines, include_dirs, dtypes, costs, grids, blocks, machine_name, unit, machine_files,
             cache, config_file, use_cache, jobs):
    """Write the kernels' W, Q, I and roofline position in PATHS to a baseline file, which
    `staticroof lint --baseline FILE` compares against (a review without git history)."""
    import os

    from .. import cli
    from .baseline import write

    folder = Path(output).resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise click.BadParameter(f"`{output}`: the folder {folder} does not exist or is not writable", param_hint="-o")
    _cfg, options, store, config_path = _setup(config_file, defines, include_dirs, costs, grids, blocks,
                                               machine_name, unit, machine_files, cache, use_cache, dtypes, jobs)
    files, errors = cli.collect_sources(paths)
    for d in errors:
        click.echo(f"{d.location}: {d.code} {d.message}", err=True)
    if errors and not files:
        sys.exit(2)
    from .baseline import analyze

    kernels = analyze(files, options, store, config_path)
    try:
        n = write(Path(output), kernels, options)
    except OSError as e:
        click.echo(f"staticroof: {output}: {e.strerror or e}", err=True)
        sys.exit(2)
    click.echo(f"{output}: {n} kernel{'s' * (n != 1)}")
    sys.exit(2 if errors else 0)
