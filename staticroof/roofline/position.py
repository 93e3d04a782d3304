"""Where a kernel sits under a machine's roofline: pure functions over numbers.

Numbers are Python ints, Fractions or floats (anything registered as a ``numbers.Real``, such as
sympy's Integer and Rational, is accepted and converted).  Integers and Fractions stay exact: the
shipped peaks and bandwidths are integers, so for a kernel with integer W and Q every result
below is an exact Fraction (``plain`` turns a result into JSON-ready ints and floats).  A float
anywhere makes the results floats.

The roofline model:  I = W/Q,  ridge = peak/bandwidth,  attainable = min(peak, bandwidth*I),
memory-bound when I < ridge, and the time can be no shorter than max(W/peak, Q/bandwidth)
(perfect overlap of compute and transfer) nor longer than W/peak + Q/bandwidth (no overlap) at
peak rates.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

from .machines import CORE_PEAKS, Machine, MachineError

# The analysis' precision keys (staticroof.ir.PRECISIONS), widest first: the tie-break order.
PRECISIONS = ("fp64", "fp32", "fp16", "bf16", "fp8")
UNITS = ("cuda", "tensor")

# Roof for each precision on the tensor/matrix unit.
TENSOR_ROOF = {"fp64": "fp64_tensor", "fp32": "tf32_tensor", "fp16": "fp16_tensor",
               "bf16": "bf16_tensor", "fp8": "fp8_tensor"}


def _num(x, what: str):
    """An int, a Fraction or a float; None stays None."""
    if x is None:
        return None
    if isinstance(x, bool):
        raise TypeError(f"{what} must be a number, got {x!r}")
    if isinstance(x, (int, Fraction, float)):
        v = x
    elif isinstance(x, numbers.Integral):
        v = int(x)
    elif isinstance(x, numbers.Rational):
        v = Fraction(int(x.numerator), int(x.denominator))
    elif isinstance(x, numbers.Real):
        v = float(x)
    else:
        try:  # e.g. a sympy number that is not registered with `numbers`
            if getattr(x, "is_Integer", False):
                v = int(x)
            elif getattr(x, "is_Rational", False):
                v = Fraction(int(x.p), int(x.q))
            else:
                v = float(x)
        except (TypeError, ValueError):
            raise TypeError(f"{what} must be a number, got {x!r}") from None
    if isinstance(v, float) and math.isnan(v):
        raise ValueError(f"{what} is NaN")
    if v < 0:
        raise ValueError(f"{what} must not be negative, got {x!r}")
    return v


def _div(a, b):
    """a/b, exact (a Fraction, or an int when it divides) for ints and Fractions."""
    if isinstance(a, float) or isinstance(b, float):
        return a / b
    q = Fraction(a) / Fraction(b)
    return q.numerator if q.denominator == 1 else q


# ---------------------------------------------------------------------------------------------
# Choosing the roof


def dominant_precision(by_precision: dict) -> str:
    """The precision with the most FLOPs.  Ties go to the wider precision (PRECISIONS order).
    Unknown counts (None) lose to any known non-zero count; if no count is known and non-zero,
    the widest precision present is taken; with no floating-point work at all, fp32."""
    for p in by_precision:
        if p not in PRECISIONS:
            raise ValueError(f"unknown precision '{p}'; valid precisions: {', '.join(PRECISIONS)}")
    known = {p: _num(w, f"W[{p}]") for p, w in by_precision.items() if w is not None}
    best = None
    for p in PRECISIONS:
        w = known.get(p)
        if w and (best is None or w > known[best]):
            best = p
    if best is not None:
        return best
    unknown = [p for p in PRECISIONS if p in by_precision and by_precision[p] is None]
    return unknown[0] if unknown else "fp32"


def roof_key(machine: Machine, precision: str, unit: str | None = None) -> str:
    """The peak key for `precision` work on `unit` ("cuda": CUDA cores / vector units; "tensor":
    tensor / matrix units; None: cores, except on a machine with no core roofs at all, such as a
    TPU, where it is the tensor unit)."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision '{precision}'; valid precisions: {', '.join(PRECISIONS)}")
    if unit is not None and unit not in UNITS:
        raise MachineError(f"unknown unit '{unit}'; valid units: {', '.join(UNITS)}")
    if unit is None:
        unit = "cuda" if any(k in machine.peaks for k in CORE_PEAKS) else "tensor"
    if unit == "tensor":
        key = TENSOR_ROOF[precision]
    elif precision in ("fp64", "fp32"):
        key = precision
    elif precision == "fp16" and "fp16" in machine.peaks:
        key = "fp16"
    else:
        # fp16 without its own core rate, and bf16 / fp8 (no native non-tensor arithmetic in the
        # database): computed in fp32 on the cores.
        key = "fp32"
    machine.peak(key)  # raises "<machine> has no <key> roof; it has: ..."
    return key


def choose_roof(machine: Machine, by_precision: dict, unit: str | None = None):
    """(key, precision, peak): the roof for the kernel's dominant precision by FLOPs on `unit`."""
    precision = dominant_precision(by_precision)
    key = roof_key(machine, precision, unit)
    return key, precision, machine.peaks[key]


def mixed_shares(by_precision: dict) -> dict:
    """precision -> its share of W (exact Fractions for integer counts).  Every share is None when
    a count is unknown or W is zero."""
    vals = {p: _num(w, f"W[{p}]") for p, w in by_precision.items()}
    if any(v is None for v in vals.values()):
        return dict.fromkeys(vals)
    total = sum(vals.values())
    if not total:
        return dict.fromkeys(vals)
    return {p: _div(v, total) for p, v in vals.items()}


# ---------------------------------------------------------------------------------------------
# Placing the kernel


def _place(intensity, peak, bandwidth) -> dict:
    ridge = _div(peak, bandwidth)
    out = {"intensity": intensity, "ridge": ridge, "attainable": None, "bound": None,
           "fraction_of_peak": None}
    if intensity is not None:
        roof = math.inf if intensity == math.inf else bandwidth * intensity
        attainable = min(peak, roof)
        if isinstance(attainable, Fraction) and attainable.denominator == 1:
            attainable = attainable.numerator
        out.update(attainable=attainable, bound="memory" if intensity < ridge else "compute",
                   fraction_of_peak=_div(attainable, peak))
    return out


def position_from_intensity(intensity, peak, bandwidth) -> dict:
    """The kernel's place from its arithmetic intensity I (FLOP/byte) alone: intensity, ridge,
    attainable (FLOP/s), bound ("memory" or "compute"), fraction_of_peak; with I = None (unknown)
    only the ridge is known.  The times need W and Q: they are None here."""
    peak, bandwidth = _num(peak, "peak"), _num(bandwidth, "bandwidth")
    if not peak or not bandwidth:
        raise ValueError("peak and bandwidth must be positive")
    out = _place(_num(intensity, "intensity"), peak, bandwidth)
    out.update(time_floor=None, time_no_overlap=None)
    return out


def position(W, Q, peak, bandwidth, intensity=None) -> dict:
    """The kernel's place under the roof `peak` (FLOP/s) and `bandwidth` (bytes/s) from its work
    W (FLOPs) and DRAM traffic Q (bytes):

    - intensity        I = W/Q (inf when Q = 0 < W; None when W = Q = 0)
    - ridge            peak / bandwidth
    - attainable       min(peak, bandwidth * I), FLOP/s
    - bound            "memory" if I < ridge else "compute"
    - fraction_of_peak attainable / peak
    - time_floor       max(W/peak, Q/bandwidth) seconds (compute and transfer fully overlapped)
    - time_no_overlap  W/peak + Q/bandwidth seconds

    W or Q may be None (unknown sizes): then the times are None, and the intensity comes from
    `intensity` when given (e.g. a size-free I = 1/6), else the intensity fields are None too.
    """
    peak, bandwidth = _num(peak, "peak"), _num(bandwidth, "bandwidth")
    if not peak or not bandwidth:
        raise ValueError("peak and bandwidth must be positive")
    W, Q = _num(W, "W"), _num(Q, "Q")
    I = _num(intensity, "intensity")
    if W is not None and Q is not None:
        if Q:
            I = _div(W, Q)
        elif W:
            I = math.inf
        else:
            I = None
    out = _place(I, peak, bandwidth)
    if W is not None and Q is not None:
        tw, tq = _div(W, peak), _div(Q, bandwidth)
        out["time_floor"] = max(tw, tq)
        out["time_no_overlap"] = tw + tq
    else:
        out["time_floor"] = out["time_no_overlap"] = None
    return out


def plain(value):
    """A result with its Fractions as floats (ints, floats, strings and None unchanged; dicts and
    lists converted recursively): ready for json.dumps.  Infinite intensity becomes None."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, float) and math.isinf(value):
        return None
    return value
