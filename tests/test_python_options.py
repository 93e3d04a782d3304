"""Python kernels configured from outside the source: `--dtype`, the `[dtypes]` tables of the
configuration, `all-functions`, and the order in which the type sources win."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.options import AnalysisOptions
from staticroof.pipeline import run

# A module the way such code is written: a timed driver beside the kernels, types left to the
# caller (the arrays come from elsewhere in the project).
KERNELS = textwrap.dedent('''
    import time

    import numpy as np
    from numba import njit


    @njit(cache=True)
    def scale(x, y, a):
        n = x.shape[0]
        for i in range(n):
            y[i] = a * x[i]


    @njit("void(float64[:], float64[:])")
    def square(x, y):
        for i in range(x.shape[0]):
            y[i] = x[i] * x[i]


    @njit
    def annotated(x: "float64[:]", y):
        for i in range(x.shape[0]):
            y[i] = x[i] + x[i]


    @njit
    def pragma(x, y):
        # staticroof: x=float64
        for i in range(x.shape[0]):
            y[i] = x[i] - x[i]


    def bench(x, y, a):
        t = time.perf_counter()
        scale(x, y, a)
        return time.perf_counter() - t
''')


def _kernels(tmp_path, args=(), config: str | None = None, name="kernels.py"):
    src = tmp_path / name
    src.write_text(KERNELS)
    cfg = []
    if config is not None:
        (tmp_path / "staticroof.toml").write_text(textwrap.dedent(config))
        cfg = ["--config", str(tmp_path / "staticroof.toml")]
    r = CliRunner().invoke(main, ["analyze", str(src), "--format", "json", "-D", "n=100", *cfg, *args])
    assert r.exit_code == 0, r.output
    return {k["name"]: k for k in json.loads(r.output)["kernels"]}


def _types(k) -> dict:
    return {name: a["dtype"] for name, a in k["bytes"]["arrays"].items()}


def test_dtype_option_types_untyped_parameters(tmp_path):
    # scale with x, y float32 and a float32: one fp32 multiply per element, W = n = 100 FLOP;
    # Q = 4 B read of x + 4 B written to y per element = 800 B
    ks = _kernels(tmp_path, ["--dtype", "x=float32", "--dtype", "y=f4", "--dtype", "a=np.float32"])
    k = ks["scale"]
    assert _types(k) == {"x": "fp32", "y": "fp32"}
    assert k["flops"]["by_precision"] == {"fp32": 100} and k["bytes"]["compulsory"] == 800
    assert not any(d["code"] == "SR160" for d in k["diagnostics"])
    # without a type for `a` (bench passes its own parameter: the file does not say) it is float64,
    # a guess SR160 names, with the flag that would type it, and the result is approximate: a * x[i]
    # is an fp64 multiply (Numba promotes the float32 element)
    k = _kernels(tmp_path, ["--dtype", "x=float32", "--dtype", "y=float32"])["scale"]
    assert k["flops"]["by_precision"] == {"fp64": 100} and not k["exact"]
    sr160 = [d for d in k["diagnostics"] if d["code"] == "SR160"]
    assert len(sr160) == 1 and "`a`" in sr160[0]["message"] and "--dtype a=float64" in sr160[0]["message"]
    assert sr160[0]["severity"] == "warning"


def test_D_still_types_a_parameter_and_dtype_wins_over_it(tmp_path):
    k = _kernels(tmp_path, ["-D", "x=float32"])["scale"]
    assert _types(k) == {"x": "fp32", "y": "fp64"}
    k = _kernels(tmp_path, ["-D", "x=float32", "--dtype", "x=float64"])["scale"]
    assert _types(k)["x"] == "fp64"


def test_precedence_signature_annotation_pragma_over_dtype_over_config(tmp_path):
    # Every source of a type, each beating the next: the signature (what Numba compiles), an
    # annotation, a pragma, --dtype (and -D), the kernel's configuration table, the configuration's
    # global table, float64.
    config = '''
        [dtypes]
        x = "float32"
        y = "float32"
        [dtypes.scale]
        y = "float16"
    '''
    ks = _kernels(tmp_path, [], config)
    assert _types(ks["square"]) == {"x": "fp64", "y": "fp64"}  # signature over the configuration
    assert _types(ks["annotated"]) == {"x": "fp64", "y": "fp32"}  # annotation over it; y from it
    assert _types(ks["pragma"]) == {"x": "fp64", "y": "fp32"}  # the pragma over it
    assert _types(ks["scale"]) == {"x": "fp32", "y": "fp16"}  # the kernel's table over the global one
    ks = _kernels(tmp_path, ["--dtype", "x=float16", "--dtype", "y=float64"], config)
    assert _types(ks["square"]) == {"x": "fp64", "y": "fp64"}  # signature over --dtype
    assert _types(ks["annotated"])["x"] == "fp64"  # annotation over --dtype
    assert _types(ks["pragma"])["x"] == "fp64"  # pragma over --dtype
    assert _types(ks["scale"]) == {"x": "fp16", "y": "fp64"}  # --dtype over both tables
    ks = _kernels(tmp_path, ["-D", "y=float64"], config)
    assert _types(ks["scale"])["y"] == "fp64"  # -D over the kernel's table too


def test_dtypes_reach_the_pipeline_per_kernel():
    # AnalysisOptions.dtypes: None for every kernel, a name for one (what the configuration gives)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "k.py"
        p.write_text(KERNELS)
        report = run([p], AnalysisOptions(dtypes={None: {"x": "float32"}, "scale": {"y": "int32"}}))
        arrays = {k.name: {n: a.dtype for n, a in k.ir.arrays.items()} for k in report.kernels}
        assert arrays["scale"] == {"x": "fp32", "y": "int32"}
        assert arrays["pragma"] == {"x": "fp64", "y": "fp64"}


def test_dtype_in_lint_and_diff_options(tmp_path):
    # lint takes --dtype: RF101 fires for the fp64 multiply of a float64 `a` in a float32 kernel
    src = tmp_path / "k.py"
    src.write_text(KERNELS)
    args = ["lint", str(src), "--select", "RF101", "--no-cache", "--dtype", "x=float32", "--dtype", "y=float32"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1 and "RF101" in r.output and "scale" in r.output, r.output
    r = CliRunner().invoke(main, [*args, "--dtype", "a=float32"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["diff", "--help"])
    assert "--dtype" in r.output
    r = CliRunner().invoke(main, ["baseline", "--help"])
    assert "--dtype" in r.output


@pytest.mark.parametrize("args, message", [
    (["--dtype", "x=flaot32"], "`flaot32` is not a type name"),
    (["--dtype", "x"], "expected NAME=TYPE"),
    (["--dtype", "1x=float32"], "expected NAME=TYPE"),
])
def test_bad_dtype_option_is_a_usage_error(tmp_path, args, message):
    src = tmp_path / "k.py"
    src.write_text(KERNELS)
    r = CliRunner().invoke(main, ["analyze", str(src), *args])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("body, message", [
    ('[dtypes]\nx = "quad"\n', "dtypes.x must be a type name"),
    ('[dtypes]\nx = 32\n', "dtypes.x must be a type name"),
    ('[dtypes.scale]\nx = "quaternion"\n', "dtypes.scale.x must be a type name"),
    ('dtypes = "float32"\n', "dtypes] must be a table"),
    ('all_functions = true\n', "did you mean `all-functions`"),
])
def test_bad_dtypes_configuration_names_the_key(tmp_path, body, message):
    src = tmp_path / "k.py"
    src.write_text(KERNELS)
    (tmp_path / "staticroof.toml").write_text(body)
    r = CliRunner().invoke(main, ["analyze", str(src), "--config", str(tmp_path / "staticroof.toml")])
    assert r.exit_code == 2 and message in r.output and "staticroof.toml" in r.output, r.output


def test_cache_key_includes_the_types(tmp_path):
    # the same file analyzed through the cache with two --dtype values: the second run must not be
    # served the first one's entry (x float32: Q = 12n = 1200 B; x float64: 16n = 1600 B)
    src = tmp_path / "k.py"
    src.write_text(KERNELS)
    (tmp_path / "staticroof.toml").write_text("")
    base = ["analyze", str(src), "--format", "json", "-D", "n=100", "--use-cache", "--kernel", "scale",
            "--config", str(tmp_path / "staticroof.toml")]
    got = []
    for t in ("float32", "float64", "float32"):
        r = CliRunner().invoke(main, [*base, "--dtype", f"x={t}"])
        assert r.exit_code == 0, r.output
        got.append(json.loads(r.output)["kernels"][0]["bytes"]["compulsory"])
    assert got == [1200, 1600, 1200]
    assert (tmp_path / ".staticroof_cache").is_dir()
    # and a configuration table changes the key through the file's bytes
    (tmp_path / "staticroof.toml").write_text('[dtypes]\nx = "float64"\n')
    r = CliRunner().invoke(main, base)
    assert json.loads(r.output)["kernels"][0]["bytes"]["compulsory"] == 1600


def test_all_functions_from_the_configuration(tmp_path):
    # an undecorated loop over arrays is a driver: hidden by default, shown with --all-functions
    # or `all-functions = true` in the configuration (W = n adds of float64 at n = 100)
    src = tmp_path / "plain.py"
    src.write_text(textwrap.dedent('''
        import numpy as np


        def accumulate(x, out):
            for i in range(x.shape[0]):
                out[0] += x[i]


        if __name__ == "__main__":
            accumulate(np.ones(10), np.zeros(1))
    '''))
    cfg = tmp_path / "staticroof.toml"
    cfg.write_text("")
    base = ["analyze", str(src), "--format", "json", "-D", "x_shape0=100", "--config", str(cfg)]
    r = CliRunner().invoke(main, base)
    assert r.exit_code == 0 and json.loads(r.output)["kernels"] == []
    assert "SR006" in r.output
    cfg.write_text("all-functions = true\n")
    r = CliRunner().invoke(main, base)
    ks = json.loads(r.output)["kernels"]
    assert r.exit_code == 0 and [k["name"] for k in ks] == ["accumulate"]
    assert ks[0]["flops"]["by_precision"] == {"fp64": 100}
