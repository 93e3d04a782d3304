"""Measured points for the roofline picture (`staticroof plot --ncu REPORT`): each profiled launch
of a plotted kernel at its measured intensity and attained performance, per level the report has."""

from __future__ import annotations

from ..ncu import read
from ..ncu.measured import measure
from ..ncu.names import parse as parse_name


def measured_points(report_path, kernels) -> tuple[list[dict], list[str]]:
    """(points, notes): points {"kernel", "level": "measured DRAM"/"measured L2"/"measured L1",
    "intensity", "attainable" (the attained FLOP/s), "launch"}; W is the measured one, else the
    kernel's predicted W (said in the notes).  Raises ReportError on an unreadable report."""
    report = read(report_path)
    by_base: dict = {}
    for k in kernels:
        if not k.failed and k.total is not None:
            by_base.setdefault(k.name.split("<")[0], k)
    out, notes = [], []
    for launch in report.launches:
        name = parse_name(launch.kernel)
        k = by_base.get(name.base)
        if k is None:
            notes.append(f"{report_path}:{launch.line}: launch {launch.index} ({name.base}) matches no plotted kernel")
            continue
        m = measure(launch)
        w = m.W if m.W is not None else k.total.flops.value
        if m.W is None:
            notes.append(f"{report_path}:{launch.line}: launch {launch.index} ({name.base}): no FP counters, "
                         "the predicted W is used")
        if not w or not m.time:
            continue
        for level, q in (("DRAM", m.dram_total), ("L2", m.l2_bytes), ("L1", m.l1_bytes)):
            if q:
                out.append({"kernel": k.name, "level": f"measured {level}", "intensity": float(w) / q,
                            "attainable": float(w) / m.time, "launch": launch.index})
    return out, notes
