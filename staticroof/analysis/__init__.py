"""Analyses over the loop IR: W by precision, compulsory and access-level traffic, per kernel and
per top-level loop nest.  Reads IR only; never sees syntax."""

from __future__ import annotations

import os
from dataclasses import replace

import islpy as isl

from ..ir import Kernel, Loop, is_grid_size
from . import polyhedra as P
from .domain import instances
from .result import ArrayTraffic, KernelResult, Part
from .traffic import access_counts, compulsory, dram_refs


def _add(d: dict, key, count: P.Count) -> None:
    d[key] = d[key] + count if key in d else count


def _part(kernel: Kernel, insts, namer, weights: dict, sizes: dict, t_rank: int, flops_only=False,
          concrete=False, bound=False) -> Part:
    """W and Q of these statement instances.  With `bound`, no first access is computed: each
    array's compulsory reads and writes are bounded by its loads and stores (every access a new
    element), and there are no cache bounds (fallback.py, past the time budget)."""
    part = Part()
    for inst in insts:
        if not inst.stmt.flops and not inst.stmt.special:
            continue
        dom = P.card(inst.domain(namer), namer)
        for prec, n in inst.stmt.flops.items():
            if n:
                _add(part.flops, prec, dom.scaled(n))
        for (fname, prec), calls in inst.stmt.special.items():
            _add(part.special, fname, dom.scaled(calls))
            _add(part.flops, prec, dom.scaled(calls * weights.get(fname, 1)))
    if flops_only:
        return part
    part.bounds = [] if bound else _statement_bounds(kernel, insts, namer)
    for name, refs in dram_refs(kernel, insts).items():
        arr = kernel.arrays[name]
        t = ArrayTraffic(name, arr.dtype, arr.elem_bytes)
        access_counts(kernel, refs, namer, t)
        if bound:
            t.read, t.write = t.access_read, t.access_write
        else:
            compulsory(kernel, name, refs, namer, sizes, t_rank, t, concrete)
        part.arrays[name] = t
    for name, refs in dram_refs(kernel, insts, ("shared",)).items():
        arr = kernel.arrays[name]
        t = ArrayTraffic(name, arr.dtype, arr.elem_bytes)
        access_counts(kernel, refs, namer, t, hoist=False)
        part.shared[name] = t
    return part


def analyze(kernel: Kernel, sizes: dict | None = None, weights: dict | None = None,
            flops_only: bool = False) -> KernelResult:
    """Count W and Q for a kernel.  `sizes` (name -> int) is used only where a symbolic count is
    impossible (a linearized index that is not provably injective, or counting past the budget).

    Past the work budget (STATICROOF_ISL_BUDGET isl operations), a kernel whose sizes are all
    known is still counted exactly, at those sizes: first with only the first accesses fixed there
    (SR118; W and the access level stay symbolic, ten times the budget), then with every size
    fixed in the loop IR itself, where the sets are constant and isl has no budget (SR118 says the
    formulas hold only there).  Only sizes the counting reads count as needed: a parameter the
    kernel never uses, or a grid dimension assumed to cover the guards, never blocks it."""
    sizes = sizes or {}
    weights = weights or {}
    budget = isl_operation_budget()
    try:
        return count_attempt(kernel, sizes, weights, flops_only, budget)
    except isl.Error as e:
        if not _over_budget(e):
            raise
    if not all_sizes_known(kernel, sizes):
        kernel.diag("SR116", "exact counting exceeded the work budget; give the sizes with -D or raise "
                    "STATICROOF_ISL_BUDGET", kernel.location)
        return KernelResult(kernel, Part(), [], failed=True)
    # Too complex for symbolic first-access counting: with every size known, count the distinct
    # elements at those sizes (concrete sets are small), keeping W and the access level symbolic.
    try:
        result = count_attempt(kernel, sizes, weights, flops_only, budget * 10, concrete=True)
        kernel.diag("SR118", "first accesses too complex for a formula: distinct elements counted at the "
                    "given sizes (exact numbers; the compulsory-traffic formula holds only there)",
                    kernel.location)
        return result
    except isl.Error as e:
        if not _over_budget(e):
            raise
    # Still too much: every size fixed in the IR, so that every set is constant (no budget there).
    at = at_sizes(kernel, sizes)
    result = count_attempt(at, sizes, weights, flops_only, 0)
    kernel.diag("SR118", "counting too complex for formulas: W and Q counted with every size fixed at its "
                "value (exact numbers; the formulas are those numbers and hold only at these sizes)",
                kernel.location)
    return KernelResult(kernel, result.total, result.nests, result.failed)


def isl_operation_budget() -> int:
    try:
        return max(1, int(os.environ.get("STATICROOF_ISL_BUDGET", "800000")))
    except ValueError:
        return 800000


def count_attempt(kernel: Kernel, sizes: dict, weights: dict, flops_only: bool, budget: int,
             concrete: bool = False, bound: bool = False) -> KernelResult:
    """One counting attempt under an isl operation budget (0: none)."""
    ctx = isl.DEFAULT_CONTEXT
    ctx.reset_operations()
    ctx.set_max_operations(budget)
    try:
        return _analyze(kernel, sizes, weights, P.Namer(), flops_only, concrete, bound)
    finally:
        ctx.set_max_operations(0)


def _over_budget(e: isl.Error) -> bool:
    """Did isl stop at the operation budget?  Inside a string parser it says "syntax error" then
    (the strings parsed here are generated, and parse without a budget)."""
    return "maximal number of operations" in str(e) or "syntax error" in str(e)


def _statement_bounds(kernel: Kernel, insts, namer) -> list:
    """HBL data for every loop body whose operands bound its iterations (s* > 1)."""
    from .bounds import StatementBound, hbl_solution, is_matmul_shape
    from .projections import bodies

    out = []
    for body in bodies(kernel, insts, namer):
        inst = body.first
        shape = tuple(sorted(body.projections))
        made = tuple(p for p in shape if body.projections[p])
        found = hbl_solution(shape, tuple(range(len(body.classes))), made)
        if found is None or found[0] <= 1 or body.elem_bytes is None:
            continue
        s_star, made_part = found
        # Smith et al.'s setting: C += A*B, one accumulated operand and two inputs
        matmul = is_matmul_shape(shape, len(body.classes)) and len(made) == 1
        out.append(StatementBound(P.card(inst.domain(namer), namer), s_star, body.elem_bytes, inst.stmt.location,
                                  matmul, made_part))
    return out


def needed_sizes(kernel: Kernel) -> set:
    """Names of the sizes the counting reads: those in a loop bound, a guard or an index.  A
    parameter the kernel never uses is not one of them."""
    import sympy

    from ..ir import Guard, Stmt, walk
    loop_vars, symbols = set(), set()
    for node in walk(kernel.body):
        exprs = []
        if isinstance(node, Loop):
            loop_vars.add(node.var)
            exprs = [node.start, node.cond]
        elif isinstance(node, Guard) and node.cond is not None:
            exprs = [node.cond]
        elif isinstance(node, Stmt):
            exprs = [e for ref in node.refs if ref.index is not None for e in ref.index]
        for e in exprs:
            symbols |= sympy.sympify(e).free_symbols
    return {s.name for s in symbols - loop_vars if not isinstance(s, sympy.Dummy)}


def all_sizes_known(kernel: Kernel, sizes: dict) -> bool:
    """Is every size the counting reads known?  A grid dimension without a value is the covering
    grid (pieces.GRID), as everywhere in the numbers."""
    return all(sizes.get(n) is not None or is_grid_size(n) for n in needed_sizes(kernel))


def at_sizes(kernel: Kernel, sizes: dict) -> Kernel:
    """The kernel with every known size replaced by its value in the loop IR (a copy sharing the
    original's sizes, arrays, launch and diagnostics)."""
    import copy

    import sympy

    from ..ir import Guard, Stmt

    subs = {sympy.Symbol(n): sympy.Integer(v) for n, v in sizes.items() if v is not None}

    def fix(e):
        return None if e is None else sympy.sympify(e).xreplace(subs)

    def node_at(n):
        if isinstance(n, Loop):
            return replace(n, start=fix(n.start), cond=fix(n.cond), body=[node_at(c) for c in n.body])
        if isinstance(n, Guard):
            return replace(n, cond=fix(n.cond), then=[node_at(c) for c in n.then],
                           orelse=[node_at(c) for c in n.orelse])
        if isinstance(n, Stmt):
            refs = [replace(r, index=None if r.index is None else tuple(fix(e) for e in r.index)) for r in n.refs]
            return replace(n, refs=refs)
        return n

    out = copy.copy(kernel)
    out.body = [node_at(n) for n in kernel.body]
    out.alternative = None
    return out


def _analyze(kernel: Kernel, sizes: dict, weights: dict, namer, flops_only: bool = False,
             concrete: bool = False, bound: bool = False) -> KernelResult:
    try:
        insts = instances(kernel, namer)
    except P.NotAffine as e:
        kernel.diag("SR002", f"not counted: a loop bound or condition is not affine ({e})", kernel.location)
        return KernelResult(kernel, Part(), [], failed=True)
    t_rank = max((len(i.schedule) + 1 for i in insts), default=1)
    try:
        total = _part(kernel, insts, namer, weights, sizes, t_rank, flops_only, concrete, bound)
        if flops_only:
            return KernelResult(kernel, total, [])
        nests = []
        loops = [k for k, n in enumerate(kernel.body) if isinstance(n, Loop)]
        if len(loops) > 1:
            for k in loops:
                node = kernel.body[k]
                sub = [i for i in insts if i.nest == k]
                line = node.location.line if node.location else 0
                nests.append((f"nest L{line}", node.location,
                              _part(kernel, sub, namer, weights, sizes, t_rank, concrete=concrete, bound=bound)))
    except P.NotAffine as e:
        kernel.diag("SR002", f"not counted: an index or condition is not affine ({e})", kernel.location)
        return KernelResult(kernel, Part(), [], failed=True)
    return KernelResult(kernel, total, nests)
