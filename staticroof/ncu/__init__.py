"""Nsight Compute reports: readers for the formats users have (one module each), the measured
point of each launch, and kernel names as the source spells them.

`read(path)` picks the reader: `.ncu-rep` by extension; otherwise by content, a CSV header with
"Metric Name" is the details page, one without it the raw page, a launch header line the console
output.  Every failure is a ReportError naming the file (and the line where it is known)."""

from __future__ import annotations

from pathlib import Path

from . import console, details_csv, ncu_rep, raw_csv
from .csvlines import header
from .model import Launch, Metric, NcuReport, ReportError
from .text import raw_bytes, split_lines, text_of

__all__ = ["Launch", "Metric", "NcuReport", "ReportError", "read", "parse_text"]


def read(path) -> NcuReport:
    if Path(path).suffix.lower() == ".ncu-rep":
        raw_bytes(path)  # a missing or unreadable file says so before ncu is looked for
        return ncu_rep.read(path, parse_text)
    return parse_text(path, text_of(path, raw_bytes(path)))


def parse_text(path, text: str) -> NcuReport:
    try:
        return _parse(path, text)
    except ReportError:
        raise
    except (ValueError, IndexError, KeyError, TypeError, OverflowError) as e:  # never a traceback
        raise ReportError(path, f"cannot read it as an Nsight Compute report ({type(e).__name__}: {e})") from None


def _parse(path, text: str) -> NcuReport:
    lines = split_lines(text)
    if not any(line.strip() for line in lines):
        raise ReportError(path, "empty file: not an Nsight Compute report")
    found = header(path, lines)
    if found is not None:
        head, names = found
        reader = details_csv if "Metric Name" in names else raw_csv
        report = reader.read(path, lines, head, names)
        if not report.launches:
            raise ReportError(path, "a CSV header but no launch rows after it (a truncated file?)", head + 1)
        return report
    if any(console.is_launch_header(line) for line in lines):
        return console.read(path, lines)
    warn = next(((i + 1, line.strip()) for i, line in enumerate(lines) if "No kernels were profiled" in line), None)
    if warn:
        raise ReportError(path, f"no kernel was profiled (ncu says: {warn[1]})", warn[0])
    raise ReportError(path, "not an Nsight Compute report: no CSV header (\"ID\",...,\"Kernel Name\",...) and no "
                      "launch header (`  NAME ..., Context N, Stream N`) found")
