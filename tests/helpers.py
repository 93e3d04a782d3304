"""Shared test helpers: analyze C source text and read exact results as sympy expressions."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import sympy

from staticroof.pipeline import run

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def analyze_file(path, defines=None, include_dirs=()):
    """{kernel name: KernelSummary} for one file (plus the whole Report as `.report`)."""
    report = run([Path(path)], defines or {}, include_dirs)
    out = {k.name: k for k in report.kernels}
    return out, report


def analyze_source(src: str, tmp_path, defines=None, name="kernel.c", include_dirs=()):
    p = Path(tmp_path) / name
    p.write_text(src)
    return analyze_file(p, defines, include_dirs)[0]


_FUNCS = {"floor": sympy.floor, "ceiling": sympy.ceiling, "Min": sympy.Min, "Max": sympy.Max,
          "Piecewise": sympy.Piecewise, "Mod": sympy.Mod}


def S(text: str) -> sympy.Expr:
    """Parse an expected expression; every identifier is a plain symbol (so `N` is not sympy's N)."""
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    local = {n: _FUNCS.get(n, sympy.Symbol(n)) for n in names}
    return sympy.sympify(text, locals=local)


def same(a, b) -> bool:
    """Exact symbolic equality (integer-valued functions such as floor compared at many points)."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    d = sympy.simplify(sympy.expand(a - b))
    if d == 0:
        return True
    syms = sorted(d.free_symbols, key=str)
    if not syms:
        return False
    for values in itertools.product(range(3, 40, 7), repeat=len(syms)):
        if sympy.simplify(d.subs(dict(zip(syms, values)))) != 0:
            return False
    return True


def lru_words(touches, m_words: int) -> int:
    """Words a fully associative LRU cache of m_words moves for a stream of (element, access)
    touches, access being "r" (read), "w" (written, not read), "rw" (read, then written) or "new"
    (a partial sum: made at its first touch, loaded again only if it was spilled).  Loads on
    misses that need the old value; dirty elements stored on eviction and at the end."""
    from collections import OrderedDict

    cache: OrderedDict = OrderedDict()
    made = set()
    moved = 0
    for key, access in touches:
        write = access != "r"
        if key in cache:
            cache.move_to_end(key)
            cache[key] = cache[key] or write
            continue
        if access in ("r", "rw") or (access == "new" and key in made):
            moved += 1
        made.add(key)
        cache[key] = write
        if len(cache) > m_words:
            _, dirty = cache.popitem(last=False)
            moved += dirty
    return moved + sum(1 for dirty in cache.values() if dirty)
