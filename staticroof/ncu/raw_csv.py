"""`ncu --csv --page raw`: one row per launch, metric names as columns, their units in the second
row (whose ID is empty); instanced metrics hold `;`-separated values."""

from __future__ import annotations

from . import values
from .csvlines import check_width, dims, rows
from .model import Launch, Metric, NcuReport

# Columns that describe the launch rather than measure it.
_INFO = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context", "Stream",
         "Block Size", "Grid Size", "Device", "CC"}


def _shape(launch: Launch, prefix: str):
    xyz = [launch.value(f"{prefix}_dim_{a}") for a in "xyz"]
    if all(v is not None for v in xyz):
        return tuple(int(v) for v in xyz if v is not None)
    total = launch.value(f"{prefix}_size")
    return (int(total),) if total is not None else None  # the total only (legacy pages)


def read(path, lines: list[str], head: int, names: list[str]) -> NcuReport:
    report = NcuReport(str(path), "raw-csv")
    col = {c: i for i, c in enumerate(names)}
    units, have_units = [""] * len(names), False
    for lineno, f in rows(path, lines, head + 1):
        if f == names:
            continue
        if not f[0] and not have_units and not report.launches:
            units, have_units = f + [""] * (len(names) - len(f)), True  # the units row
            continue
        check_width(path, lineno, f, len(names), "a launch row")
        ident = f[col["ID"]]
        launch = Launch(f[col["Kernel Name"]], int(ident) if ident.isdigit() else len(report.launches), lineno)
        for i, name in enumerate(names):
            if name in _INFO or not name:
                continue
            value, base, inst = values.parse(f[i], units[i])
            launch.metrics[name] = Metric(name, value, base, f[i], units[i], inst)
        launch.block = dims(f[col["Block Size"]]) if "Block Size" in col else None
        launch.grid = dims(f[col["Grid Size"]]) if "Grid Size" in col else None
        launch.block = launch.block or _shape(launch, "launch__block")
        launch.grid = launch.grid or _shape(launch, "launch__grid")
        launch.cc = f[col["CC"]] if "CC" in col and f[col["CC"]] else None
        if launch.cc is None:
            major, minor = (launch.value(f"device__attribute_compute_capability_{p}") for p in ("major", "minor"))
            launch.cc = f"{int(major)}.{int(minor)}" if major is not None and minor is not None else None
        display = launch.metrics.get("device__attribute_display_name")
        launch.device = display.text if display is not None and display.text else None
        report.launches.append(launch)
    return report
