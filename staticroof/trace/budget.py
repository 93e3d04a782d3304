"""Memory a trace will need, checked before it runs.

The instrumented kernel backs every array it touches with real pages (and one state byte per
element), so `trace -D n=10000000000` would allocate until the machine kills it.  The static
analysis already knows how many distinct bytes each array's accesses reach at the given sizes
(its compulsory read and write bytes): their sum, with the state bytes, bounds what the run needs.
"""

from __future__ import annotations

import os

# Refuse when the estimate exceeds this share of the memory available now.
SHARE = 0.5


def memory_needed(summary) -> int | None:
    """Bytes of array data and per-element state the trace will touch, or None when the analysis
    has no number (an approximate kernel: no estimate, no refusal)."""
    part = summary.total
    if part is None:
        return None
    total = 0
    arrays = list(part.arrays.values()) + list(getattr(part, "shared_arrays", {}).values())
    for a in arrays:
        values = [getattr(a, f).value for f in ("read", "write") if hasattr(a, f)]
        if any(v is None for v in values):
            return None
        touched = sum(int(v) for v in values)  # distinct bytes first read + written: >= the footprint
        elem = {"fp64": 8, "int64": 8, "uint64": 8, "fp16": 2, "bf16": 2, "int16": 2, "uint16": 2,
                "int8": 1, "uint8": 1, "fp8": 1, "bool": 1}.get(getattr(a, "dtype", ""), 4)
        total += touched + touched // elem
    return total


def memory_available() -> int | None:
    """Bytes of memory available to a new process now (Linux's MemAvailable), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def refusal(summary) -> str | None:
    """Why the trace must not run at these sizes (the numbers), or None."""
    need, have = memory_needed(summary), memory_available()
    if need is None or have is None or need <= SHARE * have:
        return None
    return (f"tracing at these sizes needs about {need:,} bytes of memory and {have:,} are available: "
            "trace at smaller sizes")
