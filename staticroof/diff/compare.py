"""Old against new, kernel by kernel: what changed in W, Q, I, the time floor and the roofline
position, and whether the user pays for it.

The numbers compared are the ones `analyze` reports: W (all FLOPs), Q compulsory (DRAM bytes), I
= W/Q, and with a machine the verdict of the roofline line (compute-bound, or memory-bound at
the level that binds), its attainable FLOP/s and the time floor max(W/peak, each level's
Q/bandwidth).  With the sizes known the change is exact (from the numbers); with a size unknown
it comes from the formulas: their ratio when that is a constant (N/8 against N/6 is -25% at every
N), else the ratio's limit as every size grows together ("asymptotic"), else unknown.

A regression is what makes the kernel slower, not a lower ratio: doing fewer FLOPs over the same
bytes lowers I and the FLOP/s reached, and takes no longer, so it is an improvement.  A kernel
regresses (exit 1) when, by more than the `--fail-under` percentage (default 10):
RD104 its predicted time floor rises (a machine and the sizes known); else, when the time floor
cannot be told, RD101 its I drops because its bytes rose, RD103 its attainable performance drops
at no fewer FLOPs; RD102 it turns from compute- to memory-bound without getting faster; RD105 it
gains a lint finding it did not have (RF1xx, RF2xx: a model the bytes do not show, such as an
accumulator in global memory or a strided read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

RULES = {
    "RD101": ("intensity-drop", "The kernel's arithmetic intensity I = W/Q dropped because it moves more bytes: "
                                "each byte from DRAM now feeds fewer FLOPs, so a memory-bound kernel runs slower "
                                "in proportion.  (Fewer FLOPs over the same bytes also lower I; that is no "
                                "regression.)"),
    "RD102": ("became-memory-bound", "The kernel crossed the ridge point without getting faster: it was "
                                     "compute-bound on the machine and is now memory-bound, so DRAM bandwidth, "
                                     "not the FLOP rate, sets its speed."),
    "RD103": ("attainable-drop", "The attainable performance min(peak, bandwidth x I) on the machine dropped at no "
                                 "fewer FLOPs: a lower roof (fp64 instead of fp32) or more bytes."),
    "RD104": ("time-floor-rise", "The predicted time floor max(W/peak, Q/bandwidth at each level) rose: whatever "
                                 "the schedule, the kernel now needs longer on the machine."),
    "RD105": ("new-lint-finding", "The kernel gained a lint finding it did not have before (an RF1xx precision or "
                                  "RF2xx access finding): a cost the compulsory bytes do not show, such as an "
                                  "accumulator moved to global memory or a strided read.  `staticroof lint "
                                  "--explain CODE` says more; `[tool.staticroof] diff-lint` decides whether it "
                                  "fails the gate."),
}
DEFAULT_FAIL_UNDER = 10.0


@dataclass
class Metrics:
    """One kernel on one side: plain numbers and formulas (what a diff or a baseline needs)."""

    file: str
    name: str
    line: int = 0
    col: int = 0
    failed: bool = False
    exact: bool = True
    W: object = None  # int/Fraction, None when a size is unknown
    Q: object = None
    I: object = None  # noqa: E741 - the roofline's name for the intensity
    W_expr: object = None  # sympy
    Q_expr: object = None
    I_expr: object = None
    precision: str | None = None  # the roof's precision (with a machine)
    machine: str | None = None
    bound: str | None = None  # "compute", or the memory level that binds: "DRAM", "L2", "L1"
    attainable: object = None  # FLOP/s
    why: str = ""  # why the kernel could not be analyzed
    time: object = None  # the time floor in seconds (a machine and the sizes known)
    findings: tuple = ()  # (code, message) of the lint findings at the kernel (diff fills them in)
    sizes: dict = field(default_factory=dict)  # the sizes in force (name -> int): numbers compare at equal sizes


def metrics(k) -> Metrics:
    """The Metrics of a KernelSummary (placed under a machine or not)."""
    m = Metrics(k.file, k.name, k.location.line, k.location.col, k.failed or k.total is None, k.exact)
    if m.failed:
        m.why = "; ".join(d.message for d in k.diagnostics if d.severity == "error")[:300]
        return m
    t = k.total
    m.sizes = dict(k.sizes or {})
    m.W, m.Q, m.I = t.flops.value, t.compulsory.value, t.intensity.value
    m.W_expr, m.Q_expr, m.I_expr = t.flops.expr, t.compulsory.expr, t.intensity.expr
    r = k.roofline
    if r:
        m.machine, m.precision = r.get("machine"), r.get("precision")
        m.bound, m.attainable = verdict(r)
        m.time = time_floor(r)
    return m


def time_floor(r: dict):
    """The time floor the roofline line states: the hierarchy's over its levels, else the DRAM one's."""
    h = r.get("hierarchy") or {}
    if h.get("time_floor") is not None:
        return h["time_floor"]
    return r.get("time_floor")


def verdict(r: dict) -> tuple:
    """(bound, attainable) as the text report's roofline line states them: the hierarchical verdict
    when more than one level has a bandwidth, else the classic DRAM roofline's."""
    if r.get("intensity") is None:
        return None, None
    h = r.get("hierarchy") or {}
    if h.get("bound") is not None and len(h.get("levels", ())) > 1:
        return h["bound"], h["attainable"]
    return ("compute" if r.get("bound") == "compute" else "DRAM"), r.get("attainable")


@dataclass
class Delta:
    pct: float | None = None  # the change in percent; None when it cannot be told
    basis: str | None = None  # "numbers", "formulas" or "asymptotic"


def _pct(old, new) -> float | None:
    old, new = Fraction(old), Fraction(new)
    if old == 0:
        return 0.0 if new == 0 else None
    return float((new - old) / old * 100)


def delta(old_value, new_value, old_expr=None, new_expr=None) -> Delta:
    if old_value is not None and new_value is not None:
        return Delta(_pct(old_value, new_value), "numbers")
    if old_expr is None or new_expr is None:
        return Delta()
    return _formula_delta(old_expr, new_expr)


def _formula_delta(old, new) -> Delta:
    import sympy

    if old == new:
        return Delta(0.0, "formulas")
    if old == 0:
        return Delta()
    try:
        ratio = sympy.cancel(sympy.together(new / old))
    except (TypeError, ValueError, RecursionError, sympy.PolynomialError):
        return Delta()
    if not ratio.free_symbols:
        return Delta(_pct(1, _exact(ratio)), "formulas") if ratio.is_number and ratio.is_finite else Delta()
    # the limit as every size grows together, for a ratio of polynomials (a cheap, exact case)
    t = sympy.Symbol("t", positive=True)
    r = ratio.subs(dict.fromkeys(ratio.free_symbols, t))
    num, den = sympy.fraction(sympy.cancel(r))
    try:
        pn, pd = sympy.Poly(num, t), sympy.Poly(den, t)
    except sympy.PolynomialError:
        return Delta()
    if pn.degree() < pd.degree():
        return Delta(-100.0, "asymptotic")
    if pn.degree() > pd.degree():
        return Delta()  # grows without bound: no percentage
    return Delta(_pct(1, _exact(pn.LC() / pd.LC())), "asymptotic")


def _exact(x):
    import sympy

    x = sympy.nsimplify(x) if not x.is_Rational else x
    return Fraction(int(x.p), int(x.q)) if x.is_Rational else float(x)


@dataclass
class KernelDiff:
    file: str  # in HEAD (in BASE for a removed kernel)
    name: str
    status: str  # "changed", "unchanged", "new", "removed", "unanalyzable"
    old: Metrics | None = None
    new: Metrics | None = None
    old_file: str | None = None
    change: dict = field(default_factory=dict)  # "W", "Q", "I", "attainable" -> Delta
    reasons: list = field(default_factory=list)  # (code, message): why it is a regression
    improved: bool = False
    gained: list = field(default_factory=list)  # (code, message): lint findings new at the kernel
    changed_line: int | None = None  # the first line of the kernel the change touched (annotations go there)

    @property
    def regression(self) -> bool:
        return bool(self.reasons)


def compare(old: Metrics | None, new: Metrics | None, fail_under: float = DEFAULT_FAIL_UNDER,
            lint: bool = True) -> KernelDiff:
    """The change of one kernel; `lint`: whether a new lint finding is a regression (RD105) or only
    reported (in `KernelDiff.gained`)."""
    if old is None:
        assert new is not None
        return KernelDiff(new.file, new.name, "new", None, new)
    if new is None:
        return KernelDiff(old.file, old.name, "removed", old, None)
    d = KernelDiff(new.file, new.name, "changed", old, new, old.file if old.file != new.file else None)
    if old.failed or new.failed:
        d.status = "unanalyzable" if new.failed else "changed"
        return d
    # numbers at different sizes (the source's N changed) do not compare: the formulas do
    same_sizes = all(old.sizes[n] == v for n, v in new.sizes.items() if n in old.sizes)

    def at(m, key):
        return getattr(m, key) if same_sizes else None

    d.change = {key: delta(at(old, key), at(new, key), getattr(old, f"{key}_expr"), getattr(new, f"{key}_expr"))
                for key in ("W", "Q", "I")}
    if old.machine and new.machine and same_sizes:
        d.change["attainable"] = delta(old.attainable, new.attainable)
        if old.time is not None and new.time is not None:
            d.change["time"] = delta(old.time, new.time)
    d.gained = gained(old.findings, new.findings)
    same = (old.W_expr == new.W_expr and old.Q_expr == new.Q_expr and (old.W, old.Q) == (new.W, new.Q)
            and old.bound == new.bound and old.attainable == new.attainable and old.precision == new.precision)
    if same and not d.gained:
        d.status = "unchanged"
        return d
    _judge(d, fail_under)
    if lint:
        for code, message in d.gained:
            d.reasons.append(("RD105", f"new lint finding {code}: {message}"))
    return d


def _judge(d: KernelDiff, fail_under: float) -> None:
    """The reasons the change costs time, and whether it is an improvement (module docstring)."""
    old, new = d.old, d.new
    assert old is not None and new is not None
    dw, dq, di = d.change["W"], d.change["Q"], d.change["I"]
    dp, dt = d.change.get("attainable", Delta()), d.change.get("time")
    asym = " as the sizes grow"
    if dt is not None and dt.pct is not None:  # the machine's answer: what the kernel takes
        if dt.pct > fail_under:
            d.reasons.append(("RD104", f"the time floor rises {rise(dt.pct)} (more than {fail_under:g}%) on "
                                       f"{new.machine}: {_cause(d)}"))
        if old.bound == "compute" and new.bound not in (None, "compute") and dt.pct > 0:
            d.reasons.append(("RD102", f"compute-bound -> memory-bound at {new.bound} on {new.machine}"))
        less = any(c.pct is not None and c.pct < 0 for c in (dw, dq))  # same time, less work or traffic
        d.improved = not d.reasons and (dt.pct < 0 or (dt.pct <= 0 and less))
        return
    more_bytes = dq.pct is None or dq.pct > 0
    fewer_flops = dw.pct is not None and dw.pct < 0
    if di.pct is not None and di.pct < -fail_under and more_bytes:
        d.reasons.append(("RD101", f"I drops {-di.pct:.3g}% (more than {fail_under:g}%)"
                                   + (asym if di.basis == "asymptotic" else "")
                                   + (f": Q rises {dq.pct:.3g}%" if dq.pct is not None else "")))
    if old.bound == "compute" and new.bound not in (None, "compute") and not fewer_flops:
        d.reasons.append(("RD102", f"compute-bound -> memory-bound at {new.bound} on {new.machine}"))
    if dp.pct is not None and dp.pct < -fail_under and not fewer_flops:
        roof = f" ({old.precision} -> {new.precision} roof)" if old.precision != new.precision else ""
        d.reasons.append(("RD103", f"attainable performance drops {-dp.pct:.3g}% (more than {fail_under:g}%) on "
                                   f"{new.machine}{roof}"))
    less = (dq.pct is not None and dq.pct < 0) or (fewer_flops and not more_bytes) or \
        ((di.pct or 0) > 0 and not more_bytes) or ((dp.pct or 0) > 0)
    d.improved = not d.reasons and less and not (dw.pct is not None and dw.pct > fail_under)


def rise(pct: float) -> str:
    """`5.21%`, or `64x` for a rise past 1000% (a percentage of thousands reads badly)."""
    return f"{pct:.3g}%" if pct < 1000 else f"{pct / 100 + 1:.3g}x"


def _cause(d: KernelDiff) -> str:
    """What made the time floor rise, in a few words: the bytes, the FLOPs, or the roof."""
    old, new = d.old, d.new
    assert old is not None and new is not None
    parts = []
    dq, dw = d.change["Q"], d.change["W"]
    if dq.pct is not None and dq.pct > 0:
        parts.append(f"Q rises {dq.pct:.3g}%")
    if dw.pct is not None and dw.pct > 0:
        parts.append(f"W rises {dw.pct:.3g}%")
    if old.precision != new.precision:
        parts.append(f"{old.precision} -> {new.precision} roof")
    if old.bound != new.bound:
        parts.append(f"{_bound_word(old.bound)} -> {_bound_word(new.bound)}")
    return ", ".join(parts) or "the bytes at another level"


def _bound_word(b) -> str:
    return "compute-bound" if b == "compute" else f"memory-bound at {b}"


def gained(old: tuple, new: tuple) -> list:
    """The lint findings of `new` beyond those of `old`, by code: a code found more often than
    before is gained once per extra finding (messages name lines, which a change moves)."""
    from collections import Counter

    before = Counter(code for code, _ in old)
    out = []
    for code, message in new:
        if before[code] > 0:
            before[code] -= 1
        else:
            out.append((code, message))
    return out


def match(old: list, new: list) -> list:
    """Pairs (old Metrics or None, new Metrics or None) of one file's kernels, by name (several
    kernels of one name, such as overloads, pair in order)."""
    pairs: list = []
    left: dict = {}
    for m in old:
        left.setdefault(m.name, []).append(m)
    for m in new:
        pairs.append((left[m.name].pop(0) if left.get(m.name) else None, m))
    pairs += [(m, None) for ms in left.values() for m in ms]
    return pairs


@dataclass
class DiffResult:
    base: str  # what the user named, and the commit
    head: str
    base_commit: str = ""
    head_commit: str = ""  # "" for the working tree
    machine: str | None = None
    fail_under: float = DEFAULT_FAIL_UNDER
    files: list = field(default_factory=list)  # the files analyzed (HEAD names)
    kernels: list = field(default_factory=list)  # KernelDiff
    notes: list = field(default_factory=list)  # file-level messages (a file that could not be read)

    @property
    def regressions(self) -> list:
        return [k for k in self.kernels if k.regression]

    def count(self, status: str) -> int:
        return sum(1 for k in self.kernels if k.status == status)
