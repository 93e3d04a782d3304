"""What an enumeration at concrete sizes counts, and which references it counts.

The records (Counts, ArrayCount), the budget's exception (TooLarge) and the counting rule
(counted_refs) shared by the two enumerations of the self-check: the walker of the loop IR
(staticroof.analysis.interpret) and the nest written as Python code (staticroof.analysis.loopcode),
which must count alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..ir import DRAM_SPACES, Kernel, Loop, Stmt
from ..registers import held_in_register


class TooLarge(Exception):
    """The enumeration exceeded its budget of statement instances and loop iterations."""


@dataclass
class ArrayCount:
    first_read: int = 0  # distinct elements whose first access was a read
    written: int = 0  # distinct elements written
    loads: int = 0  # dynamic loads (register rule applied)
    stores: int = 0


@dataclass
class Counts:
    flops: dict = field(default_factory=dict)  # precision -> FLOPs (specials weighted in)
    special: dict = field(default_factory=dict)  # function -> calls
    arrays: dict = field(default_factory=dict)  # DRAM array -> ArrayCount
    shared: dict = field(default_factory=dict)  # on-chip array -> ArrayCount (loads and stores only)


def counted_refs(kernel: Kernel, stmt: Stmt, inner: Loop | None):
    """(reference, in DRAM?, hoisted?) of each reference of `stmt` the enumeration counts: those of
    a known array with a subscript, in DRAM or shared memory (registers and locals cost nothing).
    A DRAM reference invariant in its innermost sequential loop `inner` is hoisted: one access per
    execution of that loop (a register holds it), unless another array of the loop's body may
    alias it (registers.held_in_register); shared memory: every access.  The walker and the code
    written for a kernel (loopcode.py) count by this one rule."""
    for ref in stmt.refs:
        arr = kernel.arrays.get(ref.array)
        if arr is None:
            continue
        dram = arr.space in DRAM_SPACES
        if not dram and arr.space != "shared":
            continue
        if ref.index is None:
            if dram:
                continue
            ref = replace(ref, index=())  # a shared access at an unknown element (SR130): one access all the same
        hoisted = dram and held_in_register(kernel, ref, inner)
        yield ref, dram, hoisted

