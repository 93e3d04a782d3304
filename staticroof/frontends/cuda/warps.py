"""The global thread index of a launch dimension with a run-time block size, and the warps in it.

With the block size B unknown, a kernel's threads along a dimension are one loop over the global
index g = blockIdx*B + threadIdx (thread_symbols); blockIdx and threadIdx alone stay opaque until
an expression combines them.  `combine` finds the combinations:

- `blockIdx.x*blockDim.x + threadIdx.x` is g;
- llm.c's one warp per row, `idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32` with lane
  `threadIdx.x % 32`: when c divides B, blockIdx*(B/c) + threadIdx/c is g/c (rounded down) and
  threadIdx % c is g % c, so the warps of all blocks together are the rows [0, G*B/c), each once,
  and the lanes are g % c.  A block size that is not a multiple of c breaks both (a partial warp
  shares its row with the next block's first warp), so the rewrite holds for blocks of whole
  warps: the kernel's lowering records c (`warp_sizes`) and the result names that assumption
  (`assumption`) unless the launch's block is known to be a multiple of it.
"""

from __future__ import annotations

import sympy

from ... import floors


def combine(expr, threads: dict, warp_sizes: set):
    """`expr` with blockIdx*blockDim + threadIdx (and the warp idiom, see the module docstring)
    rewritten in each global-index dimension's g; the warp sizes c it relied on go to `warp_sizes`
    as (dimension, c)."""
    if expr is None:
        return None
    for d, info in threads.items():
        if "g" not in info or not expr.free_symbols & {info["bx"], info["tx"]}:
            continue
        g, bx, tx, B = info["g"], info["bx"], info["tx"], info["B"]
        expr = sympy.expand(expr.subs(bx * B, g - tx))
        for c, rounded in _warp_sizes(expr, bx, tx, B):
            if B.is_Integer and B % c:
                continue
            # with c | B: threadIdx % c = g % c, and the warps per block (B + k)/c, 0 <= k < c
            # (cooperative groups' meta_group_size rounds up), are B/c
            lanes = {e: sympy.Mod(g, c) for e in expr.atoms(sympy.Mod) if e.args == (tx, c)}
            new = expr.xreplace({**lanes, **{f: floors.floor(B / c) for f in rounded}})
            new = sympy.expand(new.subs(bx * floors.floor(B / c), floors.floor(g / c) - floors.floor(tx / c)))
            if new != expr:
                warp_sizes.add((d, int(c)))
                expr = new
    return expr


def _warp_sizes(expr, bx, tx, B) -> list:
    """(c, the floors of (B + k)/c in `expr`) for the constants c of `threadIdx % c` and of
    `blockIdx * ((blockDim + k) / c)`, 0 <= k < c."""
    out: dict = {}
    for e in expr.atoms(sympy.Mod):
        if e.args[0] == tx and e.args[1].is_Integer and e.args[1] > 1:
            out.setdefault(e.args[1], set())
    if bx in expr.free_symbols:
        for e in expr.atoms(sympy.floor):
            arg = sympy.expand(e.args[0])
            if arg.coeff(B) == 0:
                continue
            c = sympy.cancel(1 / arg.coeff(B))
            k = sympy.expand(arg * c - B)
            if c.is_Integer and c > 1 and k.is_Integer and 0 <= k < c:
                out.setdefault(c, set()).add(e)
    return sorted(out.items(), key=lambda item: int(item[0]))


def assumption(warp_sizes: set, block: tuple) -> str:
    """The note for a result that relies on blocks of whole warps (empty when the launch's block
    size along each such dimension is known to be a multiple)."""
    dims = "xyz"
    open_ = sorted((d, c) for d, c in warp_sizes if not (block[dims.index(d)] and block[dims.index(d)] % c == 0))
    return "; ".join(f"blockDim.{d} assumed a multiple of {c} (whole warps)" for d, c in open_)
