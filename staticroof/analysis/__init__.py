"""Analyses over the loop IR: W by precision, compulsory and access-level traffic, per kernel and
per top-level loop nest.  Reads IR only; never sees syntax."""

from __future__ import annotations

import os

import islpy as isl

from ..ir import Kernel, Loop
from . import polyhedra as P
from .domain import instances
from .result import ArrayTraffic, KernelResult, Part
from .traffic import access_counts, compulsory, dram_refs


def _add(d: dict, key, count: P.Count) -> None:
    d[key] = d[key] + count if key in d else count


def _part(kernel: Kernel, insts, namer, weights: dict, sizes: dict, t_rank: int, flops_only=False,
          concrete=False) -> Part:
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
    part.bounds = _statement_bounds(kernel, insts, namer)
    for name, refs in dram_refs(kernel, insts).items():
        arr = kernel.arrays[name]
        t = ArrayTraffic(name, arr.dtype, arr.elem_bytes)
        access_counts(kernel, refs, namer, t)
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
    impossible (a linearized index that is not provably injective)."""
    sizes = sizes or {}
    weights = weights or {}
    namer = P.Namer()
    ctx = isl.DEFAULT_CONTEXT
    ctx.reset_operations()
    ctx.set_max_operations(int(os.environ.get("STATICROOF_ISL_BUDGET", "800000")))
    try:
        return _analyze(kernel, sizes, weights, namer, flops_only)
    except isl.Error as e:
        if not _over_budget(e):
            raise
    finally:
        ctx.set_max_operations(0)
    # Too complex for symbolic first-access counting: with every size known, count the distinct
    # elements at those sizes (concrete sets are small), keeping W and the access level symbolic.
    namer = P.Namer()
    if sizes and _all_sizes_known(kernel, sizes):
        ctx.reset_operations()
        ctx.set_max_operations(int(os.environ.get("STATICROOF_ISL_BUDGET", "800000")) * 10)
        try:
            result = _analyze(kernel, sizes, weights, namer, flops_only, concrete=True)
            kernel.diag("SR118", "first accesses too complex for a formula: distinct elements counted at the "
                        "given sizes (exact numbers; the compulsory-traffic formula holds only there)",
                        kernel.location)
            return result
        except isl.Error as e:
            if not _over_budget(e):
                raise
        finally:
            ctx.set_max_operations(0)
    kernel.diag("SR116", "exact counting exceeded the work budget; give the sizes with -D or raise "
                "STATICROOF_ISL_BUDGET", kernel.location)
    return KernelResult(kernel, Part(), [], failed=True)


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


def _all_sizes_known(kernel: Kernel, sizes: dict) -> bool:
    from ..ir import walk

    import sympy
    loop_vars = set()
    symbols = set()
    for node in walk(kernel.body):
        if isinstance(node, Loop):
            loop_vars.add(node.var)
            symbols |= sympy.sympify(node.start).free_symbols | node.cond.free_symbols
    return all(s.name in sizes for s in symbols - loop_vars) and all(n in sizes for n in kernel.sizes)


def _analyze(kernel: Kernel, sizes: dict, weights: dict, namer, flops_only: bool = False,
             concrete: bool = False) -> KernelResult:
    try:
        insts = instances(kernel, namer)
    except P.NotAffine as e:
        kernel.diag("SR102", f"a loop bound or condition is not affine ({e})", kernel.location)
        return KernelResult(kernel, Part(), [], failed=True)
    t_rank = max((len(i.schedule) + 1 for i in insts), default=1)
    try:
        total = _part(kernel, insts, namer, weights, sizes, t_rank, flops_only, concrete)
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
                              _part(kernel, sub, namer, weights, sizes, t_rank, concrete=concrete)))
    except P.NotAffine as e:
        kernel.diag("SR101", f"an index or condition is not affine ({e})", kernel.location)
        return KernelResult(kernel, Part(), [], failed=True)
    return KernelResult(kernel, total, nests)
