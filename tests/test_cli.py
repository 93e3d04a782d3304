"""The command line: exit codes, error messages with file:line:col, the JSON interface, -D."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import SAMPLES, S, same

SAXPY = """
void saxpy(int n, float a, const float *restrict x, float *restrict y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
"""


def cli(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_analyze_samples_folder():
    r = cli("analyze", SAMPLES)
    assert r.exit_code == 0, r.output
    for name in ("saxpy", "daxpy", "gemm", "jacobi2d", "l2norm_fused", "trmv_lower"):
        assert f": {name}  [c, exact]" in r.output


def test_json_matches_documented_interface(tmp_path):
    p = write(tmp_path, "saxpy.c", SAXPY)
    r = cli("analyze", p, "-D", "n=1024", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["version"] == 1
    (k,) = doc["kernels"]
    assert (k["name"], k["line"], k["language"], k["exact"]) == ("saxpy", 2, "c", True)
    assert k["sizes"] == {"n": 1024}
    # W = 2n = 2048 at n = 1024, all fp32; Q = 12n = 12288
    assert k["flops"] == {"total": 2048, "expr": "2*n", "by_precision": {"fp32": 2048},
                          "by_precision_expr": {"fp32": "2*n"}, "special": 0, "special_expr": "0",
                          "special_by_function": {}}
    b = k["bytes"]
    assert (b["compulsory"], b["compulsory_expr"], b["access"], b["access_expr"]) == (12288, "12*n", 12288, "12*n")
    assert b["arrays"]["x"]["dtype"] == "fp32"
    assert (b["arrays"]["x"]["read"], b["arrays"]["x"]["write"]) == (4096, 0)
    assert (b["arrays"]["y"]["read"], b["arrays"]["y"]["write"]) == (4096, 4096)
    assert k["intensity"]["compulsory"] == pytest.approx(1 / 6)
    assert k["intensity"]["compulsory_expr"] == "1/6"
    assert k["diagnostics"] == []


def test_json_numbers_are_null_without_sizes_and_exprs_parse(tmp_path):
    p = write(tmp_path, "saxpy.c", SAXPY)
    doc = json.loads(cli("analyze", p, "--format", "json").output)
    (k,) = doc["kernels"]
    assert k["sizes"] == {"n": None}
    assert k["flops"]["total"] is None and k["bytes"]["compulsory"] is None
    assert k["intensity"]["compulsory"] == pytest.approx(1 / 6)  # a pure number needs no size

    def exprs(node):
        if isinstance(node, dict):
            for key, v in node.items():
                if key.endswith("_expr") or key == "expr":
                    if isinstance(v, dict):
                        yield from v.values()
                    else:
                        yield v
                else:
                    yield from exprs(v)
        elif isinstance(node, list):
            for v in node:
                yield from exprs(v)

    found = list(exprs(k))
    assert len(found) > 10
    for text in found:
        S(text)  # every *_expr parses with sympy


def test_json_for_every_sample_is_valid():
    r = cli("analyze", SAMPLES, "--format", "json")
    doc = json.loads(r.output)
    assert len(doc["kernels"]) >= 16
    for k in doc["kernels"]:
        assert set(k["flops"]["by_precision"]) <= {"fp64", "fp32", "fp16", "bf16", "fp8"}
        for a in k["bytes"]["arrays"].values():
            assert a["dtype"] in {"fp64", "fp32", "fp16", "bf16", "fp8", "int32", "int64"}


def test_syntax_error_reports_location_and_keeps_other_kernels(tmp_path):
    p = write(tmp_path, "broken.c", """void good1(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 1.0f + x[i]; }
void broken(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 1.0f +; }
void good2(int n, double *y) { for (int i = 0; i < n; i++) y[i] *= 2.0; }
""")
    r = cli("analyze", p)
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    assert re.search(rf"{re.escape(str(p))}:2:\d+: SR001 syntax error", r.output), r.output
    assert ": good1  [c, exact]" in r.output and ": good2  [c, exact]" in r.output
    assert ": broken  [c, unsupported]" in r.output


def test_unsupported_statement_costs_only_its_statement(tmp_path):
    p = write(tmp_path, "two.c", """
void ok(int n, float *x) { for (int i = 0; i < n; i++) x[i] = x[i] * 2.0f; }
void jump(int n, float *x) {
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f) goto done;
        x[i] = x[i] * 3.0f;
    }
done:
    return;
}
""")
    r = cli("analyze", p)
    assert r.exit_code == 0, r.output  # approximate, not a failure
    assert ": ok  [c, exact]" in r.output and ": jump  [c, approximate]" in r.output
    assert re.search(rf"{re.escape(str(p))}:5:\d+: SR123 unsupported `goto` statement: this statement is not "
                     "counted", r.output), r.output


def test_missing_file_is_a_usage_error(tmp_path):
    r = cli("analyze", tmp_path / "nope.c")
    assert r.exit_code == 2
    assert "nope.c: SR003 no such file or directory" in r.output
    assert "Traceback" not in r.output


def test_empty_file_is_a_note_not_a_failure(tmp_path):
    p = write(tmp_path, "empty.c", "")
    r = cli("analyze", p)
    assert r.exit_code == 0
    assert "SR006" in r.output


def test_unsupported_file_type(tmp_path):
    p = write(tmp_path, "k.f90", "program x\nend\n")
    r = cli("analyze", p)
    assert r.exit_code == 2 and "SR003" in r.output


def test_missing_user_header_names_its_location(tmp_path):
    # read as empty (SR131 at the include), the function that uses nothing of it is analyzed: exit 0
    p = write(tmp_path, "inc.c", '#include "nothere.h"\nvoid f(int n, float *x) { for (int i = 0; i < n; i++) '
                                 'x[i] = 1.0f; }\n')
    r = cli("analyze", p)
    assert r.exit_code == 0, r.output
    assert re.search(rf"{re.escape(str(p))}:1:\d+: SR131 nothere.h not found", r.output), r.output
    assert "f  [c, exact]" in r.output


def test_user_header_through_include_dir(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "sizes.h").write_text("#define LEN 256\n")
    p = write(tmp_path, "k.c", '#include "sizes.h"\nvoid f(float *x) { for (int i = 0; i < LEN; i++) x[i] = 0.0f; }\n')
    r = cli("analyze", p)  # not found without -I: read as empty, LEN declared nowhere (SR132, approximate)
    assert "SR131" in r.output and "SR132" in r.output and "approximate" in r.output, r.output
    r = cli("analyze", p, "-I", inc, "--format", "json")
    assert r.exit_code == 0, r.output
    (k,) = json.loads(r.output)["kernels"]
    assert k["bytes"]["compulsory"] == 4 * 256  # x written LEN = 256 times, 4 bytes each


def test_bad_define_and_unknown_kernel_are_usage_errors(tmp_path):
    p = write(tmp_path, "saxpy.c", SAXPY)
    assert cli("analyze", p, "-D", "1x=3").exit_code == 2
    r = cli("analyze", p, "--kernel", "nosuch")
    assert r.exit_code == 2 and "no kernel named nosuch" in r.output


def test_define_binds_a_parameter_without_textual_substitution(tmp_path):
    p = write(tmp_path, "k.c",
              "void f(int N, const float *x, float *y) { for (int i = 0; i < N; i++) y[i] = x[i] + 1.0f; }\n")
    r = cli("analyze", p, "-D", "N=8", "--format", "json")
    assert r.exit_code == 0, r.output
    (k,) = json.loads(r.output)["kernels"]
    assert (k["flops"]["expr"], k["flops"]["total"], k["sizes"]) == ("N", 8, {"N": 8})


def test_define_selects_preprocessor_branch_and_binds_macro_size(tmp_path):
    p = write(tmp_path, "k.c", """
#ifdef SMALL
# define N 16
#else
# define N 4096
#endif
void f(float *x) { for (int i = 0; i < N; i++) x[i] = x[i] * 0.5f; }
""")
    big = json.loads(cli("analyze", p, "--format", "json").output)["kernels"][0]
    small = json.loads(cli("analyze", p, "-D", "SMALL", "--format", "json").output)["kernels"][0]
    bound = json.loads(cli("analyze", p, "-D", "N=100", "--format", "json").output)["kernels"][0]
    assert (big["flops"]["expr"], big["flops"]["total"]) == ("N", 4096)
    assert small["flops"]["total"] == 16
    assert bound["flops"]["total"] == 100 and bound["size_origins"] == {"N": "-D"}


def test_cost_override(tmp_path):
    p = write(tmp_path, "k.c",
              "#include <math.h>\nvoid f(int n, float *x) { for (int i = 0; i < n; i++) x[i] = sqrtf(x[i]); }\n")
    doc = json.loads(cli("analyze", p, "--cost", "sqrtf=8", "--format", "json").output)
    (k,) = doc["kernels"]
    # one sqrtf per element, weighted 8: W = 8n, special calls = n
    assert same(S(k["flops"]["expr"]), S("8*n")) and k["flops"]["special_expr"] == "n"


def test_rules_lists_every_code():
    r = cli("rules")
    assert r.exit_code == 0
    for code in ("SR001", "SR101", "SR107", "SR108"):
        assert code in r.output


def test_installed_command_runs_outside_the_source_tree(tmp_path):
    """The installed package must find its grammars/ data (stub headers, cost table) without the
    source checkout: run it from an unrelated folder on a copy of a sample."""
    probe = subprocess.run([sys.executable, "-c", "import staticroof, sys; print(staticroof.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip("staticroof is not installed in this environment")
    src = (SAMPLES / "l2norm.c").read_text()
    (tmp_path / "k.c").write_text(src)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-m", "staticroof", "analyze", "k.c", "--format", "json"],
                       cwd=tmp_path, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert {k["name"] for k in doc["kernels"]} == {"l2norm_separate", "l2norm_fused"}
    # sqrtf's prototype and cost come from the shipped grammars/: one special call, fp32
    fused = next(k for k in doc["kernels"] if k["name"] == "l2norm_fused")
    assert fused["flops"]["special_expr"] == "1" and fused["flops"]["by_precision_expr"] == {"fp32": "3*n + 1"}


def test_version():
    r = cli("--version")
    assert r.exit_code == 0 and "staticroof" in r.output


def test_pyproject_config_sizes_costs_and_includes(tmp_path, monkeypatch):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "k.h").write_text("#define SCALE 3.0f\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.staticroof]\ninclude = ["inc"]\n[tool.staticroof.sizes]\nn = 100\n[tool.staticroof.costs]\nexpf = 5\n')
    write(tmp_path, "k.c", '#include <math.h>\n#include "k.h"\n'
          "void f(int n, float *x) { for (int i = 0; i < n; i++) x[i] = expf(x[i]) * SCALE; }\n")
    monkeypatch.chdir(tmp_path)
    (k,) = json.loads(cli("analyze", "k.c", "--format", "json").output)["kernels"]
    # per element: one multiply + one expf weighted 5 -> W = 6n = 600 at n = 100 (from the config)
    assert (k["flops"]["expr"], k["flops"]["total"]) == ("6*n", 600)
    (k,) = json.loads(cli("analyze", "k.c", "-D", "n=7", "--cost", "expf=1", "--format", "json").output)["kernels"]
    assert k["flops"]["total"] == 14  # the command line wins: 2 * 7


def test_malformed_config_is_a_usage_error(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.staticroof.sizes]\nn = "big"\n')
    write(tmp_path, "k.c", SAXPY)
    monkeypatch.chdir(tmp_path)
    r = cli("analyze", "k.c")
    assert r.exit_code == 2 and "tool.staticroof.sizes.n must be a number" in r.output


def test_machine_option_places_kernels(tmp_path):
    p = write(tmp_path, "saxpy.c", SAXPY)
    r = cli("analyze", p, "-D", "n=1000000", "--machine", "a100", "--format", "json")
    assert r.exit_code == 0, r.output
    (k,) = json.loads(r.output)["kernels"]
    roof = k["roofline"]
    # SAXPY: I = 1/6 FLOP/B, far below the A100 fp32 ridge 19.5e12 / 2.039e12 = 9.56: memory-bound,
    # attainable = bandwidth * I = 2.039e12 / 6 FLOP/s; time floor = Q / bandwidth = 12e6 / 2.039e12 s
    assert roof["machine"] == "a100-80gb-sxm" and roof["roof"] == "fp32" and roof["bound"] == "memory"
    assert roof["attainable"] == pytest.approx(2.039e12 / 6)
    assert roof["time_floor"] == pytest.approx(12e6 / 2.039e12)
    text = cli("analyze", p, "-D", "n=1000000", "--machine", "a100").output
    assert "roofline     a100-80gb-sxm fp32" in text and "memory-bound" in text


def test_machines_command_and_errors():
    doc = json.loads(cli("machines", "--format", "json").output)
    names = {m["name"] for m in doc["machines"]}
    assert {"a100-80gb-sxm", "h100-sxm", "tpu-v5e"} <= names
    r = cli("analyze", SAMPLES / "saxpy.c", "--machine", "a1000")
    assert r.exit_code == 2 and "valid names" in r.output


def test_cache_option_sizes_and_errors(tmp_path):
    p = write(tmp_path, "saxpy.c", SAXPY)
    doc = json.loads(cli("analyze", p, "-D", "n=100", "--cache", "1MiB", "--format", "json").output)
    (k,) = doc["kernels"]
    # streaming: the bound is the compulsory traffic, 12 bytes per element
    assert k["bytes"]["cache_bytes"] == 2**20 and k["bytes"]["cache_bound"] == 1200
    r = cli("analyze", p, "--cache", "lots")
    assert r.exit_code == 2 and "expected a size" in r.output
