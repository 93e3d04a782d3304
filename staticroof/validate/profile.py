"""`staticroof profile SOURCE -- APP ARGS...`: run the application under Nsight Compute with the
metrics `validate` compares (staticroof.ncu.collect), keep the CSV, then validate SOURCE against it."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import click


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("app", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("-o", "--output", default="staticroof-ncu.csv", show_default=True, type=click.Path(dir_okay=False),
              help="Where to keep ncu's CSV (validate it again later with `staticroof validate --ncu`).")
@click.option("--clock-control", type=click.Choice(["base", "none", "reset"]), default=None,
              help="Passed to ncu (default: ncu's own, base clocks).")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR")
@click.option("--kernel", "kernels", multiple=True, metavar="NAME")
@click.option("--machine", "machine_name", metavar="NAME")
@click.option("--machine-file", "machine_files", multiple=True, type=click.Path(dir_okay=False))
@click.option("--cost", "costs", multiple=True, metavar="NAME=W")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def profile(source, app, output, clock_control, defines, include_dirs, kernels, machine_name, machine_files, costs,
            config_file, fmt):
    """Profile APP (after `--`) with ncu and validate SOURCE against what it measured."""
    from ..ncu import ReportError, read
    from ..ncu.collect import command
    from .command import print_comparison

    exe = shutil.which("ncu")
    cmd = command(list(app), exe or "ncu", clock_control)
    if exe is None:
        click.echo("staticroof: `profile` needs Nsight Compute's `ncu` on PATH. On a machine with a GPU and ncu, "
                   f"run `{shlex.join(cmd)} > report.csv` and then `staticroof validate {source} --ncu report.csv`",
                   err=True)
        sys.exit(2)
    try:
        with open(output, "wb") as out:
            done = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, check=False)
    except OSError as e:
        click.echo(f"staticroof: cannot run ncu: {e}", err=True)
        sys.exit(2)
    try:
        report = read(output)
    except ReportError as e:
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        tail = f"; ncu exited {done.returncode}: {err[-1]}" if err else f"; ncu exited {done.returncode}"
        click.echo(f"staticroof: {e}{tail}", err=True)
        sys.exit(2)
    if done.returncode != 0:
        click.echo(f"staticroof: ncu exited {done.returncode} (the application's status); validating what it measured",
                   err=True)
    print_comparison(source, report, output, defines, include_dirs, kernels, machine_name, machine_files, costs,
                     config_file, fmt)
