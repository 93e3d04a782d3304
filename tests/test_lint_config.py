"""Lint configuration and inline directives (issue #12 item 2): `select`/`ignore`, per-file
ignores, thresholds, the machine and per-kernel sizes from `[tool.staticroof]` or a
`staticroof.toml`; `staticroof: ignore[CODE]` comments in every form; `staticroof: N=4096` size
pragmas; unknown keys and bad values are errors that name the key and the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.frontends.common.comments import size_pragmas, suppressions

from helpers import GEMM, IN_MEMORY, SAMPLES, analyze_source, lint, lint_codes


@pytest.fixture(autouse=True)
def _no_project_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


GEMM_FILES = {"sizes.h": "#define MAT_N 512\n", "gemm.c": GEMM.replace("BODY", IN_MEMORY)}


def _gemm_with(tmp_path, line_10: str | None = None, line_5: str | None = None):
    """The RF202 gemm (finding on line 10, kernel on line 5) with a comment on either line."""
    lines = GEMM_FILES["gemm.c"].splitlines()
    if line_10:
        lines[9] += "  " + line_10
    if line_5:
        lines[4] += "  " + line_5
    return lint(tmp_path, {"sizes.h": GEMM_FILES["sizes.h"], "gemm.c": "\n".join(lines) + "\n"})


@pytest.mark.parametrize("comment", ["// staticroof: ignore[RF202]", "/* staticroof: ignore[RF202] */",
                                     "// staticroof: ignore[RF2]", "// staticroof: ignore",
                                     "// staticroof: ignore[RF101, RF202]"])
def test_suppression_on_the_finding_line(tmp_path, comment):
    assert _gemm_with(tmp_path)[0] == 1
    assert _gemm_with(tmp_path, line_10=comment)[:2] == (0, [])


def test_suppression_on_the_kernel_line(tmp_path):
    assert _gemm_with(tmp_path, line_5="// staticroof: ignore[RF202]")[:2] == (0, [])


def test_suppression_of_another_code_keeps_the_finding(tmp_path):
    status, found, _ = _gemm_with(tmp_path, line_10="// staticroof: ignore[RF201]")
    assert status == 1 and lint_codes(found) == ["RF202"]


def test_suppression_forms_by_language():
    c = "x = 1; // staticroof: ignore[RF202]\ny = 2; /* staticroof: ignore[RF1] */\n# staticroof: ignore[RF9]\n"
    assert suppressions(c, "c") == {1: {"RF202"}, 2: {"RF1"}}  # `#` is no comment in C
    py = "x = 1  # staticroof: ignore[RF101]\ny = 2  # staticroof: ignore\n"
    assert suppressions(py, "python") == {1: {"RF101"}, 2: None}


def test_size_pragma_comment(tmp_path):
    # `// staticroof: n=4096` binds n like `#pragma staticroof sizes n=4096`: W = 2n = 8192
    src = "void saxpy(int n, float a, const float *x, float *y)  // staticroof: n=4096\n{\n" \
          "    for (int i = 0; i < n; i++)\n        y[i] = a * x[i] + y[i];\n}\n"
    k = analyze_source(src, tmp_path)["saxpy"]
    assert k.sizes["n"] == 4096 and k.total.flops.value == 8192 and k.size_origins["n"] == "pragma"
    k = analyze_source(src.replace("// staticroof: n=4096", "/* staticroof: n=4096 */"), tmp_path)["saxpy"]
    assert k.total.flops.value == 8192
    k = analyze_source(src, tmp_path, defines={"n": "10"})["saxpy"]  # -D wins, as over #pragma
    assert k.total.flops.value == 20
    assert size_pragmas("# staticroof: N=4096 M=512\n", "python") == {"N": 4096, "M": 512}
    assert size_pragmas("// staticroof: ignore[RF1]\n// staticroof: expect N=3 things\n", "c") == {}


def test_size_pragma_in_a_cuda_file(tmp_path):
    # no launch site: n comes from the comment; n threads do one multiply each: W = n = 1000
    src = """\
#include <cuda_runtime.h>
/* staticroof: n=1000 */
__global__ void scale(float* __restrict__ x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}
"""
    k = analyze_source(src, tmp_path, name="scale.cu")["scale"]
    assert k.size_origins["n"] == "pragma" and k.total.flops.value == 1000


def test_select_ignore_and_per_file_ignores_from_pyproject(tmp_path):
    root = Path(tmp_path)
    (root / "pyproject.toml").write_text('[tool.staticroof]\nselect = ["RF2"]\n')
    assert lint_codes(lint(tmp_path, GEMM_FILES)[1]) == ["RF202"]
    (root / "pyproject.toml").write_text('[tool.staticroof]\nselect = ["RF1"]\n')
    assert lint(tmp_path, GEMM_FILES)[:2] == (0, [])
    (root / "pyproject.toml").write_text('[tool.staticroof]\nignore = ["RF202"]\n')
    assert lint(tmp_path, GEMM_FILES)[:2] == (0, [])
    assert lint(tmp_path, GEMM_FILES, "--select", "RF202")[:2] == (0, [])  # config ignore still applies
    (root / "pyproject.toml").write_text('[tool.staticroof]\nselect = ["RF1"]\n')
    assert lint_codes(lint(tmp_path, GEMM_FILES, "--select", "RF202")[1]) == ["RF202"]  # --select replaces
    (root / "pyproject.toml").write_text('[tool.staticroof.per-file-ignores]\n"gemm.c" = ["RF2"]\n')
    assert lint(tmp_path, GEMM_FILES)[:2] == (0, [])
    (root / "pyproject.toml").write_text('[tool.staticroof.per-file-ignores]\n"bench/*.c" = ["RF2"]\n')
    assert lint_codes(lint(tmp_path, GEMM_FILES)[1]) == ["RF202"]
    bench = {"bench/sizes.h": GEMM_FILES["sizes.h"], "bench/gemm.c": GEMM_FILES["gemm.c"]}
    assert lint(tmp_path, bench)[:2] == (0, [])


def test_staticroof_toml_machine_thresholds_and_kernel_sizes(tmp_path):
    root = Path(tmp_path)
    saxpy = {"saxpy.c": (SAMPLES / "saxpy.c").read_text()}
    (root / "staticroof.toml").write_text('machine = "a100"\nselect = ["RF3"]\n[sizes]\nn = 1000000\n')
    _, found, _ = lint(tmp_path, saxpy)
    assert lint_codes(found) == ["RF302"] and "a100-80gb-sxm" in found[0][3]
    # staticroof.toml wins over a pyproject.toml in the same folder
    (root / "pyproject.toml").write_text('[tool.staticroof]\nselect = ["RF1"]\n')
    assert lint_codes(lint(tmp_path, saxpy)[1]) == ["RF302"]
    # per-kernel sizes: saxpy at n = 100 moves 12 * 100 = 1,200 B
    (root / "staticroof.toml").write_text('[thresholds]\nmin-intensity = 1\n[sizes]\nn = 1000000\n'
                                          '[sizes.saxpy]\nn = 100\n')
    found = lint(tmp_path, saxpy)[1]
    assert lint_codes(found) == ["RF301"] and "Q 12*n = 1,200 B" in found[0][3]
    assert "Q 12*n = 12,000 B" in lint(tmp_path, saxpy, "-D", "n=1000")[1][0][3]  # -D wins


@pytest.mark.parametrize("name, text, key", [
    ("pyproject.toml", '[tool.staticroof]\nselectt = ["RF2"]\n', "tool.staticroof.selectt is not a known key "
                                                                   "(did you mean `select`?)"),
    ("pyproject.toml", '[tool.staticroof]\nselect = ["E501"]\n', "tool.staticroof.select has `E501`"),
    ("pyproject.toml", '[tool.staticroof]\nignore = "RF2"\n', "tool.staticroof.ignore must be a list"),
    ("pyproject.toml", '[tool.staticroof.thresholds]\nmin-intensity = -1\n',
     "tool.staticroof.thresholds.min-intensity must be a finite number >= 0"),
    ("pyproject.toml", '[tool.staticroof.thresholds]\nridge = 3\n', "tool.staticroof.thresholds.ridge is not a known"),
    ("pyproject.toml", '[tool.staticroof.thresholds]\nridge-factor = 0.5\n',
     "tool.staticroof.thresholds.ridge-factor must be a finite number >= 1"),
    ("pyproject.toml", '[tool.staticroof]\nmachine = 3\n', "tool.staticroof.machine must be a name"),
    ("pyproject.toml", '[tool.staticroof]\nunit = "gpu"\n', "tool.staticroof.unit must be"),
    ("pyproject.toml", '[tool.staticroof]\ncache = true\n', "tool.staticroof.cache must be a size"),
    ("pyproject.toml", '[tool.staticroof.sizes.gemm]\nN = "big"\n',
     "tool.staticroof.sizes.gemm.N must be a non-negative integer"),
    ("pyproject.toml", '[tool.staticroof.per-file-ignores]\n"*.c" = "RF2"\n',
     'tool.staticroof.per-file-ignores."*.c" must be a list'),
    ("pyproject.toml", '[tool.staticroof.launch.k]\ngrids = [1]\n', "tool.staticroof.launch.k.grids is not a known"),
    ("staticroof.toml", 'thresholds = 3\n', "thresholds must be a table"),
    ("staticroof.toml", 'select = ["RF2"]\nmachin = "a100"\n', "machin is not a known key (did you mean `machine`?)"),
])
def test_config_errors_name_the_key_and_the_file(tmp_path, name, text, key):
    p = Path(tmp_path) / name
    p.write_text(text)
    (Path(tmp_path) / "k.c").write_text("void f(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 1.0f; }\n")
    r = CliRunner().invoke(main, ["lint", str(Path(tmp_path) / "k.c")])
    assert r.exit_code == 2, r.output
    assert f"staticroof: {p}: {key}" in r.output
    assert "Traceback" not in r.output
    assert CliRunner().invoke(main, ["analyze", str(Path(tmp_path) / "k.c")]).exit_code == 2  # every command


def test_machine_unknown_in_config(tmp_path):
    (Path(tmp_path) / "staticroof.toml").write_text('machine = "nosuchgpu"\n')
    (Path(tmp_path) / "k.c").write_text("void f(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 1.0f; }\n")
    r = CliRunner().invoke(main, ["lint", "k.c"])
    assert r.exit_code == 2 and "nosuchgpu" in r.output


def test_machines_from_staticroof_toml(tmp_path):
    (Path(tmp_path) / "staticroof.toml").write_text(
        'machine = "toy"\nselect = ["RF302"]\n[machines.toy]\nfp32 = 1e12\nbandwidth = 1e11\n')
    saxpy = {"saxpy.c": (SAMPLES / "saxpy.c").read_text()}
    # ridge 1e12 / 1e11 = 10 FLOP/B; saxpy's 1/6 is 60x below it
    found = lint(tmp_path, saxpy, "-D", "n=1000")[1]
    assert lint_codes(found) == ["RF302"] and "60x below the ridge 10 FLOP/B" in found[0][3]
