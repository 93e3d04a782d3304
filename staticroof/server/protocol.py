"""The messages between a command (the client) and the server: one JSON object per line.

On each connection the server first sends one byte, GREETING, and a client sends nothing before it.
A request: one byte `R` sent with the client's descriptors (stdin, stdout, stderr and its working
folder, `socket.send_fds`), then the header line (request()).  The server answers
`{"pid": N}` (the process running the command: the client forwards its signals there) or
`{"decline": WHY}` (the client runs the command itself), then `{"exit": CODE}` or
`{"signal": N}` when that process ends.  `{"op": "status"}` and `{"op": "stop"}` are the
`server` command's.

Standard library only (the launcher's side).
"""

from __future__ import annotations

import json
import os
import socket
import sys

from .address import identity

MAX_LINE = 1 << 24  # a header carries the environment: far below this
GREETING = b"+"  # the server's first byte on each connection it has accepted


def await_greeting(sock: socket.socket, seconds: float) -> None:
    """Wait for the server's greeting before sending anything: a client's descriptors sent to a
    stopped server would sit in its socket, holding the client's pipes open after it has gone (its
    caller would never see their end).  Timeout, or Closed when something else comes."""
    sock.settimeout(seconds)
    try:
        first = sock.recv(1)
    except TimeoutError:
        raise Timeout(f"no greeting within {seconds:g} s") from None
    finally:
        sock.settimeout(None)
    if first != GREETING:
        raise Closed("no greeting")


class Closed(Exception):
    """The other side closed the connection before a whole message."""


class Timeout(Closed):
    """No whole message within the time given."""


class Reader:
    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = b""

    def message(self, seconds: float | None = None) -> dict:
        """The next message; with `seconds`, the whole of it within that time (a peer that sends a
        byte now and then cannot hold the other side for ever): Closed otherwise."""
        import time

        deadline = None if seconds is None else time.monotonic() + seconds
        before = self.sock.gettimeout()
        try:
            while b"\n" not in self.buf:
                if len(self.buf) > MAX_LINE:
                    raise Closed("message too long")
                if deadline is not None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise Timeout(f"no whole message within {seconds:g} s")
                    self.sock.settimeout(left)
                try:
                    chunk = self.sock.recv(65536)
                except TimeoutError:
                    raise Timeout(f"no whole message within {seconds:g} s") from None
                if not chunk:
                    raise Closed("connection closed")
                self.buf += chunk
        finally:
            if deadline is not None:
                self.sock.settimeout(before)
        line, _, self.buf = self.buf.partition(b"\n")
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):  # a nesting past the parser's depth is no message either
            raise Closed("not a message") from None
        if not isinstance(value, dict):
            raise Closed("not a message")
        return value


def send(sock: socket.socket, message: dict) -> None:
    sock.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")


def _stream(s, fd: int) -> dict:
    """How the interpreter built standard stream `s` over `fd`; ValueError when it is something else
    (None, or replaced by a program that embeds the CLI): a copy of the server could not be it."""
    import io

    if not isinstance(s, io.TextIOWrapper) or s.fileno() != fd:
        raise ValueError(f"standard stream {fd} is not the interpreter's")
    return {"encoding": s.encoding, "errors": s.errors, "line_buffering": s.line_buffering,
            "write_through": s.write_through}


def fingerprint() -> dict:
    """What the interpreter fixed at its start and a forked copy of the server cannot change: a
    request whose fingerprint is not the server's is declined (and runs in its own process)."""
    try:
        import _locale

        encoding = _locale.getencoding()
    except (ImportError, AttributeError):  # pragma: no cover (3.11 has it)
        encoding = None
    f = sys.flags
    return {"flags": [f.optimize, f.bytes_warning, f.dev_mode, f.utf8_mode, f.warn_default_encoding,
                      f.int_max_str_digits, f.no_user_site, f.ignore_environment, f.isolated],
            "warnoptions": sys.warnoptions, "fs": [sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()],
            "locale": encoding, "prefix": sys.prefix, "path": sys.path[1:] if not f.safe_path else sys.path,
            "ids": [os.getuid(), os.getgid(), sorted(os.getgroups())],
            "sympy": sorted((k, v) for k, v in os.environ.items() if k.startswith("SYMPY_"))}


def request(argv: list, main_package: str | None) -> dict:
    """The header of a request from this process: what its command would run with."""
    import resource

    limits = {name: list(resource.getrlimit(getattr(resource, name))) for name in LIMITS
              if hasattr(resource, name)}
    umask = os.umask(0)
    os.umask(umask)
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = None
    streams = [_stream(s, fd) for fd, s in enumerate((sys.stdin, sys.stdout, sys.stderr))]
    return {"op": "run", "identity": identity(), "argv": argv, "main_package": main_package,
            "env": dict(os.environ), "umask": umask, "cpus": cpus,
            "nice": os.getpriority(os.PRIO_PROCESS, 0), "limits": limits, "streams": streams,
            "fingerprint": fingerprint()}


LIMITS = ("RLIMIT_AS", "RLIMIT_DATA", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_NOFILE", "RLIMIT_STACK", "RLIMIT_CORE",
          "RLIMIT_NPROC", "RLIMIT_MEMLOCK")
