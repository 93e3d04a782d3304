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
    # the check can fail: `analyze` needs sympy and islpy, and the wrapper reports them.  numpy is
    # not needed even where a launch's host code computes in floating point (frontends/hostexpr)
    src = tmp_path / "k.cu"
    src.write_text("#include <math.h>\n"
                   "__global__ void scale(int n, float *x) {\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] *= 2.0f;\n}\n"
                   "int main() {\n    int n = 1000; float *x;\n    cudaMalloc(&x, n * sizeof(float));\n"
                   "    scale<<<(int)ceil((float)n / 256.0f), 256>>>(n, x);\n    return 0;\n}\n")
    stdout, report = _run("analyze", str(src))
    assert report["code"] == 0 and "scale" in stdout
    assert {"sympy", "islpy"} <= set(report["heavy"]) and "numpy" not in report["heavy"]


def test_host_float_arithmetic_rounds_as_ieee():
    import sympy

    from staticroof.frontends.hostexpr import _Fail, _hw

    # 1/3 in single precision: 1/3 = 0.010101...b; 24 significant bits from the first 1 are
    # 1.0101...01|0101... (the 25th bit is 0 and the rest nonzero: round up) -> 0xAAAAAB * 2**-25
    assert _hw(sympy.Integer(1), sympy.Integer(3), "/", 24) == sympy.Rational(0xAAAAAB, 2**25)
    # in double: 53 bits, 1.0101...0101|0101... rounds up too -> 0x15555555555555 * 2**-54
    assert _hw(sympy.Integer(1), sympy.Integer(3), "/", 53) == sympy.Rational(0x15555555555555, 2**54)
    # 2**24 + 1 is not a float: a tie between 2**24 and 2**24 + 2, to even -> 2**24 (exact in double)
    assert _hw(sympy.Integer(2**24), sympy.Integer(1), "+", 24) == 2**24
    assert _hw(sympy.Integer(2**24), sympy.Integer(1), "+", 53) == 2**24 + 1
    # 2**24 + 3: a tie between 2**24 + 2 and 2**24 + 4, to even (mantissa ...10) -> 2**24 + 4
    assert _hw(sympy.Integer(2**24 + 2), sympy.Integer(1), "+", 24) == 2**24 + 4
    # past the largest float (about 3.4e38) is an overflow, not infinity; 1e300**2 overflows double
    with pytest.raises(_Fail):
        _hw(sympy.Integer(2**127), sympy.Integer(2**127), "+", 24)
    with pytest.raises(_Fail):
        _hw(sympy.Integer(10**300), sympy.Integer(10**300), "*", 53)
    with pytest.raises(_Fail):
        _hw(sympy.Integer(1), sympy.Integer(0), "/", 24)
