"""The roofline picture, ready for a slide: log-log axes in FLOP/B and GFLOP/s or TFLOP/s, each roof
drawn only where it bounds (a bandwidth line ends where it meets the top compute roof, a compute roof
starts at its first ridge), each kernel as one point per level whose bandwidth the machine gives
(never above its roof), a label on every kernel and measured point, placed where it overlaps no other.

matplotlib is imported here only (never on the `analyze` path).  The points are returned with the
roof each sits under (`roof`), so tests can check the geometry against the JSON.
"""

from __future__ import annotations

from .text import with_si_prefix

# hollow and of decreasing size, so points of two levels at one place are both seen
LEVEL_MARKERS = {"DRAM": ("s", 90), "L2": ("D", 55), "L1": ("^", 28)}
MEASURED_MARKERS = {"measured DRAM": "*", "measured L2": "P", "measured L1": "X"}
LEVEL_BANDWIDTH = {"DRAM": "bandwidth", "L2": "l2_bandwidth", "L1": "l1_bandwidth"}
LEVEL_COLORS = {"DRAM": "tab:blue", "L2": "tab:orange", "L1": "tab:green"}


def points(kernels) -> list[dict]:
    """The predicted points: each kernel placed under a roofline at its classic position ("DRAM
    compulsory": W/Q compulsory under the DRAM roof), and at each level of the hierarchical roofline
    whose bandwidth the machine gives, at that level's intensity and the kernel's hierarchical
    attainable performance (the level that bounds it sits on its own bandwidth roof).  `roof`: the
    roof over the point, min(peak, the level's bandwidth x I)."""
    out = []
    for k in kernels:
        r = k.roofline
        if not r:
            continue
        # the roof over a point is the placement's own attainable performance at that level
        if r.get("intensity") is not None:
            out.append({"kernel": k.name, "level": "DRAM compulsory", "intensity": r["intensity"],
                        "attainable": r["attainable"], "roof": r["attainable"]})
        y = (r.get("hierarchy") or {}).get("attainable")
        for lv in r.get("levels", []):
            if y is not None and lv["intensity"] is not None and lv.get("bandwidth"):
                out.append({"kernel": k.name, "level": lv["level"], "intensity": lv["intensity"], "attainable": y,
                            "roof": lv["attainable"]})
    return [p for p in out if p["intensity"] > 0 and p["attainable"] > 0]  # log axes: no FLOPs, no point


def unshown_levels(kernels) -> list[str]:
    """The levels some kernel has but the machine gives no bandwidth for: no point, said in the legend."""
    return sorted({lv["level"] for k in kernels if k.roofline for lv in k.roofline.get("levels", [])
                   if not lv.get("bandwidth")}, key=list(LEVEL_BANDWIDTH).index)


def roof_lines(machine, roofs: list, lo: float, hi: float) -> list[dict]:
    """The lines of the picture: each level's bandwidth from `lo` to where it meets the top compute
    roof, each compute roof from its first ridge (with the fastest level drawn) to `hi`."""
    top = max(machine.peak(r) for r in roofs)
    levels = [(name, getattr(machine, attr)) for name, attr in LEVEL_BANDWIDTH.items() if getattr(machine, attr)]
    fastest = max(bw for _, bw in levels)
    out = [{"kind": "bandwidth", "name": name, "value": bw, "x": (lo, top / bw), "y": (bw * lo, top)}
           for name, bw in levels]
    for roof in roofs:
        peak = machine.peak(roof)
        out.append({"kind": "compute", "name": roof, "value": peak, "x": (peak / fastest, hi), "y": (peak, peak),
                    "ridge": peak / machine.bandwidth})
    return out


def draw(kernels, machine, path: str, measured=()) -> list[dict]:
    """`measured`: points from an ncu report (validate/points.py), drawn beside the predicted ones."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    pts = points(kernels)
    measured = [p for p in measured if p["intensity"] > 0 and p["attainable"] > 0]
    roofs = sorted({k.roofline["roof"] for k in kernels if k.roofline} or {"fp32"})
    lines_x = [machine.peak(r) / bw for r in roofs for bw in (machine.bandwidth, machine.l2_bandwidth,
                                                               machine.l1_bandwidth) if bw]
    xs = [p["intensity"] for p in pts + measured] + lines_x
    lo, hi = min(xs + [0.1]) / 4, max(xs + [10.0]) * 4
    fig, ax = plt.subplots(figsize=(9, 6))
    ax.set_xscale("log")
    ax.set_yscale("log")
    styles = {"DRAM": "-", "L2": "--", "L1": ":"}
    colors = ["tab:red", "tab:purple", "tab:brown", "tab:pink"]
    n_roof = 0
    fixed = []  # texts drawn before the labels: the labels go around them
    for line in roof_lines(machine, roofs, lo, hi):
        if line["kind"] == "bandwidth":
            ax.plot(line["x"], line["y"], color="0.3" if line["name"] == "DRAM" else "0.5", lw=1.5,
                    ls=styles[line["name"]], label=f"{line['name']} {with_si_prefix(line['value'], 'B/s')}")
            continue
        color = colors[n_roof % len(colors)]
        n_roof += 1
        ax.plot(line["x"], line["y"], color=color, lw=1.8,
                label=f"{line['name']} {with_si_prefix(line['value'], 'FLOP/s')}")
        ax.plot([line["ridge"]], [line["value"]], "o", color=color, ms=5)
        fixed.append(ax.annotate(f"ridge {line['ridge']:.3g} FLOP/B", (line["ridge"], line["value"]),
                                 textcoords="offset points", xytext=(4, -12), fontsize=8, color=color))
    for k in {p["kernel"] for p in pts}:  # a kernel's level points share one height: join them
        mine = sorted((p["intensity"], p["attainable"]) for p in pts
                      if p["kernel"] == k and p["level"] in LEVEL_MARKERS)
        if len(mine) > 1:
            ax.plot([x for x, _ in mine], [y for _, y in mine], color="0.75", lw=0.6, zorder=2)
    for level, (marker, size) in LEVEL_MARKERS.items():
        sel = [p for p in pts if p["level"] == level]
        if sel:
            ax.scatter([p["intensity"] for p in sel], [p["attainable"] for p in sel], marker=marker, s=size,
                       facecolors="none", edgecolors=LEVEL_COLORS[level],
                       linewidths=1.2, zorder=3, label=f"{level} level (hierarchical)")
    sel = [p for p in pts if p["level"] == "DRAM compulsory"]
    if sel:
        ax.scatter([p["intensity"] for p in sel], [p["attainable"] for p in sel], marker="o", s=30, color="black",
                   zorder=5, label="W/Q compulsory")
    for level, marker in MEASURED_MARKERS.items():
        sel = [p for p in measured if p["level"] == level]
        if sel:
            ax.scatter([p["intensity"] for p in sel], [p["attainable"] for p in sel], marker=marker, s=80,
                       color="tab:olive", edgecolors="black", linewidths=0.5, zorder=6, label=f"{level} (ncu)")
    unshown = unshown_levels(kernels)
    handles, labels = ax.get_legend_handles_labels()
    if unshown:
        handles.append(Line2D([], [], ls="none"))
        labels.append(f"{', '.join(unshown)}: no bandwidth for {machine.name}, not drawn")
    ax.set_xlim(lo, hi)
    top = max(machine.peak(r) for r in roofs) * 4
    bottom = min([p["attainable"] for p in pts + measured] + [machine.bandwidth * lo]) / 4
    ax.set_ylim(bottom, top)
    scale, unit = (1e12, "TFLOP/s") if top / 4 >= 1e12 else (1e9, "GFLOP/s")
    for axis, div in ((ax.xaxis, 1.0), (ax.yaxis, scale)):
        axis.set_major_locator(LogLocator(base=10))
        axis.set_major_formatter(FuncFormatter(lambda v, _pos, d=div: f"{v / d:g}"))
        axis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("arithmetic intensity (FLOP/B)")
    ax.set_ylabel(f"attainable performance ({unit})")
    ax.set_title(f"{machine.name} roofline, {', '.join(roofs)} (staticroof)")
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    ax.legend(handles, labels, fontsize=8, loc="lower right")
    fig.tight_layout()
    _label(fig, ax, [(p["kernel"], p) for p in pts if p["level"] == "DRAM compulsory"]
           + [(f"{p['kernel']} ({p['level']})", p) for p in measured], fixed)
    try:
        _save(fig, path)
    finally:
        plt.close(fig)
    return pts + measured


# offsets in points tried in turn for a label: right, above, below, left, then further out
_OFFSETS = [(7, 6), (7, -14), (-7, 8), (-7, -14), (0, 14), (0, -20), (14, 18), (14, -26), (-14, 20), (-14, -28),
            (24, 2), (-24, 2), (8, 30), (8, -38)]


def _label(fig, ax, items: list, fixed=()) -> None:
    """A label beside each point, at the first offset where it overlaps no label placed before, no
    text in `fixed` (the ridges), no legend and stays inside the axes; the last offset tried
    otherwise (drawn, never dropped)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    taken = [t.get_window_extent(renderer) for t in fixed]
    if ax.get_legend():
        taken.append(ax.get_legend().get_window_extent(renderer))
    for text, p in sorted(items, key=lambda item: (item[1]["intensity"], item[1]["attainable"])):
        for n, (dx, dy) in enumerate(_OFFSETS):
            ann = ax.annotate(text, (p["intensity"], p["attainable"]), textcoords="offset points", xytext=(dx, dy),
                              ha="left" if dx >= 0 else "right", fontsize=7.5,
                              arrowprops={"arrowstyle": "-", "lw": 0.3, "color": "0.5"} if abs(dx) + abs(dy) > 20
                              else None)
            box = ann.get_window_extent(renderer)
            inside = frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1)
            if (inside and not any(box.overlaps(t) for t in taken)) or n == len(_OFFSETS) - 1:
                taken.append(box)
                break
            ann.remove()


def _save(fig, path: str) -> None:
    """The figure written whole over `path` (atomicfile: a link at `path` replaced, never followed; a
    full disk leaves no partial file).  OSError when it cannot be written."""
    import os

    from ..atomicfile import write_atomic

    fmt = os.path.splitext(path)[1][1:].lower()
    write_atomic(path, lambda f: fig.savefig(f, format=fmt), like_open=True)
