"""The roofs a measured launch is placed under: `--machine`, else the peaks the report carries,
else the machine database entry for the device name the report gives."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ncu.measured import report_roofs


@dataclass
class Roofs:
    name: str  # machine name, or "the report's peaks"
    source: str  # "--machine" | "report" | "device name"
    peaks: dict  # precision -> FLOP/s
    bandwidth: float  # DRAM bytes/s
    l2_bytes: int | None = None


def _from_machine(m, source: str) -> Roofs:
    peaks = {p: m.peaks[p] for p in ("fp64", "fp32", "fp16") if p in m.peaks}
    return Roofs(m.name, source, peaks, m.bandwidth, m.l2_bytes)


def device_key(name: str) -> list[str]:
    """Database names to try for a device name: `NVIDIA GeForce GTX 1080` -> gtx-1080, ...;
    `NVIDIA A100-PCIE-40GB` -> a100-pcie-40gb."""
    low = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    out = [low]
    for prefix in ("nvidia-", "geforce-", "tesla-", "quadro-"):
        if low.startswith(prefix):
            low = low[len(prefix):]
            out.append(low)
    return out


def roofs_for(launch, machine, db) -> tuple[Roofs | None, str]:
    """(roofs, how they were found or why there are none)."""
    if machine is not None:
        return _from_machine(machine, "--machine"), f"{machine.name} (--machine)"
    own = report_roofs(launch)
    if "bandwidth" in own and any(p in own for p in ("fp32", "fp64", "fp16")):
        peaks = {p: v for p, v in own.items() if p != "bandwidth"}
        return Roofs("the report's peaks", "report", peaks, own["bandwidth"]), "the report's peak metrics"
    if launch.device:
        from ..roofline import MachineError, get

        for key in device_key(launch.device):
            try:
                m = get(key, db)
            except MachineError:
                continue
            return _from_machine(m, "device name"), f"{m.name} (the report's device, {launch.device})"
        return None, f"the device `{launch.device}` is not in the machine database: give --machine"
    return None, "the report names no device and carries no peaks: give --machine NAME for the roofs"
