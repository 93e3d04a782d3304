"""Hostile input (issue #11): no writes outside our temporary folder, no runaway preprocessor, no
input read without a size limit, file names that cannot break `#line`, and clear errors for input
that is not text.  Each test is one finding of the issue, reproduced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from staticroof.frontends import load
from staticroof.frontends.common import preprocess as pp_mod

from helpers import BLOCKED_KERNEL, all_stop, report_codes, wait_for_start

KERNEL = "void k(float *x, int n) { for (int i = 0; i < n; i++) x[i] = x[i] * 2.0f; }\n"


def run_cli(*args, cwd=None, env=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "staticroof", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)


def test_absolute_and_parent_includes_create_nothing(tmp_path):
    # The empty-stub fallback used to create `/abs/dir/x.h` and `../../x.h` (relative to its stub
    # folder) for a missing <...> header: a write wherever the include pointed.
    target = tmp_path / "absdir" / "x.h"
    src = tmp_path / "k.c"
    src.write_text(f"#include <{target}>\n#include <../../escape_{tmp_path.name}/x.h>\n" + KERNEL)
    res, _ = load(str(src), {})
    assert not target.exists() and not target.parent.exists()
    assert not (Path("/tmp").parent / f"escape_{tmp_path.name}").exists()
    assert not Path(f"/escape_{tmp_path.name}").exists()
    assert "SR005" in report_codes(res)  # the header is missing: the preprocessor says so, with its location
    assert any(d.location and d.location.line == 1 for d in res.diagnostics)


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom"])
def test_device_include_refused_without_reading(tmp_path, target):
    src = tmp_path / "k.c"
    src.write_text(f'#include "{target}"\n' + KERNEL)
    res, _ = load(str(src), {})
    d = next(d for d in res.diagnostics if d.code == "SR005")
    assert "not a regular file" in d.message and d.location.line == 1 and d.location.col == 11


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_include_and_fifo_path_do_not_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.h")
    os.mkfifo(tmp_path / "pipe.c")
    (tmp_path / "k.c").write_text('#include "pipe.h"\n' + KERNEL)
    r = run_cli("analyze", "k.c", cwd=tmp_path, timeout=60)
    assert r.returncode == 1 and "k.c:1:11: SR005 #include pipe.h: not a regular file" in r.stdout, r.stdout
    r = run_cli("analyze", "pipe.c", cwd=tmp_path, timeout=60)  # a FIFO given by path: exit 2, not "no such file"
    assert r.returncode == 2 and "not a regular file" in r.stdout + r.stderr, r.stdout


@pytest.mark.parametrize("name", ['b"\n#define float double\n#line 1 "b.c', 'q"uote.c', "back\\slash.c"])
def test_file_names_cannot_inject_into_line_directives(tmp_path, name):
    # A name with `"` and a newline was pasted into `#line 1 "..."`: `b"\n#define float double...`
    # turned a float kernel into fp64.  Names with `"` or `\` gave wrong locations.
    path = tmp_path / name
    path.write_text(KERNEL)
    res, _ = load(str(path), {})
    (k,) = res.kernels
    from staticroof.analysis import analyze

    flops = analyze(k).total.flops
    assert set(flops) == {"fp32"}
    assert str(k.location) == f"{path}:1:6"


def test_no_temporary_folder_left_behind(tmp_path):
    # A missing system header (empty stub) and a user header (rewritten copy) both need temporary
    # files; every one must be gone after the run, as must the preprocessor's input and output.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    (tmp_path / "sizes.h").write_text("#define N 64\n")
    (tmp_path / "k.c").write_text('#include <no_such_header_anywhere.h>\n#include "sizes.h"\n'
                                  "void k(float *x) { for (int i = 0; i < N; i++) x[i] = x[i] * 2.0f; }\n")
    env = dict(os.environ, TMPDIR=str(tmp))
    r = run_cli("analyze", "k.c", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SR004" in r.stdout
    assert list(tmp.iterdir()) == []


def test_binary_utf16_and_latin1_input(tmp_path):
    (tmp_path / "bin.c").write_bytes(b"\x7fELF\x00\x00\x01" + bytes(range(256)))
    res, _ = load(str(tmp_path / "bin.c"), {})
    assert [d.code for d in res.diagnostics] == ["SR003"]
    assert "not text in a supported encoding" in res.diagnostics[0].message
    (tmp_path / "u16.c").write_bytes(KERNEL.encode("utf-16"))  # with its BOM
    res, _ = load(str(tmp_path / "u16.c"), {})
    assert [k.name for k in res.kernels] == ["k"]
    (tmp_path / "l1.c").write_bytes(b"/* r\xe9sum\xe9 */\n" + KERNEL.encode())
    res, _ = load(str(tmp_path / "l1.c"), {})
    assert [k.name for k in res.kernels] == ["k"]


def test_oversized_inputs_are_refused_before_reading(tmp_path):
    from staticroof.inputs import SOURCE_LIMIT, TOML_LIMIT

    big = tmp_path / "big.c"
    with open(big, "wb") as f:  # sparse: no disk used
        f.truncate(SOURCE_LIMIT + 1)
    res, _ = load(str(big), {})
    assert [d.code for d in res.diagnostics] == ["SR003"] and "limit" in res.diagnostics[0].message
    (tmp_path / "k.c").write_text(KERNEL)
    huge = tmp_path / "m.toml"
    with open(huge, "wb") as f:
        f.truncate(TOML_LIMIT + 1)
    for opt in ("--machine-file", "--config"):
        r = run_cli("analyze", "k.c", opt, huge, "--machine", "a100", cwd=tmp_path)
        assert r.returncode == 2 and "Traceback" not in r.stderr and "limit" in r.stdout + r.stderr, r.stderr
        r = run_cli("analyze", "k.c", opt, "/dev/zero", "--machine", "a100", cwd=tmp_path)
        assert r.returncode == 2 and "Traceback" not in r.stderr and "not a regular file" in r.stdout + r.stderr


@pytest.mark.skipif(not pp_mod.system_preprocessor_available(), reason="no system preprocessor")
def test_preprocessor_output_is_capped(tmp_path, monkeypatch):
    # A macro that expands to ~4 MB of text against a 1 MB cap: the preprocessor is stopped and
    # the file gets a message (the real cap is 256 MiB, the same mechanism).
    monkeypatch.setattr(pp_mod, "CPP_OUTPUT_LIMIT", 1 << 20)
    lines = ["#define A0 x[i] = x[i] * 2.0f;"] + [f"#define A{k} A{k - 1} A{k - 1}" for k in range(1, 18)]
    src = tmp_path / "bomb.c"
    src.write_text("\n".join(lines) + "\nvoid k(float *x, int i) { A17 }\n")
    res, _ = load(str(src), {})
    d = next(d for d in res.diagnostics if d.code == "SR005")
    assert "larger than 1 MiB" in d.message


@pytest.mark.skipif(not pp_mod.system_preprocessor_available(), reason="no system preprocessor")
def test_preprocessor_timeout_kills_its_children(tmp_path, monkeypatch):
    # A FIFO reached through a computed include (which no scan can see): the preprocessor blocks;
    # the timeout must end it and its cc1 child.
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "pipe.h")
    monkeypatch.setattr(pp_mod, "CPP_TIMEOUT", 2)
    src = tmp_path / "k.c"
    src.write_text('#define HDR "pipe.h"\n#include HDR\n' + KERNEL)
    res, _ = load(str(src), {})
    d = next(d for d in res.diagnostics if d.code == "SR005")
    assert "longer than 2 s" in d.message
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(tmp_path) not in out


def test_deep_nesting_costs_only_its_own_kernel(tmp_path):
    # 150 nested parentheses (or 3,000 braces) used to raise RecursionError in the parser and lose
    # every kernel of the file.
    deep = "(" * 150 + "x[i]" + ")" * 150
    src = tmp_path / "deep.c"
    src.write_text(f"void a(float *x, int n) {{ for (int i = 0; i < n; i++) x[i] = {deep} * 2.0f; }}\n"
                   "void b(float *x, int n) { " + "{" * 3000 + "x[0] = 1.0f;" + "}" * 3000 + " }\n"
                   "void c(float *x, int n) { for (int i = 0; i < n; i++) x[i] = x[i] * 3.0f; }\n")
    res, _ = load(str(src), {})
    assert [k.name for k in res.kernels] == ["c"]
    assert {name: d.code for name, _, d in res.failed} == {"a": "SR001", "b": "SR001"}
    assert all("nested too deeply" in d.message for _, _, d in res.failed)


def test_huge_constants_are_never_computed(tmp_path):
    # `#define N (1 << 99999999999)` allocated a 12.5 GB integer; a shift past 63 bits is undefined
    # in C and is not evaluated (the bound is not affine: SR102), and a -D value like it is not a size.
    from staticroof.frontends.common.preprocess import _int_value

    assert _int_value("1 << 99999999999") is None and _int_value("(1 << 62) * (1 << 62)") is None
    assert _int_value("-7 / 2") == -3 and _int_value("-7 % 3") == -1  # C truncates toward zero
    assert _int_value("(1 << 20) + 0x10") == 1048592
    src = tmp_path / "big.c"
    src.write_text("#define N (1 << 99999999999)\n"
                   "void b(float *x) { for (int i = 0; i < N; i++) x[i] = x[i] * 3.0f; }\n")
    r = run_cli("analyze", src, timeout=60)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr and "SR102" in r.stdout, r.stdout + r.stderr


def test_constants_past_64_bits_never_reach_isl(tmp_path):
    """Fuzz case 273: `ny - 0xff..ff` (40 hex digits) in a loop bound and `k + 99..9` (5000 digits) in
    an index.  No C integer holds either (a compiler refuses them); barvinok's count overflowed on the
    first and crashed the process (SIGSEGV, in this very process when the analysis runs in it).  Such
    a constant is no number to count with: the reference is not affine (SR101) and the bound it sits
    in neither (the kernel is approximate), and the analysis runs in process without a crash."""
    from helpers import analyze_source

    src = ("void s(int nz, int ny, int nx, const float *a, float *b)\n{\n"
           "    for (int k = 1; k < nz - 1; k++)\n"
           "        for (int j = 1; j < ny - 0xffffffffffffffffffffffffffffffffffffffff; j++)\n"
           "            b[k * ny + j] = a[k * ny + j] + a[(k + " + "9" * 5000 + ") * ny + j];\n}\n")
    k = analyze_source(src, tmp_path)["s"]
    assert not k.exact
    messages = [d.message for d in k.diagnostics]
    assert any("99999999999999999999...99999999 (5000 characters)" in m for m in messages), messages
    assert all(len(m) < 400 for m in messages)


@pytest.mark.parametrize("name,src", [
    ("stride.cu", "__global__ void k(float *x, int n) {\n"
                  "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += " + "9" * 5000 + ")\n"
                  "    x[i] = 2.0f * x[i];\n}\n"),
    ("shift.c", "void k(float *x, int n) { for (int i = 0; i < n; i <<= " + "7" * 5000 + ") x[i] = 2.0f * x[i]; }\n"),
    ("lit.py", "from numba import njit\n\n@njit\ndef k(x):\n    for i in range(x.shape[0]):\n"
               "        x[i] = x[i] * " + "3" * 5000 + "\n"),
])
def test_literals_past_64_bits_anywhere_are_no_numbers(tmp_path, name, src):
    """Fuzz case 8654: a 5,000-digit literal as a grid-stride step raised Python's own limit on
    integer conversion (4,300 digits) as an internal error (SR099).  Every place that reads an
    integer literal reads it through tokens.integer_literal: past 64 bits (a compiler refuses it, Numba
    has no type for it) it is no number, and the kernel is reported, approximate or unsupported."""
    from helpers import analyze_source

    ks = analyze_source(src, tmp_path, name=name)
    assert ks and all("SR099" not in [d.code for d in k.diagnostics] for k in ks.values()), ks


def test_integer_literals():
    from staticroof.frontends.common.tokens import integer_literal

    good = ("42", "0x2A", "052", "42u", "1'000", "0b101", "1_000", "18446744073709551615")
    assert [integer_literal(t) for t in good] == [42, 42, 42, 42, 1000, 5, 1000, 2**64 - 1]
    assert [integer_literal(t) for t in ("18446744073709551616", "9" * 5000, "0x" + "f" * 17, "", "abc", "1.5")] \
        == [None] * 6


@pytest.mark.parametrize("cost", ["-1", "nan", "inf", "-0.5"])
def test_costs_must_be_non_negative_finite(cost):
    from click.testing import CliRunner

    from staticroof.cli import main

    path = Path(__file__).parent.parent / "samples" / "saxpy.c"
    r = CliRunner().invoke(main, ["analyze", str(path), "--cost", f"expf={cost}", "--machine", "a100"])
    assert r.exit_code == 2 and "non-negative finite" in r.output, r.output


def test_fractional_cost_is_exact(tmp_path):
    # expf at 4.5 FLOPs per call: W = 4.5 n, kept exact as 9*n/2.
    import sympy

    from staticroof.analysis import analyze

    src = tmp_path / "e.c"
    src.write_text("#include <math.h>\nvoid k(float *x, int n) { for (int i = 0; i < n; i++) x[i] = expf(x[i]); }\n")
    (k,) = load(str(src), {})[0].kernels
    w = analyze(k, weights={"expf": 4.5}).total.flops["fp32"].generic()
    assert sympy.simplify(w - sympy.Rational(9, 2) * sympy.Symbol("n")) == 0


def test_plot_errors_are_messages(tmp_path, monkeypatch):
    import importlib.util

    from click.testing import CliRunner

    from staticroof.cli import main

    path = Path(__file__).parent.parent / "samples" / "saxpy.c"
    r = CliRunner().invoke(main, ["plot", str(path), "--machine", "a100", "-o", str(tmp_path / "no" / "x.png")])
    assert r.exit_code == 2 and "does not exist or is not writable" in r.output
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    r = CliRunner().invoke(main, ["plot", str(path), "--machine", "a100", "-o", str(tmp_path / "x.png")])
    assert r.exit_code == 2 and "staticroof[plot]" in r.output


@pytest.mark.parametrize("define,why", [
    ("n=abc", "integer constant"),  # used to rename the size to `abc`
    ("n=1e30", "integer constant"),  # used to be a syntax error in the kernel
    ("n=1<<99999999999", "integer constant"),  # never computed
    ("n=-5", "cannot be negative"),  # used to give W = 0 silently
    ("n", "needs a value"),
])
def test_a_size_takes_only_a_non_negative_integer(define, why):
    r = run_cli("analyze", Path(__file__).parent.parent / "samples" / "saxpy.c", "-D", define)
    assert r.returncode == 2 and "SR007" in r.stdout + r.stderr and why in r.stdout + r.stderr, r.stdout + r.stderr


def test_a_define_for_a_name_that_is_not_a_size_is_a_macro():
    # EPS is not a size of saxpy.c: it goes to the preprocessor as before; n=100 binds the size
    r = run_cli("analyze", Path(__file__).parent.parent / "samples" / "saxpy.c", "-D", "EPS=1e-6", "-D", "n=100")
    assert r.returncode == 0 and "2*n = 200 FLOP" in r.stdout, r.stdout


@pytest.mark.parametrize("option,value,why", [
    ("--cache", "0", "at least one byte"),
    ("--block", "99999999", "exceeds CUDA's limit of 1,024"),
    ("--block", "64,64", "a block of 4,096 threads"),
    ("--grid", "1,70000", "grid dimension y = 70,000"),
])
def test_launch_and_cache_options_are_validated(option, value, why):
    from click.testing import CliRunner

    from staticroof.cli import main

    path = Path(__file__).parent.parent / "samples" / "saxpy.cu"
    r = CliRunner().invoke(main, ["analyze", str(path), option, value])
    assert r.exit_code == 2 and why in r.output, r.output


def test_trace_refuses_sizes_beyond_memory(monkeypatch):
    # `trace -D n=10000000000` allocated until killed.  SAXPY at n = 10**6 touches x and y: the
    # analysis's compulsory bytes are 4n (x read) + 4n (y read) + 4n (y written) = 12,000,000, plus
    # one state byte per 4-byte element: 12,000,000 + 3,000,000 = 15,000,000 bytes.  With 10 MB
    # available (half of it the limit) the trace is refused with both numbers.
    from click.testing import CliRunner

    from staticroof.cli import main
    from staticroof.trace import budget

    monkeypatch.setattr(budget, "memory_available", lambda: 10_000_000)
    path = Path(__file__).parent.parent / "samples" / "saxpy.c"
    r = CliRunner().invoke(main, ["trace", str(path), "-D", "n=1000000"])
    assert r.exit_code == 2 and "needs about 15,000,000 bytes" in r.output and "10,000,000 are available" in r.output


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGQUIT"])
def test_sigterm_leaves_no_temporary_folder(tmp_path, blocking_cc, name):
    # SIGTERM (SIGHUP, SIGQUIT: issue #30 §16) in the middle of a run over every sample, once the
    # run is preprocessing a file that blocks there (helpers.blocking_cc): exit 128 + the signal
    # (143 for the README's SIGTERM), the preprocessor stopped, TMPDIR empty.
    import signal

    number = getattr(signal, name)

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env, started = blocking_cc
    env["TMPDIR"] = str(tmp)
    (tmp_path / "block.c").write_text(BLOCKED_KERNEL)
    samples = Path(__file__).parent.parent / "samples"
    proc = subprocess.Popen([sys.executable, "-m", "staticroof", "analyze", "--no-cache", str(tmp_path / "block.c"),
                             str(samples)], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        blocked = wait_for_start(proc, started)
        proc.send_signal(number)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + number and b"Traceback" not in err, (proc.returncode, err.decode())
    assert all_stop(blocked), "the preprocessor outlived the run"
    assert list(tmp.iterdir()) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")
@pytest.mark.parametrize("name", ["SIGHUP", "SIGQUIT"])
def test_a_signal_stops_the_pcpp_child_and_removes_its_folder(tmp_path, name):
    # pcpp (no system preprocessor) expanding a macro bomb that would run for hours: SIGHUP or
    # SIGQUIT, to the process or (a closed terminal) to its whole group, ends the run with status
    # 128 + the signal, the child process (its own session) killed and no staticroof-pp-* folder left
    import os
    import signal
    import time

    number = getattr(signal, name)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), STATICROOF_NO_CPP="1")
    src = _bomb(tmp_path, 30)
    for to_group in (False, True):
        proc = subprocess.Popen([sys.executable, "-m", "staticroof", "analyze", "--no-cache", str(src)], env=env,
                                cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while not list(tmp.glob("staticroof-pp-*/pcpp/job.json")) and time.monotonic() < deadline:
                assert proc.poll() is None, proc.stderr.read().decode()
                time.sleep(0.02)
            time.sleep(0.5)  # the child has started (or is starting): it must be stopped either way
            children = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _mentions(p, str(tmp))]
            assert children, "no pcpp child found"
            (os.killpg if to_group else os.kill)(proc.pid, number)
            _out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        assert proc.returncode == 128 + number and b"Traceback" not in err, (proc.returncode, err.decode())
        assert all_stop([int(p.name) for p in children]), "the pcpp child outlived the run"
        assert list(tmp.iterdir()) == []


def _mentions(proc_dir: Path, text: str) -> bool:
    try:
        return text in (proc_dir / "cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return False


# The pure-Python preprocessor (STATICROOF_NO_CPP=1) runs in a child process under the same limits
# as the system one; the tests shrink them so that a bomb ends in seconds.
def _bomb(tmp_path, levels: int) -> Path:
    """A macro that doubles `levels` times: A<levels> is 2**levels copies of one statement."""
    lines = ["#define A0 x[i] = x[i] * 2.0f;"] + [f"#define A{k} A{k - 1} A{k - 1}" for k in range(1, levels + 1)]
    src = tmp_path / "bomb.c"
    src.write_text("\n".join(lines) + f"\nvoid k(float *x, int i) {{ A{levels} }}\n")
    return src


@pytest.mark.parametrize("limit,value,expected", [
    ("CPP_TIMEOUT", 1, "ran longer than 1 s"),  # 2**30 copies: pcpp would run for hours
    ("CPP_MEMORY_LIMIT", 36 << 20, "ran out of its 36 MiB of memory"),  # the child alone needs ~16 MB
], ids=["time", "memory"])
def test_pcpp_macro_bomb_stops_within_its_limits(tmp_path, monkeypatch, limit, value, expected):
    import tempfile
    import time

    from click.testing import CliRunner

    from staticroof.cli import main

    monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # the child's job folder: ours
    monkeypatch.setattr(pp_mod, "CPP_TIMEOUT", 30)
    monkeypatch.setattr(pp_mod, limit, value)
    bomb = _bomb(tmp_path, 30)
    (tmp_path / "ok.c").write_text(KERNEL)
    start = time.monotonic()
    r = CliRunner().invoke(main, ["analyze", str(bomb), str(tmp_path / "ok.c")])
    assert time.monotonic() - start < 30
    assert r.exit_code == 1 and f"bomb.c: SR005 the C preprocessor (pcpp) {expected}" in r.output, r.output
    assert "ok.c:1:6: k  [c, exact]" in r.output and " n FLOP   (fp32)" in r.output  # the other file is intact
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(tmp_path) not in out  # the child (its arguments name its job folder) is gone
    assert list((tmp_path / "tmp").iterdir()) == []


def test_pcpp_output_is_capped(tmp_path, monkeypatch):
    # 2**8 copies of the 19-character statement `x[i] = x[i] * 2.0f;` and a space: ~5 KB of text
    # against a 4 KiB cap; under an 8 KiB cap the kernel is read.
    monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    monkeypatch.setattr(pp_mod, "CPP_OUTPUT_LIMIT", 4 << 10)
    res, _ = load(str(_bomb(tmp_path, 8)), {})
    d = next(d for d in res.diagnostics if d.code == "SR005")
    assert "larger than 4,096 bytes" in d.message
    monkeypatch.setattr(pp_mod, "CPP_OUTPUT_LIMIT", 8 << 10)
    res, _ = load(str(_bomb(tmp_path, 8)), {})
    assert [k.name for k in res.kernels] == ["k"] and not res.diagnostics


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_pcpp_fifo_includes_are_refused(tmp_path, monkeypatch):
    # A plain include of a FIFO is refused by the scan before any preprocessor runs; a computed one
    # (`#include HDR`), which no scan sees, is refused by the child when pcpp would open it.
    monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    os.mkfifo(tmp_path / "pipe.h")
    (tmp_path / "k.c").write_text('#include "pipe.h"\n' + KERNEL)
    (tmp_path / "c.c").write_text('#define HDR "pipe.h"\n#include HDR\n' + KERNEL)
    for name, where in (("k.c", "k.c:1:11"), ("c.c", "c.c:2:1")):
        res, _ = load(str(tmp_path / name), {})
        d = next(d for d in res.diagnostics if d.code == "SR005")
        assert "pipe.h: not a regular file" in d.message and f"{d.location}".endswith(where), str(d)


def test_pcpp_self_include_is_a_message(tmp_path, monkeypatch):
    # A file that includes itself: pcpp recursed until RecursionError (SR099 "internal error").
    monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    (tmp_path / "self.c").write_text('#include "self.c"\n' + KERNEL)
    res, _ = load(str(tmp_path / "self.c"), {})
    assert [d.code for d in res.diagnostics] == ["SR005"] and "nesting too deep" in res.diagnostics[0].message


# Found by the long fuzz run of issue #30 (benchmarks/fuzz_long.py, cases 462 and 441 of seed 0).
FUZZ_FOUND = {
    # a size macro whose value is negative: __SR_SIZE(N, -5) has a unary minus, not a literal
    "negative_size.c": "#define N -5\nvoid k(float *x) { for (int i = 0; i < 10; i++) x[i - N] *= 2.0f; }\n",
    # a host wrapper called with an empty argument: the argument's expression is empty
    "empty_argument.cu": ("__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                          " if (i < n) x[i] *= 2.0f; }\n"
                          "void launch(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); }\n"
                          "int main(void) { float *x = 0; int m = 1000; launch(x, (m)); launch(x, ); return 0; }\n"),
}


@pytest.mark.parametrize("name", sorted(FUZZ_FOUND))
def test_fuzz_found_inputs_are_no_internal_error(tmp_path, name):
    (tmp_path / name).write_text(FUZZ_FOUND[name])
    res, _ = load(str(tmp_path / name), {})
    assert "SR099" not in report_codes(res)
    assert [k.name for k in res.kernels] == ["k"]


def test_a_deeply_nested_expression_is_no_internal_error(tmp_path):
    # fuzz cases 2459/3097/4990 (deep_nesting): `x[0] = x[0] + x[1] + ...` with 3,000 terms is a chain of
    # BinaryOps 3,000 deep; the driver test walked it recursively past Python's depth (RecursionError,
    # SR099 for the whole file); now the kernel is reported, at worst unsupported with its reason
    chain = " + ".join(f"x[{j % 7}]" for j in range(3000))
    (tmp_path / "deep.c").write_text(f"void k(float *x, int n) {{\n    x[0] = {chain};\n}}\n")
    res, _ = load(str(tmp_path / "deep.c"), {})
    assert "SR099" not in report_codes(res)
    assert [k.name for k in res.kernels] + [name for name, _loc, _d in res.failed] == ["k"]
