"""Join a kernel's summary with a machine: the roof that applies and where the kernel sits."""

from __future__ import annotations

from fractions import Fraction

from .machines import Machine
from .position import choose_roof, mixed_shares, plain, position


def place(summary, machine: Machine, unit: str | None = None) -> dict | None:
    """The `roofline` entry of a kernel (JSON-ready), or None for a kernel without counts."""
    t = summary.total
    if t is None:
        return None
    by_precision = {p: (q.value if q.value is not None else q.expr) for p, q in t.by_precision.items()}
    numeric = {p: v for p, v in by_precision.items() if not hasattr(v, "free_symbols") or not v.free_symbols}
    key, precision, peak = choose_roof(machine, numeric or {"fp32": 1}, unit)
    intensity = t.intensity.value if t.intensity.value is not None else None
    pos = position(t.flops.value, t.compulsory.value, peak, machine.bandwidth, intensity=intensity)
    out = {"machine": machine.name, "unit": "tensor" if key.endswith("_tensor") else "cuda", "roof": key,
           "precision": precision, "peak": peak, "bandwidth": machine.bandwidth}
    out.update(pos)
    if len(numeric) > 1:
        out["shares"] = mixed_shares(numeric)
    levels = _levels(t, peak, machine)
    out["levels"] = levels
    out["hierarchy"] = _hierarchy(t.flops.value, levels, peak)
    if summary.language == "cuda" and machine.l1_bandwidth:
        # L1 moves 128-byte wavefronts: a warp's coalesced or broadcast access of 4-byte elements
        # is one wavefront, exactly its threads' 32 x 4 bytes; anything else costs more
        out["hierarchy"]["note"] = ("L1 counts each thread's bytes: one 128-byte wavefront per coalesced or "
                                    "broadcast warp access of 4-byte elements; uncoalesced accesses, bank "
                                    "conflicts and narrower elements take more L1 time, so the L1 roof may be "
                                    "lower")
    return plain(out)


# The hierarchical roofline's levels, outermost first: the traffic that crosses each one, the
# bandwidth it crosses at, and the on-chip capacity that traffic is bounded with.
#   DRAM  Q(M) with the L2 (never below Q compulsory), at the DRAM bandwidth
#   L2    Q(M) with the L1/shared memory of one SM, at the L2 bandwidth
#   L1    every load and store as written (DRAM arrays and __shared__), at the L1 bandwidth
LEVELS = (("DRAM", "bandwidth"), ("L2", "l2_bandwidth"), ("L1", "l1_bandwidth"))


def _levels(t, peak, machine: Machine) -> list:
    """Each level's traffic, intensity and roof.  Without the sizes a level still has an
    intensity when its formula is a constant (SAXPY's 1/6); a level's roof is None where the
    machine's bandwidth for it is unknown."""
    def pick(bound, fallback):
        return bound if bound is not None and bound.value is not None else fallback

    dram, l2 = pick(t.cache_bound, t.compulsory), pick(t.l1_bound, t.compulsory)
    shared = t.shared.expr if t.shared is not None else 0
    l1_value = None
    if t.access.value is not None and (t.shared is None or t.shared.value is not None):
        l1_value = t.access.value + (t.shared.value if t.shared is not None else 0)
    out = []
    for (level, field), (expr, value) in zip(LEVELS, ((dram.expr, dram.value), (l2.expr, l2.value),
                                                      (t.access.expr + shared, l1_value))):
        bandwidth = getattr(machine, field)
        pos = position(t.flops.value, value, peak, bandwidth or machine.bandwidth,
                       intensity=_constant(t.flops.expr, expr))
        entry = {"level": level, "bytes": value, "bandwidth": bandwidth, "intensity": pos["intensity"],
                 "ridge": None, "attainable": None, "time": None}
        if bandwidth:
            entry.update(ridge=pos["ridge"], attainable=pos["attainable"],
                         time=Fraction(value) / Fraction(bandwidth) if value is not None else None)
        out.append(entry)
    return out


def _constant(flops_expr, bytes_expr):
    """W/Q when it does not depend on the sizes (an exact Fraction), else None."""
    import sympy

    if bytes_expr == 0:
        return None
    r = sympy.cancel(flops_expr / bytes_expr)  # a rational function in the sizes: cancel decides
    return Fraction(int(r.p), int(r.q)) if r.is_Rational else (float(r) if r.is_Number else None)


def _hierarchy(flops, levels: list, peak) -> dict:
    """The verdict over the levels whose bandwidth is known: attainable = min(peak, each level's
    bandwidth x intensity), bound at the level that sets it ("compute" when none is below the
    peak), and the time floor max(W/peak, each level's Q/bandwidth)."""
    known = [lv for lv in levels if lv["bandwidth"]]
    out = {"levels": [lv["level"] for lv in known],
           "unknown": [lv["level"] for lv in levels if not lv["bandwidth"]],
           "bound": None, "attainable": None, "fraction_of_peak": None, "time_floor": None}
    if not known or any(lv["attainable"] is None for lv in known):
        return out  # a level's intensity needs the sizes: no verdict from the others alone
    worst = min(known, key=lambda lv: lv["attainable"])
    attainable = min(peak, worst["attainable"])
    out["bound"] = worst["level"] if worst["attainable"] < peak else "compute"
    out["attainable"] = attainable
    out["fraction_of_peak"] = Fraction(attainable) / Fraction(peak)
    times = [lv["time"] for lv in known]
    if flops is not None and None not in times:
        out["time_floor"] = max([Fraction(flops) / Fraction(peak)] + times)
    return out
