"""The JSON report: a stable, versioned interface for scripts, lint, diff and validation.

Version 1 (documented in README.md, "JSON output"): numbers are exact integers where they are
integers, floats for intensities, ``null`` where a size is unknown; every ``*_expr`` is a sympy
expression string in the kernel's size symbols.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..diagnostics import shown
from .spelling import text

if TYPE_CHECKING:  # the diagnostics of a cached report are printed without the analysis or sympy
    from ..analysis.summary import KernelSummary, PartSummary
    from ..diagnostics import Diagnostic

VERSION = 1


def _expr(q) -> str:
    return text(q.expr)


def diagnostic(d: Diagnostic) -> dict:
    loc = d.location
    return {"file": shown(loc.file) if loc else None, "line": loc.line if loc else 0, "col": loc.col if loc else 0,
            "severity": d.severity, "code": d.code, "message": d.message}


def _annotate(d: dict, quantities: dict) -> None:
    """Beside each `PREFIXexpr`: `PREFIXcondition` when that formula holds only for some sizes, and
    `PREFIXpieces` (every piece with its condition) when the count is piecewise in the sizes."""
    for prefix, q in quantities.items():
        if q is None:
            continue
        if q.holds is not None:
            d[f"{prefix}condition"] = text(q.holds)
        if q.piecewise:
            d[f"{prefix}pieces"] = [{"condition": text(c), "expr": text(e)} for c, e in q.piece_list()]


def part(p: PartSummary) -> dict:
    out = {
        "flops": {
            "total": p.flops.number, "expr": _expr(p.flops),
            "by_precision": {k: q.number for k, q in p.by_precision.items()},
            "by_precision_expr": {k: _expr(q) for k, q in p.by_precision.items()},
            "special": p.special.number, "special_expr": _expr(p.special),
            "special_by_function": {k: q.number for k, q in p.special_by_name.items()},
        },
        "bytes": {
            "compulsory": p.compulsory.number, "compulsory_expr": _expr(p.compulsory),
            "access": p.access.number, "access_expr": _expr(p.access),
            "shared": p.shared.number, "shared_expr": _expr(p.shared),
            "shared_arrays": {name: {
                "dtype": a.dtype, "access_read": a.access_read.number, "access_write": a.access_write.number,
                "access_read_expr": _expr(a.access_read), "access_write_expr": _expr(a.access_write),
            } for name, a in p.shared_arrays.items()},
            "arrays": {name: {
                "dtype": a.dtype, "space": a.space,
                "read": a.read.number, "write": a.write.number,
                "read_expr": _expr(a.read), "write_expr": _expr(a.write),
                "access_read": a.access_read.number, "access_write": a.access_write.number,
                "access_read_expr": _expr(a.access_read), "access_write_expr": _expr(a.access_write),
                **({"record": a.record} if a.record else {}),
            } for name, a in p.arrays.items()},
        },
        "intensity": {
            "compulsory": p.intensity.number, "compulsory_expr": _expr(p.intensity),
            "access": p.intensity_access.number, "access_expr": _expr(p.intensity_access),
        },
    }
    _annotate(out["flops"], {"": p.flops, "special_": p.special})
    _annotate(out["bytes"], {"compulsory_": p.compulsory, "access_": p.access, "shared_": p.shared})
    _annotate(out["intensity"], {"compulsory_": p.intensity, "access_": p.intensity_access})
    for name, a in p.arrays.items():
        _annotate(out["bytes"]["arrays"][name], {"read_": a.read, "write_": a.write, "access_read_": a.access_read,
                                                 "access_write_": a.access_write})
    if p.cache_bound is not None:
        assert p.intensity_cache is not None  # set with the bound (analysis/summary.py)
        out["bytes"].update(cache_bound=p.cache_bound.number, cache_bound_expr=_expr(p.cache_bound),
                            cache_bytes=p.cache_bytes, cache_departs_at=p.departs_at)
        out["intensity"].update(cache_bound=p.intensity_cache.number, cache_bound_expr=_expr(p.intensity_cache))
    if p.l1_bound is not None:
        assert p.intensity_l1 is not None  # set with the bound
        out["bytes"].update(l1_bound=p.l1_bound.number, l1_bound_expr=_expr(p.l1_bound), l1_bytes=p.l1_bytes)
        out["intensity"].update(l1_bound=p.intensity_l1.number)
    return out


def kernel(k: KernelSummary) -> dict:
    out = {
        "name": k.name, "file": shown(k.file), "line": k.location.line, "col": k.location.col,
        "language": k.language, "status": "unsupported" if k.failed else "ok",
        "sizes": {n: k.sizes.get(n) for n in sorted(set(k.size_origins) | set(k.sizes))},
        "size_origins": dict(sorted(k.size_origins.items())),
        "exact": k.exact,
    }
    if k.launch:
        out["launch"] = {"grid": list(k.launch["grid"]), "block": list(k.launch["block"]),
                         "origin": k.launch["origin"], "model": k.launch["model"]}
    if k.total is not None:
        out.update(part(k.total))
    if k.roofline is not None:
        out["roofline"] = k.roofline
        out["nests"] = [dict(label=n.label, line=n.location.line if n.location else 0, **part(n)) for n in k.nests]
    out["diagnostics"] = [diagnostic(d) for d in k.diagnostics]
    return out


def render(kernels: list[KernelSummary], file_diagnostics: list[Diagnostic]) -> str:
    return join([kernel(k) for k in kernels], [diagnostic(d) for d in file_diagnostics])


def join(kernels: list[dict], diagnostics: list[dict]) -> str:
    """The report from its parts, each kernel's and each diagnostic's object (what a cached report
    is printed from)."""
    return json.dumps({"version": VERSION, "kernels": kernels, "diagnostics": diagnostics}, indent=2)
