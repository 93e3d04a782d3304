"""Start-up stays light: the commands that analyze nothing (`--version`, `--help`, `rules`,
`machines`) must not pay for sympy, islpy or networkx (together about 1.3 s of CPU on a small
machine, issue #15).  Each runs as `python -m staticroof ...` does, in a fresh process, which then
reports the heavy modules it holds at exit.  No timing is asserted: the modules are the cause."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("sympy", "islpy", "networkx", "pycparser", "matplotlib", "numpy")

# runs the package as `python -m staticroof ARGS` would, then prints the heavy modules loaded
_WRAPPER = """\
import json, runpy, sys
sys.argv = ["staticroof", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("staticroof", run_name="__main__", alter_sys=True)
except SystemExit as e:
    code = e.code or 0
heavy = sorted(m for m in NAMES if m in sys.modules)
sys.stderr.write("\\nHEAVY " + json.dumps({"code": code, "heavy": heavy}) + "\\n")
""".replace("NAMES", repr(HEAVY))


def _run(*args):
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *args], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    line = [x for x in out.stderr.splitlines() if x.startswith("HEAVY ")][-1]
    return out.stdout, json.loads(line[len("HEAVY "):])


@pytest.mark.parametrize("args, expect", [
    (("--version",), "staticroof"),
    (("--help",), "analyze"),
    (("rules",), "RF401"),  # the lint rules' table: their modules are imported, their sympy is not
    (("machines",), "ridge"),
    (("machines", "--format", "json"), '"machines"'),
])
def test_light_commands_import_no_heavy_module(args, expect):
    stdout, report = _run(*args)
    assert report["code"] == 0
    assert expect in stdout  # the command did its work (an early crash would also import nothing)
    assert report["heavy"] == []


def test_the_wrapper_sees_a_heavy_import(tmp_path):
    # the check can fail: `analyze` needs sympy and islpy, and the wrapper reports them
    src = tmp_path / "k.c"
    src.write_text("void scale(int n, double *x) { for (int i = 0; i < n; i++) x[i] *= 2.0; }\n")
    stdout, report = _run("analyze", str(src))
    assert report["code"] == 0 and "scale" in stdout
    assert {"sympy", "islpy"} <= set(report["heavy"])
