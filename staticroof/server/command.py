"""`staticroof server start|stop|status`: the start-up server of this installation and user."""

from __future__ import annotations

import json
import os
import sys
import time

import click

from . import protocol
from .address import Unsafe, address, check, make
from .client import connect
from .spawn import DEFAULT_IDLE


@click.group()
def server():
    """Run commands in a start-up server that has imported the analysis already.

    While it runs, each staticroof command of this installation is run by a fork of it and costs
    its analysis, not its imports (pre-commit hooks, editors); the output is the same. Opt-in:
    STATICROOF_SERVER=auto starts one after a command that found none, STATICROOF_SERVER=0 never
    uses one."""


def _ask(tag: bytes) -> dict | None:
    """The running server's answer to `tag`, or None when none is running (exits 2 on an unsafe folder)."""
    where = address()
    if not os.path.lexists(where.folder):
        return None
    try:
        check(where.folder)
    except Unsafe as e:
        click.echo(f"staticroof: refusing the server folder: {e}", err=True)
        sys.exit(2)
    sock = connect(where)
    if sock is None:
        return None
    with sock:
        try:
            protocol.await_greeting(sock, 10.0)  # a stopped server answers nothing
            sock.sendall(tag)
            return protocol.Reader(sock).message(10.0)
        except (OSError, ValueError, protocol.Closed):
            return None


MAX_IDLE = 7 * 24 * 3600.0  # a week: past it (or inf, nan), the idle timer would overflow and the server die at once


def _idle_seconds(ctx, param, value):
    import math

    if not math.isfinite(value) or not 0 < value <= MAX_IDLE:
        raise click.BadParameter(f"{value:g} is not a number of seconds in (0, {MAX_IDLE:g}] (a week)")
    return value


@server.command()
@click.option("--idle", type=float, default=DEFAULT_IDLE, show_default=True, callback=_idle_seconds,
              metavar="SECONDS", help=f"Exit after this many seconds without a command (at most {MAX_IDLE:g}).")
def start(idle):
    """Start the server (in the background) and wait until it is ready."""
    where = address()
    try:
        make(where.folder)
    except Unsafe as e:
        click.echo(f"staticroof: refusing the server folder: {e}", err=True)
        sys.exit(2)
    running = _ask(b"S")
    if running is not None:
        click.echo(f"staticroof: a server is running already (pid {running['pid']}, {where.socket})")
        return
    from .spawn import start as spawn
    answer = spawn(idle)
    word, _, rest = answer.partition(" ")
    if word == "ok":
        click.echo(f"staticroof: server started (pid {rest}, {where.socket}, exits after {idle:g} s idle)")
    elif word == "running":
        click.echo(f"staticroof: a server is running already ({where.socket})")
    else:
        click.echo(f"staticroof: the server did not start: {rest}", err=True)
        sys.exit(1)


@server.command()
def stop():
    """Stop the server (a command it is running finishes first)."""
    answer = _ask(b"Q")
    if answer is None:
        click.echo(f"staticroof: no server is running ({address().socket})")
        return
    pid = answer.get("stopping")
    if _wait_unlocked(address().lock, 30.0):
        click.echo(f"staticroof: server stopped (pid {pid})")
    else:
        click.echo(f"staticroof: server stopping (pid {pid}): it ends when its running commands do")


def _wait_unlocked(path: str, seconds: float) -> bool:
    """Whether the server's lock was released (the process ended) within `seconds`."""
    import fcntl

    deadline = time.monotonic() + seconds
    fd = os.open(path, os.O_RDONLY)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return True
            except OSError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.02)
    finally:
        os.close(fd)


@server.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def status(fmt):
    """Say whether a server is running: its pid, uptime, commands served and socket. Exit 1 when none is."""
    answer = _ask(b"S")
    if answer is None:
        if fmt == "json":
            click.echo(json.dumps({"running": False, "socket": address().socket}))
        else:
            click.echo(f"staticroof: no server is running ({address().socket})")
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps({"running": True, **answer}, indent=1))
        return
    click.echo(f"pid       {answer['pid']}\nuptime    {answer['uptime_s']:.0f} s\n"
               f"served    {answer['served']:,} command{'' if answer['served'] == 1 else 's'}"
               f" ({answer['commands_running']} running)\nidle exit {answer['idle_s']:g} s\n"
               f"socket    {answer['socket']}\nlog       {answer['log']}")
