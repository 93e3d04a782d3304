"""The roofline picture: log-log axes in FLOP/byte and FLOP/s, one horizontal roof per unit that
matters, the slanted bandwidth roof, ridge points marked, each kernel as one point per level.

matplotlib is imported here only (never on the `analyze` path).  The points are returned too, so
tests can check that the picture shows what the JSON says.
"""

from __future__ import annotations

from .text import with_si_prefix

LEVEL_MARKERS = {"DRAM": "s", "L2": "D", "L1": "^"}


def points(kernels) -> list[dict]:
    """(kernel, level, intensity, attainable) for every kernel placed under a roofline: its classic
    position ("DRAM compulsory": W/Q compulsory under the DRAM roof), and one point per level of the
    hierarchical roofline at that level's intensity and the kernel's hierarchical attainable
    performance, so the level that bounds it sits on its own bandwidth roof."""
    out = []
    for k in kernels:
        r = k.roofline
        if not r:
            continue
        if r.get("intensity") is not None:
            out.append({"kernel": k.name, "level": "DRAM compulsory", "intensity": r["intensity"],
                        "attainable": r["attainable"]})
        y = (r.get("hierarchy") or {}).get("attainable")
        for lv in r.get("levels", []):
            if y is not None and lv["intensity"] is not None:
                out.append({"kernel": k.name, "level": lv["level"], "intensity": lv["intensity"], "attainable": y})
    return [p for p in out if p["intensity"] > 0 and p["attainable"] > 0]  # log axes: no FLOPs, no point


MEASURED_MARKERS = {"measured DRAM": "*", "measured L2": "P", "measured L1": "X"}


def draw(kernels, machine, path: str, measured=()) -> list[dict]:
    """`measured`: points from an ncu report (validate/points.py), drawn beside the predicted ones."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = points(kernels)
    measured = [p for p in measured if p["intensity"] > 0 and p["attainable"] > 0]
    bw = machine.bandwidth
    roofs = sorted({k.roofline["roof"] for k in kernels if k.roofline} or {"fp32"})
    xs = [p["intensity"] for p in pts + measured] + [machine.peak(r) / bw for r in roofs]
    lo, hi = min(xs + [0.1]) / 4, max(xs + [10.0]) * 4
    fig, ax = plt.subplots(figsize=(9, 6))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.plot([lo, hi], [bw * lo, bw * hi], color="0.3", lw=1.5, label=f"DRAM {with_si_prefix(bw, 'B/s')}")
    for name, level_bw, style in (("L2", machine.l2_bandwidth, "--"), ("L1", machine.l1_bandwidth, ":")):
        if level_bw:
            ax.plot([lo, hi], [level_bw * lo, level_bw * hi], color="0.45", lw=1.2, ls=style,
                    label=f"{name} {with_si_prefix(level_bw, 'B/s')}")
    colors = ["tab:red", "tab:purple", "tab:brown", "tab:pink"]
    for n, roof in enumerate(roofs):
        peak = machine.peak(roof)
        ridge = peak / bw
        ax.plot([ridge, hi], [peak, peak], color=colors[n % len(colors)], lw=1.5,
                label=f"{roof} {with_si_prefix(peak, 'FLOP/s')}")
        ax.plot([ridge], [peak], "o", color=colors[n % len(colors)])
        ax.annotate(f"ridge {ridge:.3g} FLOP/B", (ridge, peak), textcoords="offset points", xytext=(4, -12),
                    fontsize=8)
    for k in {p["kernel"] for p in pts}:  # a kernel's level points share one height: join them
        mine = sorted((p["intensity"], p["attainable"]) for p in pts
                      if p["kernel"] == k and p["level"] in LEVEL_MARKERS)
        if len(mine) > 1:
            ax.plot([x for x, _ in mine], [y for _, y in mine], color="0.75", lw=0.6, zorder=2)
    markers = {"DRAM compulsory": "o", **LEVEL_MARKERS}
    for level, marker in markers.items():
        sel = [p for p in pts if p["level"] == level]
        if sel:
            label = "W/Q compulsory" if level == "DRAM compulsory" else f"{level} level (hierarchical)"
            ax.scatter([p["intensity"] for p in sel], [p["attainable"] for p in sel], marker=marker, s=36,
                       zorder=3, label=label)
    for level, marker in MEASURED_MARKERS.items():
        sel = [p for p in measured if p["level"] == level]
        if sel:
            ax.scatter([p["intensity"] for p in sel], [p["attainable"] for p in sel], marker=marker, s=70,
                       color="black", zorder=4, label=f"{level} (ncu)")
    labelled = [p for p in pts if p["level"] == "DRAM compulsory"]
    for n, p in enumerate(sorted(labelled, key=lambda q: q["intensity"])):
        ax.annotate(p["kernel"], (p["intensity"], p["attainable"]), textcoords="offset points",
                    xytext=(6, 10 if n % 2 else -12), fontsize=7, alpha=0.85,
                    arrowprops={"arrowstyle": "-", "lw": 0.3, "color": "0.5"})
    ax.set_xlim(lo, hi)
    top = max(machine.peak(r) for r in roofs) * 4
    bottom = min([p["attainable"] for p in pts + measured] + [bw * lo]) / 4
    ax.set_ylim(bottom, top)
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("attainable performance (FLOP/s)")
    ax.set_title(f"staticroof: {machine.name}")
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    try:
        _save(fig, path)
    finally:
        plt.close(fig)
    return pts + measured


def _save(fig, path: str) -> None:
    """The figure written whole over `path` (atomicfile: a link at `path` replaced, never followed; a
    full disk leaves no partial file).  OSError when it cannot be written."""
    import os

    from ..atomicfile import write_atomic

    fmt = os.path.splitext(path)[1][1:].lower()
    write_atomic(path, lambda f: fig.savefig(f, format=fmt), like_open=True)
