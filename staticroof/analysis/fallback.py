"""What a kernel gets when its counting runs out of its time budget (staticroof.analysis.budget),
in order, each attempt with a budget of its own:

1. **Counted at the sizes in force** (SR124), when every size the counting reads has a value (a
   `-D`, the configuration, a default from the source): every size fixed in the loop IR, so every
   set is constant and W and Q are exact numbers.  The result is exact in the sense SR117 and
   SR118 give the word: the numbers are exact at these sizes, and the formulas are those numbers
   (they hold only there).
2. **Bounded** (SR125): W and the access level counted (at the sizes known), and no first access
   computed: each array's compulsory traffic is bounded above by its loads and stores, every
   access a new element, which no distinct-element count can exceed (a reference a register
   holds across its loop counts once per execution of that loop, touching one element).  The
   result is approximate: Q compulsory is an upper bound, I a lower bound, and there is no
   cache-bounded Q.
3. **Not counted** (SR126, an error) when even the bound runs out of time.

The diagnostic names the budget that ran out and what was done instead.
"""

from __future__ import annotations

import islpy as isl

from ..ir import Kernel
from . import budget
from .result import KernelResult, Part


def within_budget(kernel: Kernel, sizes: dict, weights: dict, seconds: float, bindings: dict,
                  cache_bytes: int | None, l1_bytes: int | None):
    """(KernelResult, KernelSummary) for a kernel whose counting ran out of `seconds`."""
    from . import all_sizes_known, at_sizes, count_attempt, isl_operation_budget
    from .summary import summarize

    spent = f"{seconds:g} s of CPU"
    known = all_sizes_known(kernel, sizes)
    attempts = []
    if known:
        attempts.append(("SR124", False, f"counting ran past its time budget ({spent}): W and Q counted with "
                         "every size fixed at its value (exact numbers; the formulas are those numbers and hold "
                         "only at these sizes)"))
    attempts.append(("SR125", True, f"counting ran past its time budget ({spent})"
                     f"{', at the sizes in force too' if known else ''}: W and the access level counted, Q "
                     "compulsory bounded above by the loads and stores (every access a new element; no cache "
                     "bound)"))
    for code, bound, message in attempts:
        mark = len(kernel.diagnostics)
        try:
            with budget.limit(seconds):
                ops = 0 if not bound else isl_operation_budget() * 10
                counted = count_attempt(at_sizes(kernel, sizes), sizes, weights, False, ops, bound=bound)
                result = KernelResult(kernel, counted.total, counted.nests, counted.failed)
                if not result.failed:
                    kernel.diag(code, message, kernel.location)
                return result, summarize(result, bindings, cache_bytes, l1_bytes)
        except budget.OverTime:
            pass
        except isl.Error as e:
            if "maximal number of operations" not in str(e) and "syntax error" not in str(e):
                raise
        budget.reset_isl()
        del kernel.diagnostics[mark:]
    kernel.diag("SR126", f"counting ran past its time budget ({spent}), and so did its bound: not counted; raise "
                "the budget (--time-budget, STATICROOF_TIME_BUDGET) or give the sizes with -D", kernel.location)
    result = KernelResult(kernel, Part(), [], failed=True)
    return result, summarize(result, bindings, cache_bytes, l1_bytes)
