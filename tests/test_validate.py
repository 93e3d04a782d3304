"""`staticroof validate`: the measured point of each launch (staticroof.ncu.measured) and the
prediction beside it, on the real published ncu outputs in tests/data/ncu/ and our own sources of
the kernels they measured (samples/saxpy_rtx5070.cu, vector_add_a100.cu, vecadd_gtx1080.cu,
saxpy_rtx3070.cu; the RTX 5070's GEMMs and transposes in tests/data/ncu/rtx5070_kernels.cu).
Expected numbers are derived by hand below, from the kernels' algorithms and the values printed in
the files."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.ncu import read
from staticroof.ncu.measured import measure, report_roofs

from helpers import ROOT, SAMPLES, read_svg_plot

NCU = ROOT / "tests" / "data" / "ncu"
K5070 = NCU / "rtx5070_kernels.cu"
SAXPY5070 = SAMPLES / "saxpy_rtx5070.cu"
VECADD_A100 = SAMPLES / "vector_add_a100.cu"
VECADD_1080 = SAMPLES / "vecadd_gtx1080.cu"


def approx(x, rel=1e-12):
    return pytest.approx(x, rel=rel)


def _validate(*args):
    r = CliRunner().invoke(main, ["validate", *map(str, args)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r


def _json(*args, code=0):
    r = _validate(*args, "--format", "json")
    assert r.exit_code == code, r.output
    return json.loads(r.output)


def _rows(launch):
    return {row["quantity"]: row for row in launch["rows"]}


# ---------------------------------------------------------------------------------------------
# measured points

def test_measured_point_from_the_fp_counters_and_byte_totals():
    # A100 fp64 dropout, launch 0: fp64 = 2 x 655,360 DFMA + 0 DADD + 1,048,576 DMUL = 2,359,296;
    # fp32 = 2 x 524,288 FFMA = 1,048,576; fp16 counters all 0 (no entry).  DRAM only as the total
    # dram__bytes.sum = 4,194,688; L2 20,594,592 B, L1 17,301,504 B; 11,744 ns.
    m = measure(read(NCU / "a100-details-csv-old" / "dropout_nsight162_first3.csv").launches[0])
    assert m.flops == {"fp64": 2_359_296, "fp32": 1_048_576} and m.W == 3_407_872 and m.flops_exact
    assert m.dram_read is None and m.dram_write is None and m.dram_total == 4_194_688
    assert m.l2_bytes == 20_594_592 and m.l1_bytes == 17_301_504 and m.time == approx(11_744e-9)
    assert m.P == approx(3_407_872 / 11_744e-9)
    assert m.intensity("DRAM") == approx(3_407_872 / 4_194_688) and m.intensity("L2") == approx(3_407_872 / 20_594_592)


def test_measured_point_reads_and_writes_apart_and_global_sectors():
    # RTX 5070 SAXPY: no FP counters; reads 134,221,568 B and writes 43,631,104 B (dram__bytes_op_*);
    # L1 from the global load and store sectors: (4,194,304 + 2,097,152) x 32 = 201,326,592 B.
    m = measure(read(NCU / "rtx5070-details-csv" / "saxpy.csv").launches[0])
    assert m.W is None and m.flops_source is None
    assert (m.dram_read, m.dram_write, m.dram_total) == (134_221_568, 43_631_104, 177_852_672)
    assert m.l1_bytes == 201_326_592 and "global" in m.l1_source and m.l2_bytes is None


def test_measured_point_legacy_names():
    # GTX 1080 (Pascal): dram__read_bytes / dram__write_bytes and gpu__time_duration without `.sum`.
    ms = [measure(x) for x in read(NCU / "gtx1080-raw-csv" / "nsight_vectoradd_100_32_metrics_all.csv").launches]
    assert [(m.dram_read, m.dram_write) for m in ms] == [(7552, 384), (3264, 256), (2176, 256)]
    assert all(m.time == approx(2720e-9) for m in ms)


def test_measured_point_from_the_console_rule_text_and_throughput():
    # A100 console, N = 2^20: "executes 0 fused and 32768 non-fused FP32 instructions": 32,768 warp
    # instructions x 32 lanes = 1,048,576 (an upper bound); DRAM = 826.98 GB/s x 10.14 us.
    m = measure(read(NCU / "a100-console" / "ncu_full_N1048576_olderstyle.txt").launches[0])
    assert m.flops == {"fp32": 1_048_576} and not m.flops_exact
    assert m.dram_total == approx(826.98e9 * 10.14e-6) and m.dram_read is None
    m = measure(read(NCU / "a100-console" / "ncu_full_N1024_ncu2025style.txt").launches[0])
    assert m.flops == {"fp32": 32 * 32} and m.dram_total == approx(2.21e9 * 4.93e-6)


def test_measured_point_from_sectors_and_the_reports_own_peaks(tmp_path):
    # Synthetic raw page (no published file carries them): DRAM as sectors, and the SOL roofline
    # section's peak metrics: 2 x 1,024 FFMA/cycle x 1.5e9 cycles/s = 3.072e12 FLOP/s fp32;
    # 1,000 B/cycle x 2e9 cycles/s = 2e12 B/s.
    names = ["ID", "Kernel Name", "dram__sectors_read.sum", "dram__sectors_write.sum",
             "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", "sm__cycles_elapsed.avg.per_second",
             "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second"]
    units = ["", "", "sector", "sector", "inst/cycle", "cycle/second", "byte/cycle", "cycle/nsecond"]
    row = ["0", "k", "10", "3", "1,024", "1,500,000,000", "1,000", "2"]
    p = tmp_path / "raw.csv"
    p.write_text("\n".join(",".join(f'"{x}"' for x in r) for r in (names, units, row)) + "\n")
    launch = read(p).launches[0]
    m = measure(launch)
    assert (m.dram_read, m.dram_write) == (320, 96)
    assert report_roofs(launch) == {"fp32": approx(3.072e12), "bandwidth": approx(2e12)}


# ---------------------------------------------------------------------------------------------
# validate: predicted against measured

def test_saxpy_rtx5070_reads_within_1_percent_and_writes_a_lower_bound():
    # saxpy_kernel, y = a*x + y, n = 2^24: W = 2n = 33,554,432 (no FP counters in the report: the
    # predicted W gives P); compulsory reads x and y, 8n = 134,217,728 B, measured 134,221,568 B:
    # 134,221,568 / 134,217,728 = 1.0000286; writes 4n = 67,108,864 B, measured 43,631,104 (0.650:
    # a lower bound, dirty lines still in L2); L1: every access coalesced, access level 12n =
    # 201,326,592 B = the measured sectors x 32 exactly.  P = 2n / 292,928 ns = 1.1455e11 FLOP/s;
    # DRAM 177,852,672 B / 292,928 ns = 607.2 GB/s = 90.3% of the 5070's 672 GB/s: near the DRAM roof.
    out = _json(SAXPY5070, "--ncu", NCU / "rtx5070-details-csv" / "saxpy.csv", "-D", "n=16777216",
                "--machine", "rtx-5070")
    (launch,) = out["launches"]
    assert launch["kernel"] == "saxpy_kernel" and launch["launch"]["grid"] == [65536, 1, 1]
    rows = _rows(launch)
    assert rows["W (FLOP)"]["predicted"] == 33_554_432 and rows["W (FLOP)"]["measured"] is None
    reads = rows["DRAM reads (B)"]
    assert reads["predicted"] == 134_217_728 and reads["measured"] == 134_221_568
    assert reads["ratio"] == approx(134_221_568 / 134_217_728) and round(reads["ratio"], 5) == 1.00003
    writes = rows["DRAM writes (B)"]
    assert writes["predicted"] == 67_108_864 and writes["ratio"] == approx(43_631_104 / 67_108_864)
    assert "lower bound" in writes["note"]
    assert rows["L1 bytes vs access level (B)"]["ratio"] == 1.0
    p = launch["point"]
    assert p["P"] == approx(33_554_432 / 292_928e-9) and p["I"] == approx(33_554_432 / 177_852_672)
    assert p["bandwidth_fraction"] == approx(177_852_672 / 292_928e-9 / 672e9) and p["bound"] == "memory"
    assert p["verdict"].startswith("near the DRAM bandwidth roof")
    # the report names no device: without --machine there are no roofs, and it says how to get them
    r = _validate(SAXPY5070, "--ncu", NCU / "rtx5070-details-csv" / "saxpy.csv", "-D", "n=16777216")
    assert r.exit_code == 0 and "give --machine" in r.output


def test_vector_add_a100_w_equal_and_dram_within_1_percent():
    # vectorAdd, C = A + B, N = 2^20 (grid 4096 x 256): one fp32 add per element, W = N = 1,048,576;
    # the rule text's 32,768 non-fused FP32 warp instructions x 32 = 1,048,576: equal.  The console
    # gives DRAM only as throughput x duration, 826.98 GB/s x 10.14 us = 8,385,577 B, against the
    # compulsory reads 2 x 4 N = 8,388,608 B: 0.99964 (the 4 MiB output stays in the 40 MB L2).
    out = _json(VECADD_A100, "--ncu", NCU / "a100-console" / "ncu_full_N1048576_olderstyle.txt",
                "-D", "N=1048576", "--machine", "a100-80gb-pcie")
    rows = _rows(out["launches"][0])
    assert rows["W (FLOP)"]["predicted"] == rows["W (FLOP)"]["measured"] == 1_048_576
    assert "upper bound" in rows["W (FLOP)"]["note"]
    total = rows["DRAM reads + writes vs compulsory reads (B)"]
    assert total["predicted"] == 8_388_608 and total["ratio"] == approx(826.98e9 * 10.14e-6 / 8_388_608)
    assert abs(total["ratio"] - 1) < 0.001
    # N = 1024 (grid 4): W = 1,024 = 32 warp instructions x 32
    out = _json(VECADD_A100, "--ncu", NCU / "a100-console" / "ncu_full_N1024_ncu2025style.txt",
                "-D", "N=1024", "--machine", "a100-40gb-pcie")
    rows = _rows(out["launches"][0])
    assert rows["W (FLOP)"]["predicted"] == rows["W (FLOP)"]["measured"] == 1024


def test_vector_add_gtx1080_three_launches_roofs_from_the_device_name():
    # vecAdd, n = 100 in one block of 1024, three launches.  Compulsory reads 2 x 4 x 100 = 800 B,
    # writes 400 B.  Measured reads 7,552 / 3,264 / 2,176 B: 9.44x, 4.08x, 2.72x -- a kernel this
    # small is all fixed traffic (the L1 misses are 26 sectors = 832 B, the data rounded to
    # sectors), shrinking as it stays cached; writes 384 / 256 / 256 B (12 and 8 of the 13 sectors:
    # a lower bound).  The report names its device: the GTX 1080's roofs (320 GB/s) come from the
    # database without --machine.
    out = _json(VECADD_1080, "--ncu", NCU / "gtx1080-raw-csv" / "nsight_vectoradd_100_32_metrics_all.csv",
                "-D", "n=100")
    launches = out["launches"]
    assert [x["launch"]["index"] for x in launches] == [0, 1, 2]
    reads = [_rows(x)["DRAM reads (B)"] for x in launches]
    assert [r["predicted"] for r in reads] == [800] * 3 and [r["measured"] for r in reads] == [7552, 3264, 2176]
    assert "fixed traffic" in reads[0]["note"]
    assert [_rows(x)["DRAM writes (B)"]["measured"] for x in launches] == [384, 256, 256]
    assert launches[0]["roofs"]["name"] == "gtx-1080" and launches[0]["roofs"]["bandwidth"] == 320e9
    assert any("totals only" in p for p in launches[0]["problems"])


@pytest.mark.slow
def test_transposes_rtx5070_l1_sectors_show_the_strided_stores():
    # 2048 x 2048 fp32: reads 4 x 2048^2 = 16,777,216 B, writes the same, W = 0.  Naive: the loads are
    # coalesced (524,288 sectors x 32 = 16,777,216 B), each warp's stores hit 32 rows, a sector per
    # thread (4,194,304 x 32 = 134,217,728 B = 8x the 16,777,216 B of stores): L1 = 150,994,944 B =
    # 4.5x the access level.  Tiled through the 32 x 33 tile: both coalesced, L1 = 33,554,432 B = 1x.
    sizes = ["-D", "rows=2048", "-D", "cols=2048", "--machine", "rtx-5070"]
    naive = _json(K5070, "--ncu", NCU / "rtx5070-details-csv" / "transpose_naive.csv", *sizes)["launches"][0]
    tiled = _json(K5070, "--ncu", NCU / "rtx5070-details-csv" / "transpose_tiled.csv", *sizes)["launches"][0]
    assert tiled["kernel"].startswith("transpose_tiled_kernel")
    for launch, l1, reads in ((naive, 150_994_944, 19_001_600), (tiled, 33_554_432, 17_056_256)):
        rows = _rows(launch)
        assert rows["DRAM reads (B)"]["predicted"] == 16_777_216 and rows["DRAM reads (B)"]["measured"] == reads
        assert rows["L1 bytes vs access level (B)"]["predicted"] == 33_554_432
        assert rows["L1 bytes vs access level (B)"]["measured"] == l1
        assert launch["point"]["verdict"].startswith("no floating-point work")
    assert _rows(naive)["L1 bytes vs access level (B)"]["ratio"] == 4.5


@pytest.mark.slow
def test_gemm_naive_rtx5070():
    # m = n = k = 2048: W = 2 m n k = 17,179,869,184; compulsory reads 4 (mk + kn) = 33,554,432 B
    # (measured 54,207,744: 1.6155x, the reuse of B's columns misses L2 at times); writes 4 mn =
    # 16,777,216 B (measured 26,601,216: above, said so); access level 8 mnk + 4 mn = 68,736,253,952 B.
    out = _json(K5070, "--ncu", NCU / "rtx5070-details-csv" / "gemm_naive.csv", "-D", "m=2048", "-D", "n=2048",
                "-D", "k=2048", "--machine", "rtx-5070")
    rows = _rows(out["launches"][0])
    assert rows["W (FLOP)"]["predicted"] == 17_179_869_184
    assert rows["DRAM reads (B)"]["predicted"] == 33_554_432 and rows["DRAM reads (B)"]["measured"] == 54_207_744
    writes = rows["DRAM writes (B)"]
    assert writes["predicted"] == 16_777_216 and "above the compulsory" in writes["note"]
    assert rows["L1 bytes vs access level (B)"]["predicted"] == 68_736_253_952


def test_text_and_markdown_output():
    args = [SAXPY5070, "--ncu", NCU / "rtx5070-details-csv" / "saxpy.csv", "-D", "n=16777216", "--machine", "rtx-5070"]
    text = _validate(*args)
    assert text.exit_code == 0
    assert "DRAM reads (B)" in text.output and "1.00003" in text.output
    assert "near the DRAM bandwidth roof" in text.output
    md = _validate(*args, "--format", "markdown")
    assert md.exit_code == 0 and "| quantity | predicted | measured |" in md.output
    assert "| DRAM reads (B) | 134,217,728 | 134,221,568 | 1.00003 |" in md.output


def test_unmatched_kernels_missing_sizes_and_bad_reports(tmp_path):
    # the dropout kernel is PyTorch's: not in our file -> exit 1, said per launch
    r = _validate(SAXPY5070, "--ncu", NCU / "a100-details-csv-old" / "dropout_nsight162_first3.csv")
    assert r.exit_code == 1 and "no kernel `fused_dropout_kernel_vec`" in r.output
    # without -D the sizes come from the file's launch site (saxpy_rtx5070.cu's main: n_saxpy = 1 << 24):
    # the same numbers
    out = _json(SAXPY5070, "--ncu", NCU / "rtx5070-details-csv" / "saxpy.csv")
    assert _rows(out["launches"][0])["DRAM reads (B)"]["predicted"] == 134_217_728
    # a kernel with no launch site and no -D: the report's launch shape fixes only the grid, not n
    src = tmp_path / "saxpy.cu"
    src.write_text("namespace {\n__global__ void saxpy_kernel(float a, const float *x, float *y, int n)\n{\n"
                   "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
                   "        y[i] = a * x[i] + y[i];\n}\n}\n")
    r = _validate(src, "--ncu", NCU / "rtx5070-details-csv" / "saxpy.csv")
    assert r.exit_code == 1 and "give -D n=VALUE" in r.output
    # sizes that are not the run's: the source's launch at N = 1024 (grid 4) is not the run's (4096); with
    # N given (-D) it is not scaled from the run's launch (test_the_runs_size_from_its_launch... below)
    out = _json(VECADD_A100, "--ncu", NCU / "a100-console" / "ncu_full_N1048576_olderstyle.txt", "-D", "N=1024")
    assert any("not the source's at the sizes in force (grid 4 x 1 x 1" in p for p in out["launches"][0]["problems"])
    # --kernel naming nothing in the report
    r = _validate(SAXPY5070, "--ncu", NCU / "rtx5070-details-csv" / "saxpy.csv", "--kernel", "nope")
    assert r.exit_code == 2 and "no launch of nope" in r.output
    # unreadable reports: one line naming the file, exit 2, no traceback
    for bad in (NCU / "ada-console-utf16" / "ncu_log_exetrem_mem.txt", NCU / "missing.csv", K5070):
        r = _validate(SAXPY5070, "--ncu", bad)
        assert r.exit_code == 2 and str(bad) in r.output and "Traceback" not in r.output
        assert len(r.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_gemm_tiled_rtx5070_the_template_instantiation_and_its_l1_bytes():
    # gemm_tiled_kernel<32>, m = n = k = 2048: W = 2 m n k = 17,179,869,184 (no padding: 2048 is a
    # multiple of 32).  Each of the 64 x 64 blocks loads, for each of its 64 k-steps, one 32 x 32 tile
    # of A and one of B: 4,096 x 64 x 2 x 4 KiB = 2,147,483,648 B, plus C once, 16,777,216 B: the
    # access level 2,164,260,864 B, coalesced, equal to the measured L1 sectors x 32.  Reads: the
    # compulsory 33,554,432 B against 53,261,312 measured (1.587x: tiles of A and B re-read from DRAM
    # after leaving L2); writes 3,377,920 of 16,777,216 (a lower bound).
    out = _json(K5070, "--ncu", NCU / "rtx5070-details-csv" / "gemm_tiled.csv", "-D", "m=2048", "-D", "n=2048",
                "-D", "k=2048", "--machine", "rtx-5070")
    (launch,) = out["launches"]
    assert launch["kernel"].startswith("gemm_tiled_kernel")
    rows = _rows(launch)
    assert rows["W (FLOP)"]["predicted"] == 17_179_869_184
    assert rows["L1 bytes vs access level (B)"]["predicted"] == rows["L1 bytes vs access level (B)"]["measured"] \
        == 2_164_260_864
    assert rows["DRAM reads (B)"]["predicted"] == 33_554_432 and rows["DRAM reads (B)"]["measured"] == 53_261_312
    assert "lower bound" in rows["DRAM writes (B)"]["note"]


def test_plot_draws_the_measured_points_beside_the_predicted(tmp_path):
    # vecAdd on the GTX 1080, n = 100: three launches, no FP counters (the predicted W = 100 is used),
    # DRAM reads + writes 7,936 / 3,520 / 2,432 B in 2,720 ns each: I = 100 / 7,936 = 0.0126 FLOP/B,
    # P = 100 / 2.72 us = 3.68e7 FLOP/s for launch 0.
    pytest.importorskip("matplotlib")
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run
    from staticroof.validate.points import measured_points

    report = run([VECADD_1080], AnalysisOptions(defines={"n": "100"}))
    pts, notes = measured_points(NCU / "gtx1080-raw-csv" / "nsight_vectoradd_100_32_metrics_all.csv", report.kernels)
    assert [(p["launch"], p["level"]) for p in pts] == [(i, "measured DRAM") for i in range(3)]
    assert [p["intensity"] for p in pts] == [approx(100 / 7936), approx(100 / 3520), approx(100 / 2432)]
    assert all(p["attainable"] == approx(100 / 2720e-9) for p in pts) and len(notes) == 3
    out = tmp_path / "roof.svg"
    r = CliRunner().invoke(main, ["plot", str(VECADD_1080), "--machine", "gtx-1080", "-o", str(out),
                                  "-D", "n=100", "--ncu", str(NCU / "gtx1080-raw-csv" /
                                                               "nsight_vectoradd_100_32_metrics_all.csv")])
    assert r.exit_code == 0, r.output
    assert "(3 measured)" in r.output
    shown = read_svg_plot(out)  # the picture read back: the three launches, each where derived above
    assert "measured DRAM (ncu)" in shown["texts"] and "W/Q compulsory" in shown["texts"]
    want = [(100 / b, 100 / 2720e-9) for b in (7936, 3520, 2432)]
    assert sorted(shown["series"][-1]) == [approx(p, rel=1e-4) for p in sorted(want)], shown["series"]
    r = CliRunner().invoke(main, ["plot", str(VECADD_1080), "--machine", "gtx-1080", "-o", str(out),
                                  "-D", "n=100", "--ncu", str(tmp_path / "none.csv")])
    assert r.exit_code == 2 and "none.csv" in r.output


def test_sizes_from_the_reports_launch_shape(tmp_path):
    # A kernel whose work is its grid (no size parameter, no guard, no launch site in the file): the
    # report's launch, 977 blocks of 1,024 threads (RTX 3070 console), fixes it: W = 2 x 977 x 1,024
    # = 2,000,896 FLOP, predicted DRAM reads 8 x 1,000,448 = 8,003,584 B.
    src = tmp_path / "saxpy.cu"
    src.write_text("__global__ void saxpy(const float *x, const float *y, float *out, float a)\n{\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = a * x[i] + y[i];\n}\n")
    out = _json(src, "--ncu", NCU / "rtx3070-console" / "ncu_console_basic.txt", "--machine", "rtx-3070")
    (launch,) = out["launches"]
    assert _rows(launch)["W (FLOP)"]["predicted"] == 2_000_896
    assert launch["point"]["P"] == approx(2_000_896 / 31.23e-6)
    assert any("no DRAM byte counts" in p for p in launch["problems"])


def test_saxpy_rtx3070_sample_at_the_runs_size():
    # samples/saxpy_rtx3070.cu, out = a*x + y at n = 10^6 (-D: n is a struct field at the launch
    # site): W = 2n = 2,000,000 FLOP; the console's duration 31.23 us gives P = 2e6 / 31.23e-6 FLOP/s;
    # the basic set prints DRAM only as a percentage, so there are no DRAM rows, and it says so.
    out = _json(SAMPLES / "saxpy_rtx3070.cu", "--ncu", NCU / "rtx3070-console" / "ncu_console_basic.txt",
                "-D", "n=1000000", "--machine", "rtx-3070")
    (launch,) = out["launches"]
    assert launch["kernel"] == "saxpy" and launch["launch"]["grid"] == [977, 1, 1]
    rows = _rows(launch)
    assert rows["W (FLOP)"]["predicted"] == 2_000_000 and "DRAM reads (B)" not in rows
    assert launch["point"]["P"] == approx(2_000_000 / 31.23e-6)
    assert any("no DRAM byte counts" in p for p in launch["problems"])
    # the source's grid comes from a struct field on the host, so its x is unknown: "?", not "None"
    (mismatch,) = [p for p in launch["problems"] if p.startswith("the run's launch")]
    assert "(grid ? x 1 x 1, block 1024 x 1 x 1)" in mismatch and "None" not in mismatch


# ---------------------------------------------------------------------------------------------
# profile: ncu with the metrics validate compares, then validate

# What `profile` must ask ncu for, written out here rather than taken from staticroof.ncu.collect (the
# code under test): validate compares the kernel time, DRAM bytes read and written, L2 and L1 bytes,
# the FP32/FP64/FP16 fma, add and mul counts (W by precision: an fma is 2 FLOPs), the launch's grid
# and block in x, y and z and the device's name; the roofs come from the device's peak fma rates (FP32
# and FP64), its SM and DRAM clocks and DRAM bytes per cycle (staticroof/ncu/measured.py).
PROFILE_METRICS = {
    "gpu__time_duration.sum",
    "dram__bytes_read.sum", "dram__bytes_write.sum",
    "lts__t_bytes.sum", "l1tex__t_bytes.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum", "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z",
    "launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z",
    "device__attribute_display_name",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained",
    "sm__cycles_elapsed.avg.per_second", "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second",
}


def _metrics_after(text: str, before: str) -> set:
    """The comma-separated metric names that follow `before` in `text` (up to the next space)."""
    assert before in text, text
    return set(text.split(before, 1)[1].split()[0].split(","))


def test_profile_without_ncu_says_how_to_run_it(monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    r = CliRunner().invoke(main, ["profile", str(VECADD_1080), "--", "./vecadd", "100"])
    assert r.exit_code == 2 and "needs Nsight Compute's `ncu` on PATH" in r.output
    assert _metrics_after(r.output, "--metrics ") == PROFILE_METRICS
    assert " ./vecadd 100 > report.csv" in r.output
    readme = (ROOT / "README.md").read_text(encoding="utf-8").replace("\\\n", "")
    documented = readme.split("ncu --csv --page raw --metrics ", 1)[1].split("\n", 1)[0]
    assert _metrics_after(readme, "ncu --csv --page raw --metrics ") == PROFILE_METRICS
    assert documented.split()[1:3] == ["./app", "args"]  # documented as run


def test_profile_runs_ncu_and_validates(tmp_path, monkeypatch):
    # A stand-in `ncu` that checks its command line (CSV raw page, the metrics PROFILE_METRICS lists,
    # each once, the application and its arguments last) and prints the GTX 1080 run as ncu would,
    # program output and ==PROF== lines included.
    import os
    import sys

    fake = tmp_path / "bin" / "ncu"
    fake.parent.mkdir()
    src = NCU / "gtx1080-raw-csv" / "nsight_vectoradd_100_32_metrics_all.txt"
    fake.write_text(f"#!{sys.executable}\n"
                    "import sys\n"
                    "a = sys.argv[1:]\n"
                    "if a[:4] != ['--csv', '--page', 'raw', '--metrics']: sys.exit(9)\n"
                    "m = a[4].split(',')\n"
                    f"if len(m) != len(set(m)) or set(m) != set({sorted(PROFILE_METRICS)!r}): sys.exit(10)\n"
                    "if a[5:] != ['./vecadd', '100']: sys.exit(8)\n"
                    f"sys.stdout.write(open({str(src)!r}).read())\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    out = tmp_path / "run.csv"
    r = CliRunner().invoke(main, ["profile", str(VECADD_1080), "-D", "n=100", "-o", str(out),
                                  "--format", "json", "--", "./vecadd", "100"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert [_rows(x)["DRAM reads (B)"]["measured"] for x in data["launches"]] == [7552, 3264, 2176]
    assert out.read_bytes() == src.read_bytes()  # kept for a later `validate --ncu`


def test_the_runs_size_from_its_launch_and_a_size_mismatch_named():
    """Issue #32 §5, samples/vector_add_a100.cu (`#define N 1024`, launched with (N + 255)/256 blocks of
    256) profiled at N = 2**20 (grid 4096 x 256: the A100 console log).  Without -D the run's threads
    are 4096*256 / (4*256) = 1024x the source's: N = 1024 * 1024 = 1,048,576, and the source launches
    exactly grid 4096 there: W = N = 1,048,576 adds, equal to the measured count; the guess is named.
    With -D N=1024 forced, measured/predicted = 1024 and the explanation names the size mismatch (the
    run's launch has 1024x the threads), not special functions.  The time row: on the A100, the floor
    max(W/19.5e12, Q/2.039e12) = max(1024/19.5e12, 12*1024/2.039e12) = 6.0265e-9 s."""
    log = NCU / "a100-console" / "ncu_full_N1048576_olderstyle.txt"
    out = _json(SAMPLES / "vector_add_a100.cu", "--ncu", log)
    (launch,) = out["launches"]
    assert _rows(launch)["W (FLOP)"]["predicted"] == 1_048_576 == _rows(launch)["W (FLOP)"]["measured"]
    (note,) = [p for p in launch["problems"] if p.startswith("`N` = 1,048,576 from the run's launch")]
    assert "1024x its own 1,024" in note and "give -D N=VALUE" in note
    out = _json(SAMPLES / "vector_add_a100.cu", "--ncu", log, "-D", "N=1024", "--machine", "a100")
    (launch,) = out["launches"]
    w = _rows(launch)["W (FLOP)"]
    assert w["predicted"] == 1024 and w["note"].startswith("1024x (the run's launch has 1024x the source's threads)")
    assert "special functions" not in w["note"]
    t = _rows(launch)["time (s)"]
    assert t["predicted"] == approx(max(1024 / 19.5e12, 12 * 1024 / 2.039e12))
    assert t["measured"] == approx(10.14e-6)
