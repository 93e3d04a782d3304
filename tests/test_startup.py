"""Start-up stays light: the commands that analyze nothing (`--version`, `--help`, `rules`,
`machines`) must not pay for sympy, islpy or networkx (together about 1.3 s of CPU on a small
machine, issue #15), a command imports only its own modules, and `analyze --use-cache` on files
that all hit prints from the cache without the front ends or the analysis.  Each runs as `python
-m staticroof ...` does, in a fresh process, which then reports the heavy modules it holds at exit.
No timing is asserted: the modules are the cause."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import ROOT

HEAVY = ("sympy", "islpy", "networkx", "pycparser", "pcpp", "libcst", "matplotlib", "numpy")
# the other commands' modules, which a command that does not run them never imports
COMMANDS = ("staticroof.lint.command", "staticroof.diff.command", "staticroof.validate.command",
            "staticroof.validate.profile")

# runs the package as `python -m staticroof ARGS` would, then prints the heavy modules loaded: at
# exit, since the launcher ends the process itself (os._exit, after the atexit functions)
_WRAPPER = """\
import atexit, json, runpy, sys
def report():
    heavy = sorted(m for m in NAMES if m in sys.modules)
    commands = sorted(m for m in COMMANDS if m in sys.modules)
    sys.stderr.write("\\nHEAVY " + json.dumps({"heavy": heavy, "commands": commands}) + "\\n")
atexit.register(report)
sys.argv = ["staticroof", *sys.argv[1:]]
runpy.run_module("staticroof", run_name="__main__", alter_sys=True)
""".replace("NAMES", repr(HEAVY)).replace("COMMANDS", repr(COMMANDS))


def _run(*args, cwd=ROOT, env=None):
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *args], capture_output=True, text=True, cwd=cwd,
                         timeout=120, env=env)
    line = [x for x in out.stderr.splitlines() if x.startswith("HEAVY ")][-1]
    return out.stdout, {"code": out.returncode, **json.loads(line[len("HEAVY "):])}


@pytest.mark.parametrize("args, expect", [
    (("--version",), "staticroof"),
    (("--help",), "analyze"),
    (("rules",), "RF401"),  # the lint rules' table: their modules are imported, their sympy is not
    (("machines",), "ridge"),
    (("machines", "--format", "json"), '"machines"'),
    (("lint", "--help"), "--select"),
    (("lint", "--explain", "RF201"), "RF201"),
    (("diff", "--help"), "BASE"),
    (("validate", "--help"), "--ncu"),
    (("analyze", "--help"), "--use-cache"),
])
def test_light_commands_import_no_heavy_module(args, expect):
    stdout, report = _run(*args)
    assert report["code"] == 0
    assert expect in stdout  # the command did its work (an early crash would also import nothing)
    assert report["heavy"] == []


@pytest.mark.parametrize("args, imported", [
    (("--version",), []),
    (("machines",), []),
    (("analyze", "--help"), []),
    (("lint", "--help"), ["staticroof.lint.command"]),
    (("profile", "--help"), ["staticroof.validate.profile"]),
    (("--help",), sorted(COMMANDS)),  # the group's help lists every command with its summary
])
def test_a_command_imports_only_its_own_module(args, imported):
    _stdout, report = _run(*args)
    assert report["code"] == 0 and report["commands"] == imported


def test_a_mistyped_command_is_still_suggested():
    out = subprocess.run([sys.executable, "-m", "staticroof", "lnt"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 2 and "Did you mean 'lint'?" in out.stderr


# A project as pre-commit runs it: a kernel with a timer and a driver, its sizes in a header, and a
# pyproject.toml beside them (the cache folder goes there).
PARAMS_H = "#ifndef PARAMS_H\n#define PARAMS_H\n#define N 4096\ntypedef float real;\n#endif\n"
TRIAD_C = """#include <stdio.h>
#include <time.h>
#include "params.h"

/* a[i] = b[i] + s*c[i]: W = 2N, Q = 12N (b, c read, a written) */
void triad(real *restrict a, const real *restrict b, const real *restrict c, real s) {
    for (int i = 0; i < N; i++)
        a[i] = b[i] + s * c[i];
}

int main(void) {
    static real a[N], b[N], c[N];
    clock_t t0 = clock();
    triad(a, b, c, 3.0f);
    printf("%f\\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return 0;
}
"""


def test_a_warm_cached_analyze_prints_the_same_without_the_analysis(tmp_path):
    import os

    (tmp_path / "pyproject.toml").write_text("[tool.staticroof]\n")
    (tmp_path / "params.h").write_text(PARAMS_H)
    (tmp_path / "triad.c").write_text(TRIAD_C)
    env = {k: v for k, v in os.environ.items() if k != "STATICROOF_CACHE_DIR"}
    plain, _ = _run("analyze", "triad.c", cwd=tmp_path, env=env)
    assert "W            2*N = 8,192 FLOP" in plain  # W = 2N, N = 4096
    cases = (((), plain), (("--format", "json"), '"total": 8192'), (("--format", "json", "--machine", "a100"),
                                                                     '"roofline"'))
    for k, (extra, shows) in enumerate(cases):
        cold, cold_report = _run("analyze", "triad.c", "--use-cache", *extra, cwd=tmp_path, env=env)
        warm, warm_report = _run("analyze", "triad.c", "--use-cache", *extra, cwd=tmp_path, env=env)
        assert shows in cold and warm == cold  # byte for byte what the analysis printed
        assert cold_report["code"] == warm_report["code"] == 0
        assert warm_report["heavy"] == [], extra
        # one entry for the file holds both ways of printing it; the machine's L2 size is another analysis
        assert len(list((tmp_path / ".staticroof_cache").rglob("*.json"))) == (1 if k < 2 else 2)


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

    from staticroof.frontends.cuda.hostexpr import _Fail, _hw

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


# the launcher's decision (server or not) as the `staticroof` command makes it, then the modules it
# had to import for it
_DECIDE = """\
import json, sys
before = set(sys.modules)
from staticroof.server import client
outcome = client.run(["staticroof", "analyze", "k.c"], None)
print(json.dumps({"outcome": outcome, "new": sorted(set(sys.modules) - before)}))
"""
LAUNCHER_MODULES = {"staticroof", "staticroof.launcher", "staticroof.server", "staticroof.server.address",
                    "staticroof.server.client", "staticroof.server.protocol"}


def not_standard(modules) -> list:
    """The modules of `modules` that are neither the standard library's nor the launcher's own."""
    return [m for m in modules if m not in LAUNCHER_MODULES and m.split(".")[0] not in sys.stdlib_module_names]


@pytest.mark.parametrize("setting", [None, "0"])
def test_the_launcher_decides_with_the_standard_library_only(tmp_path, setting):
    import os

    folder = tmp_path / "srv"
    folder.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k != "STATICROOF_SERVER"}
    env["STATICROOF_SERVER_DIR"] = str(folder)  # no server listens there
    if setting is not None:
        env["STATICROOF_SERVER"] = setting
    out = subprocess.run([sys.executable, "-c", _DECIDE], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=60)
    report = json.loads(out.stdout)
    assert report["outcome"] == ("no server" if setting is None else "off")
    assert "staticroof.server.client" in report["new"]  # the check sees what it imported
    assert not_standard(report["new"]) == []
    assert not_standard(["click", "staticroof.cli", "sympy"]) == ["click", "staticroof.cli", "sympy"]


@pytest.mark.parametrize("where", ["server", "cli"])
def test_ctrl_c_before_click_runs_is_aborted_not_a_traceback(monkeypatch, capsys, where):
    """Ctrl-C while the launcher waits for the server's answer, or while the CLI's imports run (before
    click's own handler exists), ends as click ends an interrupted command: `Aborted!`, status 1."""
    from staticroof import launcher
    from staticroof.server import client

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    if where == "server":
        monkeypatch.setattr(client, "run", interrupted)
    else:
        import staticroof.cli

        monkeypatch.setattr(client, "run", lambda *a: "off")
        monkeypatch.setattr(staticroof.cli, "main", interrupted)
    with pytest.raises(SystemExit) as stop:
        launcher.main()
    assert stop.value.code == 1
    assert capsys.readouterr().err == "\nAborted!\n"


# a command's end, as the launcher leaves: `kept`'s __del__ runs only in the interpreter's teardown
_LEAVE = """\
import atexit, sys, threading, time
from staticroof.launcher import _leave
class Noisy:
    def __del__(self):
        sys.stdout.write("teardown\\n")
kept = Noisy()
atexit.register(lambda: sys.stdout.write("atexit\\n"))
sys.stdout.write("buffered ")
how, status = sys.argv[1], eval(sys.argv[2])
if how == "thread":
    threading.Thread(target=lambda: (time.sleep(0.3), sys.stdout.write("thread\\n"))).start()
(sys.exit if how == "ordinary" else _leave)(status)
"""


@pytest.mark.parametrize("how, status, code, stdout, stderr", [
    # Python's own exit: atexit, then the teardown frees `kept` (the check below can fail)
    ("ordinary", "3", 3, "buffered atexit\nteardown\n", ""),
    # the launcher's: the same status, the buffered text and the atexit functions, no teardown
    ("leave", "3", 3, "buffered atexit\n", ""),
    ("leave", "None", 0, "buffered atexit\n", ""),
    ("leave", "0", 0, "buffered atexit\n", ""),
    # a message as the status, or a thread still running: Python's exit, as before
    ("leave", "'bye'", 1, "buffered atexit\nteardown\n", "bye\n"),
    ("thread", "2", 2, "buffered thread\natexit\nteardown\n", ""),
])
def test_the_launcher_leaves_without_the_teardown(how, status, code, stdout, stderr):
    out = subprocess.run([sys.executable, "-c", _LEAVE, how, status], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (code, stdout, stderr)


def test_a_profiled_command_is_profiled(tmp_path):
    """`python -m cProfile -o F -m staticroof analyze ...` writes its profile of the analysis: a
    profiled command is neither forked (crash isolation) nor ended by os._exit, either of which
    would leave the profiler nothing or no chance to write (its output is written after the
    command returns).  The check can fail: without launcher._observed, F is never written."""
    import pstats

    out = tmp_path / "analyze.prof"
    run = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "staticroof", "analyze",
                          str(ROOT / "samples" / "saxpy.c")], capture_output=True, text=True, cwd=tmp_path,
                         timeout=300, env={**__import__("os").environ, "STATICROOF_SERVER": "0"})
    assert run.returncode == 0 and "saxpy" in run.stdout, run.stderr
    functions = {f"{file}:{name}" for file, _line, name in pstats.Stats(str(out)).stats}
    assert any(f.endswith("pipeline.py:run") for f in functions)
