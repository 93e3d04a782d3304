"""Readers of Nsight Compute reports (staticroof.ncu), on the real published outputs in
tests/data/ncu/ (see its README): every expected value below was read from the file by hand."""

from __future__ import annotations

import pytest

from staticroof.ncu import ReportError, read
from staticroof.ncu.names import parse as parse_name
from staticroof.ncu.values import number, scale

from helpers import ROOT

NCU = ROOT / "tests" / "data" / "ncu"


def approx(x):
    return pytest.approx(x, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# numbers and units

def test_numbers_with_thousands_separators_and_not_numbers():
    assert number("134,221,568") == 134221568 and number("2,917,647,058.82") == 2917647058.82
    assert number("0.31") == 0.31 and number("32") == 32 and number("1.5e3") == 1500
    assert number("") is None and number("n/a") is None and number("(256, 1, 1)") is None
    assert number("1,22") is None  # not a thousands group: never read as 122


def test_units_are_powers_of_1000_and_times_both_spellings():
    assert scale("byte") == (1.0, "byte") and scale("Kbyte") == (1e3, "byte") and scale("Mbyte") == (1e6, "byte")
    assert scale("Gbyte") == (1e9, "byte")
    for short, long_, f in (("ns", "nsecond", 1e-9), ("us", "usecond", 1e-6), ("ms", "msecond", 1e-3)):
        assert scale(short) == scale(long_) == (f, "second")
    assert scale("Gbyte/s") == scale("Gbyte/second") == (1e9, "byte/second")
    assert scale("cycle/nsecond") == (1e9, "cycle/second") and scale("Ghz") == (1e9, "hz")
    assert scale("Mhz") == (1e6, "hz") and scale("%") == (1.0, "%") and scale("sector") == (1.0, "sector")
    assert scale("Kbyte/block") == (1e3, "byte/block")


# ---------------------------------------------------------------------------------------------
# details page (--csv): new layout (RTX 5070) and old layout (A100)

def test_details_csv_new_layout_with_bom_and_program_output():
    r = read(NCU / "rtx5070-details-csv" / "saxpy.csv")
    assert r.format == "details-csv" and len(r.launches) == 1
    launch = r.launches[0]
    # the header is line 9 (after eight lines of program output, the first with the BOM)
    assert launch.line == 10 and launch.index == 0
    assert launch.kernel == "unnamed>::saxpy_kernel(float, const float *, float *, int)"
    assert launch.grid == (65536, 1, 1) and launch.block == (256, 1, 1) and launch.cc == "12.0"
    assert launch.value("dram__bytes_op_read.sum") == 134_221_568
    assert launch.value("dram__bytes_op_write.sum") == 43_631_104
    assert launch.value("gpu__time_duration.sum") == approx(292_928e-9)  # "ns"
    assert launch.metrics["lts__t_sector_hit_rate.pct"].value == 33.26
    m = launch.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
    assert (m.value, m.unit) == (4_194_304, "sector")
    assert len(launch.metrics) == 12  # metrics_used.txt lists twelve


def test_details_csv_old_layout_several_launches():
    r = read(NCU / "a100-details-csv-old" / "dropout_nsight162_first3.csv")
    assert [x.index for x in r.launches] == [0, 1, 2]
    first, second = r.launches[:2]
    assert first.kernel.startswith("void at::native::(anonymous namespace)::fused_dropout_kernel_vec<double, double, "
                                   "unsigned int, 1, 4>(at::cuda::detail::TensorInfo<double, unsigned int>")
    assert first.grid is None and first.block is None  # the old layout has no launch shape
    assert first.value("dram__bytes.sum") == 4_194_688 and second.value("dram__bytes.sum") == 1_048_832
    assert first.value("sm__sass_thread_inst_executed_op_dfma_pred_on.sum") == 655_360
    assert first.value("sm__sass_thread_inst_executed_op_dmul_pred_on.sum") == 1_048_576
    assert first.value("sm__sass_thread_inst_executed_op_ffma_pred_on.sum") == 524_288
    assert first.value("gpu__time_duration.sum") == approx(11_744e-9)  # "nsecond"
    assert second.value("gpu__time_duration.sum") == approx(7_360e-9)
    assert first.value("l1tex__t_bytes.sum") == 17_301_504 and first.value("lts__t_bytes.sum") == 20_594_592


def test_details_csv_trailing_rule_columns_and_crlf(tmp_path):
    # Synthetic (no published file has them): a newer layout with rule columns after the value, one
    # of them holding a line break inside its quotes; CRLF line ends; a ==PROF== line between rows.
    head = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
            '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type",'
            '"Rule Description"')
    row = ('"{i}","1","app","127.0.0.1","void mm_tiled<16>(const float *, float *, int)","1","7","(16, 16, 1)",'
           '"(8, 8, 1)","0","8.0","Memory Workload Analysis","{m}","{u}","{v}","{rule}","OPT","{desc}"')
    lines = [head, row.format(i=0, m="dram__bytes_read.sum", u="Mbyte", v="1.05", rule="", desc=""),
             "==PROF== Disconnected from process 1",
             row.format(i=0, m="gpu__time_duration.sum", u="usecond", v="12.50", rule="MemoryL2",
                        desc="two lines\r\nof rule text"),
             row.format(i=1, m="dram__bytes_read.sum", u="Kbyte", v="2,048.00", rule="", desc="")]
    p = tmp_path / "new.csv"
    p.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    r = read(p)
    assert [x.index for x in r.launches] == [0, 1]
    a, b = r.launches
    assert a.value("dram__bytes_read.sum") == approx(1.05e6) and a.value("gpu__time_duration.sum") == approx(12.5e-6)
    assert b.value("dram__bytes_read.sum") == approx(2.048e6) and b.line == 6  # the quoted break took a line
    assert a.grid == (8, 8, 1) and a.block == (16, 16, 1)


# ---------------------------------------------------------------------------------------------
# raw page (--csv --page raw): GTX 1080, legacy names, units row, instanced values

@pytest.mark.parametrize("name,first", [("nsight_vectoradd_100_32_metrics_all.csv", 3),
                                        ("nsight_vectoradd_100_32_metrics_all.txt", 8)])
def test_raw_csv_pascal(name, first):
    r = read(NCU / "gtx1080-raw-csv" / name)
    assert r.format == "raw-csv" and [x.index for x in r.launches] == [0, 1, 2]
    assert [x.line for x in r.launches] == [first, first + 1, first + 2]  # the .txt has 5 lines of output first
    assert {x.kernel for x in r.launches} == {"vecAdd"}
    assert [x.value("dram__read_bytes") for x in r.launches] == [7552, 3264, 2176]
    assert [x.value("dram__write_bytes") for x in r.launches] == [384, 256, 256]
    assert [x.value("dram__read_sectors") for x in r.launches] == [236, 102, 68]
    assert all(x.value("gpu__time_duration") == approx(2720e-9) for x in r.launches)  # legacy: no .sum
    launch = r.launches[0]
    assert launch.device == "NVIDIA GeForce GTX 1080" and launch.cc == "6.1"
    assert launch.grid == (1,) and launch.block == (1024,)  # launch__grid_size / launch__block_size totals
    inst = launch.metrics["inst_executed"]
    assert inst.value is None and len(inst.instances) == 24 and sum(inst.instances) == 344
    assert launch.value("smsp__inst_executed_sum") == 344
    assert launch.metrics["dram__bytes_per_sec"].unit == "byte/second"


# ---------------------------------------------------------------------------------------------
# console output

def test_console_new_unit_spellings():
    r = read(NCU / "a100-console" / "ncu_full_N1024_ncu2025style.txt")
    assert r.format == "console" and len(r.launches) == 1
    launch = r.launches[0]
    assert launch.kernel == "vectorAdd(float *, float *, float *)" and launch.line == 5
    assert launch.grid == (4, 1, 1) and launch.block == (256, 1, 1) and launch.cc == "8.0"
    assert launch.value("Duration") == approx(4.93e-6) and launch.value("DRAM Frequency") == approx(1.2e9)
    assert launch.value("SM Frequency") == approx(756.09e6) and launch.value("Elapsed Cycles") == 3726
    assert launch.value("GPU Speed Of Light Throughput: Memory Throughput") == 0.48  # %
    assert launch.value("Memory Workload Analysis: Memory Throughput") == approx(2.21e9)  # Gbyte/s
    assert launch.value("Maximum Buffer Size") == approx(786.43e3)  # Kbyte
    assert launch.value("Threads") == 1024 and launch.metrics["Function Cache Configuration"].text == "CachePreferNone"
    assert any("executes 0 fused and 32 non-fused FP32 instructions" in text for _, text in launch.notes)


def test_console_old_unit_spellings():
    launch = read(NCU / "a100-console" / "ncu_full_N1048576_olderstyle.txt").launches[0]
    assert launch.grid == (4096, 1, 1) and launch.block == (256, 1, 1)
    assert launch.value("Duration") == approx(10.14e-6)  # usecond
    assert launch.value("DRAM Frequency") == approx(1.48e9)  # cycle/nsecond
    assert launch.metrics["DRAM Frequency"].unit == "cycle/second"
    assert launch.value("Memory Workload Analysis: Memory Throughput") == approx(826.98e9)  # Gbyte/second
    assert launch.value("Grid Size") == 4096 and launch.value("Threads") == 1_048_576
    # the rule's sentence runs over two lines of the file: joined
    assert any("executes 0 fused and 32768 non-fused FP32 instructions" in text for _, text in launch.notes)


def test_console_basic_set_with_program_output():
    launch = read(NCU / "rtx3070-console" / "ncu_console_basic.txt").launches[0]
    assert launch.kernel == "saxpy" and launch.grid == (977, 1, 1) and launch.block == (1024, 1, 1)
    assert launch.cc == "8.6" and launch.value("Duration") == approx(31.23e-6)
    assert launch.value("DRAM Throughput") == 86.67 and launch.value("# SMs") == 46
    assert launch.value("Threads") == 1_000_448


def test_console_utf16_crlf_without_metric_name_headers():
    r = read(NCU / "ada-console-utf16" / "ncu_log.txt")
    names = [parse_name(x.kernel).base for x in r.launches]
    assert names == ["distribution_elementwise_grid_stride_kernel"] * 2 + ["extreme_reg_pressure_matmul"] * 4
    assert [x.line for x in r.launches] == [36, 85, 134, 182, 230, 278]
    durations = [x.value("Duration") for x in r.launches]
    assert durations == [approx(13.18e-6), approx(13.31e-6), approx(35.90e-3), approx(37.08e-3),
                         approx(42.86e-3), approx(41.67e-3)]
    first, mm = r.launches[0], r.launches[2]
    assert first.grid == (768,) and first.block == (256,)  # no shape in the older header: Launch Statistics
    assert mm.grid == (1024,) and mm.block == (128,)
    assert mm.value("Registers Per Thread") == 255 and mm.value("Dynamic Shared Memory Per Block") == approx(32.77e3)
    assert mm.value("Memory [%]") == 71.79
    assert r.messages == [(34, "==ERROR== The application returned an error code (1).")]


def test_console_run_that_profiled_no_kernel():
    with pytest.raises(ReportError) as e:
        read(NCU / "ada-console-utf16" / "ncu_log_exetrem_mem.txt")
    assert e.value.line == 29 and "no kernel was profiled" in str(e.value)
    assert str(e.value).startswith(str(NCU / "ada-console-utf16" / "ncu_log_exetrem_mem.txt") + ":29: ")


# ---------------------------------------------------------------------------------------------
# bad input: one error naming the file (and the line)

def _error(tmp_path, data: bytes, name="r.csv") -> ReportError:
    p = tmp_path / name
    p.write_bytes(data)
    with pytest.raises(ReportError) as e:
        read(p)
    assert str(e.value).startswith(str(p)) and "\n" not in str(e.value)
    return e.value


def test_empty_garbage_binary_and_wrong_format(tmp_path):
    assert "empty" in str(_error(tmp_path, b""))
    assert "empty" in str(_error(tmp_path, b"\r\n\n  \n"))
    assert "not an Nsight Compute report" in str(_error(tmp_path, b"hello\nworld\n"))
    assert "not an Nsight Compute report" in str(_error(tmp_path, b'{"kernels": []}\n', "r.json"))
    assert "NUL" in str(_error(tmp_path, bytes(range(256)) * 4, "r.bin"))


def test_truncated_csv_names_the_line(tmp_path):
    data = (NCU / "rtx5070-details-csv" / "saxpy.csv").read_bytes()
    cut = data[:data.rindex(b'"Command line profiler metrics"')]  # the last row loses its metric columns
    e = _error(tmp_path, cut)
    assert e.line == 21 and "truncated" in str(e)
    e = _error(tmp_path, data[:data.rindex(b"smsp__thread") + 5])  # inside a quoted field
    assert e.line == 21 and "not closed" in str(e)
    head = data[:data.index(b"\r\n", data.index(b'"ID"')) + 2]
    assert "no launch rows" in str(_error(tmp_path, head))
    raw = (NCU / "gtx1080-raw-csv" / "nsight_vectoradd_100_32_metrics_all.csv").read_bytes()
    e = _error(tmp_path, raw[:raw.rindex(b'","') + 1])  # the last launch row is cut short
    assert e.line == 5 and "fields" in str(e)


def test_truncated_console_names_the_table(tmp_path):
    data = (NCU / "rtx3070-console" / "ncu_console_basic.txt").read_bytes()
    cut = data[:data.index(b"Registers Per Thread")]
    e = _error(tmp_path, cut, "r.txt")
    assert "truncated" in str(e) and e.line == 28  # the Launch Statistics table's top rule


def test_ncu_rep_without_nsight_compute(tmp_path, monkeypatch):
    import importlib.util
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ncu_report" else real(name, *a))
    e = _error(tmp_path, b"\x00NVIDIA binary report", "run.ncu-rep")
    assert "ncu -i REPORT.ncu-rep --csv --page raw" in str(e)
    missing = tmp_path / "missing.ncu-rep"
    with pytest.raises(ReportError, match="cannot read"):
        read(missing)


def test_ncu_rep_through_ncu_on_path(tmp_path, monkeypatch):
    # A stand-in `ncu` that prints a raw page (the GTX 1080 file) as `ncu -i FILE --csv --page raw` does.
    import os

    fake = tmp_path / "bin" / "ncu"
    fake.parent.mkdir()
    src = NCU / "gtx1080-raw-csv" / "nsight_vectoradd_100_32_metrics_all.csv"
    fake.write_text(f'#!/bin/sh\n[ "$1" = -i ] && [ "$3" = --csv ] && [ "$5" = raw ] && exec cat "{src}"\nexit 3\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    rep = tmp_path / "run.ncu-rep"
    rep.write_bytes(b"\x00binary")
    r = read(rep)
    assert r.format == "ncu-rep" and [x.value("dram__read_bytes") for x in r.launches] == [7552, 3264, 2176]


# ---------------------------------------------------------------------------------------------
# kernel names

@pytest.mark.parametrize("written,base,targs", [
    ("void mm_tiled<16>(const float*, float*, int)", "mm_tiled", ("16",)),
    ("unnamed>::saxpy_kernel(float, const float *, float *, int)", "saxpy_kernel", ()),  # truncated prefix
    ("void unnamed>::gemm_tiled_kernel<32>(const float *, const float *, float *, int, int, int)",
     "gemm_tiled_kernel", ("32",)),
    ("vecAdd", "vecAdd", ()),
    ("vectorAdd(float *, float *, float *)", "vectorAdd", ()),
    ("_Z6vecAddPfS_S_", "vecAdd", ()),
    ("_ZN12_GLOBAL__N_112saxpy_kernelEfPKfPfi", "saxpy_kernel", ()),
    ("void at::native::(anonymous namespace)::fused_dropout_kernel_vec<double, double, unsigned int, 1, 4>"
     "(at::cuda::detail::TensorInfo<double, unsigned int>, unsigned int)", "fused_dropout_kernel_vec",
     ("double", "double", "unsigned int", "1", "4")),
])
def test_kernel_names(written, base, targs):
    n = parse_name(written)
    assert (n.base, n.template) == (base, targs)


def test_ncu_rep_through_the_ncu_report_module(tmp_path, monkeypatch):
    # A stand-in for NVIDIA's ncu_report module with the documented interface (load_report ->
    # IContext.num_ranges/range_by_idx -> IRange.num_actions/action_by_idx -> IAction.name,
    # metric_names, metric_by_name -> IMetric.as_double/as_string/unit), used when ncu is not on PATH.
    import importlib.util
    import shutil
    import sys
    import types

    class Metric:
        def __init__(self, value, unit=""):
            self.v, self.u = value, unit

        def unit(self):
            return self.u

        def as_double(self):
            if isinstance(self.v, str):
                raise TypeError("a string metric")
            return float(self.v)

        def as_string(self):
            return str(self.v)

    metrics = {"dram__bytes_read.sum": Metric(1.5, "Mbyte"), "gpu__time_duration.sum": Metric(2.0, "usecond"),
               "launch__grid_dim_x": Metric(8), "launch__grid_dim_y": Metric(1), "launch__grid_dim_z": Metric(1),
               "launch__block_dim_x": Metric(128), "launch__block_dim_y": Metric(1), "launch__block_dim_z": Metric(1),
               "device__attribute_display_name": Metric("NVIDIA GeForce RTX 3070")}
    action = types.SimpleNamespace(name=lambda: "saxpy", metric_names=lambda: list(metrics),
                                   metric_by_name=metrics.__getitem__)
    rng = types.SimpleNamespace(num_actions=lambda: 1, action_by_idx=lambda i: action)
    ctx = types.SimpleNamespace(num_ranges=lambda: 1, range_by_idx=lambda i: rng)
    module = types.ModuleType("ncu_report")
    module.load_report = lambda path: ctx
    monkeypatch.setitem(sys.modules, "ncu_report", module)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name == "ncu_report" else real(name, *a))
    rep = tmp_path / "run.ncu-rep"
    rep.write_bytes(b"\x00binary")
    (launch,) = read(rep).launches
    assert launch.kernel == "saxpy" and launch.grid == (8, 1, 1) and launch.block == (128, 1, 1)
    assert launch.value("dram__bytes_read.sum") == approx(1.5e6)
    assert launch.value("gpu__time_duration.sum") == approx(2e-6)
    assert launch.device == "NVIDIA GeForce RTX 3070"


def test_cut_and_corrupted_reports_never_crash(tmp_path):
    # Every real file cut at random offsets and with random bytes overwritten (quotes, commas, `;`,
    # line ends among them): each is read or refused with one ReportError line, never another
    # exception (a flipped quote once reached the csv module's own error).
    import random

    from staticroof.ncu.measured import measure

    rnd = random.Random(14)
    files = [p for p in sorted(NCU.glob("*/*")) if p.suffix in (".csv", ".txt") and p.name not in
             ("metrics_used.txt", "ncu_version.txt", "environment.txt")]
    assert len(files) == 15  # 2 A100 console, 1 A100 details, 2 Ada, 2 GTX 1080, 1 RTX 3070, 7 RTX 5070
    for f in files:
        data = f.read_bytes()
        for _ in range(12):
            cut = data[:rnd.randrange(len(data))]
            flipped = bytearray(data)
            for _ in range(8):
                byte = rnd.choice([rnd.randrange(256), ord('"'), ord(","), ord(";"), 10, 13])
                flipped[rnd.randrange(len(data))] = byte
            for variant in (cut, bytes(flipped)):
                p = tmp_path / f"x{f.suffix}"
                p.write_bytes(variant)
                try:
                    for launch in read(p).launches:
                        measure(launch)
                except ReportError as e:
                    assert "\n" not in str(e) and str(e).startswith(str(p))


def test_details_csv_two_processes_with_the_same_ids(tmp_path):
    # Synthetic: two profiled processes in one file (ncu --target-processes all), each counting its
    # launches from ID 0: four launches, not two.
    head = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Section Name",' \
           '"Metric Name","Metric Unit","Metric Value"'
    rows = [f'"{i}","{pid}","app","127.0.0.1","k{pid}","1","7","s","gpu__time_duration.sum","ns","{t}"'
            for pid, i, t in ((11, 0, 100), (11, 1, 200), (22, 0, 300), (22, 1, 400))]
    p = tmp_path / "two.csv"
    p.write_text("\n".join([head, *rows]) + "\n")
    r = read(p)
    assert [(x.kernel, x.index, x.value("gpu__time_duration.sum")) for x in r.launches] == [
        ("k11", 0, approx(100e-9)), ("k11", 1, approx(200e-9)), ("k22", 0, approx(300e-9)), ("k22", 1, approx(400e-9))]
