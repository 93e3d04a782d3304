"""The machine database and roofline placement, against hand-derived numbers.

Every expectation is worked out by hand in the comments; the peaks and bandwidths are the
vendors' published figures (see staticroof/roofline/machines.toml for the sources).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from staticroof.roofline import (
    PEAK_KEYS,
    Machine,
    MachineError,
    choose_roof,
    dominant_precision,
    get,
    load_database,
    mixed_shares,
    plain,
    position,
    position_from_intensity,
    to_json,
)

from helpers import ROOT, read_svg_plot

approx = pytest.approx


@pytest.fixture(scope="module")
def db():
    return load_database()


def rel(a, b):
    return abs(float(a) - float(b)) / abs(float(b))


# ---------------------------------------------------------------------------------------------
# Ridge points: peak / bandwidth


def test_ridge_a100_fp32_via_alias(db):
    a100 = get("a100", db)
    assert a100.name == "a100-80gb-sxm"
    # 19.5e12 FLOP/s / 2.039e12 B/s = 9.5635 FLOP/B  (datasheet, A100 80GB SXM)
    assert a100.ridge("fp32") == pytest.approx(19.5e12 / 2.039e12, rel=1e-12)
    # the rounded reference 19.5 / 2.0 = 9.75 is within 2% (9.5635 / 9.75 = 0.981)
    assert rel(a100.ridge("fp32"), 9.75) < 0.02


def test_ridge_a100_fp16_tensor_via_alias(db):
    # 312e12 / 2.039e12 = 153.02 FLOP/B; reference 312 / 2.0 = 156 (153.02 / 156 = 0.981)
    r = get("a100", db).ridge("fp16_tensor")
    assert r == pytest.approx(312e12 / 2.039e12, rel=1e-12)
    assert rel(r, 156) < 0.02


def test_ridge_h100_sxm_bf16_tensor(db):
    # 989.4e12 / 3.35e12 = 295.34 FLOP/B
    r = get("h100-sxm", db).ridge("bf16_tensor")
    assert r == pytest.approx(989.4e12 / 3.35e12, rel=1e-12)
    assert rel(r, 295) < 0.02


def test_ridge_v100_fp16_tensor(db):
    # 125e12 / 900e9 = 138.89 FLOP/B
    r = get("v100", db).ridge("fp16_tensor")
    assert r == pytest.approx(125e12 / 900e9, rel=1e-12)
    assert rel(r, 139) < 0.02


def test_ridge_tpu_v5e_bf16(db):
    # 197e12 / 819e9 = 240.54 FLOP/B
    r = get("tpu-v5e", db).ridge("bf16_tensor")
    assert r == pytest.approx(197e12 / 819e9, rel=1e-12)
    assert rel(r, 240) < 0.02


def test_a100_40gb_is_a_separate_part(db):
    # A100 40GB SXM: 1,555 GB/s, so its fp32 ridge is 19.5e12 / 1.555e12 = 12.54 FLOP/B
    m = get("a100-40gb", db)
    assert m.name == "a100-40gb-sxm"
    assert m.bandwidth == 1_555_000_000_000
    assert m.ridge("fp32") == pytest.approx(12.54, abs=0.01)


def test_ridge_of_a_missing_roof_names_what_exists(db):
    with pytest.raises(MachineError, match=r"l4 has no fp64_tensor roof; it has: fp64, fp32, fp16, "
                                           r"tf32_tensor, fp16_tensor, bf16_tensor, fp8_tensor"):
        get("l4", db).ridge("fp64_tensor")


# ---------------------------------------------------------------------------------------------
# The shipped database


REQUIRED = ["v100-sxm2-32gb", "a100-40gb-sxm", "a100-80gb-sxm", "h100-sxm", "h100-pcie", "h200-sxm",
            "b200", "l4", "l40s", "rtx-4090", "mi250x", "mi300x", "tpu-v5e", "epyc-9654",
            "xeon-8480-plus"]


def test_required_machines_are_shipped(db):
    for name in REQUIRED:
        assert name in db, name


def test_every_machine_is_sourced_and_positive(db):
    for m in db.values():
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", m.name), m.name
        assert m.source.strip(), m.name
        assert m.description.strip(), m.name
        assert m.bandwidth > 0, m.name
        assert m.peaks, m.name
        assert set(m.peaks) <= set(PEAK_KEYS), m.name
        for k, v in m.peaks.items():
            assert isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0, (m.name, k)
        for k in ("l2_bytes", "smem_bytes_per_sm", "sms"):
            v = getattr(m, k)
            assert v is None or (isinstance(v, int) and v > 0), (m.name, k)
        for k in m.notes:
            assert k in PEAK_KEYS + ("bandwidth", "l2_bandwidth", "l1_bandwidth", "l2_bytes", "smem_bytes_per_sm",
                                     "sms"), (m.name, k)
        for k in ("l2_bandwidth", "l1_bandwidth"):
            v = getattr(m, k)
            assert v is None or (v > m.bandwidth and k in m.notes), (m.name, k)  # inner levels are faster
        # an fp32 roof everywhere except the TPU, whose only published roof is bf16 on the MXU
        if m.name == "tpu-v5e":
            assert set(m.peaks) == {"bf16_tensor"}
        else:
            assert "fp32" in m.peaks, m.name


def test_peaks_are_dense_plain_flops(db):
    # Plain FLOP/s, not TFLOP/s: every GPU peak is above 1e11, every bandwidth above 1e11 B/s.
    for m in db.values():
        assert m.bandwidth > 1e11, m.name
        for k, v in m.peaks.items():
            assert v > 1e11, (m.name, k)
    # Dense, not sparse: H100 SXM FP16 tensor is 989.4 TFLOPS (1,979 on the datasheet is sparse).
    assert get("h100", db).peaks["fp16_tensor"] == 989_400_000_000_000
    # L40S: 362.05 dense (733 with sparsity); L4: 242 / 2 = 121.
    assert get("l40s", db).peaks["bf16_tensor"] == 362_050_000_000_000
    assert get("l4", db).peaks["fp16_tensor"] == 121_000_000_000_000


def test_integral_numbers_are_exact_ints(db):
    # 19.5e12 in TOML is the float 19500000000000.0; the loader keeps it as the int, so that
    # placements with integer W and Q stay exact Fractions.
    a = get("a100", db)
    assert a.peaks["fp32"] == 19_500_000_000_000 and type(a.peaks["fp32"]) is int
    assert a.bandwidth == 2_039_000_000_000 and type(a.bandwidth) is int


def test_cpu_peaks_are_cores_times_clock_times_flops_per_cycle(db):
    # EPYC 9654: 96 cores x 2.4 GHz x 16 FP64 FLOPs/cycle (two 256-bit FMA pipes: 2 x 4 x 2)
    genoa = get("genoa", db)
    assert genoa.peaks["fp64"] == 96 * 2_400_000_000 * 16 == 3_686_400_000_000
    assert genoa.peaks["fp32"] == 2 * genoa.peaks["fp64"]
    # 12 channels x 8 B x 4.8e9 transfers/s = 460.8 GB/s
    assert genoa.bandwidth == 12 * 8 * 4_800_000_000
    # Xeon 8480+: 56 cores x 2.0 GHz x 32 FP64 FLOPs/cycle (two 512-bit FMA units: 2 x 8 x 2)
    spr = get("sapphire-rapids", db)
    assert spr.peaks["fp64"] == 56 * 2_000_000_000 * 32 == 3_584_000_000_000
    assert spr.peaks["fp32"] == 2 * spr.peaks["fp64"]
    assert spr.bandwidth == 8 * 8 * 4_800_000_000
    assert "computed" in spr.source and "computed" in genoa.source


def test_aliases_resolve_case_insensitively(db):
    assert get("A100", db) is get("a100-80gb-sxm", db)
    assert get(" h100 ", db).name == "h100-sxm"
    assert get("xeon-8480+", db).name == "xeon-8480-plus"
    # no alias is shared between machines
    seen = {}
    for m in db.values():
        for a in (m.name, *m.aliases):
            assert a not in seen, (a, m.name, seen.get(a))
            seen[a] = m.name


def test_unknown_machine_lists_valid_names_sorted(db):
    with pytest.raises(MachineError) as e:
        get("a1000", db)
    msg = str(e.value)
    assert "unknown machine 'a1000'" in msg
    names = msg.split("valid names: ")[1].split(" (aliases")[0].split(", ")
    assert names == sorted(db)
    assert "a100-80gb-sxm" in names and "tpu-v5e" in names
    assert "aliases: " in msg and "a100" in msg.split("aliases: ")[1]


# ---------------------------------------------------------------------------------------------
# Placing kernels


def test_saxpy_is_memory_bound_on_a100(db):
    a = get("a100", db)
    # SAXPY at n = 1e6: W = 2n = 2e6 FLOP, Q = 12n = 1.2e7 B, I = 1/6 FLOP/B
    r = position(2 * 10**6, 12 * 10**6, a.peaks["fp32"], a.bandwidth)
    assert r["intensity"] == Fraction(1, 6)
    assert r["ridge"] == Fraction(19_500, 2_039)  # 19.5e12 / 2.039e12
    assert r["bound"] == "memory"  # 1/6 < 9.56
    # attainable = bandwidth * I = 2.039e12 / 6 = 339.8 GFLOP/s (the brief's 2.0e12/6 within 2%)
    assert r["attainable"] == Fraction(2_039_000_000_000, 6)
    assert rel(r["attainable"], 2.0e12 / 6) < 0.02
    # fraction of peak = (2.039e12/6) / 19.5e12 = 2039 / 117000 = 1.74%
    assert r["fraction_of_peak"] == Fraction(2039, 117_000)
    # time floor: Q/bandwidth = 1.2e7 / 2.039e12 = 5.885 us dominates W/peak = 2e6/19.5e12 = 0.103 us
    assert r["time_floor"] == Fraction(12 * 10**6, 2_039_000_000_000)
    assert r["time_no_overlap"] == Fraction(2 * 10**6, 19_500_000_000_000) + Fraction(12 * 10**6, 2_039_000_000_000)


def test_saxpy_from_intensity_alone(db):
    # Unknown n: I = 1/6 is still known; the times are not.
    a = get("a100", db)
    r = position(None, None, a.peaks["fp32"], a.bandwidth, intensity=Fraction(1, 6))
    assert r["bound"] == "memory" and r["attainable"] == Fraction(2_039_000_000_000, 6)
    assert r["time_floor"] is None and r["time_no_overlap"] is None
    assert position_from_intensity(Fraction(1, 6), a.peaks["fp32"], a.bandwidth) == r


def test_unknown_everything_keeps_only_the_ridge(db):
    a = get("a100", db)
    r = position(None, None, a.peaks["fp32"], a.bandwidth)
    assert r == {"intensity": None, "ridge": Fraction(19_500, 2_039), "attainable": None, "bound": None,
                 "fraction_of_peak": None, "time_floor": None, "time_no_overlap": None}


GEMM_N = 1024
GEMM_W = 2 * GEMM_N**3  # 2,147,483,648 FLOP
GEMM_Q = 12 * GEMM_N**2  # 12,582,912 B (A and B read, C written, 4 bytes each)


def test_gemm_1024_is_compute_bound_on_a100(db):
    a = get("a100", db)
    r = position(GEMM_W, GEMM_Q, a.peaks["fp32"], a.bandwidth)
    # I = 2N^3 / 12N^2 = N/6 = 1024/6 = 170.67 FLOP/B > ridge 9.56
    assert r["intensity"] == Fraction(1024, 6)
    assert r["bound"] == "compute"
    assert r["attainable"] == 19_500_000_000_000 == a.peaks["fp32"]
    assert r["fraction_of_peak"] == 1


def test_gemm_1024_times_on_a100(db):
    a = get("a100", db)
    r = position(GEMM_W, GEMM_Q, a.peaks["fp32"], a.bandwidth)
    # W/peak = 2 * 1024^3 / 19.5e12 = 110.1 us; Q/bandwidth = 12 * 1024^2 / 2.039e12 = 6.17 us
    t_compute = Fraction(2 * 1024**3, 19_500_000_000_000)
    t_memory = Fraction(12 * 1024**2, 2_039_000_000_000)
    assert r["time_floor"] == t_compute  # max of the two
    assert float(r["time_floor"]) == pytest.approx(1.10127e-4, rel=1e-4)
    # no overlap: 110.127 us + 6.171 us = 116.298 us
    assert r["time_no_overlap"] == t_compute + t_memory
    assert float(r["time_no_overlap"]) == pytest.approx(1.16298e-4, rel=1e-4)


def test_ridge_boundary_is_compute_bound():
    # I exactly at the ridge (peak 100, bandwidth 10: ridge 10): compute-bound, attainable = peak
    r = position(100, 10, 100, 10)
    assert r["intensity"] == 10 and r["ridge"] == 10 and r["bound"] == "compute" and r["attainable"] == 100


def test_floats_and_degenerate_inputs():
    r = position(2e6, 1.2e7, 19.5e12, 2.039e12)  # floats in, floats out
    assert isinstance(r["intensity"], float) and r["bound"] == "memory"
    assert r["attainable"] == pytest.approx(2.039e12 / 6)
    # no DRAM traffic: infinite intensity, compute-bound at peak, time W/peak
    r = position(1000, 0, 100, 10)
    assert r["intensity"] == float("inf") and r["bound"] == "compute" and r["attainable"] == 100
    assert r["time_floor"] == 10 and r["time_no_overlap"] == 10
    # no work at all: no intensity, zero time
    r = position(0, 0, 100, 10)
    assert r["intensity"] is None and r["bound"] is None and r["time_floor"] == 0
    # pure copy: I = 0, memory-bound, attains nothing
    r = position(0, 80, 100, 10)
    assert r["intensity"] == 0 and r["bound"] == "memory" and r["attainable"] == 0 and r["time_floor"] == 8
    with pytest.raises(ValueError):
        position(-1, 10, 100, 10)
    with pytest.raises(TypeError):
        position("many", 10, 100, 10)


def test_sympy_numbers_are_accepted():
    sympy = pytest.importorskip("sympy")
    r = position(sympy.Integer(2 * 10**6), sympy.Integer(12 * 10**6), 100, 10)
    assert r["intensity"] == Fraction(1, 6)
    r = position(None, None, 100, 10, intensity=sympy.Rational(1, 6))
    assert r["intensity"] == Fraction(1, 6) and r["attainable"] == Fraction(10, 6)


def test_plain_is_json_ready(db):
    a = get("a100", db)
    r = plain(position(GEMM_W, GEMM_Q, a.peaks["fp32"], a.bandwidth))
    json.dumps(r)
    assert r["attainable"] == 19_500_000_000_000 and r["fraction_of_peak"] == 1
    assert r["intensity"] == pytest.approx(170.6667, rel=1e-6)


# ---------------------------------------------------------------------------------------------
# Choosing the roof


def test_choose_roof_defaults_to_cores(db):
    a = get("a100", db)
    assert choose_roof(a, {"fp32": 100}, None) == ("fp32", "fp32", 19_500_000_000_000)
    assert choose_roof(a, {"fp32": 100}, "cuda") == ("fp32", "fp32", 19_500_000_000_000)
    assert choose_roof(a, {"fp64": 100}, None) == ("fp64", "fp64", 9_700_000_000_000)


def test_choose_roof_tensor_unit(db):
    a = get("a100", db)
    # fp32 on tensor cores is TF32
    assert choose_roof(a, {"fp32": 1}, "tensor") == ("tf32_tensor", "fp32", 156_000_000_000_000)
    assert choose_roof(a, {"fp16": 1}, "tensor") == ("fp16_tensor", "fp16", 312_000_000_000_000)
    assert choose_roof(a, {"bf16": 1}, "tensor") == ("bf16_tensor", "bf16", 312_000_000_000_000)
    assert choose_roof(a, {"fp64": 1}, "tensor") == ("fp64_tensor", "fp64", 19_500_000_000_000)
    h = get("h100", db)
    assert choose_roof(h, {"fp8": 1}, "tensor") == ("fp8_tensor", "fp8", 1_978_900_000_000_000)


def test_choose_roof_fp16_on_cores(db):
    # fp16 on the cores: its own rate where the machine has one (A100: 78 TFLOPS) ...
    assert choose_roof(get("a100", db), {"fp16": 1}, None) == ("fp16", "fp16", 78_000_000_000_000)
    # ... else fp32 (Genoa has no fp16 vector rate in the database)
    assert choose_roof(get("genoa", db), {"fp16": 1}, None)[0] == "fp32"
    # bf16 and fp8 on the cores run as fp32
    assert choose_roof(get("a100", db), {"bf16": 1}, "cuda")[0] == "fp32"
    assert choose_roof(get("h100", db), {"fp8": 1}, "cuda")[0] == "fp32"


def test_choose_roof_dominant_precision_by_flops(db):
    a = get("a100", db)
    # 2 fp64 FLOPs against 10 fp32 FLOPs: fp32 dominates
    assert choose_roof(a, {"fp64": 2, "fp32": 10}, None)[:2] == ("fp32", "fp32")
    assert choose_roof(a, {"fp64": 20, "fp32": 10}, None)[:2] == ("fp64", "fp64")
    # ties go to the wider precision; unknown counts lose to known ones
    assert dominant_precision({"fp32": 5, "fp16": 5}) == "fp32"
    assert dominant_precision({"fp64": None, "fp16": 5}) == "fp16"
    assert dominant_precision({"fp16": None, "fp64": None}) == "fp64"
    # no floating-point work at all (a copy kernel): the fp32 roof
    assert dominant_precision({}) == "fp32"
    assert dominant_precision({"fp32": 0}) == "fp32"
    with pytest.raises(ValueError, match="valid precisions: fp64, fp32, fp16, bf16, fp8"):
        dominant_precision({"int8": 3})


def test_choose_roof_missing_roof_error(db):
    with pytest.raises(MachineError, match=r"^l4 has no fp64_tensor roof; it has: fp64, fp32"):
        choose_roof(get("l4", db), {"fp64": 1}, "tensor")
    with pytest.raises(MachineError, match=r"v100-sxm2-32gb has no bf16_tensor roof"):
        choose_roof(get("v100", db), {"bf16": 1}, "tensor")


def test_choose_roof_unknown_unit(db):
    with pytest.raises(MachineError, match=r"unknown unit 'matrix'; valid units: cuda, tensor"):
        choose_roof(get("a100", db), {"fp32": 1}, "matrix")


def test_choose_roof_tpu_defaults_to_the_mxu(db):
    # The TPU has no core/vector roof at all: the default unit is its matrix unit.
    assert choose_roof(get("tpu-v5e", db), {"bf16": 1}, None) == ("bf16_tensor", "bf16", 197_000_000_000_000)
    with pytest.raises(MachineError, match="tpu-v5e has no fp32 roof; it has: bf16_tensor"):
        choose_roof(get("tpu-v5e", db), {"fp32": 1}, "cuda")


def test_mixed_shares():
    # 30 fp64 + 90 fp32 = 120 FLOPs: 1/4 and 3/4
    assert mixed_shares({"fp64": 30, "fp32": 90}) == {"fp64": Fraction(1, 4), "fp32": Fraction(3, 4)}
    assert mixed_shares({"fp32": 7}) == {"fp32": 1}
    assert mixed_shares({"fp32": 7, "fp16": None}) == {"fp32": None, "fp16": None}
    assert mixed_shares({"fp32": 0}) == {"fp32": None}
    assert mixed_shares({}) == {}


# ---------------------------------------------------------------------------------------------
# User machine files and pyproject overrides


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_machine_file_unknown_key(tmp_path):
    f = write(tmp_path, "mine.toml", "[machines.a100]\nbandwith = 1.5e12\n")
    with pytest.raises(MachineError) as e:
        load_database(extra_files=[f])
    msg = str(e.value)
    assert str(f) in msg and "a100" in msg and "'bandwith'" in msg
    assert "valid keys: aliases, bandwidth, bf16_tensor" in msg


def test_machine_file_negative_bandwidth(tmp_path):
    f = write(tmp_path, "neg.toml", "[machines.gpu-x]\nfp32 = 1e12\nbandwidth = -5e11\n")
    with pytest.raises(MachineError) as e:
        load_database(extra_files=[f])
    msg = str(e.value)
    assert str(f) in msg and "gpu-x" in msg and "'bandwidth'" in msg and "positive" in msg


def test_machine_file_missing_peaks(tmp_path):
    f = write(tmp_path, "nopeak.toml", "[machines.gpu-y]\nbandwidth = 1e12\n")
    with pytest.raises(MachineError) as e:
        load_database(extra_files=[f])
    msg = str(e.value)
    assert str(f) in msg and "gpu-y" in msg and "is a new machine and lacks a peak" in msg
    assert "fp64, fp32, fp16, fp64_tensor" in msg


def test_machine_file_missing_bandwidth(tmp_path):
    f = write(tmp_path, "nobw.toml", "[machines.gpu-z]\nfp32 = 1e12\n")
    with pytest.raises(MachineError, match=r"gpu-z'.*lacks field 'bandwidth'"):
        load_database(extra_files=[f])


@pytest.mark.parametrize("body, field", [
    ('fp32 = "fast"', "'fp32'"),
    ("fp32 = true", "'fp32'"),
    ("fp32 = 0", "'fp32'"),
    ("sms = 10.5", "'sms'"),
    ("l2_bytes = -1", "'l2_bytes'"),
    ('aliases = "x"', "'aliases'"),
    ('notes.fp33 = "x"', "'notes.fp33'"),
    ('aliases = ["h100"]', "'aliases'"),  # already the alias of another machine
])
def test_machine_file_bad_values(tmp_path, body, field):
    f = write(tmp_path, "bad.toml", f"[machines.a100]\n{body}\n")
    with pytest.raises(MachineError) as e:
        load_database(extra_files=[f])
    assert str(f) in str(e.value) and "a100" in str(e.value) and field in str(e.value)


def test_machine_file_not_toml_or_missing(tmp_path):
    f = write(tmp_path, "broken.toml", "[machines.a100\n")
    with pytest.raises(MachineError, match="not valid TOML"):
        load_database(extra_files=[f])
    with pytest.raises(MachineError, match="cannot read machine file"):
        load_database(extra_files=[tmp_path / "absent.toml"])
    f = write(tmp_path, "top.toml", "[gpus.a100]\nfp32 = 1\n")
    with pytest.raises(MachineError, match=r"unknown top-level key 'gpus'"):
        load_database(extra_files=[f])


def test_new_machine_from_machine_file(tmp_path):
    # A made-up accelerator: 50 TFLOP/s fp32, 1.25 TB/s -> ridge 50e12 / 1.25e12 = 40 FLOP/B
    f = write(tmp_path, "lab.toml", """
[machines.lab-gpu]
description = "our lab's accelerator"
aliases = ["lab"]
fp32 = 50e12
fp16_tensor = 400e12
bandwidth = 1.25e12
sms = 64
""")
    db = load_database(extra_files=[f])
    m = get("lab", db)
    assert m.name == "lab-gpu" and m.ridge("fp32") == 40 and m.ridge("fp16_tensor") == 320
    assert m.sms == 64 and m.l2_bytes is None
    assert str(f) in m.source  # "user-defined in <file> [machines.lab-gpu]"
    # SAXPY there: I = 1/6 < 40, attainable 1.25e12 / 6
    r = position(2, 12, m.peaks["fp32"], m.bandwidth)
    assert r["bound"] == "memory" and r["attainable"] == Fraction(1_250_000_000_000, 6)
    # the shipped machines are still there
    assert "a100-80gb-sxm" in db


def test_pyproject_override_changes_the_ridge(tmp_path):
    # Measured STREAM bandwidth instead of the datasheet's: 1.95e12 B/s.
    # fp32 ridge 19.5e12 / 1.95e12 = 10 FLOP/B (was 9.56).
    p = write(tmp_path, "pyproject.toml", """
[project]
name = "kernels"

[tool.staticroof.machines.a100]
bandwidth = 1.95e12
""")
    db = load_database(pyproject=p)
    a = get("a100", db)
    assert a is get("a100-80gb-sxm", db)  # the alias and the name are the same machine
    assert a.bandwidth == 1_950_000_000_000 and a.ridge("fp32") == 10
    assert a.peaks["fp32"] == 19_500_000_000_000 and a.sms == 108  # the rest untouched
    assert "overridden in" in a.source and "bandwidth" in a.source and a.notes["bandwidth"].startswith("overridden")
    assert get("a100-40gb", db).bandwidth == 1_555_000_000_000
    assert load_database()["a100-80gb-sxm"].bandwidth == 2_039_000_000_000  # no state leaks


def test_pyproject_errors_name_the_table(tmp_path):
    p = write(tmp_path, "pyproject.toml", "[tool.staticroof.machines.h100]\nfp32 = -1\n")
    with pytest.raises(MachineError) as e:
        load_database(pyproject=p)
    msg = str(e.value)
    assert str(p) in msg and "[tool.staticroof.machines.h100]" in msg and "'fp32'" in msg


def test_pyproject_without_machines_is_fine(tmp_path):
    p = write(tmp_path, "pyproject.toml", "[tool.staticroof.sizes]\nN = 1024\n")
    assert load_database(pyproject=p).keys() == load_database().keys()


def test_machine_file_wins_over_pyproject(tmp_path):
    p = write(tmp_path, "pyproject.toml", "[tool.staticroof.machines.a100]\nbandwidth = 1.95e12\n")
    f = write(tmp_path, "m.toml", "[machines.a100-80gb]\nbandwidth = 1.5e12\nfp32 = 15e12\n")
    a = get("a100", load_database(extra_files=[f], pyproject=p))
    assert a.bandwidth == 1_500_000_000_000 and a.ridge("fp32") == 10  # 15e12 / 1.5e12


# ---------------------------------------------------------------------------------------------
# JSON


def test_to_json_shape(db):
    doc = to_json(db)
    assert list(doc) == ["machines"]
    json.dumps(doc)  # plain data
    assert [m["name"] for m in doc["machines"]] == list(db)
    required = {"name", "peaks", "bandwidth", "ridges", "aliases", "source"}
    optional = {"l2_bytes", "smem_bytes_per_sm", "sms", "l2_bandwidth", "l1_bandwidth"}
    for entry in doc["machines"]:
        assert required <= set(entry) <= required | optional
        assert set(entry["ridges"]) == set(entry["peaks"])
        for k, peak in entry["peaks"].items():
            assert entry["ridges"][k] == pytest.approx(peak / entry["bandwidth"])
    a = next(e for e in doc["machines"] if e["name"] == "a100-80gb-sxm")
    assert a["aliases"] == ["a100", "a100-80gb"]
    assert a["peaks"]["fp32"] == 19_500_000_000_000 and a["bandwidth"] == 2_039_000_000_000
    assert a["l2_bytes"] == 40 * 2**20 and a["smem_bytes_per_sm"] == 192 * 1024 and a["sms"] == 108
    assert a["ridges"]["fp16_tensor"] == pytest.approx(153.016, rel=1e-5)
    assert "fp8_tensor" not in a["peaks"]  # A100 has no FP8 unit: absent, not zero
    tpu = next(e for e in doc["machines"] if e["name"] == "tpu-v5e")
    assert tpu["peaks"] == {"bf16_tensor": 197_000_000_000_000}
    assert not optional & set(tpu)


def test_machine_dataclass_by_hand():
    m = Machine(name="toy", description="", peaks={"fp32": 100}, bandwidth=10)
    assert m.ridge("fp32") == 10.0
    assert to_json({"toy": m}) == {"machines": [{"name": "toy", "peaks": {"fp32": 100}, "bandwidth": 10,
                                                 "ridges": {"fp32": 10.0}, "aliases": [], "source": ""}]}


def test_import_is_light():
    code = ("import sys, staticroof.roofline as r; r.load_database(); "
            "print(sorted(m for m in ('sympy', 'numpy', 'scipy', 'matplotlib', 'islpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_plot_png_and_svg_match_the_json(tmp_path):
    """The pictures read back: the SVG's texts and its markers (helpers.read_svg_plot) and the PNG's
    pixels, against hand-derived values and the JSON report.

    A100 80 GB SXM (the machine database): fp32 peak 19.5 TFLOP/s, DRAM 2.039 TB/s: the ridge is
    19.5 / 2.039 = 9.5635 FLOP/B ("ridge 9.56 FLOP/B", "DRAM 2.04 TB/s", "fp32 19.5 TFLOP/s").
    saxpy (y[i] = a*x[i] + y[i]): 2 FLOPs per 12 B (x read, y read and written): I = 1/6, below the
    ridge, so P = 2.039e12 / 6 = 3.398e11 FLOP/s.  gemm (N = 1024, the file's header): I = N/6 =
    170.67 FLOP/B, above the ridge: P = 19.5e12 FLOP/s."""
    import json as json_module

    import matplotlib.image
    from click.testing import CliRunner

    from staticroof.cli import main

    samples = ROOT / "samples"
    args = [str(samples / "saxpy.c"), str(samples / "gemm.c"), "--machine", "a100", "-D", "n=1000000"]
    for suffix in (".png", ".svg"):
        r = CliRunner().invoke(main, ["plot", *args, "-o", str(tmp_path / f"roof{suffix}")])
        assert r.exit_code == 0, r.output
    shown = read_svg_plot(tmp_path / "roof.svg")
    for text in ("arithmetic intensity (FLOP/B)", "attainable performance (TFLOP/s)",
                 "a100-80gb-sxm roofline, fp32 (staticroof)", "ridge 9.56 FLOP/B", "DRAM 2.04 TB/s",
                 "fp32 19.5 TFLOP/s", "saxpy", "gemm", "W/Q compulsory", "DRAM level (hierarchical)",
                 "L2 level (hierarchical)", "L1 level (hierarchical)"):
        assert text in shown["texts"], (text, shown["texts"])
    *levels, compulsory = shown["series"]

    def near(a, b):
        return all(math.isclose(x, y, rel_tol=1e-4) for x, y in zip(a, b, strict=True))

    hand = [(1 / 6, 2.039e12 / 6), (1024 / 6, 19.5e12)]
    assert len(compulsory) == 2 and all(any(near(p, q) for p in compulsory) for q in hand), compulsory
    doc = json_module.loads(CliRunner().invoke(main, ["analyze", *args, "--format", "json"]).output)
    assert len(levels) == 3
    for series, name in zip(levels, ("DRAM", "L2", "L1"), strict=True):
        # each kernel at its level's intensity, at the one height of the hierarchical roofline
        want = [(lv["intensity"], k["roofline"]["hierarchy"]["attainable"])
                for k in doc["kernels"] for lv in k["roofline"]["levels"] if lv["level"] == name]
        assert len(series) == len(want) == 2 and all(any(near(p, q) for p in series) for q in want), (name, series)
    png = matplotlib.image.imread(tmp_path / "roof.png")
    assert png.shape[:2] == (600, 900)  # figsize 9 x 6 inches at 100 dpi

    def has(color: str) -> bool:
        rgb = [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        return bool((abs(png[:, :, :3] - rgb).max(axis=2) < 0.02).any())

    assert has("#d62728") and has("#1f77b4")  # the fp32 roof (tab:red) and the DRAM-level points (tab:blue)


# ---------------------------------------------------------------------------------------------
# The hierarchical roofline: DRAM, L2 and L1 levels and the level the kernel is bound at.

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _placed(paths, defines, machine="a100", machine_files=()):
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run
    from staticroof.roofline.place import place

    m = get(machine, load_database(machine_files))
    report = run(paths, AnalysisOptions(defines=defines, cache_bytes=m.l2_bytes, l1_bytes=m.smem_bytes_per_sm))
    for k in report.kernels:
        k.roofline = place(k, m)
    return {k.name: k.roofline for k in report.kernels}


def test_level_bandwidths_are_bytes_per_clock_times_clock(db):
    # A100 (both): L2 5,120 B/clk x 1,410 MHz; L1/shared 128 B/clk per SM x 108 SMs x 1,410 MHz
    for name in ("a100-40gb-sxm", "a100-80gb-sxm"):
        assert db[name].l2_bandwidth == 5120 * 1_410_000_000
        assert db[name].l1_bandwidth == 128 * 108 * 1_410_000_000
    # V100: L2 2,048 B/clk, 80 SMs, 1,530 MHz
    assert db["v100-sxm2-32gb"].l2_bandwidth == 2048 * 1_530_000_000
    assert db["v100-sxm2-32gb"].l1_bandwidth == 128 * 80 * 1_530_000_000
    # H100 SXM: the clock implied by FP32 66.9 TFLOPS = 132 SMs x 128 lanes x 2 x f, f ~ 1,980 MHz
    assert rel(db["h100-sxm"].peaks["fp32"] / (132 * 128 * 2), 1.98e9) < 0.001
    assert db["h100-sxm"].l1_bandwidth == 128 * 132 * 1_980_000_000


def test_gemm_levels_on_a100_by_hand():
    # samples/gemm.c, N = 1024, fp32, on a100 (80 GB): W = 2N^3 = 2,147,483,648.
    N = 1024
    W = Fraction(2 * N**3)
    r = _placed([SAMPLES / "gemm.c"], {"N": str(N)})["gemm"]
    dram, l2, l1 = r["levels"]
    assert [dram["level"], l2["level"], l1["level"]] == ["DRAM", "L2", "L1"]
    # DRAM: Q(M) with the 40 MiB L2 is below compulsory at N = 1024 (16N^3/sqrt(M) - 2M < 0), so
    # Q = 12N^2 and I = N/6 = 170.67, at 2.039 TB/s: min(19.5T, 2.039T x 170.67) = 19.5 TFLOP/s
    assert dram["bytes"] == 12 * N**2 and dram["intensity"] == pytest.approx(N / 6)
    assert dram["attainable"] == 19.5e12
    # L2: Q(M) with one SM's 192 KiB (M = 196,608 B): 16N^3/sqrt(M) - 2M = 38,352,104.7 B; bytes are
    # whole, so the lower bound is 38,352,105 B, I = 55.99
    q_l2 = 16 * N**3 / 196_608**0.5 - 2 * 196_608
    assert l2["bytes"] == 38_352_105 == math.ceil(q_l2)
    assert l2["intensity"] == pytest.approx(float(W) / 38_352_105)
    # L1: every load and store, A and B each N^3 times, C N^2 times: 8N^3 + 4N^2 bytes, so
    # I = 2N^3 / (8N^3 + 4N^2) = N/(4N + 2) = 1024/4098, at 19.49184 TB/s: 4.8706 TFLOP/s < peak
    i_l1 = Fraction(N, 4 * N + 2)
    assert l1["bytes"] == 8 * N**3 + 4 * N**2 and l1["intensity"] == pytest.approx(float(i_l1))
    att = 19_491_840_000_000 * i_l1
    assert l1["attainable"] == pytest.approx(float(att), rel=1e-12)
    h = r["hierarchy"]
    assert h["bound"] == "L1" and h["attainable"] == pytest.approx(float(att), rel=1e-12)
    assert h["fraction_of_peak"] == pytest.approx(float(att / 19_500_000_000_000), rel=1e-12)
    # time floor: the slowest level, (8N^3 + 4N^2) B / 19.49184 TB/s = 440.9 us (> W/peak = 110 us)
    assert h["time_floor"] == pytest.approx((8 * N**3 + 4 * N**2) / 19_491_840_000_000, rel=1e-12)
    assert "note" not in h  # a C kernel: its L1 traffic is what the core loads


def test_saxpy_is_bound_at_dram_on_every_level_machine():
    # SAXPY reads x, y and writes y once each at every level: I = 2n/12n = 1/6 everywhere; the
    # slowest roof is DRAM's: 2.039 TB/s / 6 = 339.83 GFLOP/s, and without sizes still a verdict
    r = _placed([SAMPLES / "saxpy.c"], {})["saxpy"]
    assert [lv["intensity"] for lv in r["levels"]] == [pytest.approx(1 / 6)] * 3
    assert r["hierarchy"]["bound"] == "DRAM"
    assert r["hierarchy"]["attainable"] == pytest.approx(2_039e9 / 6)
    assert r["hierarchy"]["time_floor"] is None  # no n: no time


def test_levels_without_a_bandwidth_are_named_and_skipped():
    # MI300X has no L2/L1 bandwidth in the database: the verdict is DRAM's alone, and says so
    r = _placed([SAMPLES / "saxpy.c"], {"n": "1000"}, machine="mi300x")["saxpy"]
    assert r["hierarchy"]["unknown"] == ["L2", "L1"] and r["hierarchy"]["levels"] == ["DRAM"]
    assert r["hierarchy"]["bound"] == "DRAM"
    assert [lv["attainable"] is None for lv in r["levels"]] == [False, True, True]


def test_no_verdict_while_a_level_needs_the_sizes():
    # blur without n: DRAM's I = 3(n-2)/(8n-8) depends on n, so no level is singled out even though
    # the L1 intensity (3/16) is a constant
    r = _placed([SAMPLES / "stencil1d.c"], {})["blur"]
    assert r["levels"][0]["intensity"] is None and r["levels"][2]["intensity"] == pytest.approx(3 / 16)
    assert r["hierarchy"]["bound"] is None


def test_a_faster_l1_makes_gemm_compute_bound(tmp_path):
    # override a100's L1 to 100 PB/s: L1 roof 1e17 x 0.2499 = 2.5e16 > 19.5e12, every level is above
    # the peak, and the kernel is compute-bound at 100% of peak
    f = tmp_path / "m.toml"
    f.write_text("[machines.a100]\nl1_bandwidth = 1e17\n")
    r = _placed([SAMPLES / "gemm.c"], {"N": "1024"}, machine_files=[f])["gemm"]
    assert r["hierarchy"]["bound"] == "compute" and r["hierarchy"]["fraction_of_peak"] == 1


def test_cuda_l1_level_carries_the_wavefront_note():
    r = _placed([SAMPLES / "matmul_tiled.cu"], {})["matmul_tiled"]
    # 32x32 tiles: per k, each thread loads As[ty][k] and Bs[k][tx] (8 B of shared) for 2 FLOPs;
    # plus the tile loads and C: I_L1 ~ 0.235 < 1/4, far below the L1 ridge (1.0): bound at L1.
    # (A warp's As[ty][k] is a broadcast and its Bs[k][tx] 32 consecutive words: one 128-byte
    # wavefront each, which is exactly the 32 x 4 bytes its threads count.)
    assert r["hierarchy"]["bound"] == "L1" and "wavefront" in r["hierarchy"]["note"]
    # a machine without an L1 bandwidth has no L1 roof to qualify
    assert "note" not in _placed([SAMPLES / "matmul_tiled.cu"], {}, machine="mi300x")["matmul_tiled"]["hierarchy"]


def test_the_plot_geometry_is_slide_ready(tmp_path):
    """Issue #32 §4: every roof drawn only where it bounds, every point under its roof, no point for a
    level the machine has no bandwidth for (said in the legend), a label on every kernel and measured
    point.  The RTX 5070 entry gives DRAM 672 GB/s and fp32 30.8 TFLOP/s only: its DRAM line ends at
    the ridge 30.8e12 / 672e9 = 45.8 FLOP/B, where the compute roof starts; the naive GEMM at N = 2048
    (I = N/6 = 341.3, compute-bound) has one DRAM-compulsory and one DRAM-level point, at 30.8 TFLOP/s,
    and no L2 or L1 point."""
    from click.testing import CliRunner

    from staticroof.cli import main
    from staticroof.reports.plot import roof_lines

    ncu = ROOT / "tests" / "data" / "ncu"
    out = tmp_path / "roof.svg"
    r = CliRunner().invoke(main, ["plot", str(ncu / "rtx5070_kernels.cu"), "--machine", "rtx-5070", "-o", str(out),
                                  "--kernel", "gemm_naive_kernel",
                                  "--ncu", str(ncu / "rtx5070-details-csv" / "gemm_naive.csv")])
    assert r.exit_code == 0, r.output
    shown = read_svg_plot(out)
    assert "L2, L1: no bandwidth for rtx-5070, not drawn" in shown["texts"]
    assert "gemm_naive_kernel" in shown["texts"]
    assert "gemm_naive_kernel (measured DRAM)" in shown["texts"] and "gemm_naive_kernel (measured L1)" in shown["texts"]
    m = get("rtx-5070", load_database())
    (dram, fp32) = roof_lines(m, ["fp32"], 0.01, 1e4)
    assert dram["x"][1] == approx(30.84e12 / 672e9) and dram["y"][1] == approx(30.84e12)
    assert fp32["x"][0] == approx(30.84e12 / 672e9) and fp32["ridge"] == approx(45.89, rel=1e-3)
    # the points as drawn: DRAM level, then W/Q compulsory, then measured
    level, compulsory, *measured = shown["series"]
    assert level == [approx((2048 / 6, 30.84e12), rel=1e-4)] and compulsory == [approx((2048 / 6, 30.84e12),
                                                                                         rel=1e-4)]
    for x, y in level + compulsory:  # under the roof min(peak, bandwidth x I)
        assert y <= min(30.84e12, 672e9 * x) * (1 + 1e-4)
    assert len(measured) == 2


def test_every_predicted_point_is_under_its_roof(tmp_path):
    """The points draw() returns carry the roof over them: on the A100 (all three levels known) and
    the L4 (DRAM only) each is at or below it, for every sample, and that roof is min(the kernel's
    peak, the level's bandwidth x the point's intensity) computed here from the machine entry."""
    pytest.importorskip("matplotlib")
    from staticroof.reports.plot import draw

    for machine in ("a100", "l4"):
        m = get(machine, load_database())
        placed = _placed([SAMPLES / n for n in ("saxpy.c", "gemm.c", "stencil1d.c", "gemv_half.cu")],
                         {"n": 100000}, machine)
        kernels = [type("K", (), {"name": name, "roofline": r})() for name, r in placed.items() if r]
        pts = draw(kernels, m, str(tmp_path / f"{machine}.png"))
        assert pts and all(p["roof"] is not None and p["attainable"] <= p["roof"] * (1 + 1e-12) for p in pts)
        bandwidth = {"DRAM compulsory": m.bandwidth, "DRAM": m.bandwidth, "L2": m.l2_bandwidth, "L1": m.l1_bandwidth}
        for p in pts:
            peak = m.peak(placed[p["kernel"]]["roof"])
            assert p["roof"] == pytest.approx(min(peak, bandwidth[p["level"]] * p["intensity"]), rel=1e-12), p
        levels = {p["level"] for p in pts}
        assert levels == ({"DRAM compulsory", "DRAM", "L2", "L1"} if machine == "a100" else
                          {"DRAM compulsory", "DRAM"}), levels
