"""The measured roofline point of one launch: W, DRAM (read and write apart), L2 and L1 bytes,
time, attained P and I per level, from whatever metrics the report holds.

- W per precision: 2 FMA + ADD + MUL thread instructions
  (`sm__sass_thread_inst_executed_op_{f,d,h}{fma,add,mul}_pred_on.sum`), as Nsight Compute's own
  roofline counts them.  An `h` instruction may be a packed HFMA2 (two lanes): fp16 is then low
  by up to 2x.  Without the counters, the console's rule text "executes F fused and N non-fused FP32
  instructions" gives warp instructions: 32 x (2F + N) is an upper bound, exact when every lane of
  those warps executes them.
- DRAM: `dram__bytes_read.sum` / `dram__bytes_op_read.sum` / legacy `dram__read_bytes`, else
  sectors x 32 (`dram__sectors_read.sum`, legacy `dram__read_sectors`); writes likewise; the total
  `dram__bytes.sum` where the split is absent; the console's memory throughput x duration last
  (a derived total, as precise as the printed digits).
- L2: `lts__t_bytes.sum` or `lts__t_sectors.sum` x 32; L1: `l1tex__t_bytes.sum`,
  `l1tex__t_sectors.sum` x 32, or the global load and store sectors x 32 (global accesses only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import Launch

SECTOR = 32
_PREC = (("fp32", "f"), ("fp64", "d"), ("fp16", "h"))


@dataclass
class Measured:
    launch: Launch
    flops: dict = field(default_factory=dict)  # precision -> FLOPs
    flops_source: str | None = None
    flops_exact: bool = True  # False: an upper bound (warp instructions x 32)
    dram_read: float | None = None
    dram_write: float | None = None
    dram_total: float | None = None
    dram_source: str | None = None
    l2_bytes: float | None = None
    l1_bytes: float | None = None
    l1_source: str | None = None
    time: float | None = None  # seconds
    notes: list = field(default_factory=list)

    @property
    def W(self) -> float | None:
        """None when the report counts no FP instructions (0 when it counts them and there are none)."""
        return sum(self.flops.values()) if self.flops_source else None

    @property
    def P(self) -> float | None:
        return self.W / self.time if self.W is not None and self.time else None

    def intensity(self, level: str) -> float | None:
        q = {"DRAM": self.dram_total, "L2": self.l2_bytes, "L1": self.l1_bytes}[level]
        return self.W / q if self.W is not None and q else None


def _bytes(launch: Launch, byte_names, sector_names):
    m = launch.metric(*byte_names)
    if m is not None:
        return m.value, m.name
    m = launch.metric(*sector_names)
    if m is not None and m.value is not None:  # a sector count that is not a number gives no bytes
        return m.value * SECTOR, f"{m.name} x {SECTOR}"
    return None, None


_RULE_FP = re.compile(r"executes ([\d,]+) fused and ([\d,]+) non-fused (FP32|FP64|FP16) instructions")


def measure(launch: Launch) -> Measured:
    out = Measured(launch)
    for prec, p in _PREC:
        names = [f"sm__sass_thread_inst_executed_op_{p}{op}_pred_on.sum" for op in ("fma", "add", "mul")]
        vals = [launch.value(n) for n in names]
        if any(v is not None for v in vals):
            fma, add, mul = (v or 0 for v in vals)
            if 2 * fma + add + mul:
                out.flops[prec] = 2 * fma + add + mul
            out.flops_source = "SASS thread instructions (2 FMA + ADD + MUL)"
    if out.flops.get("fp16"):
        out.notes.append("fp16 counts instructions: a packed HFMA2/HADD2 does two lanes' work, so fp16 W may be "
                         "low by up to 2x")
    if out.flops_source is None:
        for _, text in launch.notes:
            for fused, plain, prec in _RULE_FP.findall(text):
                key = {"FP32": "fp32", "FP64": "fp64", "FP16": "fp16"}[prec]
                out.flops[key] = 32 * (2 * int(fused.replace(",", "")) + int(plain.replace(",", "")))
        if out.flops:
            out.flops_source = "the rule text's warp instruction counts x 32 lanes"
            out.flops_exact = False
    read, rsrc = _bytes(launch, ("dram__bytes_read.sum", "dram__bytes_op_read.sum", "dram__read_bytes",
                                 "dram__read_bytes.sum"), ("dram__sectors_read.sum", "dram__read_sectors"))
    write, wsrc = _bytes(launch, ("dram__bytes_write.sum", "dram__bytes_op_write.sum", "dram__write_bytes",
                                  "dram__write_bytes.sum"), ("dram__sectors_write.sum", "dram__write_sectors"))
    out.dram_read, out.dram_write = read, write
    total, tsrc = _bytes(launch, ("dram__bytes.sum",), ("dram__sectors.sum",))
    out.time = launch.value("gpu__time_duration.sum", "gpu__time_duration", "Duration")
    if read is not None and write is not None:
        out.dram_total, out.dram_source = read + write, f"{rsrc} + {wsrc}"
    elif total is not None:
        out.dram_total, out.dram_source = total, tsrc
    else:
        rate = launch.value("Memory Workload Analysis: Memory Throughput", "dram__bytes.sum.per_second")
        m = launch.metrics.get("Memory Workload Analysis: Memory Throughput")
        if rate is not None and (m is None or m.unit == "byte/second") and out.time:
            out.dram_total = rate * out.time
            out.dram_source = "memory throughput x duration (derived: as precise as the printed digits)"
    out.l2_bytes, _ = _bytes(launch, ("lts__t_bytes.sum",), ("lts__t_sectors.sum",))
    out.l1_bytes, out.l1_source = _bytes(launch, ("l1tex__t_bytes.sum",), ("l1tex__t_sectors.sum",))
    if out.l1_bytes is None:
        ld = launch.value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
        st = launch.value("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")
        if ld is not None and st is not None:
            out.l1_bytes = (ld + st) * SECTOR
            out.l1_source = "global load + store sectors x 32 (global accesses only)"
    return out


def report_roofs(launch: Launch) -> dict:
    """Roofs the report itself carries (the SOL roofline section's peak metrics): {"fp32": FLOP/s,
    "fp64": ..., "bandwidth": bytes/s}; empty when it carries none."""
    out = {}
    sm_clock = launch.value("sm__cycles_elapsed.avg.per_second")
    for prec, p in _PREC:
        fma = launch.value(f"sm__sass_thread_inst_executed_op_{p}fma_pred_on.sum.peak_sustained")
        if fma is not None and sm_clock:
            out[prec] = 2 * fma * sm_clock
    peak = launch.value("dram__bytes.sum.peak_sustained")
    dram_clock = launch.value("dram__cycles_elapsed.avg.per_second")
    if peak is not None and dram_clock:
        out["bandwidth"] = peak * dram_clock
    return out
