"""Join a kernel's summary with a machine: the roof that applies and where the kernel sits."""

from __future__ import annotations

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
    out = {"machine": machine.name, "unit": "tensor" if key.endswith("_tensor") else "cuda", "roof": key,
           "precision": precision, "peak": peak, "bandwidth": machine.bandwidth}
    out.update(pos)
    if len(numeric) > 1:
        out["shares"] = mixed_shares(numeric)
    out["levels"] = _levels(t, peak, machine.bandwidth)
    return plain(out)


def _levels(t, peak, bandwidth) -> list:
    """Each level's intensity and where it sits under the DRAM roof: the points of the
    hierarchical picture (per-level bandwidths are not in the database yet)."""
    candidates = [("DRAM compulsory", t.intensity), ("DRAM cache-bound", t.intensity_cache),
                  ("L1 cache-bound", t.intensity_l1), ("access", t.intensity_access)]
    out = []
    for level, q in candidates:
        if q is None or q.value is None or q.value <= 0:
            continue
        pos = position_from_intensity(q.value, peak, bandwidth)
        out.append({"level": level, "intensity": pos["intensity"], "attainable": pos["attainable"]})
    return out
