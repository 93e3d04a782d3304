"""CSV rows of an ncu export, with their line numbers, among whatever else the file holds.

ncu writes its CSV to the program's stdout, so a saved file often carries the program's own output
and `==PROF==` lines before the header (and, with several processes, between rows).  A row is a
line that starts with a quote; a quoted field that runs past the line's end continues on the next
line (rule descriptions may hold line breaks) and a file that ends inside one is truncated."""

from __future__ import annotations

import csv
import re

from .model import ReportError
from .text import is_tool_line


def rows(path, lines: list[str], start: int = 0):
    """(line number, fields) for every CSV row from `lines[start]` on."""
    i, n = start, len(lines)
    while i < n:
        line = lines[i]
        if not line.startswith('"') or is_tool_line(line):
            i += 1
            continue
        first = i
        parts, quotes = [line], line.count('"')  # the quotes counted line by line: linear in the file
        while quotes % 2 and i + 1 < n:  # a quoted field holds a line break
            i += 1
            parts.append(lines[i])
            quotes += lines[i].count('"')
        if quotes % 2:
            raise ReportError(path, "truncated: a quoted field is not closed before the end of the file", first + 1)
        yield first + 1, _fields(path, "\n".join(parts), first + 1)
        i += 1


def _fields(path, text: str, lineno: int) -> list:
    try:
        return next(csv.reader([text]))
    except csv.Error as e:
        raise ReportError(path, f"not a CSV row: {e}", lineno) from None


def header(path, lines: list[str]):
    """(index of the header line, its fields) or None: the first row whose first field is `ID`
    and that names the kernel."""
    for i, line in enumerate(lines):
        if line.startswith('"ID"'):
            fields = _fields(path, line, i + 1)
            if "Kernel Name" in fields:
                return i, fields
    return None


_DIMS = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")


def dims(text: str):
    """`"(256, 1, 1)"` -> (256, 1, 1); anything else -> None."""
    m = _DIMS.fullmatch(text.strip()) if text else None
    return tuple(int(g) for g in m.groups()) if m else None


def check_width(path, lineno: int, fields: list, need: int, what: str):
    if len(fields) < need:
        raise ReportError(path, f"{len(fields)} fields where the header has {need} ({what}; a truncated file?)",
                          lineno)
