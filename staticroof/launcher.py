"""The `staticroof` command (and `python -m staticroof`): the command runs in the start-up server
when one of this installation and user is listening (`staticroof server start`), else here, by
staticroof.cli, exactly as without a server.

Standard library only until it has decided: importing click or the CLI here would cost the
server's commands the start-up the server saves.  `STATICROOF_SERVER=0` never uses a server;
`STATICROOF_SERVER=auto` also starts one in the background when a command finds none, for the
next command (pre-commit hooks).
"""

from __future__ import annotations

import os
import sys


def main():
    try:
        _main()
    except KeyboardInterrupt:  # Ctrl-C before click runs (imports, waiting for the server's answer)
        sys.stderr.write("\nAborted!\n")  # what click prints for Ctrl-C during a command
        sys.exit(1)


def _main():
    try:
        from .server import client

        outcome = client.run(sys.argv, getattr(sys.modules.get("__main__"), "__package__", None))
    except Exception as e:  # a bug in the client must not cost the command: it runs here
        outcome = f"failed: {type(e).__name__}: {e}"
    if isinstance(outcome, int):
        sys.exit(outcome)
    observed = _observed()
    if not observed:
        from .crashes import watch

        # returns in a fork that a crash cannot end
        watch(next((a for a in sys.argv[1:] if not a.startswith("-")), None))
    from .cli import main as cli_main

    try:
        cli_main()  # click's standalone mode ends every command with SystemExit
    except SystemExit as end:
        status = end.code
    else:
        status = 0
    finally:
        if outcome in ("no server", "declined: stale") and os.environ.get("STATICROOF_SERVER") == "auto":
            _start_in_background()
    if observed:
        sys.exit(status)
    _leave(status)


def _observed() -> bool:
    """Is a profiler or tracer (`python -m cProfile -m staticroof`, coverage, a debugger) watching?
    It reports once the command has returned to it, in this process: then the command runs here,
    not in a crash-isolating fork, and ends by Python's ordinary exit, not by _leave's."""
    return sys.getprofile() is not None or sys.gettrace() is not None


def _leave(status) -> None:
    """End the process without the interpreter's teardown, which frees every module's objects one by
    one: about 0.2 s of a small command's ~1 s once sympy is imported, for nothing, since the process
    ends.  What that teardown would do that matters has been done first: the atexit functions
    (temporary folders, weakref finalizers, logging), and the standard streams flushed.  Anything
    unusual (a message as the status, another thread still running, a stream that cannot be
    flushed) takes Python's ordinary exit, which handles it as it always has."""
    import threading

    if not (status is None or isinstance(status, int)) or threading.active_count() > 1:
        sys.exit(status)
    import atexit

    atexit._run_exitfuncs()  # runs each once and clears them, so an ordinary exit after it repeats none
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:  # e.g. BrokenPipeError: Python's exit reports it as it would have
        sys.exit(status)
    os._exit(status or 0)


def _start_in_background() -> None:
    """A server for the next command; this one does not wait for it (nor fails for it)."""
    try:
        from .server.spawn import DEFAULT_IDLE, start

        start(DEFAULT_IDLE, wait=False)
    except Exception:  # the command has ended; only the next one's time is at stake
        pass
