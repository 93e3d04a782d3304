"""The text report: one block per kernel, formulas beside numbers, diagnostics as
``file:line:col: CODE message`` lines (the format editors and CI annotators already parse).

Every formula and number carries its unit (`FLOP`, `B`, `FLOP/B`), and every count that stands
alone has thousands separators (`134,217,728 B`), so the lines read the same whatever the sizes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .formula import condition, expr, inline, number, others

if TYPE_CHECKING:  # the diagnostics of a cached report are printed without the analysis or sympy
    from ..analysis.summary import KernelSummary, PartSummary
    from ..diagnostics import Diagnostic

_LABEL = 13
_LONG = 120  # a condition longer than this is left to the JSON
_ALIGN = 60  # the arrays' access columns line up while their first parts are at most this wide
LONG_FORMULA = 200  # a formula printed longer than this is left to the JSON; its value at the sizes stays
_num = number


def _shown(text: str) -> str:
    """A formula as printed: itself, or past LONG_FORMULA characters a note saying where it is
    whole (the JSON); the caller adds the value at the sizes when it is known."""
    if len(text) <= LONG_FORMULA:
        return text
    return f"(formula of {len(text):,} characters: --format json)"


def _inline(q) -> str:
    """`inline(q)`, or for a formula past LONG_FORMULA characters the note and the value."""
    text = inline(q)
    if len(text) <= LONG_FORMULA:
        return text
    return _shown(text) + (f" = {_num(q.value)}" if q.value is not None else "")


def _q(q, unit: str) -> str:
    """One line: the formula, its value, the unit, and the condition it needs (when piecewise)."""
    import sympy

    if isinstance(q.expr, sympy.Piecewise):
        text = inline(q)
    else:
        text = expr(q.expr)
    text = _shown(text)
    if q.value is not None and (not q.expr.is_Number or not q.expr.is_Integer):
        text += f" = {_num(q.value)}"
    text = f"{text} {unit}".rstrip()
    if q.holds is not None:
        where = condition(q.holds)
        if len(where) > _LONG:  # the JSON has it whole
            where = "the sizes in a region around these (--format json gives its condition)"
        text += f"   [for {where}{others(q)}]"
    return text


def _rows(label: str, q, unit: str, note: str = "") -> list[str]:
    """A quantity's rows: one line, or one line per piece when no single formula covers the
    sizes (no sizes given and the pieces are not Min/Max of each other)."""
    import sympy

    if not isinstance(q.expr, sympy.Piecewise):
        return [_row(label, _q(q, unit) + note)]
    pieces = q.piece_list()
    width = max(len(f"{_shown(expr(e))} {unit}") for _, e in pieces)
    rows = []
    for k, (c, e) in enumerate(pieces):
        rows.append(_row(label if k == 0 else "", f"{f'{_shown(expr(e))} {unit}':<{width}}   if {condition(c)}"
                         + (note if k == 0 else "")))
    return rows


def _record(a) -> str:
    """`   of b: 28 B structs, at byte 0`: a member of an array of structs (AoS against SoA)."""
    r = a.record
    if not r:
        return ""
    size = f"{r['record_bytes']:,} B structs" if r["record_bytes"] is not None else "structs of unknown size"
    at = f", at byte {r['member_offset']:,}" if r["member_offset"] is not None else ""
    return f"   of {r['parent']}: {size}{at}"


def _row(label: str, text: str) -> str:
    return f"  {label:<{_LABEL}}{text}"


def _style(text: str, color: bool, **kw) -> str:
    if not color:
        return text
    import click

    return click.style(text, **kw)


def diagnostic_line(d: Diagnostic, color: bool = False, times: int = 1) -> str:
    """`file:line:col: CODE message`; with `times` > 1, the first of that many occurrences of one
    cause: `file:line:col: CODE x3 message (first of 3; --verbose lists all)`."""
    where = f"{d.location}: " if d.location else ""
    code = _style(d.code, color, fg={"error": "red", "warning": "yellow"}.get(d.severity, "cyan"), bold=True)
    if times > 1:
        return f"{where}{code} x{times} {d.message} (first of {times}; --verbose lists all)"
    return f"{where}{code} {d.message}"


def diagnostic_lines(diagnostics, color: bool = False, verbose: bool = False) -> list[str]:
    """One line per cause, at its first occurrence (a cause: one code and one message, in one
    file; the location is not part of it), in the order the causes first occur; every
    occurrence on its own line with `verbose` (as the JSON always lists them)."""
    if verbose:
        return [diagnostic_line(d, color) for d in diagnostics]
    causes: dict = {}
    for d in diagnostics:
        causes.setdefault((d.location.file if d.location else None, d.code, d.message), []).append(d)
    return [diagnostic_line(ds[0], color, len(ds)) for ds in causes.values()]


def _part_rows(p: PartSummary) -> list[str]:
    rows = []
    prec = ", ".join(f"{k} {_inline(q)} FLOP" for k, q in p.by_precision.items())
    w = ""
    if (prec and len(p.by_precision) > 1) or (prec and p.special.expr != 0):
        w = f"   ({prec})"
    elif prec:
        w = f"   ({next(iter(p.by_precision))})"
    rows += _rows("W", p.flops, "FLOP", w)
    if p.special.expr != 0:
        calls = ", ".join(f"{n} {_inline(q)} call{'' if q.expr == 1 else 's'}" for n, q in p.special_by_name.items())
        rows.append(_row("special", f"{calls} (counted in W)"))
    rows += _rows("Q compulsory", p.compulsory, "B")
    rows += _rows("Q access", p.access, "B", "   (no reuse beyond registers)")
    if p.shared.expr != 0:
        rows += _rows("Q shared", p.shared, "B", "   (on-chip __shared__ loads and stores)")
    if p.cache_bound is not None:
        where = ""
        if p.departs_at:
            (name, value), = p.departs_at.items()
            where = f"; exceeds Q compulsory from {name} = {value:,}"
        bound = p.cache_bound
        value = f" = {_num(bound.value)}" if bound.value is not None and not bound.expr.is_Integer else ""
        rows.append(_row("Q cache", f"{_shown(expr(bound.expr))}{value} B   (lower bound with "
                                    f"M_cache = {p.cache_bytes:,} B{where})"))
    if p.l1_bound is not None and p.l1_bound.value is not None:
        rows.append(_row("Q L2", f"{_num(p.l1_bound.value)} B   (L2 to the SMs: the same bound with the "
                                 f"{p.l1_bytes:,} B of L1/shared memory per SM)"))
    rows += _rows("I", p.intensity, "FLOP/B", f"   (access level: {_q(p.intensity_access, 'FLOP/B')})")
    return rows


def with_si_prefix(v, unit: str) -> str:
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:.3g} {prefix}{unit}"
    return f"{v:.3g} {unit}"


def _seconds(t: float) -> str:
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us")):
        if t >= scale:
            return f"{t / scale:.3g} {unit}"
    return f"{t / 1e-9:.3g} ns"


def _roofline(r: dict) -> str:
    """The one verdict: the hierarchical one (the level that binds) when every level with a known
    bandwidth has a position, else the classic DRAM roofline's."""
    head = f"{r['machine']} {r['roof']} (ridge {r['ridge']:.3g} FLOP/B)"
    if r.get("intensity") is None:
        return head + ": give the sizes for a position"
    h = r.get("hierarchy") or {}
    if h.get("bound") is not None and len(h.get("levels", ())) > 1:
        where = "compute-bound" if h["bound"] == "compute" else f"memory-bound at {h['bound']}"
        text = (f"{head}: I {_num(r['intensity'])} FLOP/B at DRAM; {where}, "
                f"attainable {with_si_prefix(h['attainable'], 'FLOP/s')} = {100 * h['fraction_of_peak']:.3g}% of peak")
        if r.get("shares"):
            text += " [" + ", ".join(f"{p} {100 * float(v):.3g}%" for p, v in r["shares"].items()) + " of W]"
        if h.get("time_floor") is not None:
            text += f"; time >= {_seconds(h['time_floor'])}"
        return text
    text = (f"{head}: I {_num(r['intensity'])} FLOP/B, {r['bound']}-bound, "
            f"attainable {with_si_prefix(r['attainable'], 'FLOP/s')} = {100 * r['fraction_of_peak']:.3g}% of peak")
    if r.get("shares"):
        text += " [" + ", ".join(f"{p} {100 * float(v):.3g}%" for p, v in r["shares"].items()) + " of W]"
    if r.get("time_floor") is not None:
        text += f"; time >= {_seconds(r['time_floor'])} (no overlap {_seconds(r['time_no_overlap'])})"
    return text


def _levels(r: dict) -> str:
    """The hierarchical roofline in one line: each level's intensity and roof (the verdict is the
    roofline line's, stated once)."""
    parts = []
    for lv in r["levels"]:
        i = "?" if lv["intensity"] is None else _num(lv["intensity"])
        roof = f" @ {with_si_prefix(lv['bandwidth'], 'B/s')}" if lv["bandwidth"] else " (bandwidth unknown)"
        parts.append(f"{lv['level']} I {i} FLOP/B{roof}")
    text = " | ".join(parts)
    h = r["hierarchy"]
    if h.get("unknown"):
        text += f" (without {', '.join(h['unknown'])}: no bandwidth in the database)"
    if h.get("note"):
        text += " [L1: one wavefront per warp access assumed]"
    return text


def _array_rows(arrays) -> list[str]:
    """`x (fp32): read 4*n B, write 0 B   access r 4*n B, w 0 B`, one row per array, the access
    columns lined up while the first parts are short."""
    heads, tails = [], []
    for a in arrays:
        heads.append(f"{a.name} ({a.dtype}{'' if a.space == 'global' else ', ' + a.space}): "
                     f"read {_inline(a.read)} B, write {_inline(a.write)} B")
        tails.append(f"access r {_inline(a.access_read)} B, w {_inline(a.access_write)} B{_record(a)}")
    width = max(map(len, heads), default=0)
    width = width if width <= _ALIGN else 0
    return [_row("arrays" if k == 0 else "", f"{h:<{width}}   {t}")
            for k, (h, t) in enumerate(zip(heads, tails, strict=True))]


def kernel_block(k: KernelSummary, color: bool = False, verbose: bool = False) -> str:
    status = "unsupported" if k.failed else ("exact" if k.exact else "approximate")
    hue = {"exact": "green", "approximate": "yellow", "unsupported": "red"}[status]
    head = f"{k.location}: {_style(k.name, color, bold=True)}  [{k.language}, {_style(status, color, fg=hue)}]"
    lines = [head]
    if k.size_origins:
        parts = []
        for name in sorted(k.size_origins):
            v = k.sizes.get(name)
            parts.append(f"{name} = {v:,} ({k.size_origins[name]})" if v is not None
                         else f"{name} ({k.size_origins[name]}, unbound)")
        lines.append(_row("sizes", "; ".join(parts)))
    if k.launch:
        dims = lambda t: " x ".join("?" if v is None else f"{v:,}" for v in t)  # noqa: E731
        where = f" ({k.launch['origin']})" if k.launch["origin"] else " (unknown: --grid/--block)"
        lines.append(_row("launch", f"grid {dims(k.launch['grid'])}, block {dims(k.launch['block'])}{where}; "
                                    f"{k.launch['model']}"))
    if k.total is not None:
        lines += _part_rows(k.total)
        lines += _array_rows(k.total.arrays.values())
        if k.roofline:
            lines.append(_row("roofline", _roofline(k.roofline)))
            if k.roofline.get("levels"):
                lines.append(_row("levels", _levels(k.roofline)))
        for n in k.nests:
            if _zero(n.flops) and _zero(n.compulsory):  # statements outside every loop that do nothing
                continue
            lines.append(_row(n.label, f"W {_inline(n.flops)} FLOP, Q {_inline(n.compulsory)} B, "
                                       f"I {_inline(n.intensity)} FLOP/B"))
    lines += ["  " + line for line in diagnostic_lines(k.diagnostics, color, verbose)]
    return "\n".join(lines)


def _zero(q) -> bool:
    import sympy

    e = getattr(q, "expr", None)
    return e is not None and sympy.sympify(e) == 0


def render(kernels: list[KernelSummary], file_diagnostics: list[Diagnostic], color: bool = False,
           verbose: bool = False) -> str:
    return join(diagnostic_lines(file_diagnostics, color, verbose), [kernel_block(k, color, verbose) for k in kernels])


def join(lines: list[str], blocks: list[str]) -> str:
    """The report from its parts: the file diagnostics' lines, then the kernels' blocks (what a
    cached report is printed from)."""
    text = "\n".join(lines)
    if blocks:
        text = (text + "\n\n" if text else "") + "\n\n".join(blocks)
    return text
