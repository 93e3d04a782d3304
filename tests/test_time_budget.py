"""The per-kernel time budget (staticroof/analysis/budget.py) and its fallbacks (fallback.py):
counted at the sizes in force (SR124), then bounded (SR125), then not counted (SR126).

A count is made deliberately expensive by replacing the first-access count with a loop that never
ends and never looks at the clock, so that only the budget's CPU timer can stop it: first only
where the sizes are symbols (the count at the sizes then succeeds), then everywhere (only the
bound, which computes no first access, succeeds).  Every expected value is derived by hand.
"""

from __future__ import annotations

import threading

import pytest
import sympy
from click.testing import CliRunner

import staticroof.analysis as analysis
from staticroof.analysis import budget
from staticroof.cli import main

from helpers import analyze_source, code_list, same

# Three-point moving average.  Hand counts for n >= 3 (nothing runs for n <= 2):
#   iterations i = 1 .. n-2: n - 2
#   W = 3 (n - 2) fp64 (two adds, one divide)
#   a: elements 0 .. n-1, each read first: 8 n B;  b: elements 1 .. n-2 written: 8 (n - 2) B
#   Q = 16 n - 16;  access level: 3 loads + 1 store per iteration = 32 (n - 2) B
# At n = 1000 (main's call): W = 2994, Q = 15984, access 31936.
SMOOTH = r"""#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 1000

/* three-point moving average of a signal; the two ends are left alone */
void smooth3(int n, const double *a, double *b)
{
  for (int i = 1; i < n - 1; i++)
    b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
}

int main(void)
{
  double *a = malloc(N * sizeof(double));
  double *b = malloc(N * sizeof(double));
  clock_t t0 = clock();
  smooth3(N, a, b);
  printf("%g s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
  free(a);
  free(b);
  return 0;
}
"""

LIBRARY = SMOOTH[:SMOOTH.index("int main")]  # the same kernel without a caller: n has no value


@pytest.fixture
def endless_symbolic(monkeypatch):
    """The first-access count never ends where a size is a symbol (at fixed sizes it is the real one)."""
    real = analysis.compulsory

    def slow(kernel, name, refs, namer, *args, **kw):
        while namer.params:
            pass
        return real(kernel, name, refs, namer, *args, **kw)

    monkeypatch.setattr(analysis, "compulsory", slow)
    monkeypatch.setenv("STATICROOF_TIME_BUDGET", "0.2")


@pytest.fixture
def endless(monkeypatch):
    """The first-access count never ends at all."""
    def slow(*args, **kw):
        while True:
            pass

    monkeypatch.setattr(analysis, "compulsory", slow)
    monkeypatch.setenv("STATICROOF_TIME_BUDGET", "0.2")


def test_counted_at_the_sizes_when_the_formulas_run_out_of_time(tmp_path, endless_symbolic):
    k = analyze_source(SMOOTH, tmp_path)["smooth3"]
    assert code_list(k) == ["SR124"], [str(d) for d in k.diagnostics]
    assert "0.2 s" in k.diagnostics[0].message
    # exact at these sizes: the numbers are the hand counts at n = 1000, the formulas those numbers
    assert k.exact and not k.failed
    t = k.total
    assert (t.flops.value, t.compulsory.value, t.access.value) == (2994, 15984, 31936)
    assert (t.flops.expr, t.compulsory.expr) == (2994, 15984)
    assert t.arrays["a"].read.value == 8000 and t.arrays["b"].write.value == 7984


@pytest.mark.parametrize("n, expected", [(3, (3, 32, 32)), (2, (0, 0, 0)), (4, (6, 48, 64))])
def test_counted_at_given_sizes_on_both_sides_of_the_guard(tmp_path, endless_symbolic, n, expected):
    # n = 3: one iteration: W 3, Q 16*3 - 16 = 32, access 32;  n = 2: none;  n = 4: two iterations
    k = analyze_source(SMOOTH, tmp_path, {"n": n})["smooth3"]
    assert code_list(k) == ["SR124"] and k.exact
    t = k.total
    assert (t.flops.value, t.compulsory.value, t.access.value) == expected


def test_bounded_when_a_size_has_no_value(tmp_path, endless_symbolic):
    # n unknown: no count at the sizes; the bound keeps W and the access level as formulas and
    # takes Q compulsory = the loads and stores, 32 (n - 2), above the true 16 n - 16 for n >= 3
    k = analyze_source(LIBRARY, tmp_path)["smooth3"]
    assert code_list(k) == ["SR125"], [str(d) for d in k.diagnostics]
    assert not k.exact and not k.failed
    n = sympy.Symbol("n")
    t = k.total
    assert same(t.flops.expr, 3 * (n - 2))
    assert same(t.compulsory.expr, 32 * (n - 2))
    assert same(t.access.expr, 32 * (n - 2))
    assert same(t.arrays["a"].read.expr, 24 * (n - 2)) and same(t.arrays["b"].write.expr, 8 * (n - 2))


def test_bounded_at_the_sizes_when_counting_there_runs_out_too(tmp_path, endless):
    # the first-access count never ends even at n = 1000: the bound at the sizes, 32 * 998 B
    k = analyze_source(SMOOTH, tmp_path)["smooth3"]
    assert code_list(k) == ["SR125"] and "at the sizes in force too" in k.diagnostics[0].message
    t = k.total
    assert (t.flops.value, t.compulsory.value, t.access.value) == (2994, 31936, 31936)
    assert not k.exact


def test_not_counted_when_even_the_bound_runs_out(tmp_path, endless, monkeypatch):
    # the loads and stores never end either: every attempt runs out; an error, exit status 1, and
    # never a traceback
    def slow(*args, **kw):
        while True:
            pass

    monkeypatch.setattr(analysis, "access_counts", slow)
    path = tmp_path / "smooth.c"
    path.write_text(SMOOTH)
    result = CliRunner().invoke(main, ["analyze", str(path)])
    assert result.exit_code == 1, result.output
    assert "SR126 counting ran past its time budget (0.2 s of CPU), and so did its bound" in result.output
    assert "smooth3  [c, unsupported]" in result.output and "Traceback" not in result.output


def test_the_option_and_the_configuration_set_the_budget(tmp_path, endless_symbolic, monkeypatch):
    monkeypatch.setenv("STATICROOF_TIME_BUDGET", "0")  # no budget from the environment: it would never end
    path = tmp_path / "smooth.c"
    path.write_text(SMOOTH)
    out = CliRunner().invoke(main, ["analyze", str(path), "--time-budget", "0.2"]).output
    assert "SR124 counting ran past its time budget (0.2 s of CPU)" in out
    (tmp_path / "staticroof.toml").write_text("time-budget = 0.3\n")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["analyze", "smooth.c"]).output
    assert "(0.3 s of CPU)" in out
    out = CliRunner().invoke(main, ["analyze", "smooth.c", "--time-budget", "0.25"]).output
    assert "(0.25 s of CPU)" in out  # the command line wins
    (tmp_path / "staticroof.toml").write_text("time-budget = -1\n")
    result = CliRunner().invoke(main, ["analyze", "smooth.c"])
    assert result.exit_code == 2 and "time-budget" in result.output


def test_outside_the_main_thread_the_budget_is_checked_at_each_step(tmp_path, monkeypatch):
    # no timer there (signals reach the main thread only): a count that looks at the clock stops
    real = analysis.compulsory

    def slow(kernel, name, refs, namer, *args, **kw):
        while namer.params:
            budget.check()
        return real(kernel, name, refs, namer, *args, **kw)

    monkeypatch.setattr(analysis, "compulsory", slow)
    monkeypatch.setenv("STATICROOF_TIME_BUDGET", "0.2")
    found = {}
    worker = threading.Thread(target=lambda: found.update(analyze_source(SMOOTH, tmp_path)))
    worker.start()
    worker.join(60)
    assert not worker.is_alive()
    assert code_list(found["smooth3"]) == ["SR124"] and found["smooth3"].total.flops.value == 2994


def test_a_budget_left_behind_changes_nothing(tmp_path, endless_symbolic, monkeypatch):
    # after a fallback no deadline, timer or isl operation limit is left: the next kernel counts
    # as always (the moving average without a caller, symbolic again: here with a real count)
    analyze_source(SMOOTH, tmp_path)
    import islpy as isl

    assert budget._deadline is None and isl.DEFAULT_CONTEXT.get_max_operations() == 0
    monkeypatch.setattr(analysis, "compulsory", analysis.traffic.compulsory)
    k = analyze_source(LIBRARY, tmp_path)["smooth3"]
    assert k.exact and not k.diagnostics
    assert same(k.total.compulsory.expr, 16 * sympy.Symbol("n") - 16)


def test_the_budget_in_force():
    assert budget.seconds(2) == 2 and budget.seconds(0) == 0
    assert budget.seconds() == 0  # tests/conftest.py: off for the suite


def test_the_budget_from_the_environment(monkeypatch):
    monkeypatch.delenv("STATICROOF_TIME_BUDGET")
    assert budget.seconds() == budget.DEFAULT_SECONDS == 20
    for text, value in (("1.5", 1.5), ("0", 0), ("abc", 20), ("-3", 20), ("nan", 20)):
        monkeypatch.setenv("STATICROOF_TIME_BUDGET", text)
        assert budget.seconds() == value, text


def test_a_file_budget_ends_the_file_cleanly(tmp_path, monkeypatch):
    # #30 §15: a file's kernels share FILE_BUDGET_KERNELS kernel budgets (3 x 20 s by default), its
    # loading included; each kernel left when it is spent is SR126 (not counted, not cached), the ones
    # before it are counted.  The CPU clock is replaced by one that advances 25 s per reading: the
    # file starts at 0, kernel 1 is checked at 25, kernel 2 at 50, kernel 3 at 75 > 60: not counted.
    from staticroof import pipeline
    from staticroof.options import AnalysisOptions

    readings = iter(range(0, 10_000, 25))
    monkeypatch.setattr(pipeline, "cpu_clock", lambda: next(readings))
    src = tmp_path / "three.c"
    src.write_text("".join(f"void k{j}(float *x, int n) {{ for (int i = 0; i < n; i++) x[i] *= 2.0f; }}\n"
                           for j in range(1, 4)))
    report = pipeline.run([src], AnalysisOptions(time_budget=20))
    k1, k2, k3 = report.kernels
    assert not k1.failed and not k2.failed and k1.exact
    assert k3.failed and [d.code for d in k3.diagnostics] == ["SR126"]
    assert "the file's time budget (60 s of CPU, 3 kernels' budgets)" in k3.diagnostics[0].message
    readings = iter(range(0, 10_000, 25))
    assert not any(k.failed for k in pipeline.run([src], AnalysisOptions(time_budget=0)).kernels)  # 0: none


def test_running_out_inside_code_that_catches_exception_is_never_an_internal_error(tmp_path, monkeypatch):
    """Issue #33 §2: the budget's SIGPROF may land anywhere, inside code with a generic `except
    Exception` too (here the first-access count wraps its work in one and reports a failure of its
    own, as an internal error would be): the budget's OverTime passes through it to the fallback, so
    the kernel is counted at the sizes in force (SR124: W = 2994 at n = 1000, main's call), never
    SR099.  And past the budget after the counting (in the self-check), it is SR126, not SR099."""
    real = analysis.compulsory

    def guarded(kernel, name, refs, namer, *args, **kw):
        try:
            while namer.params:
                budget.check()
            return real(kernel, name, refs, namer, *args, **kw)
        except Exception as e:  # what a careless layer would do: never reached by OverTime
            raise RuntimeError("swallowed") from e

    monkeypatch.setattr(analysis, "compulsory", guarded)
    monkeypatch.setenv("STATICROOF_TIME_BUDGET", "0.2")
    k = analyze_source(SMOOTH, tmp_path, name="smooth.c")["smooth3"]
    assert "SR099" not in code_list(k) and "SR124" in code_list(k)
    assert k.total.flops.value == 2994

    import staticroof.pipeline as pipeline

    def late(*args, **kw):
        raise budget.OverTime()

    monkeypatch.setattr(pipeline, "_self_check", late)
    k = analyze_source(SMOOTH, tmp_path, name="smooth2.c")["smooth3"]
    assert k.failed and code_list(k) == ["SR126"] and "while finishing its result" in k.diagnostics[0].message
