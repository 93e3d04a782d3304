"""Old against new, kernel by kernel: what changed in W, Q, I and the roofline position, and
whether that is a regression.

The numbers compared are the ones `analyze` reports: W (all FLOPs), Q compulsory (DRAM bytes), I
= W/Q, and with a machine the verdict of the roofline line (compute-bound, or memory-bound at
the level that binds) and its attainable FLOP/s.  With the sizes known the change is exact (from
the numbers); with a size unknown it comes from the formulas: their ratio when that is a
constant (N/8 against N/6 is -25% at every N), else the ratio's limit as every size grows
together ("asymptotic"), else unknown.

A kernel regresses (exit 1) when its I or its attainable performance drops by more than the
`--fail-under` percentage (default 10), or when it turns from compute- to memory-bound.  Codes:
RD101 (I dropped), RD102 (became memory-bound), RD103 (attainable performance dropped).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

RULES = {
    "RD101": ("intensity-drop", "The kernel's arithmetic intensity I = W/Q dropped: each byte from DRAM now feeds "
                                "fewer FLOPs, so a memory-bound kernel runs slower in proportion."),
    "RD102": ("became-memory-bound", "The kernel crossed the ridge point: it was compute-bound on the machine and is "
                                     "now memory-bound, so DRAM bandwidth, not the FLOP rate, sets its speed."),
    "RD103": ("attainable-drop", "The attainable performance min(peak, bandwidth x I) on the machine dropped: a lower "
                                 "roof (fp64 instead of fp32) or a lower intensity."),
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


def metrics(k) -> Metrics:
    """The Metrics of a KernelSummary (placed under a machine or not)."""
    m = Metrics(k.file, k.name, k.location.line, k.location.col, k.failed or k.total is None, k.exact)
    if m.failed:
        m.why = "; ".join(d.message for d in k.diagnostics if d.severity == "error")[:300]
        return m
    t = k.total
    m.W, m.Q, m.I = t.flops.value, t.compulsory.value, t.intensity.value
    m.W_expr, m.Q_expr, m.I_expr = t.flops.expr, t.compulsory.expr, t.intensity.expr
    r = k.roofline
    if r:
        m.machine, m.precision = r.get("machine"), r.get("precision")
        m.bound, m.attainable = verdict(r)
    return m


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

    @property
    def regression(self) -> bool:
        return bool(self.reasons)


def compare(old: Metrics | None, new: Metrics | None, fail_under: float = DEFAULT_FAIL_UNDER) -> KernelDiff:
    if old is None:
        assert new is not None
        return KernelDiff(new.file, new.name, "new", None, new)
    if new is None:
        return KernelDiff(old.file, old.name, "removed", old, None)
    d = KernelDiff(new.file, new.name, "changed", old, new, old.file if old.file != new.file else None)
    if old.failed or new.failed:
        d.status = "unanalyzable" if new.failed else "changed"
        return d
    d.change = {"W": delta(old.W, new.W, old.W_expr, new.W_expr), "Q": delta(old.Q, new.Q, old.Q_expr, new.Q_expr),
                "I": delta(old.I, new.I, old.I_expr, new.I_expr)}
    if old.machine and new.machine:
        d.change["attainable"] = delta(old.attainable, new.attainable)
    same = (old.W_expr == new.W_expr and old.Q_expr == new.Q_expr and (old.W, old.Q) == (new.W, new.Q)
            and old.bound == new.bound and old.attainable == new.attainable and old.precision == new.precision)
    if same:
        d.status = "unchanged"
        return d
    di, dp = d.change["I"], d.change.get("attainable", Delta())
    if di.pct is not None and di.pct < -fail_under:
        d.reasons.append(("RD101", f"I drops {-di.pct:.3g}% (more than {fail_under:g}%)"
                                   + (" as the sizes grow" if di.basis == "asymptotic" else "")))
    if old.bound == "compute" and new.bound not in (None, "compute"):
        d.reasons.append(("RD102", f"compute-bound -> memory-bound at {new.bound} on {new.machine}"))
    if dp.pct is not None and dp.pct < -fail_under:
        roof = f" ({old.precision} -> {new.precision} roof)" if old.precision != new.precision else ""
        d.reasons.append(("RD103", f"attainable performance drops {-dp.pct:.3g}% (more than {fail_under:g}%) on "
                                   f"{new.machine}{roof}"))
    d.improved = not d.reasons and ((di.pct or 0) > 0 or (dp.pct or 0) > 0)
    return d


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
