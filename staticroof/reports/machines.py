"""The machine database as a listing: one line per machine with its roofs and ridge points (units
in the line's legend: peaks in TFLOP/s, ridges in FLOP/B; thousands separators as elsewhere)."""

from __future__ import annotations

import json


def render_text(db) -> str:
    lines = []
    for m in db.values():
        bw = f"{m.bandwidth / 1e9:,.0f} GB/s"
        ridges = ", ".join(f"{k} {m.peaks[k] / 1e12:,g}T/{m.ridge(k):,.1f}" for k in m.roofs())
        alias = f" ({', '.join(m.aliases)})" if m.aliases else ""
        lines.append(f"{m.name}{alias}: {bw}; peak FLOP/s / ridge FLOP/B: {ridges}")
    return "\n".join(lines)


def render_json(db) -> str:
    from ..roofline import to_json

    return json.dumps(to_json(db), indent=2)
