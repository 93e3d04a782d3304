"""Kernel names as a report writes them, to the name the source declares.

ncu writes demangled signatures (`void mm_tiled<16>(const float *, ...)`), sometimes with a
truncated namespace prefix (`unnamed>::saxpy_kernel(...)`, Windows builds), base names (`vecAdd`)
or Itanium-mangled names (`_Z6vecAddPfS_S_`, `--print-kernel-base mangled`).  `parse` returns the
unqualified name and the template arguments of the outermost template, as written."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class KernelName:
    base: str  # `mm_tiled`
    template: tuple = ()  # ("16",)


def _strip_group(s: str, close: str, open_: str) -> tuple[str, str]:
    """Split a trailing balanced `open_ ... close` group off `s`: (rest, inside) or (s, "")."""
    s = s.rstrip()
    if not s.endswith(close):
        return s, ""
    depth = 0
    for k in range(len(s) - 1, -1, -1):
        if s[k] == close:
            depth += 1
        elif s[k] == open_:
            depth -= 1
            if depth == 0:
                return s[:k].rstrip(), s[k + 1:-1]
    return s, ""


def _split_top(s: str, sep: str = ",") -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def demangle_base(name: str) -> str | None:
    """The unqualified name of an Itanium-mangled function (`_Z6vecAddPfS_S_` -> `vecAdd`,
    `_ZN12_GLOBAL__N_112saxpy_kernelEfPKfPfi` -> `saxpy_kernel`), or None."""
    if not name.startswith("_Z"):
        return None
    s = name[2:]
    nested = s.startswith("N")
    s = s[1:] if nested else s
    last = None
    while True:
        s = s.lstrip("rVK")
        m = re.match(r"(\d+)", s)
        if not m:
            break
        n = int(m.group(1))
        ident = s[m.end():m.end() + n]
        if len(ident) < n:
            return None
        last, s = ident, s[m.end() + n:]
        if not nested:
            break
        if s.startswith("I"):  # template arguments: the name is already complete
            break
        if s.startswith("E"):
            break
    return last


def parse(name: str) -> KernelName:
    s = name.strip()
    base = demangle_base(s)
    if base is not None:
        return KernelName(base)
    if s.startswith("void "):
        s = s[5:]
    s, _params = _strip_group(s, ")", "(")
    s, targs = _strip_group(s, ">", "<")
    base = s.rsplit("::", 1)[-1].strip()
    return KernelName(base, tuple(_split_top(targs)) if targs else ())
