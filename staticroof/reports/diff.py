"""`staticroof diff` as text and JSON, and the pieces the Markdown, SARIF and GitHub reports of a
diff share (cells, percentages, the regressions as annotations)."""

from __future__ import annotations

import json

from ..diagnostics import printable
from .annotation import Annotation
from .formula import expr, number

VERSION = 1
UNITS = {"W": "FLOP", "Q": "B", "I": "FLOP/B"}
STATUS = {"changed": "changed", "unchanged": "unchanged", "new": "new", "removed": "removed",
          "unanalyzable": "no longer analyzable"}


def si(v, unit: str) -> str:
    if v is None:
        return "?"
    v = float(v)
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:.4g} {prefix}{unit}"
    return f"{v:.4g} {unit}"


def value(m, key: str) -> str:
    """`N/6 = 128 FLOP/B`: the formula, and the number when the sizes are known."""
    e, v = getattr(m, f"{key}_expr"), getattr(m, key)
    if e is None:
        return "?"
    shown = expr(e)
    if v is not None and shown != number(v):
        shown += f" = {number(v)}"
    return f"{shown} {UNITS[key]}"


def attainable(m) -> str:
    if m.attainable is None:
        return "?"
    return f"{si(m.attainable, 'FLOP/s')} ({m.precision})"


def seconds(m) -> str:
    """The time floor as `12.3 us`, `?` when it cannot be told."""
    if m is None or m.time is None:
        return "?"
    v = float(m.time)
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us")):
        if v >= scale:
            return f"{v / scale:.4g} {unit}"
    return f"{v / 1e-9:.4g} ns"


def why(k) -> str:
    """One line: why the kernel is a regression, an improvement, or neither."""
    if k.reasons:
        return "; ".join(f"{c} {msg}" for c, msg in k.reasons)
    notes = [f"new lint finding {c} (reported, not failing: diff-lint)" for c, _ in k.gained]
    dt = k.change.get("time")
    falls = [f"{key} {percent(k.change[key])}" for key in ("W", "Q") if key in k.change
             and k.change[key].pct is not None and k.change[key].pct < 0]
    if k.improved:
        if dt is not None and dt.pct is not None and dt.pct < 0:
            head = f"the time floor falls {-dt.pct:.3g}%"
        else:
            head = "less to do: " + (", ".join(falls) or f"I {percent(k.change.get('I'))}")
            if dt is not None and dt.pct is not None:
                head += ", the time floor unchanged" if abs(dt.pct) < 5e-4 else f", time floor {percent(dt)}"
        return "; ".join([head, *notes])
    if dt is not None and dt.pct is not None:
        return "; ".join([f"the time floor changes {percent(dt)}: within the threshold", *notes])
    return "; ".join(notes or ["no cost the gate counts rises past its threshold"])


def bound(m) -> str:
    if m.bound is None:
        return "?"
    return "compute" if m.bound == "compute" else f"memory ({m.bound})"


def bound_phrase(m) -> str:
    """`compute-bound` or `memory-bound at DRAM`, as the roofline line says it."""
    if m.bound is None:
        return "bound ?"
    return "compute-bound" if m.bound == "compute" else f"memory-bound at {m.bound}"


def percent(d) -> str:
    """`+33.3%`, `-25%`, `0%`; `?` when it cannot be told; `-25% as sizes grow` for a limit."""
    if d is None or d.pct is None:
        return "?"
    text = "0%" if abs(d.pct) < 5e-4 else f"{d.pct:+.3g}%" if d.pct < 1000 else f"x{d.pct / 100 + 1:.3g}"
    return text + (" as sizes grow" if d.basis == "asymptotic" else "")


def title(result) -> str:
    head = result.head if not result.head_commit else f"{result.head} ({result.head_commit[:10]})"
    machine = f"machine {result.machine}" if result.machine else "no machine"
    return (f"staticroof diff {result.base} ({result.base_commit[:10]}) -> {head}: {machine}, "
            f"fail under {result.fail_under:g}%")


def summary(result) -> str:
    improved = sum(1 for k in result.kernels if k.improved)
    counts = [(len(result.regressions), "regressed"), (improved, "improved"),
              (result.count("changed") - len(result.regressions) - improved, "changed"),
              (result.count("unchanged"), "unchanged"), (result.count("new"), "new"),
              (result.count("removed"), "removed"), (result.count("unanalyzable"), "no longer analyzable")]
    parts = [f"{n} {what}" for n, what in counts if n]
    files = len(result.files)
    return (f"{files} file{'s' * (files != 1)}, {len(result.kernels)} kernel{'s' * (len(result.kernels) != 1)}"
            + (": " + ", ".join(parts) if parts else ""))


def where(k) -> str:
    m = k.new or k.old
    return f"{printable(k.file)}:{m.line}:{m.col or 1}" if m.line else printable(k.file)


def label(k) -> str:
    if k.regression:
        return "REGRESSED"
    if k.improved:
        return "improved"
    return STATUS[k.status]


# -- text --------------------------------------------------------------------------------------

def render_text(result) -> str:
    lines = [title(result), summary(result)]
    for k in result.kernels:
        renamed = f" (was {printable(k.old_file)})" if k.old_file else ""
        lines.append(f"{where(k)}: {k.name}  {label(k)}{renamed}")
        if k.status in ("new", "removed"):
            m = k.new or k.old
            lines.append("  " + _one_side(m))
            continue
        if k.status == "unanalyzable" or k.old.failed or k.new.failed:
            for side, m in (("before", k.old), ("after", k.new)):
                lines.append(f"  {side:<7} " + (f"not analyzed: {m.why}" if m.failed else _one_side(m)))
            continue
        if k.status == "unchanged":
            continue
        for key in ("W", "Q", "I"):
            lines.append(f"  {key:<7} {value(k.old, key)}  ->  {value(k.new, key)}  ({percent(k.change[key])})")
        if k.old.machine:
            lines.append(f"  {'bound':<7} {bound(k.old)}  ->  {bound(k.new)}")
            lines.append(f"  {'P':<7} {attainable(k.old)}  ->  {attainable(k.new)}  "
                         f"({percent(k.change.get('attainable'))})")
            lines.append(f"  {'time':<7} {seconds(k.old)}  ->  {seconds(k.new)}  ({percent(k.change.get('time'))})")
        for code, message in k.reasons:
            lines.append(f"  {code}   {message}")
        if not k.reasons:
            lines.append(f"  why     {why(k)}")
    for note in result.notes:
        lines.append(note)
    return "\n".join(lines) + "\n"


def _one_side(m) -> str:
    if m.failed:
        return f"not analyzed: {m.why}"
    text = f"W {value(m, 'W')}, Q {value(m, 'Q')}, I {value(m, 'I')}"
    if m.machine:
        text += f", {bound_phrase(m)}, attainable {attainable(m)}"
    return text


# -- JSON --------------------------------------------------------------------------------------

def _num(v):
    from fractions import Fraction

    if v is None:
        return None
    f = Fraction(v)
    return int(f) if f.denominator == 1 else float(f)


def side(m) -> dict | None:
    """A kernel's numbers as JSON (the baseline file's records are these too)."""
    if m is None:
        return None
    out = {"file": m.file, "name": m.name, "line": m.line, "col": m.col,
           "status": "unsupported" if m.failed else "ok", "exact": m.exact, "sizes": dict(m.sizes)}
    if m.failed:
        out["why"] = m.why
        return out
    for key in ("W", "Q", "I"):
        out[key] = _num(getattr(m, key))
        out[f"{key}_expr"] = str(getattr(m, f"{key}_expr"))
    if m.machine:
        out.update(machine=m.machine, precision=m.precision, bound=m.bound, attainable=_num(m.attainable),
                   time=_num(m.time))
    return out


def kernel(k) -> dict:
    return {"file": k.file, "old_file": k.old_file, "name": k.name, "status": k.status,
            "regression": k.regression, "improved": k.improved, "old": side(k.old), "new": side(k.new),
            "change": {key: {"percent": d.pct, "basis": d.basis} for key, d in k.change.items()},
            "reasons": [{"code": c, "message": m} for c, m in k.reasons],
            "lint_gained": [{"code": c, "message": m} for c, m in k.gained], "why": why(k)}


def render_json(result) -> str:
    doc = {"version": VERSION, "base": result.base, "base_commit": result.base_commit, "head": result.head,
           "head_commit": result.head_commit or None, "machine": result.machine, "fail_under": result.fail_under,
           "files": result.files, "regressions": len(result.regressions),
           "kernels": [kernel(k) for k in result.kernels], "notes": result.notes}
    return json.dumps(doc, indent=2)


# -- annotations (SARIF, GitHub) ---------------------------------------------------------------

def diff_annotations(result) -> list:
    """One annotation per regression reason, at the kernel's line in HEAD; a kernel that can no
    longer be analyzed is a note (its numbers are gone from the review)."""
    out = []
    for k in result.kernels:
        m = k.new or k.old
        for code, reason in k.reasons:
            numbers = {"RD101": f"I {value(k.old, 'I')} -> {value(k.new, 'I')}",
                       "RD102": f"{bound(k.old)} -> {bound(k.new)}, I {value(k.new, 'I')}",
                       "RD103": f"attainable {attainable(k.old)} -> {attainable(k.new)}",
                       "RD104": f"time floor {seconds(k.old)} -> {seconds(k.new)}",
                       "RD105": ""}[code]
            text = f"{k.name}: {reason}" + (f": {numbers}" if numbers else "")
            if k.changed_line and k.changed_line != m.line:  # on the changed line, naming the kernel's
                text = f"{k.name} (defined at line {m.line}): {reason}" + (f": {numbers}" if numbers else "")
                out.append(Annotation(code, text, k.file, k.changed_line, 1, "warning", _rule_name(code)))
                continue
            out.append(Annotation(code, text, k.file, m.line, m.col, "warning", _rule_name(code)))
        if k.status == "unanalyzable":
            out.append(Annotation("RD901", f"{k.name}: no longer analyzed: {k.new.why}", k.file, m.line, m.col,
                                  "note", "not-analyzed"))
    return out


def _rule_name(code: str) -> str:
    from ..diff.compare import RULES

    return RULES[code][0] if code in RULES else ""
