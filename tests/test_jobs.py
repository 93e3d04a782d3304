"""`-j/--jobs` (staticroof/workers.py): many files on a pool of forked workers print byte for byte
what one process prints, file after file; a worker that dies in a kernel costs only that kernel
(SR127), elsewhere only its file (SR099); `-j 1`
and a single file never fork; `jobs` in the configuration; the cache still serves a parallel run;
Ctrl-C stops the workers and exits as a serial run does.

The failures are provoked in this process before the workers are forked (a patched analysis
raises, or kills its own process, on one kernel), so the workers inherit them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from staticroof import workers
from staticroof.cli import main

from helpers import BLOCK, all_stop, parent_of, wait_for_start

SAXPY = """
void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
"""
TWO = """
#define N 1000
static double x[N], y[N];

double dot(void)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += x[i] * y[i];
    return s;
}

void scale(int n, double a, double *v)
{
    for (int i = 0; i < n; i++)
        v[i] *= a;
}
"""
VECADD = """
__global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
"""
BROKEN = "void broken(int n, double *x) {\n    for (int i = 0; i < n; i++\n        x[i] = 0;\n}\n"
BOOM = "void boom(int n, double *x)\n{\n    for (int i = 0; i < n; i++)\n        x[i] += 1.0;\n}\n"
DIE = "void die(int n, float *x)\n{\n    for (int i = 0; i < n; i++)\n        x[i] *= 2.0f;\n}\n"


def cli(*args):
    return CliRunner().invoke(main, list(map(str, args)))


@pytest.fixture
def mixed(tmp_path, monkeypatch):
    """A folder of C and CUDA files: one kernel each, two kernels, a syntax error, and `boom`, whose
    analysis raises (an internal error, SR099) in whichever process analyzes it."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    for name, text in (("a_saxpy.c", SAXPY), ("b_two.c", TWO), ("c_vecadd.cu", VECADD), ("d_broken.c", BROKEN),
                       ("e_boom.c", BOOM)):
        (folder / name).write_text(text)
    import staticroof.analysis as analysis

    real = analysis.analyze

    def analyze(kernel, *args, **kwargs):
        if kernel.name == "boom":
            raise RuntimeError("provoked for the test")
        if kernel.name == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(kernel, *args, **kwargs)

    monkeypatch.setattr(analysis, "analyze", analyze)
    monkeypatch.chdir(tmp_path)  # no configuration of the repository applies
    return folder


def test_parallel_output_is_the_serial_output(mixed):
    outputs = {}
    for fmt in ("text", "json"):
        serial = cli("analyze", "mixed", "-j", "1", "--format", fmt, "--no-color")
        parallel = cli("analyze", "mixed", "-j", "3", "--format", fmt, "--no-color")
        assert serial.exit_code == parallel.exit_code == 1, serial.output  # boom and broken fail
        assert parallel.stdout_bytes == serial.stdout_bytes
        outputs[fmt] = serial.stdout
    doc = json.loads(outputs["json"])
    names = [k["name"] for k in doc["kernels"]]
    # file order, then line order within a file; `broken`, whose loop header misses its `)`, is
    # reported unsupported with the syntax error (issue #28: no kernel lost)
    assert names == ["saxpy", "dot", "scale", "vec_add", "broken", "boom"], names
    assert any(d["code"] == "SR099" and "provoked" in d["message"] for k in doc["kernels"] for d in k["diagnostics"])
    broken = next(k for k in doc["kernels"] if k["name"] == "broken")
    assert any(d["code"] == "SR001" and d["file"].endswith("d_broken.c") for d in broken["diagnostics"])


def test_a_killed_worker_costs_only_its_kernel(mixed):
    # SIGKILL (the out-of-memory killer's signal) inside `die`'s analysis: the file goes to a fresh
    # worker, which reports `die` as SR127 (staticroof/crashes.py); every other kernel as serial
    serial = json.loads(cli("analyze", "mixed", "-j", "1", "--format", "json").stdout)
    (mixed / "c_vecadd.cu").rename(mixed / "c_vecadd.cu.off")
    (mixed / "c_die.c").write_text(DIE)  # analyzed where vec_add was; kills the worker analyzing it
    r = cli("analyze", "mixed", "-j", "2", "--format", "json")
    assert r.exit_code == 1 and "Traceback" not in r.output
    doc = json.loads(r.stdout)
    assert not [d for d in doc["diagnostics"] if d["file"].endswith("c_die.c")]
    die = next(k for k in doc["kernels"] if k["name"] == "die")
    assert [d["code"] for d in die["diagnostics"]] == ["SR127"] and die["status"] == "unsupported"
    assert "crashed (SIGKILL, the system's out-of-memory killer, most likely)" in die["diagnostics"][0]["message"]
    assert [k for k in doc["kernels"] if k["name"] != "die"] == [k for k in serial["kernels"] if k["name"] != "vec_add"]


def test_a_worker_killed_between_kernels_costs_only_its_file(mixed, monkeypatch):
    # dead while sending its result back (no kernel begun): that file is lost (SR099), not the run
    import staticroof.cache.runner as runner

    serial = json.loads(cli("analyze", "mixed", "-j", "1", "--format", "json").stdout)
    real = runner._pack

    def pack(part):
        if any(k.name == "vec_add" for k in part.kernels):
            os.kill(os.getpid(), signal.SIGKILL)
        return real(part)

    monkeypatch.setattr(runner, "_pack", pack)
    r = cli("analyze", "mixed", "-j", "2", "--format", "json")
    assert r.exit_code == 1 and "Traceback" not in r.output
    doc = json.loads(r.stdout)
    lost = [d for d in doc["diagnostics"] if d["file"].endswith("c_vecadd.cu")]
    assert [(d["code"], d["message"]) for d in lost] == [
        ("SR099", "internal error: the worker process analyzing this file was killed by SIGKILL")]
    assert doc["kernels"] == [k for k in serial["kernels"] if k["name"] != "vec_add"]


def test_one_job_and_one_file_never_fork(mixed, monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("forked")

    monkeypatch.setattr(workers, "_Pool", no_pool)
    two = ("mixed/a_saxpy.c", "mixed/b_two.c")
    assert cli("analyze", *two, "-j", "1", "--format", "json").exit_code == 0
    assert cli("analyze", "mixed/a_saxpy.c", "-j", "4").exit_code == 0
    assert cli("lint", *two, "-j", "1", "--no-cache").exit_code in (0, 1)


def test_jobs_from_the_configuration(mixed, monkeypatch):
    seen = []
    real = workers.run_all
    monkeypatch.setattr(workers, "run_all", lambda work, items, jobs, *a, **k: seen.append(jobs) or real(
        work, items, jobs, *a, **k))
    (mixed.parent / "staticroof.toml").write_text("jobs = 2\n")
    two = ("mixed/a_saxpy.c", "mixed/b_two.c")
    assert cli("analyze", *two, "--format", "json").exit_code == 0
    assert cli("analyze", *two, "-j", "3", "--format", "json").exit_code == 0  # the option wins
    assert seen == [2, 3]
    for bad in ("0", "true", '"4"', "1.5"):
        (mixed.parent / "staticroof.toml").write_text(f"jobs = {bad}\n")
        r = cli("analyze", "mixed")
        assert r.exit_code == 2 and "jobs must be a positive number of processes" in r.output, r.output
    r = cli("analyze", "mixed", "-j", "0")
    assert r.exit_code == 2 and "-j" in r.output


def test_default_jobs_is_the_usable_cores():
    assert workers.default_jobs() == len(os.sched_getaffinity(0))


def test_the_cache_serves_a_parallel_run(mixed, monkeypatch):
    first = cli("analyze", "mixed", "-j", "2", "--use-cache", "--format", "json")
    import staticroof.pipeline as pipeline

    real = pipeline.run
    analyzed = []
    monkeypatch.setattr(pipeline, "run", lambda files, *a, **k: analyzed.extend(files) or real(files, *a, **k))
    second = cli("analyze", "mixed", "-j", "2", "--use-cache", "--format", "json")
    assert second.stdout_bytes == first.stdout_bytes and second.exit_code == first.exit_code == 1
    # only the files whose result is not stored run again: boom's internal error (SR099, transient);
    # the parse error and every good file came from the cache (in this process: nothing forked for one file)
    assert [p.name for p in analyzed] == ["e_boom.c"]


def test_lint_in_parallel_is_lint_in_series(mixed):
    serial = cli("lint", "mixed", "-j", "1", "--no-cache", "--format", "sarif")
    parallel = cli("lint", "mixed", "-j", "3", "--no-cache", "--format", "sarif")
    assert parallel.stdout_bytes == serial.stdout_bytes and parallel.exit_code == serial.exit_code == 1
    assert "boom" in serial.output and "d_broken.c" in serial.output


def test_run_all_keeps_the_order_and_loses_only_failed_items():
    def work(x):
        if x == 3:
            raise ValueError("three")
        if x == 5:
            return lambda: None  # cannot be pickled back
        time.sleep(0.05 * (x % 3))
        return x * x

    got = workers.run_all(work, list(range(8)), 3, lambda x, why: f"lost {x}: {why}")
    assert got[:3] == [0, 1, 4] and got[4] == 16 and got[6:] == [36, 49]
    assert got[3] == "lost 3: ValueError: three"
    assert got[5].startswith("lost 5: the result could not be sent back:")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads process parents from /proc")
def test_ctrl_c_stops_the_workers(tmp_path, blocking_cc):
    # Four files that each block in the preprocessor (helpers.blocking_cc): the interrupt comes once
    # two of them are being preprocessed, i.e. both workers are in the middle of a file.  The
    # workers are grandchildren of the process started here (the crash watcher forks the command,
    # which forks the workers); each blocked preprocessor is a child of a worker, in a session of
    # its own, so only the run's clean-up can stop it.
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(4):
        (folder / f"k{i}.c").write_text(f"/* {BLOCK} */\n" + SAXPY.replace("saxpy", f"saxpy{i}"))
    env, started = blocking_cc
    p = subprocess.Popen([sys.executable, "-m", "staticroof", "analyze", str(folder), "-j", "2", "--no-cache"],
                         cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        blocked = wait_for_start(p, started, count=2)
        workers_ = {parent_of(b) for b in blocked}
        commands = {parent_of(w) for w in workers_}
        assert len(workers_) == 2 and len(commands) == 1 and parent_of(commands.pop()) == p.pid, \
            (blocked, workers_, p.pid)
        os.killpg(p.pid, signal.SIGINT)  # what a terminal sends: to every process of the group
        _out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 1 and "Aborted!" in err and "Traceback" not in err, err
    assert all_stop(workers_), "a worker outlived the run"
    assert all_stop(blocked), "a preprocessor outlived the run"
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            os.killpg(p.pid, 0)  # anything else left behind would still be in the group
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("a process of the run outlived it")
