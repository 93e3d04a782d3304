"""The `staticroof validate` command (registered by cli.py; imports only click at load time)."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("--ncu", "report_path", required=True, metavar="REPORT",
              help="Nsight Compute output: --csv details page, --csv --page raw, console log, or .ncu-rep.")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Sizes the profiled run used.")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR")
@click.option("--kernel", "kernels", multiple=True, metavar="NAME", help="Only launches of this kernel (repeatable).")
@click.option("--machine", "machine_name", metavar="NAME",
              help="Roofs to place the measured point under (default: the report's peaks, else its device name).")
@click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False))
@click.option("--cost", "costs", multiple=True, metavar="NAME=W")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def validate(source, report_path, defines, include_dirs, kernels, machine_name, machine_files, costs, config_file,
             fmt):
    """Compare SOURCE's predicted W and Q with what Nsight Compute measured for its kernels' launches.

    Exit 1 when a launch matches no kernel of SOURCE or cannot be analyzed, 2 for unreadable
    input or usage errors."""
    from ..ncu import ReportError, read

    try:
        report = read(report_path)
    except ReportError as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    print_comparison(source, report, report_path, defines, include_dirs, kernels, machine_name, machine_files,
                     costs, config_file, fmt)


def print_comparison(source, report, report_path, defines, include_dirs, kernels, machine_name, machine_files,
                     costs, config_file, fmt):
    """Analyze SOURCE for the report's launches and print the comparison; exits with the status."""
    from ..cli import collect_sources, options_from
    from ..config import ConfigError, load
    from ..roofline import MachineError, load_database

    files, errors = collect_sources([source])
    if errors:
        for d in errors:
            click.echo(f"{d.location}: {d.code} {d.message}", err=True)
        sys.exit(2)
    try:
        cfg = load(Path(config_file) if config_file else None)
        db = load_database(machine_files, cfg.path)
    except (ConfigError, MachineError) as e:
        click.echo(f"staticroof: {e}", err=True)
        sys.exit(2)
    o = options_from(cfg, defines, include_dirs, costs, (), (), machine_name, None, machine_files)
    machine = o.machine

    def run_analysis(names: set, launches: dict, sizes: dict | None = None):
        import dataclasses

        from ..options import thaw
        from ..pipeline import run

        merged = thaw(o.launches)
        for k, shape in launches.items():
            merged.setdefault(k, {}).update(shape)
        # the launches the report measured (and the sizes they imply); the machine's L2 alone (not
        # `cache`), and no L1 level
        defines = {**thaw(o.defines), **(sizes or {})}
        return run(files, dataclasses.replace(o, only=names, launches=merged, defines=defines,
                                              cache_bytes=machine.l2_bytes if machine is not None else None,
                                              l1_bytes=None)).kernels

    from .compare import validate as run_validation

    results = run_validation(files[0], report, set(kernels), run_analysis, machine, db)
    if not results:
        names = ", ".join(sorted({x.kernel for x in report.launches}))
        click.echo(f"staticroof: no launch of {', '.join(kernels)} in {report_path} (it has: {names})", err=True)
        sys.exit(2)
    from . import render

    if fmt == "json":
        click.echo(render.render_json(results, report))
    elif fmt == "markdown":
        click.echo(render.render_markdown(results, report_path), nl=False)
    else:
        click.echo(render.render_text(results, report_path))
    sys.exit(1 if any(v.kernel is None for v in results) else 0)
