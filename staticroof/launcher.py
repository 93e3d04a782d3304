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
    from .cli import main as cli_main

    try:
        cli_main()
    finally:
        if outcome in ("no server", "declined: stale") and os.environ.get("STATICROOF_SERVER") == "auto":
            _start_in_background()


def _start_in_background() -> None:
    """A server for the next command; this one does not wait for it (nor fails for it)."""
    try:
        from .server.spawn import DEFAULT_IDLE, start

        start(DEFAULT_IDLE, wait=False)
    except Exception:  # the command has ended; only the next one's time is at stake
        pass
