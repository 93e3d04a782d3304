"""A kernel's result at the sizes the user gave: formulas and exact numbers, ready for reports.

This is the last place anything is computed; reports only format what is here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction

import sympy

from ..diagnostics import Diagnostic, Location
from ..ir import PRECISIONS
from .polyhedra import Count
from .result import KernelResult, Part, Quantity, quantity, ratio


@dataclass
class ArraySummary:
    name: str
    dtype: str
    space: str
    read: Quantity
    write: Quantity
    access_read: Quantity
    access_write: Quantity
    # a member of an array of structs: {"parent", "member", "record_bytes", "member_offset"} (ir.Array)
    record: dict | None = None


@dataclass
class PartSummary:
    label: str
    location: Location | None
    flops: Quantity
    by_precision: dict  # precision -> Quantity (non-zero only)
    special: Quantity  # calls
    special_by_name: dict
    compulsory: Quantity
    access: Quantity
    arrays: dict  # name -> ArraySummary
    intensity: Quantity
    intensity_access: Quantity
    shared: Quantity  # bytes of on-chip (CUDA __shared__) loads and stores
    shared_arrays: dict = field(default_factory=dict)
    cache_bound: Quantity | None = None  # Q(M): the Hong-Kung/HBL lower bound with a cache of M bytes
    cache_bytes: int | None = None
    intensity_cache: Quantity | None = None
    departs_at: dict | None = None  # {size: value}: where Q(M) first exceeds Q compulsory
    l1_bound: Quantity | None = None  # the same bound with the on-chip (shared memory / L1) size
    l1_bytes: int | None = None
    intensity_l1: Quantity | None = None
    levels: list = field(default_factory=list)  # Level, outermost first (the total only)
    l1_access: Quantity | None = None  # DRAM-array and __shared__ loads and stores together (when shared)


@dataclass
class Level:
    """One level of the hierarchical roofline: the bytes that cross it and W over them."""

    name: str
    bytes: Quantity
    intensity: Quantity


@dataclass
class KernelSummary:
    name: str
    file: str
    location: Location
    language: str
    sizes: dict  # name -> int, the values in force
    size_origins: dict  # name -> where the value (or the symbol) came from
    exact: bool
    failed: bool
    total: PartSummary | None
    nests: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)
    launch: dict = field(default_factory=dict)  # GPU kernels (see ir.Kernel.launch)
    roofline: dict | None = None  # set when a machine is chosen (staticroof.roofline.place)
    ir: object | None = field(default=None, repr=False, compare=False)  # the ir.Kernel counted (lint reads it)


def _sum(counts) -> Count:
    total = Count()
    for c in counts:
        total = total + c
    return total


def _part(part: Part, kernel, sizes: dict, label: str, location) -> PartSummary:
    by_prec = {p: quantity(part.flops[p], sizes) for p in PRECISIONS if p in part.flops}
    by_prec = {p: q for p, q in by_prec.items() if q.expr != 0}
    flops = quantity(_sum(part.flops.values()), sizes)
    special = quantity(_sum(part.special.values()), sizes)
    arrays = {}
    for name, t in sorted(part.arrays.items()):
        arr = kernel.arrays[name]
        arrays[name] = ArraySummary(name, t.dtype, arr.space,
                                    quantity(t.read, sizes, t.elem_bytes), quantity(t.write, sizes, t.elem_bytes),
                                    quantity(t.access_read, sizes, t.elem_bytes),
                                    quantity(t.access_write, sizes, t.elem_bytes), _record(arr))
    compulsory = quantity(_sum((t.read + t.write).scaled(t.elem_bytes) for t in part.arrays.values()), sizes)
    access = quantity(_sum((t.access_read + t.access_write).scaled(t.elem_bytes) for t in part.arrays.values()),
                      sizes)
    shared_arrays = {name: ArraySummary(name, t.dtype, "shared", quantity(Count(), sizes), quantity(Count(), sizes),
                                        quantity(t.access_read, sizes, t.elem_bytes),
                                        quantity(t.access_write, sizes, t.elem_bytes))
                     for name, t in sorted(part.shared.items())}
    access_count = _sum((t.access_read + t.access_write).scaled(t.elem_bytes) for t in part.arrays.values())
    shared_count = _sum((t.access_read + t.access_write).scaled(t.elem_bytes) for t in part.shared.values())
    shared = quantity(shared_count, sizes)
    out = PartSummary(label, location, flops, by_prec, special,
                      {n: quantity(c, sizes) for n, c in sorted(part.special.items())},
                      compulsory, access, arrays, ratio(flops, compulsory), ratio(flops, access),
                      shared, shared_arrays)
    if shared.expr != 0:
        out.l1_access = quantity(access_count + shared_count, sizes)
    return out


def _record(arr) -> dict | None:
    if arr.parent is None:
        return None
    return {"parent": arr.parent, "member": arr.member, "record_bytes": arr.record_bytes,
            "member_offset": arr.member_offset}


def _short_name(kernel, name: str):
    """A struct member size's last name (`n` for `p.n`) when no other size of the kernel is called
    that (neither `n` nor `q.n`): `-D n=` may then bind it."""
    if "." not in name:
        return None
    short = name.rsplit(".", 1)[1]
    if short in kernel.sizes or sum(1 for n in kernel.sizes if n.rsplit(".", 1)[-1] == short) != 1:
        return None
    return short


def resolve_sizes(kernel, bindings: dict) -> tuple[dict, dict]:
    """Values in force for the kernel's sizes: user bindings over defaults from the source."""
    values, origins = {}, {}
    for name, s in kernel.sizes.items():
        short = _short_name(kernel, name)
        if name in bindings:
            values[name] = bindings[name]
            origins[name] = "-D"
        elif short is not None and short in bindings:  # `-D n=1000` for the one size `p.n`
            values[name] = bindings[short]
            origins[name] = f"-D {short}"
        elif s.default is not None:
            values[name] = s.default
            origins[name] = s.origin
        else:
            origins[name] = s.origin
    return values, origins


M_CACHE = sympy.Symbol("M_cache")


def _bound(p: PartSummary, part: Part, sizes: dict, cache_bytes: int) -> Quantity:
    """Q(M) for the part: max(Q compulsory, every loop body's HBL bound), its formula in M_cache and
    its value with `cache_bytes` at the sizes in force (None when a size is unknown)."""
    from .bounds import q_bound_bytes, q_bound_expr

    expr = q_bound_expr(p.compulsory.expr, [(st, st.iterations.generic()) for st in part.bounds], M_CACHE)
    values = [st.iterations.value(sizes) for st in part.bounds]
    if p.compulsory.value is None or None in values:
        return Quantity(expr, None)
    concrete = [replace(st, iterations=v) for st, v in zip(part.bounds, values, strict=True)]
    # bytes are whole: a lower bound rounds up (a float just above Q compulsory is Q compulsory)
    bound = q_bound_bytes(p.compulsory.value, concrete, cache_bytes)
    whole = max(int(p.compulsory.value), math.ceil(Fraction(bound) * (1 - Fraction(1, 10**12))))
    return Quantity(expr, whole)


def _cache_bound(p: PartSummary, part: Part, sizes: dict, cache_bytes: int) -> None:
    """The DRAM level: Q(M) with the last-level cache, and the size where it leaves Q compulsory."""
    p.cache_bound = _bound(p, part, sizes, cache_bytes)
    p.cache_bytes = cache_bytes
    p.intensity_cache = ratio(p.flops, p.cache_bound)
    expr = p.cache_bound.expr
    free = sorted((expr.free_symbols - {M_CACHE}), key=str)
    if len(free) == 1 and part.bounds:  # where the working set stops fitting
        f = sympy.lambdify([free[0], M_CACHE], expr - p.compulsory.expr, "math")

        def exceeds(n: int) -> bool:
            return f(n, cache_bytes) > 0

        try:
            k = next((k for k in range(1, 41) if exceeds(2 ** k)), None)
            if k is not None:  # the bound grows faster than Q compulsory: the first size past it
                lo, hi = 2 ** (k - 1), 2 ** k
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    lo, hi = (lo, mid) if exceeds(mid) else (mid, hi)
                p.departs_at = {str(free[0]): hi if not exceeds(lo) else lo}
        except (ValueError, ZeroDivisionError, OverflowError):
            pass


def _l1_bound(p: PartSummary, part: Part, sizes: dict, l1_bytes: int) -> None:
    """The L2 level: Q(M) with one SM's L1/shared memory."""
    q = _bound(p, part, sizes, l1_bytes)
    p.l1_bound = Quantity(q.expr.subs(M_CACHE, l1_bytes), q.value)
    p.l1_bytes = l1_bytes
    p.intensity_l1 = ratio(p.flops, p.l1_bound)


def _levels(p: PartSummary) -> list:
    """The hierarchical roofline's levels, outermost first: the traffic that crosses each.
    DRAM: Q(M) with the last-level cache (Q compulsory without one); L2: Q(M) with one SM's
    L1/shared memory (Q compulsory without it); L1: every load and store as written, DRAM arrays
    and __shared__ alike."""
    dram = Level("DRAM", p.cache_bound, p.intensity_cache) \
        if p.cache_bound is not None and p.intensity_cache is not None else Level("DRAM", p.compulsory, p.intensity)
    l2 = Level("L2", p.l1_bound, p.intensity_l1) \
        if p.l1_bound is not None and p.intensity_l1 is not None else Level("L2", p.compulsory, p.intensity)
    if p.l1_access is None:
        return [dram, l2, Level("L1", p.access, p.intensity_access)]
    return [dram, l2, Level("L1", p.l1_access, ratio(p.flops, p.l1_access))]


def summarize(result: KernelResult, bindings: dict, cache_bytes: int | None = None,
              l1_bytes: int | None = None) -> KernelSummary:
    k = result.kernel
    sizes, origins = resolve_sizes(k, bindings)
    if result.failed:
        return KernelSummary(k.name, k.location.file, k.location, k.language, sizes, origins, False, True,
                             None, [], list(k.diagnostics))
    total = _part(result.total, k, sizes, "total", k.location)
    nests = [_part(p, k, sizes, label, loc) for label, loc, p in result.nests]
    if cache_bytes:
        _cache_bound(total, result.total, sizes, cache_bytes)
    if l1_bytes:
        _l1_bound(total, result.total, sizes, l1_bytes)
    total.levels = _levels(total)
    used = _symbols(total)  # sizes that only appear in declarations do not matter
    sizes = {n: v for n, v in sizes.items() if n in used or n in bindings}
    origins = {n: o for n, o in origins.items() if n in used or n in bindings}
    launch = _launch_at(k.launch, resolve_sizes(k, bindings)[0])
    if launch:
        _check_grid(k, total, sizes, launch)
    return KernelSummary(k.name, k.location.file, k.location, k.language, sizes, origins, result.exact, False,
                         total, nests, list(k.diagnostics), launch)


def _check_grid(k, total: PartSummary, sizes: dict, launch: dict) -> None:
    """SR119 when the numbers (at the launch's grid) are not the formulas (which assume a grid that
    covers the guards) at the sizes in force: a launch sized for other sizes than those given."""
    values = {sympy.Symbol(n): v for n, v in sizes.items() if v is not None}
    for what, q in (("W", total.flops), ("Q", total.compulsory)):
        at = q.expr.subs(values) if q.value is not None else None
        if at is not None and at.is_Number and at != q.value:
            grid = " x ".join("?" if g is None else f"{g:,}" for g in launch["grid"])
            k.diag("SR119", f"the grid {grid} ({launch['origin'] or 'given'}) does not cover the guards at these "
                   f"sizes: the numbers count the threads launched ({what} = {q.value:,}), the formulas a grid "
                   f"that covers them ({what} = {int(at):,} here)", k.location)
            return


def _launch_at(launch: dict, sizes: dict) -> dict:
    """The launch as it is at these sizes: a grid given as a formula in the kernel's parameters
    (from a launch site) is evaluated; the formula itself is not part of the summary."""
    if not launch:
        return {}
    out = {k: v for k, v in launch.items() if k != "grid_expr"}
    exprs = launch.get("grid_expr") or ()
    grid = list(out["grid"])
    for d, e in enumerate(exprs):
        if e is not None:
            v = e.subs({s: sizes[s.name] for s in e.free_symbols if s.name in sizes})
            if v.is_Integer:
                grid[d] = int(v)
    out["grid"] = tuple(grid)
    return out


def _symbols(p: PartSummary) -> set:
    """The sizes the report mentions: in the formulas and in the conditions they hold under."""
    exprs = [p.flops.expr, p.compulsory.expr, p.access.expr]
    exprs += [q.holds for q in (p.flops, p.compulsory, p.access) if q.holds is not None]
    return {str(s) for e in exprs for s in e.free_symbols}


def unsupported(name: str, location: Location, language: str, diagnostic: Diagnostic) -> KernelSummary:
    return KernelSummary(name, location.file, location, language, {}, {}, False, True, None, [], [diagnostic])
