"""Crash isolation: a native crash (isl or barvinok dereferencing NULL, an abort, the out-of-memory
killer) costs only the kernel it happened in, never the other kernels nor the other files.

A crash in C code cannot be caught in the process it happens in, so the process that analyzes is
one that may die.  Its position is kept in a page of memory shared with the process that waits for
it: `begin(file, index, name)` before each kernel (index -1: loading the file), `end()` after, a
few bytes written, no system call.  When it dies of one of `CRASHES` inside a kernel, the waiting
process records that kernel in `crashed_kernels` and runs the work again in a fresh process, which reports
that kernel as SR127 instead of analyzing it (`crashed`): the other kernels are analyzed as if the
crash had never happened, so they print exactly what a run without it prints.

Who waits:

- a serial run (`-j 1`, or one file): `watch()`, in the launcher before the CLI is imported, forks
  the command and waits.  The fork of that small process (12 MB) costs about a millisecond; a
  fork after the analysis is loaded would cost each page the analysis later writes a copy (saxpy.c
  in such a fork: 50-64 ms of CPU against 16 ms in process).  On a crash
  the command runs again from the start in a new fork, with the kernel recorded: the commands it
  guards (`GUARDED`) print only once their analysis is done, so the crashed attempt has printed
  nothing;
- a parallel run: the pool of staticroof/workers.py, whose workers each have a slot of their own;
  the file a worker held goes to a fresh worker with the kernel recorded.

Without fork (Windows), or with STATICROOF_ISOLATE=0, a crash ends the run as before.  The
stdlib only: this module is imported before anything else is.
"""

from __future__ import annotations

import os
import signal
import sys

# Deaths that are a crash of the analysis, not a request to stop: the segmentation fault, abort,
# bus error, arithmetic and illegal-instruction signals of native code, and SIGKILL, the
# out-of-memory killer's (a user stopping a run signals the command, which is not its analysis).
CRASHES = frozenset(getattr(signal, name) for name in ("SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL",
                                                       "SIGKILL", "SIGXCPU") if hasattr(signal, name))
# SIGXCPU: the CPU limit `cpu_limit` sets for one kernel, past which the analysis is stuck in native
# code (a barvinok count) that the time budget's Python-level signal cannot interrupt
GUARDED = frozenset({"analyze", "lint", "diff", "baseline", "plot"})
_SLOT_BYTES = 1 << 16
_MAX_RERUNS = 64  # a run that crashes more often than this gives up (it would never end)

slot_page = None  # the shared page this process writes its position into (None: nobody watches)
# The signals that end a command and that it cleans up after (temporary folders removed, the
# preprocessor's process group killed, exit status 128 + the signal): a CI job's timeout (SIGTERM),
# a closed terminal or ssh session (SIGHUP), Ctrl-\\ (SIGQUIT).  Ctrl-C (SIGINT) is click's Abort.
ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))



def exit_on_signal(signum, frame) -> None:
    """The handler of ENDING's signals: exit through Python (every `finally` runs) with status
    128 + signum.  A second one (a terminal's SIGHUP reaches the whole group, and the watcher passes
    it on too) is ignored: it must not interrupt the clean-up the first one started."""
    for number in ENDING:
        signal.signal(number, signal.SIG_IGN)
    sys.exit(128 + signum)


crashed_kernels: dict = {}  # {(file key, kernel index or -1): signal name}: what a previous attempt crashed in


def new_slot():
    import mmap

    return mmap.mmap(-1, _SLOT_BYTES)  # anonymous and shared: a fork writes, its parent reads


def file_key(path) -> str:
    """What names a file across attempts: a digest of its bytes (diff analyzes copies in a fresh
    temporary folder each time), its name when it cannot be read; '' when nobody watches.  Two
    files of one run with the same bytes are one file here: a kernel that crashed in one is SR127
    in both (their analyses differ only if they include different headers)."""
    if slot_page is None and not crashed_kernels:
        return ""
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha1(f.read()).hexdigest()
    except (OSError, TypeError, ValueError):
        return str(path)


def begin(key: str, index: int, name: str) -> None:
    """This process now analyzes kernel `index` (`name`) of the file `key` names (-1: loads the file,
    `name` its file name)."""
    test = os.environ.get("STATICROOF_TEST_CRASH")
    if slot_page is not None:
        data = f"{index}\0{name}\0{key}".encode("utf-8", "surrogateescape")[:_SLOT_BYTES - 4]
        slot_page[4:4 + len(data)] = data
        slot_page[0:4] = len(data).to_bytes(4, "little")
    if test:
        _test_crash(test, name)


def end() -> None:
    if slot_page is not None:
        slot_page[0:4] = b"\0\0\0\0"


def crashed(key: str, index: int) -> str | None:
    """The signal an earlier attempt died of in this kernel (index -1: the file's loading), if any."""
    return crashed_kernels.get((key, index)) if crashed_kernels else None


def where(slot) -> tuple | None:
    """(file key, index, name) the process writing `slot` was in when it died, or None: between kernels."""
    n = int.from_bytes(slot[0:4], "little")
    if not n:
        return None
    index, name, key = bytes(slot[4:4 + n]).decode("utf-8", "surrogateescape").split("\0", 2)
    return key, int(index), name


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def record(slot, signum: int | None) -> bool:
    """After a death by `signum`: record the kernel it happened in, so that the next attempt skips
    it.  False when the death is not such a crash (another signal, between kernels, again in a
    kernel already recorded, too many): then it ends the run, as without isolation."""
    if signum is None or signum not in CRASHES or len(crashed_kernels) >= _MAX_RERUNS:
        return False
    at = where(slot)
    if at is None or (at[0], at[1]) in crashed_kernels:
        return False
    crashed_kernels[(at[0], at[1])] = signal_name(signum)
    return True


def out_of_time(signum_name: str) -> bool:
    """Whether a recorded death is the CPU limit of `cpu_limit` (SR126), not a crash (SR127)."""
    return signum_name == "SIGXCPU"


def message(name: str, signum_name: str) -> str:
    """SR127's text for a kernel (`name`, '' for a file's loading); SR126's for the CPU limit."""
    if out_of_time(signum_name):
        what = f"`{name}`: not counted" if name else "the file was not loaded"
        return (f"{what}: it ran past its time budget inside native code (isl or barvinok), where the budget "
                "cannot stop it, and its process was ended; the other kernels and files were analyzed in a fresh "
                "process. Give the sizes it lacks with -D, or raise --time-budget (0: no budget, no limit)")
    what = f"`{name}`: the process analyzing this kernel" if name else "the process loading this file"
    cause = ("the system's out-of-memory killer, most likely" if signum_name == "SIGKILL"
             else "in native code: isl, barvinok or another extension")
    lost = "its result is missing" if name else "its kernels' results are missing"
    return (f"{what} crashed ({signum_name}, {cause}); {lost}. The other kernels and files were analyzed "
            "in a fresh process and are unaffected")


def cpu_limit(seconds: float):
    """Arm a CPU limit for one kernel and return what releases it: the process is ended by SIGXCPU
    once its CPU time grows by more than `seconds` (whole seconds) from now, so a count stuck in
    native code, which Python's signal handlers cannot interrupt, costs its kernel only (recorded
    like a crash, reported as SR126).  Only where someone watches (slot_page) and RLIMIT_CPU exists;
    no core is written.  `release()` restores the limit that was in force."""
    if slot_page is None or not seconds or seconds <= 0:
        return lambda: None
    try:
        import math
        import resource

        used = resource.getrusage(resource.RUSAGE_SELF)
        previous = resource.getrlimit(resource.RLIMIT_CPU)
        soft = math.ceil(used.ru_utime + used.ru_stime + seconds) + 1
        if previous[1] != resource.RLIM_INFINITY and soft >= previous[1]:
            return lambda: None
        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
        resource.setrlimit(resource.RLIMIT_CPU, (soft, previous[1]))
    except (ImportError, ValueError, OSError):
        return lambda: None

    def release() -> None:
        try:
            resource.setrlimit(resource.RLIMIT_CPU, previous)
        except (ValueError, OSError):
            pass

    return release


def die_with_parent(parent: int) -> None:
    """Linux: this process is killed (SIGKILL) when its parent (pid `parent`) dies, however it dies;
    elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the request: nobody is left to wait for
            os._exit(1)
    except (OSError, AttributeError):
        pass


def watch(command: str | None) -> None:
    """Fork the command (the launcher, before importing the CLI) and wait for it: the fork returns
    here and runs it; this process never returns, it exits as the command did.  A crash inside a
    kernel runs the command again without that kernel (see the module's docstring).  Nothing
    happens without fork, with STATICROOF_ISOLATE=0, or for a command that is not `GUARDED`."""
    global slot_page
    if command not in GUARDED or not hasattr(os, "fork") or os.environ.get("STATICROOF_ISOLATE") == "0":
        return
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        slot = new_slot()
        watcher = os.getpid()
        pid = os.fork()
        if pid == 0:
            slot_page = slot
            die_with_parent(watcher)
            return
        status, ended = _wait(pid)
        if ended is not None:  # asked to stop (a CI job's timeout): no second attempt, whatever the death
            os._exit(128 + ended)
        if os.WIFEXITED(status):
            os._exit(os.WEXITSTATUS(status))
        signum = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        if not record(slot, signum):
            _die_as(signum)
        slot.close()


GRACE_SECONDS = 5.0  # after passing on a stop signal: the command's time to clean up before SIGKILL


def _wait(pid: int) -> tuple:
    """(the command's status, the ENDING signal this process was sent or None).  Ctrl-C reaches it
    from the terminal (its whole group): ignored here; a SIGTERM, SIGHUP or SIGQUIT (ENDING) sent to
    this process is passed on to it, and if it has not ended GRACE_SECONDS later (its Python handler
    cannot run while it is inside native code, a long barvinok count), it is killed."""
    import time

    ended: list = []

    class Stop(Exception):
        """Breaks the blocking waitpid (which PEP 475 would otherwise retry) to start the grace period."""

    def on_end(signum, frame) -> None:
        first = not ended
        if first:
            ended.append((signum, time.monotonic()))
        _pass_on(pid, signum)
        if first:
            raise Stop

    forward = {s: signal.signal(s, on_end) for s in ENDING}
    sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while True:
            try:  # the first stop signal raises Stop wherever in here it lands
                got, status = os.waitpid(pid, os.WNOHANG if ended else 0)
                if got == pid and not os.WIFSTOPPED(status):
                    return status, ended[0][0] if ended else None
                if ended:
                    if time.monotonic() - ended[0][1] > GRACE_SECONDS:
                        _pass_on(pid, signal.SIGKILL)
                    time.sleep(0.05)
            except Stop:
                continue
    finally:
        signal.signal(signal.SIGINT, sigint)
        for s, previous in forward.items():
            signal.signal(s, previous)


def _pass_on(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except OSError:
        pass


def _die_as(signum: int | None) -> None:
    """End as the command did: killed by the same signal (a shell then prints what it would)."""
    if signum is None:
        os._exit(1)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    os._exit(128 + signum)


def _test_crash(test: str, name: str) -> None:
    """STATICROOF_TEST_CRASH=NAME[:SIGNAL], for the tests only: the process kills itself with
    SIGNAL (default SIGSEGV) when the kernel NAME begins (or the loading of the file NAME,
    `stencils.c`), as a crash in native code would; NAME:STUCK spins in native code instead."""
    kernel, _, sig = test.partition(":")
    if kernel == name and sig == "STUCK":  # a native loop no Python handler can interrupt
        sum(range(10 ** 15))
    elif kernel == name:
        os.kill(os.getpid(), getattr(signal, sig or "SIGSEGV"))
