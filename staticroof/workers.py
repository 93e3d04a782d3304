"""Files analyzed side by side: a pool of forked worker processes, one file at a time each, with the
results in the order of the files, so a parallel run prints byte for byte what a serial one does.

Forked (not spawned) after the caller has imported the analysis: a worker starts in milliseconds
with sympy, isl and the grammars already loaded.  isl keeps no threads and no process-wide state
that a copy could corrupt, and each worker only ever uses its own copy.  The cache and the output
stay in the parent: a worker analyzes and sends its result back (pickled, between processes of
the same program), nothing else.

A worker that dies (killed, out of memory, a crash in C code) costs only the file it held: that
file gets `lost(item, why)` from the caller (an SR099 diagnostic) and a fresh worker takes the
next file.  Ctrl-C and SIGTERM stop the workers (each runs its `finally` blocks: temporary folders,
preprocessor processes) and reach the caller as in a serial run.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence

_STOP = None


def default_jobs() -> int:
    """The cores this process may run on (its affinity mask, not the machine's count)."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return max(1, count() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs_option(f):
    """`-j/--jobs N` of the commands that analyze many files."""
    import click

    return click.option("-j", "--jobs", "jobs", type=click.IntRange(min=1), default=None, metavar="N",
                        help="Analyze files on N processes (default: the configuration's `jobs`, else every core "
                             "this process may use; 1: one file after another in this process). The output is "
                             "the same either way.")(f)


def can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def run_all(work: Callable, items: Sequence, jobs: int | None, lost: Callable, pack: Callable | None = None,
            unpack: Callable | None = None, warm: Callable | None = None) -> list:
    """[work(item) for item in items], on up to `jobs` worker processes (None: `default_jobs()`).
    In this process when one worker would do (one item, `jobs` 1, no fork on this platform).
    `lost(item, why)` stands for the result of an item whose worker died or whose result could not
    be sent back.  A worker sends `pack(result)` (plain data where a result holds what pickle
    cannot carry), which `unpack(item, data)` turns back into the result here.  `warm(items)` runs
    here before the workers are forked, so that what it loads is loaded once for all of them."""
    jobs = default_jobs() if jobs is None else jobs
    if jobs <= 1 or len(items) <= 1 or not can_fork():
        return [work(item) for item in items]
    if warm is not None:
        warm(items)
    send = work if pack is None else (lambda item: pack(work(item)))
    results = _Pool(send, min(jobs, len(items))).run(items, lost)
    return [r.value if isinstance(r, _Lost) else unpack(item, r) if unpack is not None else r
            for item, r in zip(items, results, strict=True)]


class _Lost:
    """The result `lost` made for an item (not unpacked)."""

    def __init__(self, value):
        self.value = value


class _Worker:
    def __init__(self, ctx, work):
        from . import crashes

        self.conn, child = ctx.Pipe()
        self.slot = crashes.new_slot()  # where it is: which kernel of which file (staticroof/crashes.py)
        self.process = ctx.Process(target=_serve, args=(work, child, self.conn, self.slot, os.getpid()), daemon=True)
        self.process.start()
        child.close()
        self.task: int | None = None  # the index of the item it holds


class _Pool:
    def __init__(self, work, size: int):
        import multiprocessing

        self.ctx = multiprocessing.get_context("fork")
        self.work = work
        self.size = size
        self.workers: list[_Worker] = []

    def run(self, items: Sequence, lost: Callable) -> list:
        from multiprocessing.connection import wait

        results: list = [None] * len(items)
        done = [False] * len(items)
        pending = list(range(len(items)))[::-1]  # popped from the end: in order
        try:
            self.workers = [_Worker(self.ctx, self.work) for _ in range(self.size)]
            for w in self.workers:
                self._give(w, items, pending)
            while not all(done):
                busy = [w for w in self.workers if w.task is not None]
                ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
                for w in busy:
                    if w.conn in ready or w.process.sentinel in ready:
                        self._collect(w, items, results, done, lost, pending)
                        if w.task is None and pending:
                            if not w.process.is_alive():
                                self.workers[self.workers.index(w)] = w = _Worker(self.ctx, self.work)
                            self._give(w, items, pending)
            return results
        finally:
            self._stop()

    def _give(self, w: _Worker, items: Sequence, pending: list) -> None:
        from . import crashes

        if not pending:
            return
        w.task = pending.pop()
        try:
            w.conn.send((w.task, items[w.task], crashes.crashed_kernels))
        except OSError:  # it died since it last answered: a fresh one takes the item
            fresh = _Worker(self.ctx, self.work)
            fresh.task = w.task
            self.workers[self.workers.index(w)] = fresh
            w.process.kill()
            w.process.join()
            w.conn.close()
            fresh.conn.send((fresh.task, items[fresh.task], crashes.crashed_kernels))

    @staticmethod
    def _collect(w: _Worker, items, results: list, done: list, lost: Callable, pending: list) -> None:
        from . import crashes
        from .diagnostics import add_aliases

        index = w.task
        assert index is not None
        try:
            if not w.conn.poll():
                raise EOFError
            got, (ok, value) = w.conn.recv()
        except (EOFError, OSError):  # it died holding the item: the item is lost, not the run
            w.process.join(5)
            code = w.process.exitcode
            w.task = None
            w.conn.close()
            if code is not None and code < 0 and crashes.record(w.slot, -code):
                pending.append(index)  # a crash inside a kernel: the item again, without that kernel
                return
            results[index] = _Lost(lost(items[index], _death(code)))
            done[index] = True
            return
        assert got == index
        if ok:
            value, made = value
            add_aliases(made)  # names the worker had to alias in `#line` (diagnostics.line_name)
        results[index] = value if ok else _Lost(lost(items[index], value))
        done[index] = True
        w.task = None

    def _stop(self) -> None:
        """Every worker stopped: told to stop when idle, terminated otherwise (Ctrl-C, an error)."""
        for w in self.workers:
            try:
                if w.task is None and w.process.is_alive():
                    w.conn.send(_STOP)
                else:
                    w.process.terminate()
            except (OSError, ValueError):
                w.process.terminate()
        for w in self.workers:
            # a worker inside native code cannot run its SIGTERM handler: killed after a short wait,
            # well inside the watcher's grace period (crashes.GRACE_SECONDS)
            w.process.join(2)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
            w.conn.close()


def _death(code) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the worker process analyzing this file was killed by {name}"
    return f"the worker process analyzing this file exited with status {code}"


def _serve(work, conn, parent_end, slot, parent: int) -> None:
    """A worker: items in, (index, (ok, (result, file aliases) or why)) out, until told to stop.
    With each item comes what earlier attempts crashed in (crashes.crashed), and the worker writes
    where it is into `slot`, which the pool reads if it dies."""
    from . import crashes
    from .diagnostics import aliases

    crashes.slot_page = slot
    parent_end.close()
    crashes.die_with_parent(parent)  # a parent killed (its watcher's last resort) leaves no worker spinning in C
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent, which stops the workers
    # stopped with SIGTERM (or SIGHUP, SIGQUIT to the whole group): exit through Python, so `finally`
    # blocks remove temporary folders and kill the preprocessor
    for number in crashes.ENDING:
        signal.signal(number, crashes.exit_on_signal)
    while True:
        try:
            message = conn.recv()
        except EOFError:  # the parent is gone
            break
        if message is _STOP:
            break
        index, item, crashes.crashed_kernels = message
        reply: tuple
        try:
            reply = (index, (True, (work(item), aliases())))
        except Exception as e:  # `work` keeps its own failures; anything else costs only this item
            reply = (index, (False, f"{type(e).__name__}: {e}"))
        try:
            conn.send(reply)
        except Exception as e:  # a result that cannot be pickled
            conn.send((index, (False, f"the result could not be sent back: {type(e).__name__}: {e}")))
    conn.close()
    sys.stdout.flush()
