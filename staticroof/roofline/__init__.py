"""Roofline placement: a database of machines (peak FLOP/s per precision and unit, DRAM
bandwidth) and pure functions that place a kernel's W and Q under a machine's roof.

Import-light: nothing here imports sympy, numpy or the analysis stack.
"""

from .machines import (
    PEAK_KEYS,
    VALID_KEYS,
    Machine,
    MachineError,
    get,
    load_database,
    to_json,
)
from .position import (
    PRECISIONS,
    UNITS,
    choose_roof,
    dominant_precision,
    mixed_shares,
    plain,
    position,
    position_from_intensity,
    roof_key,
)

__all__ = [
    "PEAK_KEYS", "VALID_KEYS", "Machine", "MachineError", "get", "load_database", "to_json",
    "PRECISIONS", "UNITS", "choose_roof", "dominant_precision", "mixed_shares", "plain", "position",
    "position_from_intensity", "roof_key",
]
