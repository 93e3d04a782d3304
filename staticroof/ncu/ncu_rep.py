"""`.ncu-rep` files (Nsight Compute's binary reports): read through `ncu -i FILE --csv --page raw`
when `ncu` is on PATH, else through NVIDIA's `ncu_report` Python module when it imports (it ships
in the Nsight Compute package, extras/python); otherwise a message saying how to export a CSV."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess

from . import values
from .model import Launch, Metric, NcuReport, ReportError

EXPORT_HINT = ("export it where Nsight Compute is installed: `ncu -i REPORT.ncu-rep --csv --page raw > report.csv`, "
               "and pass the CSV")


def read(path, parse_text) -> NcuReport:
    """`parse_text(path, text)` reads the CSV that ncu prints (the raw-page reader)."""
    exe = shutil.which("ncu")
    if exe:
        try:
            done = subprocess.run([exe, "-i", str(path), "--csv", "--page", "raw"], capture_output=True,
                                  timeout=600, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ReportError(path, f"`ncu -i` failed: {e}") from None
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise ReportError(path, f"`ncu -i` exited {done.returncode}: {err[-1] if err else 'no message'}")
        report = parse_text(path, done.stdout.decode("utf-8", "replace"))
        report.format = "ncu-rep"
        return report
    if importlib.util.find_spec("ncu_report") is not None:
        return _with_module(path)
    raise ReportError(path, "an .ncu-rep report needs Nsight Compute to read it (neither `ncu` on PATH nor the "
                      f"`ncu_report` Python module was found); {EXPORT_HINT}")


def _with_module(path) -> NcuReport:
    import ncu_report  # NVIDIA's module: IContext -> IRange -> IAction -> IMetric

    try:
        ctx = ncu_report.load_report(str(path))
    except Exception as e:  # the module raises its own types
        raise ReportError(path, f"ncu_report could not load it: {e}") from None
    report = NcuReport(str(path), "ncu-rep")
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            launch = Launch(action.name(), len(report.launches), 0)
            for name in action.metric_names():
                m = action.metric_by_name(name)
                unit = m.unit() if hasattr(m, "unit") else ""
                try:
                    raw = m.as_double()
                    text = repr(raw)
                except Exception:
                    text = m.as_string() if hasattr(m, "as_string") else ""
                factor, base = values.scale(unit)
                value = values.number(text)
                launch.metrics[name] = Metric(name, value * factor if value is not None else None, base, text, unit)
            g = [launch.value(f"launch__grid_dim_{x}") for x in "xyz"]
            b = [launch.value(f"launch__block_dim_{x}") for x in "xyz"]
            launch.grid = tuple(int(v) for v in g if v is not None) if None not in g else None
            launch.block = tuple(int(v) for v in b if v is not None) if None not in b else None
            display = launch.metrics.get("device__attribute_display_name")
            launch.device = display.text if display is not None else None
            report.launches.append(launch)
    return report
