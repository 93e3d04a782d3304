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
