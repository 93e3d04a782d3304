"""A forked copy of the warmed server becomes the client's command: its descriptors, working
folder, environment, umask, CPU affinity, priority and resource limits; its standard streams
rebuilt as the interpreter builds them at start (so `isatty`, colour and the terminal's width are
the client's); `sys.argv` and the program name click prints.  Then the CLI runs as in the
client's own process and its exit status is this process's."""

from __future__ import annotations

import io
import os
import signal
import sys
import types
from typing import Any

# the signals the server handles for itself, back to what a fresh interpreter has
_DEFAULTS = (("SIGINT", signal.default_int_handler), ("SIGTERM", signal.SIG_DFL), ("SIGHUP", signal.SIG_DFL),
             ("SIGCHLD", signal.SIG_DFL), ("SIGPIPE", signal.SIG_IGN), ("SIGPROF", signal.SIG_DFL))


def reset_signals() -> None:
    signal.set_wakeup_fd(-1)
    for name, handler in _DEFAULTS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), handler)


def become(header: dict, fds: list) -> None:
    """This process as the client's (raises OSError, ValueError or KeyError when it cannot be)."""
    import resource

    for limit, (soft, hard) in header["limits"].items():
        if hasattr(resource, limit):
            resource.setrlimit(getattr(resource, limit), (soft, hard))
    if header.get("cpus") is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, header["cpus"])
    nice = header["nice"] - os.getpriority(os.PRIO_PROCESS, 0)
    if nice:
        os.setpriority(os.PRIO_PROCESS, 0, header["nice"])
    os.fchdir(fds[3])
    os.umask(header["umask"])
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target, inheritable=True)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.environ.clear()
    os.environ.update(header["env"])
    import tempfile
    import time

    tempfile.tempdir = None  # chosen again from this environment's TMPDIR
    time.tzset()
    names = ("<stdin>", "<stdout>", "<stderr>")
    streams = [_stream(fd, names[fd], spec) for fd, spec in enumerate(header["streams"])]
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams  # type: ignore[misc]
    sys.argv = list(header["argv"])
    main = types.ModuleType("__main__")  # click names the program from it: `staticroof` or `python -m staticroof`
    main.__package__ = header.get("main_package")
    sys.modules["__main__"] = main


def _stream(fd: int, name: str, spec: dict):
    """A standard stream as CPython's create_stdio makes it."""
    write = fd > 0
    buffering = 0 if write and spec["write_through"] else -1
    buf: Any = open(fd, "wb" if write else "rb", buffering, closefd=False)
    raw = buf if buffering == 0 else buf.raw
    raw.name = name  # what the interpreter's streams show: <_io.TextIOWrapper name='<stdout>' ...>
    text = io.TextIOWrapper(buf, spec["encoding"], spec["errors"], "\n", spec["line_buffering"],
                            spec["write_through"])
    text.mode = "w" if write else "r"  # type: ignore[misc]
    return text


def run_command() -> int:
    """The CLI's exit status, as the interpreter would make it, with its streams flushed."""
    import atexit
    import traceback

    code: int
    try:
        from ..cli import main

        main()
        code = 0
    except SystemExit as e:
        code = _exit_code(e.code)
    except BaseException:  # what the interpreter prints for an exception no one caught
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
    except BaseException:  # the handlers print their own errors
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception as e:  # `| head`: what the interpreter says when its last flush fails
            if stream is sys.stdout:
                _ignored(stream, e)
                code = 120
    return code


def _exit_code(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF  # what the system keeps of it: sys.exit(-1) is 255
    try:
        sys.stderr.write(f"{value}\n")
    except Exception:
        pass
    return 1


def _ignored(stream, e: Exception) -> None:
    import traceback

    try:
        sys.stderr.write(f"Exception ignored in: {stream!r}\n" + "".join(traceback.format_exception_only(e)))
        sys.stderr.flush()
    except Exception:
        pass
