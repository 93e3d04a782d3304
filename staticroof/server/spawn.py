"""Start a server for this installation: a detached process (its own session, no terminal, its
output to NAME.log in the server folder) that runs server/daemon.py.

It runs with `-P` (no working folder on its module path: a command's folder must not decide what
the server imports); a checkout run as `python -m staticroof` without installing it is found by
putting that one folder first, which the server leaves out of its fingerprint as the client
leaves out its own first entry.  Standard library only.
"""

from __future__ import annotations

import os
import subprocess
import sys

from .address import PACKAGE_DIR, address, make

DEFAULT_IDLE = 1800.0  # seconds without a command after which a server exits

_BOOT = ("import sys\nif sys.argv[3:]:\n    sys.path.insert(0, sys.argv[3])\n"
         "from staticroof.server.daemon import main\nmain(sys.argv[1:])\n")


def start(idle: float, wait: bool = True, timeout: float = 300.0) -> str:
    """`ok PID`, `running` (a server of this installation holds the lock) or `error WHY`; without
    `wait`, `started` as soon as the process is (auto-start: the command does not wait for it)."""
    import select

    where = address()
    make(where.folder)
    parent = os.path.dirname(PACKAGE_DIR)
    inserted = [parent] if sys.path and os.path.abspath(sys.path[0] or ".") == parent else []
    r, w = os.pipe()
    try:
        fd = os.open(where.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            proc = subprocess.Popen([sys.executable, "-P", "-c", _BOOT, repr(float(idle)), str(w), *inserted],
                                    stdin=subprocess.DEVNULL, stdout=fd, stderr=fd, pass_fds=(w,), cwd="/",
                                    start_new_session=True)
        finally:
            os.close(fd)
        os.close(w)
        w = -1
        if not wait:
            return "started"
        got = b""
        while b"\n" not in got:
            ready, _, _ = select.select([r], [], [], timeout)
            if not ready:
                return f"error no answer in {timeout:g} s (see {where.log})"
            chunk = os.read(r, 4096)
            if not chunk:
                code = proc.wait(timeout=10)
                return f"error the server exited with status {code} before it was ready (see {where.log})"
            got += chunk
        return got.decode("utf-8", "replace").strip()
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
