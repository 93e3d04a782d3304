"""The per-kernel time budget: CPU seconds after which the counting of one kernel stops, so that
no kernel holds up a folder (the fallbacks that follow are in staticroof.analysis.fallback).

The clock is the process's CPU time, not the wall clock: a loaded machine (a CI runner, a
pre-commit hook next to a build) then changes no result.  How a running count is stopped:

- every counting step (an isl count, a first-access union, a formula's pieces) checks the
  deadline first: one clock read;
- in the main thread, a CPU-time timer (``setitimer(ITIMER_PROF)``) raises :class:`OverTime` at
  the first Python instruction past the deadline, and again every 50 ms while the budget is
  armed, so pure-Python work (sympy on a large formula) stops there too.

isl and barvinok hold the interpreter while they compute, so a signal's handler runs only when
the call returns: one long isl call runs to its end, or to isl's own operation budget
(STATICROOF_ISL_BUDGET), which isl checks inside.  isl is never interrupted in the middle of an
operation, so nothing it holds is left half-built; only the operation budget, which an
interrupted attempt may leave set, is reset (:func:`reset_isl`).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager

DEFAULT_SECONDS = 20.0  # several times the slowest kernel of the test corpus (about 7 s of CPU)
_REPEAT = 0.05  # seconds of CPU between two more signals once the deadline has passed


class OverTime(BaseException):
    """The kernel's time budget ran out.  A BaseException, as KeyboardInterrupt is: it may arrive
    (from SIGPROF) anywhere inside the counting, and a generic `except Exception` on its way must not
    turn it into that code's own failure (an internal error, SR099); only the budget's handlers
    (pipeline, fallback) catch it."""


def seconds(given: float | None = None) -> float:
    """The budget in force: `given` (an option or the configuration), else STATICROOF_TIME_BUDGET,
    else DEFAULT_SECONDS; 0 means no budget.  A value that is not a number is the default."""
    if given is not None:
        return max(0.0, float(given))
    text = os.environ.get("STATICROOF_TIME_BUDGET")
    if text is None:
        return DEFAULT_SECONDS
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_SECONDS
    return value if value >= 0 and value == value else DEFAULT_SECONDS


_deadline: float | None = None  # CPU time past which check() raises; None: no budget armed


def check() -> None:
    """Raise OverTime when the armed budget is spent (cheap: call it at every counting step)."""
    if _deadline is not None and time.process_time() > _deadline:
        raise OverTime()


def _on_signal(signum, frame) -> None:
    if _deadline is not None and time.process_time() > _deadline:
        raise OverTime()


@contextmanager
def limit(budget: float):
    """Arm the budget for the block (`budget` CPU seconds; 0: none).  Inside a block that has one
    armed already, the outer budget governs."""
    global _deadline
    if budget <= 0 or _deadline is not None:
        yield
        return
    _deadline = time.process_time() + budget
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer") and \
        signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None, _on_signal)
    previous = None
    if timer:
        previous = signal.signal(signal.SIGPROF, _on_signal)
        signal.setitimer(signal.ITIMER_PROF, budget + 0.001, _REPEAT)
    try:
        yield
    finally:
        _deadline = None  # a signal that lands now finds no budget and does nothing
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous if previous is not None else signal.SIG_DFL)


def reset_isl() -> None:
    """isl as a fresh attempt finds it: no operation budget left set, no abort pending."""
    import islpy as isl

    ctx = isl.DEFAULT_CONTEXT
    ctx.set_max_operations(0)
    ctx.reset_operations()
    ctx.resume()
