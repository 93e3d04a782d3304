"""Numbers and units as Nsight Compute writes them, to base units.

Values carry thousands separators (`134,221,568`) and may be `n/a`; instanced values in the raw
page are `;`-separated.  Units: byte, Kbyte, Mbyte, Gbyte, Tbyte are powers of 1000 (ncu's
convention, not KiB); time is written `nsecond`/`usecond`/`msecond`/`second` by older versions and
`ns`/`us`/`ms`/`s` by newer ones; frequencies `hz`/`Khz`/`Mhz`/`Ghz`; rates are a unit over a time
(`Gbyte/second`, `cycle/nsecond`, `Gbyte/s`).  A `sector` is a count here (32 bytes each: the
measured point converts); `%` stays a percentage."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?")
_TIME = {"s": 1.0, "second": 1.0, "ms": 1e-3, "msecond": 1e-3, "us": 1e-6, "usecond": 1e-6,
         "ns": 1e-9, "nsecond": 1e-9}
_PER_TIME = {"s": 1.0, "second": 1.0, "ms": 1e3, "msecond": 1e3, "us": 1e6, "usecond": 1e6,
             "ns": 1e9, "nsecond": 1e9}  # 1 / _TIME, exactly
_SI = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15}
_SCALED = {"byte", "hz", "inst", "cycle", "sector", "warp", "thread", "request", "block"}


def number(text: str) -> float | None:
    """`"134,221,568"` -> 134221568.0; `""`, `"n/a"`, a name or a tuple -> None."""
    t = text.strip()
    if not t or not _NUMBER.fullmatch(t):
        return None
    return float(t.replace(",", ""))


def _part(unit: str) -> tuple[float, str]:
    u = unit.strip()
    if u in _TIME:
        return _TIME[u], "second"
    low = u.lower()
    if low in _SCALED:
        return 1.0, low
    if low[:1] in _SI and low[1:] in _SCALED:
        return _SI[low[:1]], low[1:]
    return 1.0, u


def scale(unit: str) -> tuple[float, str]:
    """The factor to base units and the base unit: `Gbyte/s` -> (1e9, "byte/second"),
    `usecond` -> (1e-6, "second"), `Kbyte` -> (1000.0, "byte"), `%` -> (1.0, "%")."""
    if "/" in unit:
        num, _, den = unit.partition("/")
        f1, u1 = _part(num)
        if den.strip() in _PER_TIME:
            return f1 * _PER_TIME[den.strip()], f"{u1}/second"
        f2, u2 = _part(den)
        return f1 / f2, f"{u1}/{u2}"
    return _part(unit)


def parse(text: str, unit: str) -> tuple[float | None, str, tuple]:
    """(value in base units or None, base unit, instances in base units)."""
    factor, base = scale(unit)
    if ";" in text:
        parts = [number(p) for p in text.split(";")]
        inst = tuple(p * factor if p is not None else None for p in parts)
        return None, base, inst
    v = number(text)
    return (v * factor if v is not None else None), base, ()
