"""The speed benchmark (benchmarks/bench_analyze.py) keeps working: a tiny run writes a complete
JSON record.  No timing is asserted (the numbers depend on the machine and its load); what is
asserted is that every case ran the real command and counted the kernels it should."""

from __future__ import annotations

import json
import os
import sys

import pytest

from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_analyze
import kernels


def test_tiny_benchmark_run_writes_a_record(tmp_path):
    out = tmp_path / "bench.json"
    status = bench_analyze.main(["--quick", "--repeat-large", "1", "--cases", "generated", "--generated", "2",
                                 "--jobs-cases", "generated", "--json", str(out)])
    assert status == 0
    record = json.loads(out.read_text())
    assert record["machine"]["usable_cpus"] >= 1 and len(record["load_average"]["before"]) == 3
    gen = record["cases"]["generated"]
    # two generated files: axpy (C) and dot (C), one kernel each, both exact; the process ran the
    # real command, succeeded and reported both
    assert gen["in_process"]["files"] == 2 and gen["in_process"]["kernels"] == 2
    assert gen["in_process"]["failed"] == gen["in_process"]["approximate"] == gen["in_process"]["file_errors"] == 0
    assert [(r["exit"], r["kernels"]) for r in gen["process"]["runs"]] == [(0, 2)]
    assert gen["in_process"]["total_cpu_s"] > 0
    # each kernel's analysis is timed on its own (the crash-isolation marks of staticroof/crashes.py),
    # named by file and kernel, and the clock gives the pipeline its marks back afterwards
    kernels_timed = gen["in_process"]["slowest_kernels"]
    assert sorted(k["kernel"] for k in kernels_timed) == ["axpy_0", "dot_1"]
    assert {k["file"] for k in kernels_timed} == {"k000_axpy.c", "k001_dot.c"}
    assert 0 < gen["in_process"]["median_kernel_cpu_s"] <= gen["in_process"]["max_kernel_cpu_s"]
    assert set(record["targets"]) == {"generated median kernel ms", "generated slowest kernel s"}
    from staticroof import crashes
    assert crashes.begin.__module__ == crashes.end.__module__ == "staticroof.crashes"
    # the -j comparison ran -j 1 and every core, and each printed the JSON of the -j 1 run
    jobs = record["jobs"]["generated"]
    assert "1" in jobs["by_jobs"] and jobs["same_output"] is True
    assert all([r["exit"] for r in row["runs"]] == [0] for row in jobs["by_jobs"].values())


def test_start_up_timing_runs_a_process():
    t = bench_analyze.command_times(["-c", "pass"], 1, dict(os.environ))
    assert t["median_wall_s"] > 0 and t["median_cpu_s"] >= 0


def test_unknown_case_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        bench_analyze.main(["--cases", "small,huge"])
    assert e.value.code == 2 and "huge" in capsys.readouterr().err


def test_slowest_list_names_corpus_files():
    assert bench_analyze.SLOWEST and all((ROOT / p).is_file() for p in bench_analyze.SLOWEST)


@pytest.mark.slow
def test_every_generated_shape_is_analyzed(tmp_path):
    # one file per shape: all analyzed; only the data-dependent max (`if (v > m) m = v`) is approximate
    files = kernels.generate(tmp_path, len(kernels.SHAPES))
    r = bench_analyze.in_process(files, top=len(files))
    assert r["files"] == r["kernels"] == len(kernels.SHAPES) and r["failed"] == 0
    approximate = sorted(row["file"] for row in r["slowest"] if row["approximate"])
    assert approximate == ["k011_maxreduce.c"]


BENCH30 = ROOT / "benchmarks" / "bench30"


def test_bench30_is_thirty_kernels_with_their_derivations():
    from test_real import expect_blocks

    files = sorted(BENCH30.glob("*.c"))
    assert len(files) == 30
    assert all("Derivation" in f.read_text() for f in files)
    blocks = {k for f in files for k in expect_blocks(f)}
    assert len(blocks) >= 28 and "kernel_floyd_warshall" in blocks


@pytest.mark.slow
def test_bench30_expect_blocks_are_reproduced():
    # the hand-derived W and Q (and precisions where given) of every expect block, all exact (the
    # shortest-path kernel's `?:` re-reads what its condition read: the same cost either way)
    from test_real import agrees, expect_blocks

    from staticroof.cache.runner import run
    from staticroof.options import AnalysisOptions

    from helpers import S

    files = sorted(BENCH30.glob("*.c"))
    report = run(files, AnalysisOptions(jobs=None))
    kernels = {k.name: k for k in report.kernels}
    for f in files:
        for name, values in expect_blocks(f).items():
            k = kernels[name]
            assert not k.failed, (name, [str(d) for d in k.diagnostics])
            got = {"W": k.total.flops, "Q": k.total.compulsory, **k.total.by_precision}
            for key, expected in values.items():
                assert agrees(got[key], S(expected), k), f"{f.name} {name} {key}: got {got[key].expr}, not {expected}"
            assert k.exact, (name, [str(d) for d in k.diagnostics])


def test_cxx_parsers_benchmark_without_its_optional_packages(monkeypatch, capsys):
    """benchmarks/cxx_parsers.py (issue #28) needs packages staticroof does not depend on: without
    them it says what to install and succeeds."""
    import cxx_parsers
    monkeypatch.setitem(sys.modules, "clang", None)  # `import clang.cindex` fails as if not installed
    assert cxx_parsers.main([str(ROOT / "samples" / "saxpy.cu")]) == 0
    assert "pip install tree-sitter tree-sitter-cuda libclang" in capsys.readouterr().out


def test_cxx_parsers_benchmark_counts_the_kernels_each_parser_recovers(tmp_path):
    """Only where tree-sitter-cuda and libclang are installed (never in the default environment)."""
    pytest.importorskip("tree_sitter_cuda")
    pytest.importorskip("clang.cindex")
    import cxx_parsers
    out = tmp_path / "cxx.json"
    assert cxx_parsers.main([str(ROOT / "samples" / "saxpy.cu"), "--no-startup", "--json", str(out)]) == 0
    row, = json.loads(out.read_text())["files"]
    assert row["globals"] == 2 and row["staticroof"]["globals_analyzed"] == 2
    assert row["tree_sitter"]["globals_clean"] == 2 and row["libclang"]["globals_body"] == 2
