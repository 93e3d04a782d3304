"""A report file's lines, whatever the encoding and line endings it was saved with.

Windows shells save console logs as UTF-16 (PowerShell's `>`: UTF-16LE with a BOM, CRLF); CSVs
written by ncu on Windows start with a UTF-8 BOM.  Lines are split on CRLF, LF or CR only (never on
the other characters `str.splitlines` takes for line ends), so line numbers match an editor's."""

from __future__ import annotations

import re

from ..inputs import InputError, decode, read_bytes
from .model import ReportError

REPORT_LIMIT = 256 * 1024 * 1024  # a details page of a long run is tens of MB


def raw_bytes(path) -> bytes:
    try:
        return read_bytes(path, REPORT_LIMIT)
    except InputError as e:
        raise ReportError(path, str(e)) from None


def text_of(path, raw: bytes) -> str:
    """The text of `raw`; UTF-16 without a BOM is recognised by its NUL high bytes."""
    if raw and not raw.startswith((b"\xff\xfe", b"\xfe\xff")) and b"\x00" in raw[:4096]:
        head = raw[:4096]
        if len(head) >= 2 and head[1::2].count(0) > 0.9 * len(head[1::2]):
            raw = b"\xff\xfe" + raw
        elif len(head) >= 2 and head[0::2].count(0) > 0.9 * len(head[0::2]):
            raw = b"\xfe\xff" + raw
    try:
        text = decode(raw)
    except InputError as e:
        raise ReportError(path, f"{e} (a binary file: an .ncu-rep report is read by its extension)") from None
    return text.lstrip("\ufeff")


def split_lines(text: str) -> list[str]:
    out = re.split(r"\r\n|\n|\r", text)
    if out and out[-1] == "":
        out.pop()
    return out


_NOISE = re.compile(r"^==(PROF|WARNING|ERROR|INFO)==")


def is_tool_line(line: str) -> bool:
    """`==PROF== Connected to process ...`, `==WARNING== ...`: ncu's own messages."""
    return bool(_NOISE.match(line))
