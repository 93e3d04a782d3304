"""Join a kernel's summary with a machine: the roof that applies and where the kernel sits."""

from __future__ import annotations

from fractions import Fraction

from .machines import Machine
from .position import choose_roof, mixed_shares, plain, position, position_from_intensity


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
    # the unit that runs the work: tensor/matrix units, a GPU's CUDA cores (or a CU's vector ALUs),
    # or a CPU's cores (a machine without SMs)
    core = "cuda" if machine.sms or machine.smem_bytes_per_sm else "core"
    out = {"machine": machine.name, "unit": "tensor" if key.endswith("_tensor") else core, "roof": key,
           "precision": precision, "peak": peak, "bandwidth": machine.bandwidth}
    out.update(pos)
    if len(numeric) > 1:
        out["shares"] = mixed_shares(numeric)
    levels = _levels(t, peak, machine)
    out["levels"] = levels
    out["hierarchy"] = _hierarchy(t.flops.value, levels, peak)
    if summary.launch and machine.l1_bandwidth:
        # L1 moves 128-byte wavefronts: a warp's coalesced or broadcast access of 4-byte elements
        # is one wavefront, exactly its threads' 32 x 4 bytes; anything else costs more
        out["hierarchy"]["note"] = ("L1 counts each thread's bytes: one 128-byte wavefront per coalesced or "
                                    "broadcast warp access of 4-byte elements; uncoalesced accesses, bank "
                                    "conflicts and narrower elements take more L1 time, so the L1 roof may be "
                                    "lower")
    return plain(out)


# Each level of the hierarchical roofline (staticroof.analysis.summary.Level) and the machine's
# bandwidth it crosses at.
BANDWIDTHS = {"DRAM": "bandwidth", "L2": "l2_bandwidth", "L1": "l1_bandwidth"}


def _levels(t, peak, machine: Machine) -> list:
    """Each level's traffic, intensity and roof; the roof is None where the machine's bandwidth
    for the level, or the level's intensity, is unknown."""
    out = []
    for level in t.levels:
        bandwidth = getattr(machine, BANDWIDTHS[level.name])
        if level.name == "L2" and not bandwidth and not machine.smem_bytes_per_sm:
            continue  # nothing known about this level (a CPU entry): not a copy of DRAM's bytes
        entry = {"level": level.name, "bytes": level.bytes.value, "bandwidth": bandwidth,
                 "intensity": level.intensity.value, "ridge": None, "attainable": None, "time": None}
        if bandwidth:
            pos = position_from_intensity(level.intensity.value, peak, bandwidth)
            entry.update(ridge=pos["ridge"], attainable=pos["attainable"])
            if level.bytes.value is not None:
                entry["time"] = Fraction(level.bytes.value) / Fraction(bandwidth)
        out.append(entry)
    return out


def _hierarchy(flops, levels: list, peak) -> dict:
    """The verdict over the levels whose bandwidth is known: attainable = min(peak, each level's
    bandwidth x intensity), bound at the level that sets it ("compute" when none is below the
    peak), and the time floor max(W/peak, each level's Q/bandwidth)."""
    known = [lv for lv in levels if lv["bandwidth"]]
    out: dict = {"levels": [lv["level"] for lv in known],
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
