"""Parsing preprocessed C with pycparser, one top-level unit at a time when the whole file fails.

A syntax error costs only the unit (usually one function) that contains it: the file is split at
top-level `;` and function bodies (`split_units`), each unit is parsed on its own with the typedef
names seen so far, and a unit that fails is reported with its location (and its function's name
when it looks like a definition).
"""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from ..diagnostics import Diagnostic, Location
from .ctypes_ import PRELUDE_TYPES

PRELUDE = "".join(f"typedef float {t};\n" for t in PRELUDE_TYPES)

class _Parser(c_parser.CParser):
    """pycparser's parser, with a location on every error (3.12 reports some without one)."""

    def _parse_error(self, msg, coord):
        if not hasattr(coord, "line"):
            try:
                tok = self._tokens.peek(1)
                if tok is not None:
                    coord = self._tok_coord(tok)
                    msg = f"{msg.lower()} before: {tok.value}"
            except Exception:  # private API: fall back to pycparser's own message
                pass
        super()._parse_error(msg, coord)


_PARSE_ERR = re.compile(r"^(.*?):(\d+):(\d+):\s*(.*)$")


def _parse_error(e: Exception, default_file: str) -> Diagnostic:
    m = _PARSE_ERR.match(str(e))
    if m:
        return Diagnostic("SR001", f"syntax error {m.group(4)}".strip(),
                          Location(m.group(1) or default_file, int(m.group(2)), int(m.group(3))))
    return Diagnostic("SR001", f"syntax error: {e}", Location(default_file))


_MARKER = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')


def split_units(text: str):
    """Split preprocessed C into top-level units: (text, file, line, col) each.

    A unit ends at a `;` at brace depth 0, or at the `}` closing a function body."""
    units = []
    i, n = 0, len(text)
    file, line, col = "", 1, 1
    depth = paren = 0
    start = None
    line_start = True
    while i < n:
        if line_start and start is None:
            j = text.find("\n", i)
            j = n if j < 0 else j
            raw = text[i:j]
            m = _MARKER.match(raw)
            if m or raw.lstrip().startswith("#"):
                if m:
                    file, line = m.group(2), int(m.group(1))
                else:
                    line += 1
                i, col = j + 1, 1
                continue
        line_start = False
        ch = text[i]
        if ch == "\n":
            line, col, line_start = line + 1, 1, True
            i += 1
            continue
        if start is None and not ch.isspace():
            start = (i, file, line, col)
        if ch in "\"'":
            k = i + 1
            while k < n and text[k] != ch and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            col += k + 1 - i
            i = k + 1
            continue
        if start is not None:
            if ch == "(":
                paren += 1
            elif ch == ")":
                paren -= 1
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and paren == 0:
                    head = text[start[0]:i]
                    head = head[: head.find("{")].rstrip()
                    if head.endswith(")"):
                        units.append((text[start[0]: i + 1], *start[1:]))
                        start = None
            elif ch == ";" and depth == 0 and paren == 0:
                units.append((text[start[0]: i + 1], *start[1:]))
                start = None
        i += 1
        col += 1
    return units


_TOO_DEEP = "syntax nested too deeply to parse (parentheses, braces or an expression chain)"


def parse_translation_unit(text: str, path: str):
    """Parse preprocessed text.  Returns (external nodes, file diagnostics, failed functions).

    A syntax error costs only the unit (usually one function) that contains it; a failed unit
    that looks like a function definition is reported as that function, (name, Location, diag)."""
    parser = _Parser()
    full = "#line 1 \"<staticroof-prelude>\"\n" + PRELUDE + text
    try:
        return parser.parse(full, filename=path).ext, [], []
    except c_parser.ParseError as e:
        first = _parse_error(e, path)
    except RecursionError:  # pycparser descends once per nesting level: one deep unit costs itself
        first = Diagnostic("SR001", _TOO_DEEP, Location(path))
    diags, failed = [], []
    nodes = []
    typedef_names = set(PRELUDE_TYPES)
    for unit, file, line, col in split_units(text):
        ctx = "".join(f"typedef int {n};\n" for n in sorted(typedef_names))
        src = f'{ctx}#line {line} "{file}"\n' + " " * (col - 1) + unit + "\n"
        try:
            ext = parser.parse(src, filename=file).ext
        except (c_parser.ParseError, RecursionError) as e:
            d = (_parse_error(e, path) if isinstance(e, c_parser.ParseError)
                 else Diagnostic("SR001", _TOO_DEEP, Location(file, line, col)))
            m = re.match(r"[^;{(]*?\b([A-Za-z_]\w*)\s*\([^;]*\)\s*\{", unit, re.S)
            if m and not file.startswith("<"):
                failed.append((m.group(1), Location(file, line, col), d))
            else:
                diags.append(d)
            continue
        ext = ext[len(typedef_names):]
        for n in ext:
            if isinstance(n, c_ast.Typedef):
                typedef_names.add(n.name)
        nodes.extend(ext)
    if not diags and not failed:
        diags.append(first)
    return nodes, diags, failed
