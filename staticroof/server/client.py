"""The launcher's side: send this command to the server and wait for its exit status.

Until the server has said which process runs the command, any failure (no server, a refused
connection, a decline) leaves the command to run here, and nothing has been printed.  After that
the command is the server's: Ctrl-C, SIGTERM, SIGHUP and SIGQUIT are passed on (Ctrl-C to its whole
process group, as a terminal sends it to every process of the foreground group), Ctrl-Z stops it
with this process, and its exit status becomes this one's.

Standard library only.
"""

from __future__ import annotations

import os
import signal
import socket
import sys

from . import protocol
from .address import Unsafe, address, check

FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")


def command_of(argv: list) -> str | None:
    """The subcommand: the first argument that is not an option (`--version` and `--help` have none)."""
    return next((a for a in argv[1:] if not a.startswith("-")), None)


def run(argv: list, main_package: str | None) -> int | str:
    """The command's exit status when the server ran it; else why not (it then runs here)."""
    if os.environ.get("STATICROOF_SERVER") == "0":
        return "off"
    if command_of(argv) == "server":
        return "a server command"
    if not hasattr(socket, "AF_UNIX") or not hasattr(socket, "send_fds") or not hasattr(os, "fork"):
        return "unsupported"
    try:
        where = address()
        check(where.folder)
    except Unsafe:
        return "unsafe folder"
    except OSError:
        return "no folder"
    sock = connect(where)
    if sock is None:
        return "no server"
    with sock:
        return _request(sock, argv, main_package)


def connect(where, timeout: float = 5.0) -> socket.socket | None:
    """A connection to the server, or None; a socket no server listens on is removed."""
    try:
        before = os.stat(where.socket)
    except OSError:
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(where.socket)
    except ConnectionRefusedError:
        sock.close()
        remove_stale(where, before.st_ino)
        return None
    except OSError:
        sock.close()
        return None
    sock.settimeout(None)
    return sock


def remove_stale(where, inode: int) -> None:
    """Remove the socket when no server holds the lock (a live server holds it all its life)."""
    import fcntl

    try:
        fd = os.open(where.lock, os.O_RDWR)
    except OSError:
        fd = None
    try:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.stat(where.socket).st_ino == inode:
            os.unlink(where.socket)
    except OSError:  # a server holds the lock (it is starting), or the socket went meanwhile
        pass
    finally:
        if fd is not None:
            os.close(fd)


class _Forwarder:
    """Signal handlers that pass signals on to the command's process once it is known."""

    def __init__(self):
        self.pid: int | None = None
        self.sent: set = set()
        self.previous: dict = {}
        for name in (*FORWARDED, "SIGTSTP"):
            number = getattr(signal, name, None)
            if number is not None:
                self.previous[number] = signal.signal(number, self.handle)

    def handle(self, signum, frame) -> None:
        if self.pid is None and signum == signal.SIGTSTP:  # stopped here alone, nothing runs yet
            self._stop_here()
            return
        if self.pid is None:  # nothing runs yet: the signal does here what it does to any command
            self.restore()
            os.kill(os.getpid(), signum)
            return
        try:
            if signum == signal.SIGTSTP:
                os.killpg(self.pid, signal.SIGSTOP)
                self._stop_here()
                os.killpg(self.pid, signal.SIGCONT)
            elif signum == signal.SIGINT:
                os.killpg(self.pid, signum)
            else:
                os.kill(self.pid, signum)
            self.sent.add(signum)
        except OSError:  # it has just ended: its status is on the way
            pass

    def _stop_here(self) -> None:
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stopped here until `fg`
        signal.signal(signal.SIGTSTP, self.handle)

    def restore(self) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def _request(sock: socket.socket, argv: list, main_package: str | None) -> int | str:
    try:
        cwd = os.open(".", os.O_RDONLY)
    except OSError:
        return "no working folder"
    forward = _Forwarder()
    try:
        try:
            header = protocol.request(argv, main_package)
            try:
                protocol.await_greeting(sock, FIRST_ANSWER_SECONDS)
            except protocol.Timeout:  # a stopped or frozen server: bypassed, with a note
                _say(f"the start-up server did not answer within {FIRST_ANSWER_SECONDS:g} s: running the command "
                     "here (`staticroof server status` shows it; `staticroof server stop` ends it)")
                raise
            socket.send_fds(sock, [b"R"], [0, 1, 2, cwd])
            protocol.send(sock, header)
        finally:
            os.close(cwd)
        reader = protocol.Reader(sock)
        first = reader.message(FIRST_ANSWER_SECONDS)
        pid = first.get("pid")
        if not isinstance(pid, int):
            forward.restore()
            return f"declined: {first.get('decline', first)}"
    except Exception as e:  # nothing runs yet: the command runs here, as if there were no server
        forward.restore()
        return f"failed: {type(e).__name__}: {e}"
    forward.pid = pid
    try:
        last = _last_message(reader, pid)
    except (OSError, ValueError, protocol.Closed):
        _say("the start-up server stopped before the command ended")
        try:
            os.killpg(pid, signal.SIGTERM)
        except OSError:
            pass
        return 1
    if isinstance(last.get("exit"), int):
        forward.restore()
        return last["exit"]
    number = last.get("signal")
    if not isinstance(number, int):
        _say(f"unexpected answer from the start-up server: {last}")
        return 1
    forward.restore()
    if number in forward.sent:  # what the signal would have done to this process without a server
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    _say(f"the command was killed by {name} (signal {number}) in the start-up server's process {pid}")
    return 128 + number


FIRST_ANSWER_SECONDS = 15.0  # the server's own wait for its forked process is 10 s
POLL_SECONDS = 5.0


def _last_message(reader, pid: int) -> dict:
    """The command's end as the server reports it.  The command may run for hours, so there is no
    limit while its process lives; once it has gone, the server has POLL_SECONDS more to say so (a
    frozen server would otherwise hold this process for ever): protocol.Closed then."""
    gone = 0
    while True:
        try:
            return reader.message(POLL_SECONDS)
        except protocol.Timeout:
            pass
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            gone += 1
            if gone > 1:
                raise protocol.Closed("the command ended and the server did not say how") from None
        except OSError:
            pass


def _say(text: str) -> None:
    try:
        sys.stderr.write(f"staticroof: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
