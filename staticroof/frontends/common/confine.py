"""Which files the preprocessor may read for one analyzed file: the project tree that holds it, the
`-I` folders, staticroof's own stub headers and the run's work folder; nothing else.

Why: the pull-request gate analyzes code from strangers and posts its report where the world reads
it.  `#include "/etc/hostname"` as a loop bound, or a header that is a symbolic link to a token file,
would put that file's first token in the report as a size.  A file outside the allowed folders is
never opened by staticroof itself; what the preprocessor opened is checked after it ran (its own
dependency list), so a computed `#include HDR` cannot get round the check; a symbolic link is judged
by where it leads.

The project tree is the git work tree that holds the analyzed file (the nearest folder above it with
`.git`, a folder or a worktree's file); without one, the current folder when the file lies inside it,
else the file's own folder.
"""

from __future__ import annotations

import os
from pathlib import Path


def project_root(path: Path) -> Path:
    """The project tree of the analyzed file `path` (see the module's docstring), resolved."""
    start = Path(os.path.realpath(path)).parent
    for folder in (start, *start.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    cwd = Path(os.path.realpath(os.getcwd()))
    return cwd if start == cwd or cwd in start.parents else start


class Confinement:
    """The folders an analysis of one file may read from; `allows(p)` judges `p` by its real path
    (every symbolic link followed to where it leads)."""

    def __init__(self, path: Path, include_dirs=(), own=()):
        self.project = project_root(path)
        self.include_dirs = [Path(os.path.realpath(d)) for d in include_dirs]
        self.roots = [self.project, *self.include_dirs, *(Path(os.path.realpath(d)) for d in own)]

    def allows(self, path) -> bool:
        real = Path(os.path.realpath(path))
        return any(real == r or r in real.parents for r in self.roots)

    def refusal(self, name: str, path) -> str:
        """The error for an include of `name` that reached `path`, outside every allowed folder: it
        names the path (where the link leads, if it is one), never anything of its content."""
        real = os.path.realpath(path)
        via = f" (a link to {real})" if os.path.abspath(path) != real else ""
        return (f"#include {name}: {path}{via} is outside the project tree ({self.project}) and the -I folders: "
                "not read (pass -I with its folder if it belongs to the project)")


def parse_make_deps(text: str) -> list[str] | None:
    """The prerequisites of a make rule as the C preprocessor writes it (`-MD -MF F -MT x`): `x: a.c
    b\\ c.h \\<newline> d.h`.  None when the text is not one rule (a file name with a newline), so the
    caller refuses what it cannot check."""
    head, sep, rest = text.partition(":")
    if not sep or head.strip() != "x":
        return None
    out, cur, k = [], [], 0
    while k < len(rest):
        ch = rest[k]
        if ch == "\\" and k + 1 < len(rest):
            nxt = rest[k + 1]
            if nxt == "\n":  # a continued line
                k += 2
                continue
            if nxt in " #\\":
                cur.append(nxt)
                k += 2
                continue
        if ch == "$" and rest[k + 1:k + 2] == "$":
            cur.append("$")
            k += 2
            continue
        if ch in " \t\n":
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
        k += 1
    if cur:
        out.append("".join(cur))
    return out
