"""`staticroof:` directives in source comments: size pragmas and lint suppressions.

A comment is the one place a project can say something about one line of its code without
changing what the compiler sees:

- `// staticroof: N=4096 M=512` (or `/* staticroof: N=4096 */`) binds sizes for the whole file,
  exactly like `#pragma staticroof sizes N=4096 M=512` (a default that `-D` overrides);
- `// staticroof: ignore[RF202]` (`ignore[RF202, RF9]`, or a bare `ignore` for every code)
  silences lint findings on that line; `lint` reads these through :func:`suppressions`.

Python sources (the future Numba front end) write the same directives after `#`.  Only real
comment openers count: `#` is a comment only in Python, and text inside a string literal that
happens to contain `//` is not worth the cost of a tokenizer here (a false directive there can
only bind a size its name does not have or silence a line).
"""

from __future__ import annotations

import re

_OPENERS = {"c": r"//|/\*", "cpp": r"//|/\*", "cuda": r"//|/\*", "python": r"#"}
_DIRECTIVE = r"(?:{openers})[ \t*]*staticroof:[ \t]*(.*?)(?:\*/|$)"
_SIZE = re.compile(r"([A-Za-z_]\w*)[ \t]*=[ \t]*(\d+)")
_IGNORE = re.compile(r"ignore(?:\[([^\]]*)\])?")


def _directives(text: str, language: str):
    pattern = re.compile(_DIRECTIVE.format(openers=_OPENERS.get(language, _OPENERS["c"])))
    for number, line in enumerate(text.splitlines(), start=1):
        if "staticroof:" not in line:
            continue
        for m in pattern.finditer(line):
            yield number, m.group(1).strip()


def size_pragmas(text: str, language: str) -> dict:
    """{name: value} from `staticroof: N=4096` comments (a later comment wins)."""
    out = {}
    for _line, body in _directives(text, language):
        if body.startswith("ignore"):
            continue
        pairs = _SIZE.findall(body)
        if pairs and _SIZE.sub("", body).strip(" \t,") == "":
            out.update({name: int(value) for name, value in pairs})
    return out


def pragma_text(sizes: dict) -> str:
    """The `#pragma staticroof sizes` line the front ends read, for sizes given in comments."""
    if not sizes:
        return ""
    return "\n#pragma staticroof sizes " + " ".join(f"{n}={v}" for n, v in sizes.items()) + "\n"


def suppressions(text: str, language: str) -> dict:
    """{line: set of code prefixes, or None for every code} from `staticroof: ignore[...]` comments."""
    out: dict = {}
    for line, body in _directives(text, language):
        m = _IGNORE.match(body)
        if not m:
            continue
        if m.group(1) is None:
            out[line] = None
        elif out.get(line, set()) is not None:
            codes = {c.strip().upper() for c in re.split(r"[,\s]+", m.group(1)) if c.strip()}
            out[line] = out.get(line, set()) | codes
    return out
