"""`staticroof validate` reports: text, JSON and Markdown of the same Validation objects."""

from __future__ import annotations

import json


def _num(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.6g}" if abs(x) < 1000 else f"{x:,.0f}"
    return f"{int(x):,}"


def _ratio(r) -> str:
    return "-" if r is None else f"{r:.6g}"


def pct(x: float) -> str:
    return f"{x:.0%}" if x >= 0.1 else f"{100 * x:.2g}%"


def _shape(t) -> str:
    return "x".join(str(d) for d in t) if t else "?"


def _title(v, report_path) -> str:
    la = v.launch
    where = f"{v.kernel.location}: {v.kernel.name}" if v.kernel is not None else f"{v.name} (not analyzed)"
    return (f"{where}  <-  launch {la.index} of {report_path} (line {la.line}): {la.kernel}, "
            f"grid {_shape(la.grid)}, block {_shape(la.block)}")


def _point_lines(v) -> list[tuple[str, str]]:
    p = v.point
    out: list[tuple[str, str]] = []
    if not p:
        return out
    parts = [f"P = {p['P']:.4g} FLOP/s (W {p['W_from']})"]
    if "I" in p:
        parts.append(f"I = {p['I']:.4g} FLOP/B at DRAM")
    for lv in ("L2", "L1"):
        if f"I_{lv}" in p:
            parts.append(f"{p[f'I_{lv}']:.4g} at {lv}")
    if "dram_bandwidth" in p:
        bw = f"DRAM {p['dram_bandwidth'] / 1e9:.4g} GB/s"
        if "bandwidth_fraction" in p:
            bw += f" = {pct(p['bandwidth_fraction'])} of {p['bandwidth'] / 1e9:.4g} GB/s"
        parts.append(bw)
    out.append(("attained", "; ".join(parts)))
    if v.roofs is not None:
        peaks = ", ".join(f"{k} {x / 1e12:.4g} TFLOP/s" for k, x in v.roofs.peaks.items())
        out.append(("roofs", f"{v.roofs_from}: {peaks}; DRAM {v.roofs.bandwidth / 1e9:.4g} GB/s"))
    if "verdict" in p:
        out.append(("verdict", p["verdict"]))
    return out


def render_text(validations, report_path) -> str:
    blocks = []
    for v in validations:
        lines = [_title(v, report_path)]
        if v.rows:
            lines.append(f"  {'quantity':<44}{'predicted':>18}{'measured':>18}  measured/predicted")
            for r in v.rows:
                lines.append(f"  {r.quantity:<44}{_num(r.predicted):>18}{_num(r.measured):>18}  {_ratio(r.ratio)}")
                if r.note and r.note != "equal":
                    lines.append(f"      {r.note}")
        for label, text in _point_lines(v):
            lines.append(f"  {label:<10} {text}")
        for p in v.problems:
            lines.append(f"  note       {p}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def to_json(validations, report) -> dict:
    out = []
    for v in validations:
        la = v.launch
        out.append({
            "kernel": v.kernel.name if v.kernel is not None else None,
            "location": str(v.kernel.location) if v.kernel is not None else None,
            "launch": {"index": la.index, "line": la.line, "name": la.kernel, "grid": la.grid, "block": la.block,
                       "device": la.device, "cc": la.cc},
            "measured": {"flops": v.measured.flops, "flops_source": v.measured.flops_source,
                         "flops_exact": v.measured.flops_exact, "dram_read": v.measured.dram_read,
                         "dram_write": v.measured.dram_write, "dram_total": v.measured.dram_total,
                         "dram_source": v.measured.dram_source, "l2_bytes": v.measured.l2_bytes,
                         "l1_bytes": v.measured.l1_bytes, "time": v.measured.time},
            "rows": [{"quantity": r.quantity, "predicted": r.predicted, "measured": r.measured, "ratio": r.ratio,
                      "note": r.note} for r in v.rows],
            "roofs": None if v.roofs is None else {"name": v.roofs.name, "source": v.roofs.source,
                                                   "peaks": v.roofs.peaks, "bandwidth": v.roofs.bandwidth},
            "point": v.point,
            "problems": v.problems,
        })
    return {"report": report.path, "format": report.format, "launches": out}


def render_json(validations, report) -> str:
    return json.dumps(to_json(validations, report), indent=2, default=str)


def _markdown_title(v, report_path) -> str:
    """The title with every name from the source or the ncu report in a code span (a kernel name
    such as `void k<float>(float*)` is no HTML)."""
    from ..reports.markdown import code

    la = v.launch
    where = f"{code(str(v.kernel.location))}: {code(v.kernel.name)}" if v.kernel is not None else \
        f"{code(v.name)} (not analyzed)"
    return (f"{where}  ←  launch {la.index} of {code(str(report_path))} (line {la.line}): {code(la.kernel)}, "
            f"grid {_shape(la.grid)}, block {_shape(la.block)}")


def render_markdown(validations, report_path) -> str:
    from ..reports.markdown import text

    out = []
    for v in validations:
        out.append(f"### {_markdown_title(v, report_path)}\n")
        if v.rows:
            out.append("| quantity | predicted | measured | measured/predicted | why |")
            out.append("|---|---:|---:|---:|---|")
            for r in v.rows:
                note = text(r.note)
                out.append(f"| {r.quantity} | {_num(r.predicted)} | {_num(r.measured)} | {_ratio(r.ratio)} | {note} |")
            out.append("")
        for label, line in _point_lines(v):
            out.append(f"- **{label}**: {line}")
        for p in v.problems:
            out.append(f"- note: {text(p)}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
