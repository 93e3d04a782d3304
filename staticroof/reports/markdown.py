"""GitHub-flavoured Markdown, ready to paste as a pull-request comment or a job summary: a diff as
a table of old -> new numbers per kernel, and findings (lint's) as a table of places and messages.

Formulas sit in code spans; a `|` inside a cell is escaped (GitHub splits cells on it even inside
code spans).
"""

from __future__ import annotations

import re

from ..diagnostics import printable
from .diff import attainable, bound, bound_phrase, label, percent, seconds, summary, why as why_line


def cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def code(text: str) -> str:
    """A code span that holds `text` whatever it contains: on one line, fenced by one more backtick
    than its longest run of them (HTML and Markdown in a code span are shown as they are)."""
    text = printable(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    pad = " " if longest else ""
    return f"{'`' * (longest + 1)}{pad}{text}{pad}{'`' * (longest + 1)}"


def text(s: str) -> str:
    """Plain text from a repository or a report, shown as it is: one line, and every character that
    Markdown or HTML would read (`<b>`, `*`, `[link](...)`, `|`) escaped."""
    return re.sub(r"([\\`*_{}\[\]()<>#+!|~&-])", r"\\\1", printable(s))


def _value(m, key: str) -> str:
    from .formula import expr, number

    e, v = getattr(m, f"{key}_expr"), getattr(m, key)
    if e is None:
        return "?"
    shown = code(expr(e))
    if v is not None and expr(e) != number(v):
        shown += f" = {number(v)}"
    return shown


def _change(k, key: str, with_value=True) -> str:
    old, new = _value(k.old, key), _value(k.new, key)
    return f"{old} → {new} ({percent(k.change[key])})" if old != new else f"{new} (0%)"


def render_diff(result) -> str:
    lines = ["### staticroof: intensity review", ""]
    head = code(result.head) if not result.head_commit else f"{code(result.head)} ({code(result.head_commit[:10])})"
    machine = f"machine **{result.machine}**" if result.machine else "no machine (`--machine` places kernels)"
    lines.append(f"{code(result.base)} ({code(result.base_commit[:10])}) → {head} · {machine} · "
                 f"fails when a kernel's time floor rises more than {result.fail_under:g}% (without one: its bytes "
                 "rise and I drops), or it gains a lint finding")
    lines.append("")
    regressed = len(result.regressions)
    lines.append(("**:x: " if regressed else "**:white_check_mark: ") + summary(result) + "**")
    lines.append("")
    shown = [k for k in result.kernels if k.status in ("changed", "unanalyzable") or k.regression]
    if shown:
        machine_cols = any(k.old and k.old.machine for k in shown)
        header = ["", "Kernel", "W (FLOP)", "Q (bytes)", "I (FLOP/B)"] + (["Bound", "Attainable", "Time floor"]
                                                                          if machine_cols else [])
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
        for k in shown:
            name = f"{code(k.name)} in {code(k.file)}" + (f" (was {code(k.old_file)})" if k.old_file else "")
            name = name.replace("|", "\\|")  # a `|` in a name splits no cell (code spans keep backslashes)
            if k.old.failed or k.new.failed:
                why = k.new.why if k.new.failed else "analyzed now, not in the base"
                row = [label(k), name, cell(f"not analyzed: {why}")] + [""] * (len(header) - 3)
            else:
                row = [("**regressed**" if k.regression else label(k)), name] + \
                      [cell(_change(k, key)) for key in ("W", "Q", "I")]
                if machine_cols:
                    b = bound(k.old) if bound(k.old) == bound(k.new) else f"{bound(k.old)} → {bound(k.new)}"
                    row += [cell(b), cell(f"{attainable(k.old)} → {attainable(k.new)} "
                                          f"({percent(k.change.get('attainable'))})"),
                            cell(f"{seconds(k.old)} → {seconds(k.new)} ({percent(k.change.get('time'))})")]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    judged = [k for k in shown if not (k.old.failed or k.new.failed)]
    if judged:
        lines.append("**Why**")
        lines.append("")
        for k in judged:
            m = k.new
            lines.append(f"- {code(f'{k.file}:{m.line}')} {code(k.name)} ({label(k)}): {text(why_line(k))}")
        lines.append("")
    for status, heading in (("new", "New kernels"), ("removed", "Removed kernels")):
        ks = [k for k in result.kernels if k.status == status]
        if not ks:
            continue
        lines.append(f"**{heading}**")
        lines.append("")
        for k in ks:
            m = k.new or k.old
            if m.failed:
                lines.append(f"- {code(k.name)} in {code(k.file)}: not analyzed: {m.why}")
                continue
            extra = f", {bound_phrase(m)}, attainable {attainable(m)}" if m.machine else ""
            lines.append(f"- {code(k.name)} in {code(k.file)}: W {_value(m, 'W')}, Q {_value(m, 'Q')}, "
                         f"I {_value(m, 'I')}{extra}")
        lines.append("")
    same = [k for k in result.kernels if k.status == "unchanged"]
    if same:
        lines.append(f"<details><summary>{len(same)} unchanged kernel{'s' * (len(same) != 1)}</summary>")
        lines.append("")
        for k in same:
            lines.append(f"- {code(k.name)} in {code(k.file)}: I {_value(k.new, 'I')}")
        lines.append("")
        lines.append("</details>")
        lines.append("")
    for note in result.notes:
        lines.append(f"> {note}")
    return "\n".join(lines).rstrip() + "\n"


def render_findings(annotations, heading: str = "staticroof lint") -> str:
    """Findings (staticroof.reports.annotation.Annotation) as a table of place, code and message."""
    lines = [f"### {heading}", ""]
    if not annotations:
        return "\n".join(lines + [":white_check_mark: nothing found", ""])
    lines.append(f"**{len(annotations)} finding{'s' * (len(annotations) != 1)}**")
    lines.append("")
    lines.append("| Where | Code | Message |")
    lines.append("|---|---|---|")
    for a in annotations:
        place = a.file or ""
        if a.file and a.line:
            place += f":{a.line}" + (f":{a.col}" if a.col else "")
        rule = a.code + (f" ({a.title})" if a.title else "")
        lines.append(f"| {cell(code(place)) if place else ''} | {cell(rule)} | {cell(a.message)} |")
    return "\n".join(lines) + "\n"
