"""A C/C++ tokenizer that keeps every token's original file:line:col, and the way back to text.

The CUDA front end rewrites C++ into C on tokens, never with regular expressions over text, so
that a rewritten function still reports diagnostics at the user's own lines and columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PUNCT = sorted("""<<<= >>>= <<< >>> ... <<= >>= -> ++ -- << >> <= >= == != && || += -= *= /= %= &= ^= |= ::
[ ] ( ) { } . & * + - ~ ! / % < > ^ | ? : ; = , #""".split(), key=len, reverse=True)
_TOKEN = re.compile(
    r"(?P<ws>[ \t\r\f\v]+)"
    r"|(?P<nl>\n)"
    r"|(?P<comment>//[^\n]*|/\*.*?\*/)"
    r"|(?P<str>(?:u8|u|U|L|R)?\"(?:\\.|[^\"\\\n])*\")"
    r"|(?P<char>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*')"
    r"|(?P<num>\.?[0-9](?:[eEpP][+-]|[0-9a-zA-Z_.'])*)"
    r"|(?P<id>[A-Za-z_$][A-Za-z0-9_$]*)"
    r"|(?P<punct>" + "|".join(re.escape(p) for p in _PUNCT) + r")"
    r"|(?P<other>.)",
    re.S,
)
_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')


@dataclass
class Token:
    kind: str  # id | num | str | char | punct | pragma | other
    text: str
    file: str
    line: int
    col: int

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{self.text!r}@{self.line}:{self.col}"


def tokenize(text: str, file: str = "") -> list[Token]:
    """Tokenize preprocessed C/C++ (line markers are consumed, `#pragma` lines kept whole).

    The text after a line marker up to the next one (an included header's lines, the same in every
    file that includes it) is tokenized once per process: see _segment."""
    out: list[Token] = []
    _scan(text, 0, file, 1, True, out)
    return out


def _scan(text: str, pos: int, cur_file: str, line: int, at_bol: bool, out: list, memo: bool = True) -> None:
    """Tokens of text[pos:] into `out`, from the state given (the file and line at `pos`, and
    whether `pos` begins a line).  With `memo`, the segment after each line marker comes from
    _segment."""
    line_start, n = pos, len(text)
    while pos < n:
        if at_bol:
            j = pos
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "#":
                end = text.find("\n", j)
                end = n if end < 0 else end
                directive = text[j:end]
                m = _MARKER.match(directive)
                if m:
                    cur_file, line = m.group(2), int(m.group(1))
                else:
                    body = directive[1:].strip()
                    if body.startswith("pragma"):
                        out.append(Token("pragma", body[len("pragma"):].strip(), cur_file, line, j - pos + 1))
                    line += 1
                pos = end + 1
                line_start = pos
                if m and memo:
                    found = _segment(text, pos, cur_file, line)
                    if found is not None:
                        tokens, pos = found
                        out.extend(tokens)
                        line_start = pos  # the next line marker (or the end) sets the line
                continue
            at_bol = False
        tok = _TOKEN.match(text, pos)
        assert tok is not None and tok.lastgroup is not None  # (?P<other>.) matches any character
        m, kind = tok, tok.lastgroup
        value = m.group()
        if kind == "nl":
            line += 1
            line_start = m.end()
            at_bol = True
        elif kind == "comment":
            extra = value.count("\n")
            if extra:
                line += extra
                line_start = pos + value.rfind("\n") + 1
        elif kind != "ws":
            out.append(Token(kind, value, cur_file, line, pos - line_start + 1))
        pos = m.end()


# A line that is a line marker where a line begins (what _scan's _MARKER matches on one line).
_NEXT_MARKER = re.compile(r'^[ \t]*#[^\S\n]*(?:line[^\S\n]+)?\d+[^\S\n]+"[^"\n]*"', re.M)
_SEGMENTS: dict = {}  # (segment text, file, line) -> its tokens
_SEGMENTS_MAX = 512


def _segment(text: str, pos: int, file: str, line: int):
    """(tokens, end) of text[pos:end], the lines after a line marker up to the next line marker
    (or the end), remembered per process; None when it cannot be tokenized on its own.

    Tokenizing such a segment alone gives what tokenizing it within the text gives: it starts a
    line in a known file and line, and every token ends within it, since only a block comment
    spans lines (a segment with `/*` is not remembered) and it ends at a line's end.  The tokens
    are shared by the files that include the header: no one changes a Token."""
    m = _NEXT_MARKER.search(text, pos)
    end = m.start() if m is not None else len(text)
    if end == pos:
        return None
    seg = text[pos:end]
    if "/*" in seg or (end < len(text) and not seg.endswith("\n")):
        return None
    key = (seg, file, line)
    tokens = _SEGMENTS.get(key)
    if tokens is None:
        tokens = []
        _scan(seg, 0, file, line, True, tokens, memo=False)
        if len(_SEGMENTS) >= _SEGMENTS_MAX:  # one process may read many files
            _SEGMENTS.clear()
        _SEGMENTS[key] = tokens
    return tokens, end


def retext(like: Token, text: str) -> list[Token]:
    """Tokens of `text`, all placed at `like`'s location (a rewrite's diagnostics point at the source)."""
    return [Token(t.kind, t.text, like.file, like.line, like.col) for t in tokenize(text, like.file)]


def render(tokens: list[Token]) -> str:
    """Text whose tokens sit at their original lines and columns (via `#line` directives)."""
    parts: list[str] = []
    cur_file, cur_line, cur_col = None, 0, 1
    for t in tokens:
        if t.kind == "pragma":
            parts.append(f'\n#line {t.line} "{t.file}"\n#pragma {t.text}\n')
            cur_file, cur_line, cur_col = t.file, t.line + 1, 1
            continue
        if t.file != cur_file or t.line != cur_line or t.col < cur_col:
            if t.file == cur_file and 0 < t.line - cur_line <= 3:
                parts.append("\n" * (t.line - cur_line))
            else:
                parts.append(f'\n#line {t.line} "{t.file}"\n')
            cur_file, cur_line, cur_col = t.file, t.line, 1
        if t.col > cur_col:
            parts.append(" " * (t.col - cur_col))
            cur_col = t.col
        elif parts and _glue(parts[-1], t.text):
            # two tokens that would lex as one: a space, and every later token on this line is
            # one column late (a new line marker).  Only a space where it is needed: with one
            # after every token, `x[x[x[...]]]` restarted its line at each token, each time padded
            # to the column: a line of 40 KB grew to 900 MB.
            parts.append(" ")
            cur_col += 1
        parts.append(t.text)
        cur_col += len(t.text)
    parts.append("\n")
    return "".join(parts)


_WORD = re.compile(r"[A-Za-z0-9_$]")
_MERGING = set("+-*/%<>=!&|^~?:.#")


def _glue(before: str, after: str) -> bool:
    """Would `before` and `after`, written with nothing between them, lex differently (`a` `b`,
    `-` `-`, `/` `*`, `1` `.`, `L` `"s"`)?"""
    if not before or not after or before[-1] in " \n":
        return False
    a, b = before[-1], after[0]
    if _WORD.match(a):
        return bool(_WORD.match(b)) or b in "\"'" or (a.isdigit() and b == ".")
    return (a in _MERGING and b in _MERGING) or (a == "." and b.isdigit())


_PAIRS = {"(": ")", "[": "]", "{": "}"}


def match_close(tokens: list[Token], i: int) -> int:
    """Index of the bracket closing the one at `i` ( ( [ { ), or len(tokens)."""
    open_, close = tokens[i].text, _PAIRS[tokens[i].text]
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].text == open_:
            depth += 1
        elif tokens[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens)


def match_close_texts(texts: list[str], i: int) -> int:
    """match_close on the tokens' texts, for a scan that has them in one list (split_items: most
    tokens are the stub headers' prototypes, and reading each token's text was its time)."""
    open_, close = texts[i], _PAIRS[texts[i]]
    depth = 0
    for j in range(i, len(texts)):
        x = texts[j]
        if x == open_:
            depth += 1
        elif x == close:
            depth -= 1
            if depth == 0:
                return j
    return len(texts)


def match_angle(tokens: list[Token], i: int) -> int:
    """Index of the `>` closing a template argument list opened at `i`, or -1 if it is not one."""
    depth = 0
    j = i
    while j < len(tokens):
        t = tokens[j].text
        if t in ("(", "["):
            j = match_close(tokens, j)
        elif t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
            if depth == 0:
                return j
        elif t == ">>":
            depth -= 2
            if depth <= 0:
                return j
        elif t in (";", "{", "}", "&&", "||"):
            return -1
        j += 1
    return -1


def split_commas(tokens: list[Token], angles: bool = False) -> list[list[Token]]:
    """The comma-separated parts of an argument list at bracket depth 0 (with `angles`, `<...>`
    are brackets too: template arguments).  An empty list gives []."""
    opening, closing = ("(", "[", "{") + (("<",) if angles else ()), (")", "]", "}") + ((">",) if angles else ())
    parts: list[list[Token]] = []
    cur: list[Token] = []
    depth = 0
    for t in tokens:
        if t.text in opening:
            depth += 1
        elif t.text in closing:
            depth -= 1
        if t.text == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur or parts:
        parts.append(cur)
    return parts


def integer_literal(text: str) -> int | None:
    """The value of a C integer literal (`42`, `0x2A`, `052`, `42u`, `1'000` in C++, `1_000` in Python),
    or None for one that is no number here: not a literal, or past 64 bits, which no C integer type
    (nor a Numba int64/uint64) holds, a compiler error.  The digits are never all converted when
    there are too many (Python refuses past 4,300; a file full of them would cost quadratic time)."""
    digits = text.strip().rstrip("uUlL").replace("'", "").replace("_", "")
    if not digits or len(digits) > 24:  # 2**64 has 20 decimal digits, 22 octal, 16 hex (with 0x: 18)
        return None
    try:
        v = int(digits, 8) if re.fullmatch(r"0[0-7]+", digits) else int(digits, 0)
    except ValueError:
        return None
    return v if v < 2**64 else None
