"""The plain console output of `ncu` (what it prints without `--csv`).

A launch starts with a header line indented by two spaces,

    `  saxpy (977, 1, 1)x(1024, 1, 1), Context 1, Stream 13, Device 0, CC 8.6`   (newer)
    `  extreme_reg_pressure_matmul, 2025-Nov-06 15:20:12, Context 1, Stream 7`   (older)

(a C++ name may itself hold commas and parentheses: the header is taken apart from its end), then
`    Section: NAME` blocks of tables framed by dashed rules whose dash groups give the columns (name,
unit, value; some versions print no `Metric Name  Metric Unit  Metric Value` header row) and rule
texts (`OPT`, `WRN`, `INF` with indented continuation lines).  Program output and `==PROF==` lines
may come anywhere.  A metric is stored under its display name (first occurrence) and under
`SECTION: NAME` (the SOL section's `Memory Throughput` is a %, the memory section's a rate)."""

from __future__ import annotations

import re

from . import values
from .model import Launch, Metric, NcuReport, ReportError
from .text import is_tool_line

_HEADER = re.compile(r"^  (\S.*?), Context (\d+), Stream (\d+)(?:, Device (\d+), CC (\d+\.\d+))?\s*$")
_SHAPE = re.compile(r"^(.*\S)\s*\((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\)$")
_DATE = re.compile(r"^(.*), \d{4}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2}$")
_SECTION = re.compile(r"^    Section: (.*\S)\s*$")
_RULE = re.compile(r"^\s+-{3,}(?: +-{3,})+\s*$")
_TAG = re.compile(r"^    (OPT|WRN|INF|ERR|WARN|ERROR)\s+(.*\S)?\s*$")
_MORE = re.compile(r"^ {10}(\S.*?)\s*$")


def is_launch_header(line: str) -> bool:
    return bool(_HEADER.match(line))


def _launch(line: str, lineno: int, index: int) -> Launch:
    m = _HEADER.match(line)
    assert m is not None  # called for the lines is_launch_header accepts
    name, grid, block = m.group(1), None, None
    s = _SHAPE.match(name)
    if s:
        name = s.group(1)
        grid = tuple(int(x) for x in s.group(2, 3, 4))
        block = tuple(int(x) for x in s.group(5, 6, 7))
    else:
        d = _DATE.match(name)
        name = d.group(1) if d else name
    return Launch(name, index, lineno, grid, block, cc=m.group(5))


def _spans(rule: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"-{3,}", rule)]


def _row(line: str, spans) -> tuple[str, str, str]:
    """(name, unit, value) of a table row, sliced at the rule's columns (the unit column is
    absent in two-column tables)."""
    if len(spans) >= 3:
        return (line[:spans[1][0]].strip(), line[spans[1][0]:spans[2][0]].strip(), line[spans[2][0]:].strip())
    return line[:spans[-1][0]].strip(), "", line[spans[-1][0]:].strip()


def read(path, lines: list[str]) -> NcuReport:
    report = NcuReport(str(path), "console")
    launch, section = None, ""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if is_tool_line(line):
            if line.startswith(("==WARNING==", "==ERROR==")):
                report.messages.append((i + 1, line.strip()))
            i += 1
            continue
        if _HEADER.match(line):
            launch = _launch(line, i + 1, len(report.launches))
            report.launches.append(launch)
            section = ""
            i += 1
            continue
        if launch is None:
            i += 1
            continue
        m = _SECTION.match(line)
        if m:
            section = m.group(1)
            i += 1
            continue
        t = _TAG.match(line)
        if t:  # a rule's text: its first line and the indented lines that continue it
            parts = [t.group(2) or ""]
            i += 1
            while i < n and (more := _MORE.match(lines[i])):
                parts.append(more.group(1))
                i += 1
            launch.notes.append((t.group(1), " ".join(p for p in parts if p)))
            continue
        if _RULE.match(line) and not (i + 1 < n and _TAG.match(lines[i + 1])):
            i = _table(path, lines, i, launch, section)
            continue
        i += 1
    for launch in report.launches:  # an older header has no shape: Launch Statistics gives the totals
        grid, block = launch.value("Launch Statistics: Grid Size"), launch.value("Launch Statistics: Block Size")
        if launch.grid is None and grid is not None:
            launch.grid = (int(grid),)
        if launch.block is None and block is not None:
            launch.block = (int(block),)
    return report


def _table(path, lines, start: int, launch: Launch, section: str) -> int:
    """Read the table whose top rule is `lines[start]`; the index after its closing rule."""
    spans = _spans(lines[start])
    i, n = start + 1, len(lines)
    if i < n and lines[i].strip().startswith("Metric Name"):
        i += 1
        if i < n and _RULE.match(lines[i]):
            i += 1
    while i < n:
        line = lines[i]
        if _RULE.match(line):
            return i + 1
        if is_tool_line(line) or not line.strip():
            i += 1
            continue
        if _HEADER.match(line) or _SECTION.match(line):
            break
        name, unit, text = _row(line, spans)
        if name:
            value, base, inst = values.parse(text, unit)
            metric = Metric(name, value, base, text, unit, inst, section)
            launch.metrics.setdefault(name, metric)
            launch.metrics.setdefault(f"{section}: {name}", metric)
        i += 1
    raise ReportError(path, f"truncated: the table that starts here has no closing rule (section {section!r})",
                      start + 1)
