"""The machine database: peak FLOP/s per precision and unit, DRAM bandwidth, and cache sizes.

The shipped database is ``machines.toml`` beside this module (see its header for the format and
the units: plain FLOP/s and bytes/s, dense peaks only).  Users extend or correct it from

- ``pyproject.toml``, under ``[tool.staticroof.machines.NAME]``, and
- ``--machine-file FILE`` TOML files, in the shipped format (``[machines.NAME]`` tables),

applied in that order after the shipped file.  A table whose NAME is an existing machine or one of
its aliases overrides just the fields it sets; a table with a new NAME defines a machine and must
give ``bandwidth`` and at least one peak.

Import-light on purpose (``tomllib`` only): the CLI loads this for ``--machine`` without pulling in
the analysis stack.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..inputs import TOML_LIMIT, InputError, read_text

# Peak keys, FLOP/s.  Core/vector units first, then tensor/matrix units.
CORE_PEAKS = ("fp64", "fp32", "fp16")
TENSOR_PEAKS = ("fp64_tensor", "tf32_tensor", "fp16_tensor", "bf16_tensor", "fp8_tensor")
PEAK_KEYS = CORE_PEAKS + TENSOR_PEAKS
# Other numeric fields: bandwidths in bytes/s (any positive number), the rest positive integers.
# `bandwidth` is DRAM's; `l2_bandwidth` (L2 to the SMs) and `l1_bandwidth` (L1/shared memory to
# the registers, all SMs together) are the hierarchical roofline's inner roofs, where known.
INTEGER_KEYS = ("l2_bytes", "smem_bytes_per_sm", "sms")
LEVEL_BANDWIDTHS = ("l2_bandwidth", "l1_bandwidth")
NUMBER_KEYS = PEAK_KEYS + ("bandwidth",) + LEVEL_BANDWIDTHS + INTEGER_KEYS
TEXT_KEYS = ("description", "source")
VALID_KEYS = tuple(sorted(NUMBER_KEYS + TEXT_KEYS + ("aliases", "notes")))

_NAME = re.compile(r"^[a-z0-9][a-z0-9.+_-]*$")


class MachineError(Exception):
    """A bad machine file or table, an unknown machine name, or a roof the machine lacks."""


@dataclass
class Machine:
    name: str
    description: str
    peaks: dict  # key in PEAK_KEYS -> FLOP/s (int where the value is integral, else float)
    bandwidth: int | float  # DRAM bytes/s
    l2_bytes: int | None = None  # last cache level before DRAM
    smem_bytes_per_sm: int | None = None  # combined L1/shared (LDS) per SM/CU
    sms: int | None = None
    l2_bandwidth: int | float | None = None  # L2 -> SMs, bytes/s
    l1_bandwidth: int | float | None = None  # L1/shared -> registers, all SMs, bytes/s
    source: str = ""
    aliases: tuple = ()
    notes: dict = field(default_factory=dict)  # field -> where that number comes from

    def peak(self, key: str):
        if key not in self.peaks:
            raise MachineError(f"{self.name} has no {key} roof; it has: {', '.join(self.roofs())}")
        return self.peaks[key]

    def roofs(self) -> list[str]:
        """The peak keys this machine has, in the canonical order."""
        return [k for k in PEAK_KEYS if k in self.peaks]

    def ridge(self, key: str) -> float:
        """The ridge point of roof `key`: peak / bandwidth, in FLOP/byte."""
        return self.peak(key) / self.bandwidth


# ---------------------------------------------------------------------------------------------
# Parsing and validation


def _err(where: str, name: str, msg: str) -> MachineError:
    return MachineError(f"{where}: machine '{name}': {msg}")


def _number(where: str, name: str, key: str, value):
    integer = key in INTEGER_KEYS
    kind = "a positive integer" if integer else "a positive number"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _err(where, name, f"field '{key}' must be {kind}, got {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _err(where, name, f"field '{key}' must be {kind}, got {value!r}")
        if value.is_integer():
            value = int(value)  # exact arithmetic downstream (Fractions), no rounding surprises
        elif integer:
            raise _err(where, name, f"field '{key}' must be {kind}, got {value!r}")
    if value <= 0:
        raise _err(where, name, f"field '{key}' must be {kind}, got {value!r}")
    return value


def _parse_table(where: str, name: str, table) -> dict:
    """Validate one machine table; return its fields, normalized (peaks gathered under 'peaks')."""
    if not isinstance(table, dict):
        raise _err(where, name, f"must be a table of fields; valid keys: {', '.join(VALID_KEYS)}")
    out: dict = {}
    peaks: dict = {}
    for key, value in table.items():
        if key not in VALID_KEYS:
            raise _err(where, name, f"unknown key '{key}'; valid keys: {', '.join(VALID_KEYS)}")
        if key in PEAK_KEYS:
            peaks[key] = _number(where, name, key, value)
        elif key in NUMBER_KEYS:
            out[key] = _number(where, name, key, value)
        elif key in TEXT_KEYS:
            if not isinstance(value, str):
                raise _err(where, name, f"field '{key}' must be a string, got {value!r}")
            out[key] = value
        elif key == "aliases":
            if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
                raise _err(where, name, f"field 'aliases' must be a list of names, got {value!r}")
            aliases = []
            for a in value:
                a = a.strip().lower()
                if not _NAME.match(a):
                    raise _err(where, name, f"field 'aliases': '{a}' is not a valid machine name "
                                            "(lowercase letters, digits, '-', '_', '.', '+')")
                aliases.append(a)
            out["aliases"] = tuple(aliases)
        elif key == "notes":
            if not isinstance(value, dict):
                raise _err(where, name, f"field 'notes' must be a table of field = \"note\", got {value!r}")
            for k, v in value.items():
                if k not in NUMBER_KEYS:
                    raise _err(where, name, f"field 'notes.{k}': '{k}' is not a numeric field; "
                                            f"valid keys: {', '.join(NUMBER_KEYS)}")
                if not isinstance(v, str):
                    raise _err(where, name, f"field 'notes.{k}' must be a string, got {v!r}")
            out["notes"] = dict(value)
    if peaks:
        out["peaks"] = peaks
    return out


class _Builder:
    """The database under construction: canonical name -> Machine, plus alias resolution."""

    def __init__(self) -> None:
        self.machines: dict[str, Machine] = {}

    def resolve(self, name: str) -> str | None:
        if name in self.machines:
            return name
        for m in self.machines.values():
            if name in m.aliases:
                return m.name
        return None

    def apply(self, where: str, name: str, table, *, shipped: bool = False) -> None:
        key = name.strip().lower()
        if not _NAME.match(key):
            raise _err(where, name, "not a valid machine name (lowercase letters, digits, '-', '_', '.', '+')")
        fields = _parse_table(where, name, table)
        target = self.resolve(key)
        if target is not None and not shipped:
            self._override(where, name, self.machines[target], fields)
        elif target is not None:
            raise _err(where, name, f"defined twice (already the name or an alias of '{target}')")
        else:
            self._define(where, key, fields, shipped)

    def _define(self, where: str, name: str, fields: dict, shipped: bool) -> None:
        missing = []
        if "bandwidth" not in fields:
            missing.append("field 'bandwidth' (DRAM bytes/s)")
        if not fields.get("peaks"):
            missing.append(f"a peak (at least one of: {', '.join(PEAK_KEYS)})")
        if shipped and not fields.get("source"):
            missing.append("field 'source'")
        if missing:
            raise _err(where, name, "is a new machine and lacks " + " and ".join(missing)
                       + f"; valid keys: {', '.join(VALID_KEYS)}")
        m = Machine(
            name=name, description=fields.get("description", ""), peaks=dict(fields["peaks"]),
            bandwidth=fields["bandwidth"], l2_bytes=fields.get("l2_bytes"),
            smem_bytes_per_sm=fields.get("smem_bytes_per_sm"), sms=fields.get("sms"),
            l2_bandwidth=fields.get("l2_bandwidth"), l1_bandwidth=fields.get("l1_bandwidth"),
            source=fields.get("source") or f"user-defined in {where}",
            aliases=fields.get("aliases", ()), notes=fields.get("notes", {}),
        )
        self._check_aliases(where, m)
        self.machines[name] = m

    def _override(self, where: str, name: str, m: Machine, fields: dict) -> None:
        user_notes = fields.get("notes", {})
        changed = sorted((set(fields) - {"peaks", "notes", "source", "description", "aliases"})
                         | set(fields.get("peaks", {})))
        peaks = {**m.peaks, **fields.get("peaks", {})}
        notes = {**m.notes, **user_notes}
        for k in changed:
            if k not in user_notes:
                notes[k] = f"overridden in {where}"
        source = fields.get("source", m.source)
        if changed and "source" not in fields:
            source = f"{m.source}; overridden in {where}: {', '.join(changed)}"
        new = replace(
            m, peaks={k: peaks[k] for k in PEAK_KEYS if k in peaks}, notes=notes, source=source,
            **{k: v for k, v in fields.items()
               if k in ("bandwidth", "description", "aliases") + LEVEL_BANDWIDTHS + INTEGER_KEYS},
        )
        self._check_aliases(where, new)
        self.machines[m.name] = new

    def _check_aliases(self, where: str, m: Machine) -> None:
        for a in m.aliases:
            if a == m.name:
                continue
            for other in self.machines.values():
                if other.name != m.name and (a == other.name or a in other.aliases):
                    raise _err(where, m.name, f"field 'aliases': '{a}' is already the name or an "
                                              f"alias of machine '{other.name}'")


def _read_toml(path) -> dict:
    try:
        return tomllib.loads(read_text(path, TOML_LIMIT))
    except InputError as e:
        raise MachineError(f"{path}: cannot read machine file: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise MachineError(f"{path}: not valid TOML: {e}") from None


def _machines_section(where: str, data: dict, table: str) -> dict:
    section = data.get("machines", {})
    if not isinstance(section, dict):
        raise MachineError(f"{where}: [{table}] must be a table of machines ([{table}.NAME])")
    return section


def shipped_text() -> tuple[str, str]:
    """(text, label) of the shipped machines.toml: beside this module (installed or in the source
    tree), else through importlib.resources (a package that is not a folder), which is not worth
    its import time where the file is on disk."""
    p = Path(__file__).resolve().parent / "machines.toml"
    if p.is_file():
        return p.read_text(encoding="utf-8"), "machines.toml"
    try:
        from importlib.resources import files

        r = files("staticroof.roofline") / "machines.toml"
        if r.is_file():
            return r.read_text(encoding="utf-8"), "machines.toml"
    except (ModuleNotFoundError, TypeError, OSError):
        pass
    raise MachineError("staticroof's machines.toml is missing from this installation")


def load_database(extra_files=(), pyproject=None) -> dict[str, Machine]:
    """The shipped machines, then `[tool.staticroof.machines.*]` from `pyproject`, then each of
    `extra_files` (``--machine-file``), later ones overriding earlier ones.  Canonical name ->
    Machine, in file order."""
    b = _Builder()
    text, label = shipped_text()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise MachineError(f"{label}: not valid TOML: {e}") from None
    for name, table in _machines_section(label, data, "machines").items():
        b.apply(f"{label} [machines.{name}]", name, table, shipped=True)
    if pyproject is not None:
        from ..config import ConfigError, section_of

        data = _read_toml(pyproject)
        try:  # a pyproject.toml's [tool.staticroof], or a staticroof.toml's top level
            tool, pre = section_of(data, pyproject)
        except ConfigError:
            tool, pre = {}, ""
        if "machines" in tool:  # section_of gives a table
            section = _machines_section(str(pyproject), tool, f"{pre}machines")
            for name, table in section.items():
                b.apply(f"{pyproject} [{pre}machines.{name}]", name, table)
    for path in extra_files:
        data = _read_toml(path)
        unknown = sorted(set(data) - {"machines"})
        if unknown:
            raise MachineError(f"{path}: unknown top-level key '{unknown[0]}'; a machine file holds "
                               "only [machines.NAME] tables")
        for name, table in _machines_section(str(path), data, "machines").items():
            b.apply(f"{path} [machines.{name}]", name, table)
    return b.machines


def get(name: str, db: dict[str, Machine]) -> Machine:
    """The machine called `name` (or with `name` as an alias), case-insensitively, or whose name has
    the same words in any order and punctuation (`_tokens`) when exactly one does."""
    key = name.strip().lower()
    if key in db:
        return db[key]
    for m in db.values():
        if key in m.aliases:
            return m
    # the same words however spelled (`A100-SXM4-80GB`, what nvidia-smi prints, is a100-80gb-sxm)
    want = _tokens(name)
    same = {m.name for m in db.values() for n in (m.name, *m.aliases) if want and _tokens(n) == want}
    if len(same) == 1:
        return db[same.pop()]
    aliases = sorted(a for m in db.values() for a in m.aliases)
    close = similar(name, db)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise MachineError(f"unknown machine '{name}'{hint}; valid names: {', '.join(sorted(db))}"
                       + (f" (aliases: {', '.join(aliases)})" if aliases else ""))


def _tokens(text: str) -> set:
    """The words of a machine name as nvidia-smi, rocm-smi or a person spells it (`NVIDIA A100-SXM4-80GB`,
    `GeForce RTX 4090`): lower case, vendor words dropped, `sxm4`/`sxm5` as `sxm`."""
    import re

    words = re.split(r"[\s_\-/]+", text.lower())
    drop = {"nvidia", "geforce", "tesla", "amd", "instinct", "intel", "gpu", ""}
    return {re.sub(r"^(sxm|pcie)\d*$", r"\1", w) for w in words if w not in drop}


def similar(name: str, db: dict) -> list[str]:
    """Up to three machine names close to `name`: the most words in common, else difflib's nearest."""
    import difflib

    want = _tokens(name)
    scored = []
    for key, m in db.items():
        best = max(len(want & _tokens(n)) / max(len(want | _tokens(n)), 1) for n in (key, *m.aliases))
        if best > 0:
            scored.append((-best, key))
    if scored:
        return [k for _, k in sorted(scored)[:3]]
    return difflib.get_close_matches(name.strip().lower(), list(db), n=3, cutoff=0.5)


def to_json(db: dict[str, Machine]) -> dict:
    """The database as plain JSON data, one entry per machine; absent keys where a unit or a
    number does not exist."""
    out = []
    for m in db.values():
        entry: dict = {"name": m.name, "peaks": {k: m.peaks[k] for k in m.roofs()}, "bandwidth": m.bandwidth}
        for k in LEVEL_BANDWIDTHS + INTEGER_KEYS:
            if getattr(m, k) is not None:
                entry[k] = getattr(m, k)
        entry["ridges"] = {k: m.peaks[k] / m.bandwidth for k in m.roofs()}
        entry["aliases"] = list(m.aliases)
        entry["source"] = m.source
        out.append(entry)
    return {"machines": out}
