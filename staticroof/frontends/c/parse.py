"""Parsing preprocessed C with pycparser, one top-level unit at a time when the whole file fails.

A syntax error costs only the unit (usually one function) that contains it: the file is split at
top-level `;` and function bodies (`split_units`), each unit is parsed on its own with the typedef
names seen so far, and a unit that fails is reported with its location (and its function's name
when it looks like a definition).
"""

from __future__ import annotations

import itertools
import pickle
import re

from pycparser import c_ast, c_parser

from ...diagnostics import Diagnostic, Location, line_name
from .types import PRELUDE_TYPES

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


    # the names the parse of a run asks the scope about (None: not recording); pycparser reads and
    # writes its scopes only through these three methods
    _asked: set | None = None

    def _is_type_in_scope(self, name: str) -> bool:
        if self._asked is not None:
            self._asked.add(name)
        return super()._is_type_in_scope(name)

    def _add_typedef_name(self, name, coord) -> None:
        if self._asked is not None:
            self._asked.add(name)
        super()._add_typedef_name(name, coord)

    def _add_identifier(self, name, coord) -> None:
        if self._asked is not None:
            self._asked.add(name)
        super()._add_identifier(name, coord)

    def parse_in_pieces(self, text: str, filename: str, main: str) -> list:
        """The external declarations `parse(text)` gives, parsed run by run: the units of one
        included file in a row are parsed once per process (the headers every file includes) and
        taken from `_RUNS` after.  One lexer reads the whole text, so lines, columns and files are
        those of one parse.  Runs of `main` are not kept.

        A cached run is what parsing it again would give.  Its key holds its text and the lexer's
        state where it starts (line, file, column, inside an attribute); the parse reads the scopes
        only through `_is_type_in_scope`, `_add_typedef_name` and `_add_identifier`, so it depends on
        the file scope only through the names it asks those about (a name is written only after
        it is asked about).  A cached variant records those names and what the file scope held for
        each (True: a typedef name, False: an identifier, None: absent) and is reused only where the
        file scope holds the same for every one: every answer, and so the whole parse, is then the
        same, and the run leaves the file scope as before but for what it wrote, the `written`
        entries of its asked names.  Another header before this one (stdio.h before math.h in one
        file, not in the next) changes only names the run never asks about."""
        self._scope_stack: list[dict[str, bool]] = [{}]
        lex = self.clex
        lex.input(text, filename)
        ext: list = []
        for a, b, run_file in _pieces(text):
            key = None
            if run_file is not None and run_file != main:
                key = (text[a:b], lex._lineno, lex._filename, a - lex._line_start, lex._in_attribute)
                scope = self._scope_stack[0]
                hit = next((v for v in _RUNS.get(key, ()) if all(scope.get(n) is x for n, x in v[0])), None)
                if hit is not None:
                    _asked, nodes, (lineno, fname, line_start, in_attr), written = hit
                    ext.extend(pickle.loads(nodes))
                    lex._pos, lex._lineno, lex._filename, lex._in_attribute = b, lineno, fname, in_attr
                    if line_start is not None:
                        lex._line_start = a + line_start
                    scope.update(written)
                    continue
                before = dict(scope)
                self._asked = set()
            lex._lexdata = text[:b]  # the piece ends where the text seems to end
            self._typedef_checked_token = None
            self._tokens = c_parser._TokenStream(lex.token)
            try:
                nodes = self._parse_translation_unit_or_empty().ext
            finally:
                asked, self._asked = self._asked, None
            ext.extend(nodes)
            if key is not None and asked is not None:
                if sum(len(v) for v in _RUNS.values()) > 256:  # one process may parse many files with many headers
                    _RUNS.clear()
                line_start = lex._line_start - a if lex._line_start > a else None
                after = self._scope_stack[0]
                names = tuple(sorted(asked))
                _RUNS.setdefault(key, []).append((
                    tuple((n, before.get(n)) for n in names), pickle.dumps(nodes),
                    (lex._lineno, lex._filename, line_start, lex._in_attribute),
                    {n: after[n] for n in names if n in after}))
        lex._lexdata = text
        return ext


# run key -> variants: (the asked names with what the file scope held for each, pickled nodes, the
# lexer's state after the run, the file scope's entries of the asked names after it)
_RUNS: dict = {}


def _pieces(text: str):
    """`text` cut at top-level unit boundaries into runs of units from one file (start, end, file)
    and the text between runs (start, end, None): directives, blank lines, line markers."""
    out = []
    pos = 0
    run = None  # [start, end, file]
    for a, b, file, _line, _col in _unit_spans(text):
        if run is not None and run[2] == file:
            run[1] = b
            continue
        if run is not None:
            out.append(tuple(run))
            pos = run[1]
        if a > pos:
            out.append((pos, a, None))
        run = [a, b, file]
    if run is not None:
        out.append(tuple(run))
        pos = run[1]
    if pos < len(text):
        out.append((pos, len(text), None))
    return out


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
    return [(text[a: b], file, line, col) for a, b, file, line, col in _unit_spans(text)]


def _unit_spans(text: str):
    """The top-level units of preprocessed C as (start, end, file, line, col): `text[start:end]`.
    Runs of characters that change nothing (blanks between units, anything inside a unit but
    brackets, quotes, `;` and newlines) are skipped at once."""
    units = []
    i, n = 0, len(text)
    file, line, col = "", 1, 1
    depth = paren = 0
    start = None
    line_start = True
    opened: list[int] = []  # the parenthesis depth at each open brace
    while i < n:
        if line_start:  # inside a unit too: a marker there (the CUDA front end's) moves what follows
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
        if start is None:
            if ch.isspace():
                k = _run_end(_BLANKS, text, i)
                col += k - i
                i = k
                continue
            start = (i, file, line, col)
        if ch in "\"'":
            k = i + 1
            while k < n and text[k] != ch and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            col += k + 1 - i
            i = k + 1
            continue
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        elif ch == "{":
            depth += 1
            opened.append(paren)
        elif ch == "}":
            depth -= 1
            if opened:  # a parenthesis left open inside the braces (a syntax error) ends with them
                paren = opened.pop()
            if depth < 0:  # a stray `}` (a syntax error) is a unit of its own
                units.append((start[0], i + 1, *start[1:]))
                start, depth, paren = None, 0, 0
            elif depth == 0 and paren == 0:
                head = text[start[0]:i]
                head = _LINE_MARKS.sub("", head[: head.find("{")]).rstrip()
                if head.endswith(")") or _BLOCK_HEAD.search(head):
                    units.append((start[0], i + 1, *start[1:]))
                    start = None
        elif ch == ";":
            if depth <= 0:  # no `;` at file scope is inside parentheses but in a syntax error
                units.append((start[0], i + 1, *start[1:]))
                start, depth, paren = None, 0, 0
                opened.clear()
        else:
            k = _run_end(_PLAIN, text, i)
            col += k - i
            i = k
            continue
        i += 1
        col += 1
    if start is not None and text[start[0]:].strip():  # never ended (a syntax error): a unit all the same
        units.append((start[0], n, *start[1:]))
    return units


def _run_end(pattern, text: str, i: int) -> int:
    m = pattern.match(text, i)
    return i + 1 if m is None else m.end()


_LINE_MARKS = re.compile(r"^[ \t]*#[^\n]*$", re.M)  # the line markers inside a unit
# a C++ head whose braces end its unit as a function body's do: a member function (`) const`), a
# constructor with initializers (`) : Other("x")`), a namespace, an `extern "C"` block
_BLOCK_HEAD = re.compile(r'\)\s*(?:(?:const|noexcept|override|final|volatile)\b\s*)+$|\)\s*:[^;]*$'
                         r'|^\s*(?:inline\s+)?namespace\b[\w:\s]*$|^\s*extern\s*"C(?:\+\+)?"\s*$')
_BLANKS = re.compile(r"[^\S\n]+")  # white space but newlines
_PLAIN = re.compile(r"[^\n\"'(){};]+")  # inside a unit: what does not open, close or end anything


# a function definition's head first on a line: `static inline float *name(` (the CUDA front end's C
# keeps a kernel's columns: its `__global__` is gone, the line starts with blanks)
_HEAD = re.compile(r"(?m)^[ \t]*(?!(?:if|for|while|switch|return|else|do|case|goto|sizeof|new|delete|throw)\b)"
                   r"[A-Za-z_][\w \t*&:<>,]*?"
                   r"[ \t*&]([A-Za-z_]\w*)[ \t]*\(")


def _cut_at_definitions(unit: str, file: str, line: int, col: int) -> list:
    """A unit that failed to parse, cut before each function definition that starts a line inside
    its braces (the unit's own head aside): what a missing `}` (or one a macro hides) glued to the
    function before it.  (text, file, line, col) each; the unit alone when there is none."""
    cuts = []
    for m in _HEAD.finditer(unit):
        k = m.end() - 1
        if not unit[:m.start()].strip() or _depth(unit, m.start()) <= 0:
            continue
        close = _close_paren(unit, k)
        rest = unit[close + 1:].lstrip() if close is not None else ""
        if rest.startswith("{"):
            cuts.append(m.start())
    if not cuts:
        return [(unit, file, line, col)]
    out = []
    bounds = [0, *cuts, len(unit)]
    for a, b in itertools.pairwise(bounds):
        f, ln = _position(unit, a, file, line)
        out.append((unit[a:b], f, ln, col if a == 0 else 1))
    return out


def _position(unit: str, offset: int, file: str, line: int) -> tuple:
    """(file, line) of `unit[offset]`, following the line markers inside the unit."""
    before = unit[:offset].split("\n")
    for raw in before[:-1]:
        m = _MARKER.match(raw)
        if m:
            file, line = m.group(2), int(m.group(1))
        else:
            line += 1
    return file, line


def _depth(text: str, end: int) -> int:
    """The brace depth at `text[end]` (strings skipped)."""
    depth, i = 0, 0
    while i < end:
        ch = text[i]
        if ch in "\"'":
            k = i + 1
            while k < end and text[k] != ch and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            i = k + 1
            continue
        depth += (ch == "{") - (ch == "}")
        i += 1
    return depth


def _close_paren(text: str, i: int) -> int | None:
    """The index of the `)` closing the `(` at `text[i]`, or None."""
    depth = 0
    for k in range(i, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
        elif text[k] in ";{}":
            return None
    return None


_TOO_DEEP = "syntax nested too deeply to parse (parentheses, braces or an expression chain)"


def parse_translation_unit(text: str, path: str):
    """Parse preprocessed text.  Returns (external nodes, file diagnostics, failed functions).

    A syntax error costs only the unit (usually one function) that contains it; a failed unit
    that looks like a function definition is reported as that function, (name, Location, diag)."""
    parser = _Parser()
    full = "#line 1 \"<staticroof-prelude>\"\n" + PRELUDE + text
    try:
        return parser.parse_in_pieces(full, path, line_name(path)), [], []
    except (c_parser.ParseError, RecursionError):
        pass  # the whole text once more, as it always was: its first error is the one reported
    try:
        return parser.parse(full, filename=path).ext, [], []
    except c_parser.ParseError as e:
        first = _parse_error(e, path)
    except RecursionError:  # pycparser descends once per nesting level: one deep unit costs itself
        first = Diagnostic("SR001", _TOO_DEEP, Location(path))
    diags, failed = [], []
    nodes = []
    typedef_names = set(PRELUDE_TYPES)
    todo = [(*u, None) for u in reversed(split_units(text))]
    while todo:
        unit, file, line, col, cut_before = todo.pop()
        ctx = "".join(f"typedef int {n};\n" for n in sorted(typedef_names))
        src = f'{ctx}#line {line} "{file}"\n' + " " * (col - 1) + unit + "\n"
        try:
            ext = parser.parse(src, filename=file).ext
        except (c_parser.ParseError, RecursionError) as e:
            sub = split_units(f'#line {line} "{file}"\n' + " " * (col - 1) + unit)
            if len(sub) > 1:  # a piece cut below: the definition and what the missing `}` glued after it
                todo.extend(reversed([(*u, cut_before if k == 0 else None) for k, u in enumerate(sub)]))
                continue
            pieces = _cut_at_definitions(unit, file, line, col)
            if len(pieces) > 1:  # an unbalanced brace swallowed the definitions after it: each on its own
                nxt = [(p[2], _HEAD.match(p[0])) for p in pieces[1:]]
                todo.extend(reversed([(*p, n) for p, n in zip(pieces, [*nxt, None], strict=True)]))
                continue
            d = (_parse_error(e, path) if isinstance(e, c_parser.ParseError)
                 else Diagnostic("SR001", _TOO_DEEP, Location(file, line, col)))
            if cut_before is not None and cut_before[1] is not None:
                d = Diagnostic("SR001", f"unbalanced braces: this definition does not end before the one of "
                               f"`{cut_before[1].group(1)}` at line {cut_before[0]} (a `}}` missing, or one "
                               f"a macro or an #if hides)", Location(file, line, col))
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
