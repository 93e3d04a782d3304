"""Predicted against measured, per profiled launch.

Each launch is matched to a source kernel by name (staticroof.ncu.names) and analyzed at the sizes
given (-D, config) under the launch shape the report recorded, so grid-dependent counts use the
grid that ran.  The rows compare W, compulsory DRAM reads and writes (apart), the access-level bytes
with L1, the L2-level bytes with L2, and place the attained point under the roofs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..ncu.measured import Measured, measure
from ..ncu.names import parse as parse_name
from .render import pct
from .roofs import Roofs, roofs_for

NEAR = 0.6  # a point at 60% or more of the roof under it is "near" that roof


@dataclass
class Row:
    quantity: str
    predicted: float | None
    measured: float | None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.predicted and self.measured is not None:
            return self.measured / self.predicted
        return None


@dataclass
class Validation:
    launch: object  # ncu.Launch
    measured: Measured
    kernel: Any = None  # analysis.summary.KernelSummary, None when no source kernel matches
    rows: list = field(default_factory=list)
    roofs: Roofs | None = None
    roofs_from: str = ""
    point: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)  # why something is not compared
    name: str = ""  # the kernel's name as the source would declare it
    threads_ratio: float | None = None  # the run's threads over the source's, where its launch differs


def _dram_reads(k) -> int | None:
    vals = [a.read.value for a in k.total.arrays.values()]
    return sum(vals) if all(v is not None for v in vals) else None


def _dram_writes(k) -> int | None:
    vals = [a.write.value for a in k.total.arrays.values()]
    return sum(vals) if all(v is not None for v in vals) else None


def _level(k, name: str):
    for lv in k.total.levels:
        if lv.name == name:
            return lv.bytes.value
    return None


def _explain_w(pred, meas, m: Measured, threads_ratio: float | None = None) -> str:
    if meas is None:
        return "no FP instruction counters in the report (collect sm__sass_thread_inst_executed_op_*)"
    if pred is None:
        return ""
    bound = "" if m.flops_exact else " (measured: warp instructions x 32, an upper bound)"
    if meas == pred:
        return "equal" + bound
    sizes = _size_mismatch(meas / pred if pred else None, threads_ratio)
    if sizes:
        return sizes + bound
    if meas > pred:
        return ("the GPU executed more FP operations than the source states: special functions expand into "
                "FMA sequences (the static count gives each call its --cost weight), divisions and square roots "
                "run Newton steps, and library code (RNGs, index math in floating point) adds its own" + bound)
    return ("the GPU executed fewer FP operations than the source states: the compiler folded or removed some "
            "(constants, dead results), or work ran on units these counters do not count" + bound)


def _size_mismatch(ratio: float | None, threads_ratio: float | None) -> str:
    """The explanation of a measured/predicted ratio that says the run used other sizes: a power of
    two (2**k for k >= 2, or its inverse) or the ratio of the run's threads to the source's."""
    if not ratio or ratio <= 0:
        return ""
    r = ratio if ratio >= 1 else 1 / ratio
    k = round(math.log2(r))
    two = k >= 2 and abs(r / 2**k - 1) < 0.01
    threads = threads_ratio is not None and threads_ratio != 1 and abs(ratio / threads_ratio - 1) < 0.01
    if not (two or threads):
        return ""
    why = (f"the run's launch has {threads_ratio:.4g}x the source's threads" if threads else
           f"{'2**' + str(k) if ratio >= 1 else '2**-' + str(k)}, a power of two")
    return (f"{ratio:.4g}x ({why}): the run most likely used other sizes than those in force here; give the "
            "run's with -D (the static count at the right sizes is the comparison that means something)")


def _explain_reads(ratio: float | None, pred, l2_bytes) -> str:
    if ratio is None:
        return ""
    if abs(ratio - 1) <= 0.01:
        return "within 1%: the kernel reads its data once from DRAM"
    if ratio > 1:
        if pred is not None and pred < 1_000_000:
            return ("a kernel this small pays fixed traffic beside its data (instruction and constant fetches, "
                    "page-table walks; it shrinks on the next launches as those stay cached)")
        fits = (f"; its data ({pred:,.0f} B) fits in the {l2_bytes:,} B L2, so the excess is not capacity misses"
                if l2_bytes and pred and pred <= l2_bytes else "")
        return ("reads beyond the compulsory: reuse that missed the caches (the cache-bounded Q says how much a "
                "cache of that size must miss), sector and line granularity, or conflict misses" + fits)
    return "below the compulsory reads: data left in L2 by an earlier kernel or launch was read from there"


def _explain_writes(ratio: float | None, pred, l2_bytes) -> str:
    if ratio is None:
        return ""
    lower = "measured writes are a lower bound of what the kernel wrote"
    if ratio < 0.99:
        fits = f" (the output, {pred:,.0f} B, fits in the {l2_bytes:,} B L2)" if l2_bytes and pred and \
            pred <= l2_bytes else ""
        return f"{lower}: dirty lines still in L2 when the kernel ended are written back later{fits}"
    if ratio > 1.01:
        return f"{lower}, yet above the compulsory: lines evicted and written back more than once, or partial sectors"
    return f"within 1% ({lower})"


def compare(v: Validation) -> None:
    k, m = v.kernel, v.measured
    t = k.total
    pred_w = t.flops.value
    if not k.exact:
        v.problems.append(f"`{k.name}`'s static counts are approximate (`staticroof analyze` says why)")
    v.rows.append(Row("W (FLOP)", pred_w, m.W, _explain_w(pred_w, m.W, m, v.threads_ratio)))
    for prec in sorted(set(t.by_precision) | set(m.flops)) if m.flops_source else ():
        q = t.by_precision.get(prec)
        v.rows.append(Row(f"W {prec}", q.value if q is not None else 0, m.flops.get(prec)))
    l2 = v.roofs.l2_bytes if v.roofs else None
    reads, writes = _dram_reads(k), _dram_writes(k)
    if m.dram_read is not None:
        r = Row("DRAM reads (B)", reads, m.dram_read)
        r.note = _explain_reads(r.ratio, reads, l2)
        v.rows.append(r)
    if m.dram_write is not None:
        r = Row("DRAM writes (B)", writes, m.dram_write)
        r.note = _explain_writes(r.ratio, writes, l2)
        v.rows.append(r)
    if m.dram_read is None and m.dram_total is not None:
        v.rows.append(Row("DRAM reads + writes (B)", t.compulsory.value, m.dram_total,
                          f"the report does not separate reads and writes ({m.dram_source}); measured writes may "
                          "lag behind (dirty lines left in L2)"))
        if reads is not None:
            v.rows.append(Row("DRAM reads + writes vs compulsory reads (B)", reads, m.dram_total,
                              "for kernels whose output stays in L2, the DRAM total is mostly the reads"))
    if m.dram_total is None:
        v.problems.append("no DRAM byte counts in the report (collect dram__bytes_read.sum and dram__bytes_write.sum)")
    if m.l2_bytes is not None:
        v.rows.append(Row("L2 bytes (B)", _level(k, "L2"), m.l2_bytes,
                          "L2 traffic counts 32-byte sectors requested by L1 misses and all writes"))
    if m.l1_bytes is not None:
        v.rows.append(Row("L1 bytes vs access level (B)", t.access.value, m.l1_bytes,
                          f"{m.l1_source}: L1 counts the sectors each warp request touches, so a coalesced access "
                          "equals the access-level bytes, a warp-wide broadcast counts one sector for 32 accesses "
                          "and a strided one a sector per thread"))
    if m.time is not None or v.roofs is not None:
        floor = _time_floor(v, pred_w, t.compulsory.value)
        roofs = v.roofs.name if v.roofs is not None else ""
        v.rows.append(Row("time (s)", floor, m.time,
                          "the predicted time floor max(W/peak, compulsory Q/DRAM bandwidth) on "
                          f"{roofs}: no run can be faster" if floor is not None else
                          "no roofs for a predicted time floor (give --machine)"))
    _place(v, pred_w)


def _time_floor(v: Validation, w, q) -> float | None:
    """max(W/peak, Q/bandwidth) on the roofs, for the kernel's dominant precision, or None."""
    if v.roofs is None or w is None or q is None or not v.roofs.bandwidth:
        return None
    by = v.kernel.total.by_precision
    prec = max(by, key=lambda p: by[p].value or 0) if by else "fp32"
    peak = v.roofs.peaks.get(prec)
    if not peak:
        return None
    from ..roofline.position import position  # the roofline's own time floor, as analyze states it

    floor = position(w, q, peak, v.roofs.bandwidth)["time_floor"]
    return float(floor) if floor is not None else None


def _place(v: Validation, pred_w) -> None:
    m, roofs = v.measured, v.roofs
    w = m.W if m.W is not None else pred_w
    if m.time is None:
        v.problems.append("no duration in the report: no attained performance")
        return
    if w is None:
        return  # no FP counters and no prediction: no point (the reason is already given)
    p = w / m.time
    point: dict[str, Any] = {"P": p,
                             "W_from": "measured" if m.W is not None else "predicted (the report has no FP counters)"}
    if m.dram_total:
        point["I"] = w / m.dram_total
        point["dram_bandwidth"] = m.dram_total / m.time
    for level, q in (("L2", m.l2_bytes), ("L1", m.l1_bytes)):
        if q:
            point[f"I_{level}"] = w / q
    v.point = point
    if roofs is None:
        v.problems.append(v.roofs_from)
        return
    prec = max(m.flops, key=lambda p: m.flops[p]) if m.flops else (max(v.kernel.total.by_precision,
                                                               key=lambda p: v.kernel.total.by_precision[p].value or 0)
                                                          if v.kernel.total.by_precision else "fp32")
    peak = roofs.peaks.get(prec)
    bw = roofs.bandwidth
    point["precision"], point["peak"], point["bandwidth"] = prec, peak, bw
    if "dram_bandwidth" in point:
        point["bandwidth_fraction"] = point["dram_bandwidth"] / bw
    if w == 0 and "bandwidth_fraction" in point:  # no floating-point work: only the bandwidth roof applies
        frac = point["bandwidth_fraction"]
        point.update(bound="memory", fraction=frac)
        point["verdict"] = (f"no floating-point work: judged by DRAM bandwidth alone, {pct(frac)} of "
                            f"{bw / 1e9:.4g} GB/s; " + ("near the bandwidth roof" if frac >= NEAR else
                                                       "far below it: the limit is how the kernel moves its data "
                                                       "(uncoalesced accesses, too few bytes in flight)"))
        return
    if peak is None or "I" not in point:
        return
    memory_roof = point["I"] * bw
    attainable = min(peak, memory_roof)
    bound = "memory" if memory_roof < peak else "compute"
    frac = p / attainable if attainable else 0.0
    point.update(attainable=attainable, bound=bound, fraction=frac)
    if frac >= NEAR:
        which = "DRAM bandwidth" if bound == "memory" else f"{prec} compute"
        point["verdict"] = f"near the {which} roof: {pct(frac)} of the attainable {attainable:,.4g} FLOP/s"
    else:
        point["verdict"] = (f"far below both roofs: {pct(frac)} of the attainable {attainable:,.4g} FLOP/s "
                            f"({bound}-bound at I = {point['I']:.4g} FLOP/B); the limit is how the kernel runs "
                            "(too few threads or waves, latency, launch overhead, uncoalesced or conflicting "
                            "accesses), not the hardware's peaks")


def match(report, only: set) -> list:
    """(launch, KernelName) of every launch to validate (`--kernel` keeps those named)."""
    out = []
    for launch in report.launches:
        name = parse_name(launch.kernel)
        if only and name.base not in only and launch.kernel not in only:
            continue
        out.append((launch, name))
    return out


def analyze_for(source, name, launch, run_analysis) -> tuple[object, str | None, float | None]:
    """The source kernel for one launch, analyzed under the launch's shape: (KernelSummary or
    None, why not or a note, the run's threads over the source's where its launch differs)."""
    def pick(kernels):
        if name.template:
            want = f"{name.base}<{', '.join(name.template)}>".replace(" ", "")
            exact = [k for k in kernels if k.name.replace(" ", "") == want]
            kernels = exact or kernels
        return kernels[0] if kernels else None

    k = pick(run_analysis({name.base}, {}))  # first under the source's own launch, at the sizes given
    if k is None:
        return None, f"no kernel `{name.base}` in {source}", None
    note = None
    ratio = None
    ran = _full(launch.grid), _full(launch.block)
    own = tuple(k.launch.get("grid") or ()), tuple(k.launch.get("block") or ())
    if (ran[0] and ran[0] != own[0]) or (ran[1] and ran[1] != own[1]):
        found = _sizes_from_run(k, ran, own, lambda sizes: pick(run_analysis({name.base}, {}, sizes)))
        if found is not None:
            return (*found, None)
        ratio = threads_ratio(ran, own)
        shape = {key: v for key, v in (("grid", ran[0]), ("block", ran[1])) if v}
        k = pick(run_analysis({name.base}, {name.base: shape}))
        if own[0] or own[1]:
            note = (f"the run's launch (grid {_dims(ran[0])}, block {_dims(ran[1])}) is not the source's at the sizes "
                    f"in force (grid {_dims(own[0])}, block {_dims(own[1])}): analyzed under the run's; if the run "
                    "used other sizes, give them with -D")
    if k.failed:
        return None, f"`{k.name}` could not be analyzed (see `staticroof analyze`)", None
    unbound = sorted(n for n in k.size_origins if k.sizes.get(n) is None)
    if unbound or k.total is None or k.total.flops.value is None:
        return None, (f"`{k.name}` needs sizes: give -D {unbound[0] if unbound else 'NAME'}=VALUE (the report's launch "
                      "shape fixes only the grid and block)"), None
    return k, note, ratio


def _threads(shape: tuple) -> int | None:
    """grid x block threads of a (grid, block) pair of (x, y, z), None where a dimension is unknown."""
    dims = [d for part in shape for d in part]
    if len(dims) != 6 or any(d is None for d in dims):
        return None
    return math.prod(dims)


def threads_ratio(ran: tuple, own: tuple) -> float | None:
    """The run's threads over the source's launch's, where both are known."""
    a, b = _threads(ran), _threads(own)
    return a / b if a and b else None


def _sizes_from_run(k, ran: tuple, own: tuple, analyze_at) -> tuple | None:
    """(kernel, note) analyzed at the sizes the run's launch implies, or None.  When the work rests on
    one size the source binds itself (a #define, its launch site: not -D), that size is scaled by the
    run's threads over the source's (N = 1024 with 4 blocks, the run 4096 blocks: N = 1,048,576) and
    kept only if the source then launches exactly the run's grid and block.  Named as a guess: any N
    that rounds to the same grid launches it too."""
    r = threads_ratio(ran, own)
    names = sorted(str(s) for s in k.total.flops.expr.free_symbols) if k.total and k.total.flops.expr is not None \
        else []
    if r is None or r == 1 or len(names) != 1:
        return None
    n = names[0]
    if k.sizes.get(n) is None or k.size_origins.get(n) in ("-D", "config"):
        return None
    scaled = k.sizes[n] * r
    if scaled != int(scaled) or scaled < 1:
        return None
    k2 = analyze_at({n: int(scaled)})
    if k2 is None or k2.failed:
        return None
    got = tuple(k2.launch.get("grid") or ()), tuple(k2.launch.get("block") or ())
    if got != (ran[0] or got[0], ran[1] or got[1]) or k2.total is None or k2.total.flops.value is None:
        return None
    return k2, (f"`{n}` = {int(scaled):,} from the run's launch (grid {_dims(ran[0])}, block {_dims(ran[1])}): the "
                f"source launches exactly that at this `{n}` ({r:.4g}x its own {k.sizes[n]:,}); a guess, as any "
                f"`{n}` that rounds to the same grid would launch it: give -D {n}=VALUE for the run's")


def _full(shape) -> tuple:
    """A report's launch shape as (x, y, z); a total alone is taken as 1-D."""
    return tuple((list(shape) + [1, 1, 1])[:3]) if shape else ()


def _dims(t) -> str:
    """`256 x 1 x 1`; a dimension the source leaves unknown is `?` (a whole unknown shape too)."""
    return " x ".join("?" if d is None else str(d) for d in t) if t else "?"


def validate(source, report, only: set, run_analysis, machine, db) -> list[Validation]:
    out = []
    cache: dict = {}
    for launch, name in match(report, only):
        v = Validation(launch, measure(launch), name=name.base)
        v.roofs, v.roofs_from = roofs_for(launch, machine, db)
        key = (name, launch.grid, launch.block)
        if key not in cache:
            cache[key] = analyze_for(source, name, launch, run_analysis)
        v.kernel, why, v.threads_ratio = cache[key]
        if v.kernel is None:
            v.problems.append(why)
            _place(v, None)
        else:
            if why:
                v.problems.append(why)
            compare(v)
        if launch.grid is not None and len(launch.grid) == 1:
            v.problems.append("the report gives the grid and block as totals only: taken as 1-D")
        v.problems.extend(v.measured.notes)
        out.append(v)
    return out
