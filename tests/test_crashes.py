"""Crash isolation (staticroof/crashes.py): a native crash costs exactly the kernel it happened in.

The crash is real: STATICROOF_TEST_CRASH=KERNEL[:SIGNAL] (a test-only hook) makes the process
analyzing KERNEL kill itself with SIGNAL when the kernel begins, as a NULL dereference in barvinok
would.  The run must then print, for every other kernel and file, byte for byte what a run without
the hook prints, serial (the launcher's watcher) and parallel (the pool), text and JSON; the
crashed kernel is SR127, in its place.  The real barvinok crash (the isl operation budget running
out inside isl_set_card) is in the slow test at the end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from staticroof import crashes
from staticroof.cli import main

from helpers import ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="crash isolation needs fork")

# A particle code's update step, the way such files are written: a struct of arrays, a timer, a
# driver; three kernels, the middle one crashes.
PARTICLES = r"""
#include <stddef.h>
#include <time.h>

#define DT 0.01f

typedef struct {
    float *x, *y, *vx, *vy;
    size_t n;
} particles_t;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

void drift(particles_t *p)
{
    for (size_t i = 0; i < p->n; i++) {
        p->x[i] += DT * p->vx[i];
        p->y[i] += DT * p->vy[i];
    }
}

void damp(int n, float k, float *restrict vx, float *restrict vy)
{
    for (int i = 0; i < n; i++) {
        vx[i] *= k;
        vy[i] *= k;
    }
}

float kinetic(int n, const float *restrict vx, const float *restrict vy)
{
    float e = 0.0f;
    for (int i = 0; i < n; i++)
        e += 0.5f * (vx[i] * vx[i] + vy[i] * vy[i]);
    return e;
}

int main(void)
{
    double t0 = now();
    (void)t0;
    return 0;
}
"""
SAXPY = "void saxpy(int n, float a, const float *x, float *y)\n{\n    for (int i = 0; i < n; i++)\n" \
        "        y[i] = a * x[i] + y[i];\n}\n"


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configuration of the repository applies
    (tmp_path / "particles.c").write_text(PARTICLES)
    (tmp_path / "saxpy.c").write_text(SAXPY)
    return ["particles.c", "saxpy.c"]


def staticroof(*args, crash=None, isolate=True):
    """The command as a user runs it (through the launcher, which watches it), in its own process."""
    env = dict(os.environ, STATICROOF_SERVER="0")
    env.pop("STATICROOF_TEST_CRASH", None)
    if crash:
        env["STATICROOF_TEST_CRASH"] = crash
    if not isolate:
        env["STATICROOF_ISOLATE"] = "0"
    return subprocess.run([sys.executable, "-m", "staticroof", *map(str, args)], capture_output=True, env=env,
                          timeout=300)


def without_the_hook(*args):
    """The same command in this process (no watcher, no hook): what the output must be."""
    r = CliRunner().invoke(main, list(map(str, args)))
    return r.exit_code, r.stdout_bytes


def blocks(text: bytes) -> list:
    return text.decode().split("\n\n")


SR127 = ("`damp`: the process analyzing this kernel crashed (SIGSEGV, in native code: isl, barvinok or "
         "another extension); its result is missing. The other kernels and files were analyzed in a "
         "fresh process and are unaffected")


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_a_crash_costs_only_its_kernel_text(files, jobs):
    code, clean = without_the_hook("analyze", "-j", jobs, "--no-color", *files)
    assert code == 0
    r = staticroof("analyze", "-j", jobs, "--no-color", *files, crash="damp")
    assert r.returncode == 1, r.stderr  # a kernel is missing: as for SR099
    assert b"Traceback" not in r.stderr and r.stderr == b""
    got, want = blocks(r.stdout), blocks(clean)
    assert len(got) == len(want) == 4  # drift, damp, kinetic (the driver `main` is not shown), saxpy
    crashed = [i for i, b in enumerate(want) if b.startswith("particles.c:27:6: damp ")]
    assert crashed == [1]
    assert got[1] == f"particles.c:27:6: damp  [c, unsupported]\n  particles.c:27:6: SR127 {SR127}"
    assert got[:1] + got[2:] == want[:1] + want[2:]  # byte for byte, in their places


@pytest.mark.parametrize("jobs", [pytest.param("1", marks=pytest.mark.slow), "2"])
def test_a_crash_costs_only_its_kernel_json(files, jobs):
    code, clean = without_the_hook("analyze", "-j", jobs, "--format", "json", "--all-functions", *files)
    assert code == 0
    r = staticroof("analyze", "-j", jobs, "--format", "json", "--all-functions", *files, crash="damp")
    assert r.returncode == 1 and r.stderr == b"", r.stderr
    got, want = json.loads(r.stdout), json.loads(clean)
    names = [k["name"] for k in want["kernels"]]
    assert names == ["now", "drift", "damp", "kinetic", "main", "saxpy"]
    i = names.index("damp")
    assert got["kernels"][:i] + got["kernels"][i + 1:] == want["kernels"][:i] + want["kernels"][i + 1:]
    assert got["diagnostics"] == want["diagnostics"]
    damp = got["kernels"][i]
    assert (damp["status"], damp["line"], damp["col"], damp["exact"]) == ("unsupported", 27, 6, False)
    assert [(d["code"], d["line"], d["message"]) for d in damp["diagnostics"]] == [("SR127", 27, SR127)]


@pytest.mark.slow
def test_serial_and_parallel_crashed_runs_are_byte_identical(files):
    for fmt in ("text", "json"):
        one = staticroof("analyze", "-j", "1", "--format", fmt, *files, crash="damp:SIGABRT")
        two = staticroof("analyze", "-j", "2", "--format", fmt, *files, crash="damp:SIGABRT")
        assert one.returncode == two.returncode == 1
        assert one.stdout == two.stdout and b"SIGABRT" in one.stdout


def test_without_isolation_a_crash_ends_the_run_as_before(files):
    r = staticroof("analyze", "-j", "1", *files, crash="damp", isolate=False)
    assert r.returncode == -signal.SIGSEGV and r.stdout == b""


@pytest.mark.slow
def test_a_crash_while_loading_costs_only_its_file(files):
    _code, clean = without_the_hook("analyze", "-j", "1", "--format", "json", *files)
    r = staticroof("analyze", "-j", "1", "--format", "json", *files, crash="particles.c:SIGBUS")
    assert r.returncode == 1
    got, want = json.loads(r.stdout), json.loads(clean)
    assert got["kernels"] == [k for k in want["kernels"] if k["file"] == "saxpy.c"]
    assert [(d["file"], d["code"]) for d in got["diagnostics"]] == [("particles.c", "SR127")]
    assert "the process loading this file crashed (SIGBUS" in got["diagnostics"][0]["message"]


@pytest.mark.slow
def test_lint_reports_the_crashed_kernel_and_the_others_as_before(files):
    import shutil

    shutil.copy(ROOT / "samples" / "l2norm.c", "l2norm.c")  # RF401: its two nests could be fused
    code, clean = without_the_hook("lint", "-j", "1", "--no-cache", "particles.c", "l2norm.c")
    r = staticroof("lint", "-j", "1", "--no-cache", "particles.c", "l2norm.c", crash="damp")
    assert code == r.returncode == 1
    found, total = clean.decode().splitlines(keepends=True)[:-1], clean.decode().splitlines()[-1]
    assert total == "Found 1 finding." and found[0].startswith("l2norm.c:68:5: RF401 ")
    assert r.stdout.decode() == "".join([f"particles.c:27:6: RF902 `damp` could not be analyzed: SR127 {SR127}\n",
                                         *found, "Found 2 findings.\n"])


def test_a_crash_is_recorded_only_inside_a_kernel():
    slot = crashes.new_slot()
    saved_slot, saved = crashes.slot_page, dict(crashes.crashed_kernels)
    try:
        crashes.slot_page, crashes.crashed_kernels = slot, {}
        assert not crashes.record(slot, signal.SIGSEGV)  # between kernels: nothing to skip
        crashes.begin("k1", 3, "damp")
        assert crashes.where(slot) == ("k1", 3, "damp")
        assert not crashes.record(slot, signal.SIGTERM)  # a request to stop, not a crash
        assert crashes.record(slot, signal.SIGSEGV)
        assert crashes.crashed("k1", 3) == "SIGSEGV" and crashes.crashed("k1", 2) is None
        assert not crashes.record(slot, signal.SIGSEGV)  # the same kernel again: the run ends
        crashes.end()
        assert crashes.where(slot) is None
        crashes.begin("k1", -1, "particles.c")
        assert crashes.record(slot, signal.SIGKILL) and crashes.crashed("k1", -1) == "SIGKILL"
    finally:
        crashes.slot_page, crashes.crashed_kernels = saved_slot, saved
        slot.close()


def test_a_file_is_named_by_its_bytes(tmp_path):
    a, b = tmp_path / "a.c", tmp_path / "b" / "a.c"
    b.parent.mkdir()
    a.write_text(SAXPY)
    b.write_text(SAXPY)
    saved = crashes.slot_page
    try:
        crashes.slot_page = crashes.new_slot()  # watched: a diff's copies in fresh folders are the same file
        assert crashes.file_key(a) == crashes.file_key(b) != crashes.file_key(tmp_path / "missing.c")
    finally:
        crashes.slot_page = saved
    assert crashes.file_key(a) == ""  # nobody watches: nothing read


@pytest.mark.slow
def test_the_real_barvinok_crash_costs_only_its_kernel():
    # isl's operation budget running out inside isl_set_card: barvinok's basic_set_card converts the
    # set to a polylib polyhedron, gets NULL, and enumerate() dereferences it (SIGSEGV,
    # barvinok.cc:1231).  Budgets at which it did on fdtd_step2_kernel, found by scans of budgets:
    # 41000 (main of 6db3851) and 848000 (before 996ea8e); they move whenever the operations
    # before that count change, so the first that still crashes is used
    path = ROOT / "tests" / "data" / "cuda" / "polybench_acc_style.cu"
    common = ("analyze", "-j", "1", "--format", "json", "--kernel", "fdtd_step3_kernel")
    saved = dict(os.environ)
    try:
        os.environ["STATICROOF_TIME_BUDGET"] = "0"
        for budget in ("41000", "848000"):
            os.environ["STATICROOF_ISL_BUDGET"] = budget
            if staticroof(*common, "--kernel", "fdtd_step2_kernel", path, isolate=False).returncode == -signal.SIGSEGV:
                break
        else:
            pytest.skip("no budget listed crashes barvinok any more: scan for another")
        r = staticroof(*common, "--kernel", "fdtd_step2_kernel", path)
        _code, clean = without_the_hook(*common, path)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert r.returncode == 1
    got = json.loads(r.stdout)
    step2 = next(k for k in got["kernels"] if k["name"] == "fdtd_step2_kernel")
    assert [d["code"] for d in step2["diagnostics"]] == ["SR127"] and "SIGSEGV" in step2["diagnostics"][0]["message"]
    assert [k for k in got["kernels"] if k["name"] != "fdtd_step2_kernel"] == json.loads(clean)["kernels"]


@pytest.mark.slow
def test_diff_reports_the_crashed_kernel_and_the_others_as_before(files):
    os.remove("saxpy.c")  # one file, changed: drift improves, damp crashes, kinetic is unchanged
    git = ["git", "-c", "user.email=ci@example.com", "-c", "user.name=ci"]
    for args in (["init", "-q"], ["add", "particles.c"], ["commit", "-qm", "particles"]):
        subprocess.run(git + args, check=True)
    text = PARTICLES.replace("p->x[i] += DT * p->vx[i];", "p->x[i] += DT * p->vx[i] + 1.0f;")
    with open("particles.c", "w") as f:
        f.write(text)
    code, clean = without_the_hook("diff", "--no-cache", "HEAD")
    r = staticroof("diff", "--no-cache", "HEAD", crash="damp")  # crashes on both sides: two re-runs
    assert code == r.returncode == 0
    want = clean.decode().replace("1 file, 3 kernels: 1 improved, 2 unchanged",
                                  "1 file, 3 kernels: 1 improved, 1 unchanged, 1 no longer analyzable")
    want = want.replace("particles.c:27:6: damp  unchanged\n", "particles.c:27:6: damp  no longer analyzable\n"
                        f"  before  not analyzed: {SR127}\n  after   not analyzed: {SR127}\n")
    assert "improved" in want and r.stdout.decode() == want


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_past_the_cpu_limit_in_native_code_costs_only_its_kernel(files, jobs):
    """Issue #33 §2: a count stuck in native code (a barvinok count: the budget's SIGPROF handler runs
    only between Python steps) is ended by the kernel's CPU limit (SIGXCPU, crashes.cpu_limit) and
    reported as SR126, not counted, with every other kernel as a clean run prints it."""
    _code, clean = without_the_hook("analyze", "-j", jobs, "--no-color", *files)
    r = staticroof("analyze", "-j", jobs, "--no-color", *files, crash="damp:SIGXCPU")
    assert r.returncode == 1 and r.stderr == b"", r.stderr
    got, want = blocks(r.stdout), blocks(clean)
    assert got[1].startswith("particles.c:27:6: damp  [c, unsupported]\n  particles.c:27:6: SR126 `damp`: not "
                             "counted: it ran past its time budget inside native code")
    assert got[:1] + got[2:] == want[:1] + want[2:]


def test_the_cpu_limit_ends_a_native_loop_and_is_released(tmp_path):
    """crashes.cpu_limit(1) in a watched process: a loop inside C (sum over a huge range: no Python
    step the budget's handler could run in) ends by SIGXCPU within a few seconds of CPU; released,
    the limit in force before is back."""
    code = ("import resource, signal, sys\nfrom staticroof import crashes\ncrashes.slot_page = crashes.new_slot()\n"
            "before = resource.getrlimit(resource.RLIMIT_CPU)\nrelease = crashes.cpu_limit(30)\nrelease()\n"
            "assert resource.getrlimit(resource.RLIMIT_CPU) == before\n"
            "crashes.cpu_limit(1)\nsum(range(10 ** 12))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, cwd=tmp_path)
    assert p.returncode == -signal.SIGXCPU, (p.returncode, p.stderr)
    assert not list(tmp_path.iterdir())  # no core file


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")
def test_a_stop_signal_ends_a_command_stuck_in_native_code(files):
    """A CI job's timeout sends SIGTERM; the command's handler (Python) cannot run while it is inside
    native code (here a loop in C, as a long barvinok count): the watcher passes the signal on, waits
    crashes.GRACE_SECONDS, then kills it, and exits 143 without a second attempt."""
    import time

    env = dict(os.environ, STATICROOF_SERVER="0", STATICROOF_TEST_CRASH="damp:STUCK")
    proc = subprocess.Popen([sys.executable, "-m", "staticroof", "analyze", *files], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(4)  # started, and stuck in `damp`
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM and b"Traceback" not in err, (proc.returncode, err)
    assert took < crashes.GRACE_SECONDS + 10 and out == b""
