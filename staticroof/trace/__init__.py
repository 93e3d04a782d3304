"""Ground truth by execution: run a kernel at small concrete sizes and count what it really did.

An *executor* runs one kernel of one file at given sizes and returns :class:`Trace` counts; each
language registers its own (C and CUDA run instrumented C through the system compiler; a Python
front end can add one without touching them).  :func:`compare` puts the static prediction beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


class TraceError(Exception):
    """The kernel could not be run (no C compiler, a compile error, a crash): a clear message."""


@dataclass
class ArrayTrace:
    name: str
    elem_bytes: int
    first_read: int  # distinct elements whose first access was a read
    written: int  # distinct elements written
    loads: int  # dynamic loads (register rule applied)
    stores: int
    reached: tuple | None = None  # (lowest, highest) element index touched, relative to the pointer


@dataclass
class Trace:
    flops: dict = field(default_factory=dict)  # precision -> executed FLOPs (specials weighted in)
    special: dict = field(default_factory=dict)  # function -> calls
    arrays: dict = field(default_factory=dict)  # name -> ArrayTrace
    lru_bytes: int | None = None  # bytes an LRU cache moved in program order (when one was asked for)


EXECUTORS: dict = {}


def executor(language: str):
    """Register an executor class for a language (`run(path, kernel, sizes, defines, include_dirs)`)."""
    def deco(cls):
        EXECUTORS[language] = cls
        return cls
    return deco


def run(path: str, kernel: str, sizes: dict, language: str, defines=None, include_dirs=(), weights=None,
        launch=None) -> Trace:
    from importlib import import_module

    from ..frontends import FRONTENDS

    frontend = FRONTENDS.get(language)
    if frontend is not None and frontend.executor and language not in EXECUTORS:
        import_module(frontend.executor)  # it registers its executor
    if language not in EXECUTORS:
        raise TraceError(f"no executor for {language} kernels")
    try:
        return EXECUTORS[language]().run(path, kernel, sizes, defines or {}, include_dirs, weights or {}, launch)
    except TraceError:
        raise
    except Exception as e:  # never a traceback: say what failed
        raise TraceError(f"the trace failed ({type(e).__name__}: {e})") from e


@dataclass
class Row:
    quantity: str
    static: int | Fraction | None  # None: the analysis has no number at these sizes
    traced: int | Fraction

    @property
    def ok(self) -> bool:
        return self.static is not None and Fraction(self.static) == Fraction(self.traced)


def compare(summary, trace: Trace) -> list[Row]:
    """Static numbers at the traced sizes beside the traced ones (bytes for traffic)."""
    t = summary.total
    rows = [Row("W", t.flops.value, sum(trace.flops.values()))]
    for p in sorted(set(t.by_precision) | {k for k, v in trace.flops.items() if v}):
        rows.append(Row(f"W {p}", t.by_precision[p].value if p in t.by_precision else 0, trace.flops.get(p, 0)))
    calls = {n: q.value for n, q in t.special_by_name.items()}
    for n in sorted(set(calls) | set(trace.special)):
        rows.append(Row(f"special {n}", calls.get(n, 0), trace.special.get(n, 0)))
    for name in sorted(set(t.arrays) | set(trace.arrays)):
        a = t.arrays.get(name)
        tr = trace.arrays.get(name)
        b = tr.elem_bytes if tr else 0
        rows.append(Row(f"{name} read", a.read.value if a else 0, tr.first_read * b if tr else 0))
        rows.append(Row(f"{name} write", a.write.value if a else 0, tr.written * b if tr else 0))
        rows.append(Row(f"{name} loads", a.access_read.value if a else 0, tr.loads * b if tr else 0))
        rows.append(Row(f"{name} stores", a.access_write.value if a else 0, tr.stores * b if tr else 0))
    rows.append(Row("Q compulsory", t.compulsory.value,
                    sum((a.first_read + a.written) * a.elem_bytes for a in trace.arrays.values())))
    rows.append(Row("Q access", t.access.value,
                    sum((a.loads + a.stores) * a.elem_bytes for a in trace.arrays.values())))
    return rows
