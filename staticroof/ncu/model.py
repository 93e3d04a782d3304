"""What an Nsight Compute report says, whatever its format: launches of kernels, each with its
metrics in base units.  The readers (one module per format) build these; nothing here parses."""

from __future__ import annotations

from dataclasses import dataclass, field


class ReportError(Exception):
    """A report that cannot be read: the message names the file and, where known, the line."""

    def __init__(self, path, message: str, line: int | None = None):
        self.path, self.line, self.message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


@dataclass
class Metric:
    name: str
    value: float | None  # in `unit` (base units: byte, second, hz, byte/second, ...), None if not a number
    unit: str  # the base unit after scaling ("" for a count)
    text: str  # the value as written
    written_unit: str = ""  # the unit as written (`Gbyte/s`, `usecond`)
    instances: tuple = ()  # per-instance values (`;`-separated in the raw page)
    section: str = ""  # the console section it came from


@dataclass
class Launch:
    """One profiled launch of one kernel."""
    kernel: str  # the name as the report writes it (mangled, demangled or truncated)
    index: int  # the report's ID, else the order in the file
    line: int  # where the launch starts in the file (1-based)
    grid: tuple | None = None  # (x, y, z)
    block: tuple | None = None
    device: str | None = None  # the device's name where the report gives it
    cc: str | None = None  # compute capability, "8.6"
    metrics: dict = field(default_factory=dict)  # name -> Metric
    notes: list = field(default_factory=list)  # rule texts (console), joined per paragraph

    def value(self, *names) -> float | None:
        """The value of the first of `names` this launch has a number for."""
        for n in names:
            m = self.metrics.get(n)
            if m is not None and m.value is not None:
                return m.value
        return None

    def metric(self, *names) -> Metric | None:
        for n in names:
            m = self.metrics.get(n)
            if m is not None and m.value is not None:
                return m
        return None


@dataclass
class NcuReport:
    path: str
    format: str  # details-csv | raw-csv | console | ncu-rep
    launches: list = field(default_factory=list)
    messages: list = field(default_factory=list)  # ==WARNING== / ==ERROR== lines, as written
