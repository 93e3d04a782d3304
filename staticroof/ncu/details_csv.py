"""`ncu --csv` (the details page): one row per metric of each launch.

Columns are found by name in the header: older versions write "Kernel Time" and no launch shape;
newer ones add "Block Size", "Grid Size", "Device", "CC"; rule columns may follow "Metric Value".
A launch is the rows sharing a process and an ID (IDs count per process)."""

from __future__ import annotations

from . import values
from .csvlines import check_width, dims, rows
from .model import Launch, Metric, NcuReport, ReportError

_NEEDED = ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")


def _get(fields: list, col: dict, name: str) -> str:
    return fields[col[name]] if name in col and col[name] < len(fields) else ""


def read(path, lines: list[str], head: int, names: list[str]) -> NcuReport:
    missing = [c for c in _NEEDED if c not in names]
    if missing:
        raise ReportError(path, f"a details-page header without {', '.join(missing)}", head + 1)
    col = {c: names.index(c) for c in names if c}
    need = max(col[c] for c in _NEEDED) + 1
    report = NcuReport(str(path), "details-csv")
    by_id: dict = {}
    for lineno, f in rows(path, lines, head + 1):
        if f == names:
            continue  # the header again (a second process, or files joined)
        check_width(path, lineno, f, need, "a metric row")
        ident = f[col["ID"]]
        key = (_get(f, col, "Process ID"), ident)  # IDs count per process
        launch = by_id.get(key)
        if launch is None:
            index = int(ident) if ident.isdigit() else len(by_id)
            launch = Launch(f[col["Kernel Name"]], index, lineno)
            launch.block, launch.grid = dims(_get(f, col, "Block Size")), dims(_get(f, col, "Grid Size"))
            launch.cc = _get(f, col, "CC") or None
            by_id[key] = launch
            report.launches.append(launch)
        name, unit, text = f[col["Metric Name"]], f[col["Metric Unit"]], f[col["Metric Value"]]
        if not name or name in launch.metrics:
            continue
        value, base, inst = values.parse(text, unit)
        launch.metrics[name] = Metric(name, value, base, text, unit, inst)
    return report
