"""Drivers are not kernels (issue #10 item 2): `main` and functions with no floating-point work and
no loop over array data are not reported unless `--all-functions` (or `all-functions = true` in
`[tool.staticroof]`) asks; a failure inside one never changes the exit status; calls from `main`
still bind the kernels' sizes, even after a statement the analysis cannot model."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from staticroof.cli import main

from helpers import S, analyze_file, same

BENCH = """
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define NI 1000
#define NJ 800

typedef void (*report_fn)(const char *, double);

struct bench_args {
    struct timeval t1, t2;
    void *arg_info;
};

static double now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static void fill_index(int n, int *idx)
{
    for (int i = 0; i < n; i++)
        idx[i] = (i * 7) % n;
}

void scale2d(int ni, int nj, float *A, float alpha)
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            A[i * nj + j] *= alpha;
}

int main(int argc, char **argv)
{
    int ni = NI;
    int nj = NJ;
    report_fn report = 0;
    float *A = (float *)malloc(sizeof(float) * ni * nj);
    int *idx = (int *)malloc(sizeof(int) * ni);
    double t0 = now();
    (*report)("start", t0);            /* not modeled: costs this statement of main only */
    fill_index(ni, idx);
    scale2d(ni, nj, A, 2.0f);
    (*report)("scale2d", now() - t0);
    free(A);
    free(idx);
    return 0;
}
"""


def write(tmp_path, name, text) -> Path:
    p = Path(tmp_path) / name
    p.write_text(text)
    return p


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_main_is_not_reported_and_sizes_still_bind(tmp_path):
    p = write(tmp_path, "bench.c", BENCH)
    ks, report = analyze_file(p)
    # main: a driver (not reported, not a failure).  fill_index loops over array data (it is reported:
    # an integer kernel); now() has no loop and no array.  scale2d: ni*nj multiplies, A read and
    # written: 8*ni*nj B, with ni = NI = 1000 and nj = NJ = 800 bound by the call in main, after a
    # statement of main the analysis does not model
    assert set(ks) == {"fill_index", "scale2d"}
    assert not report.failed
    k = ks["scale2d"]
    assert k.exact and same(k.total.flops.expr, S("ni*nj")) and k.total.flops.value == 800000
    assert k.sizes == {"ni": 1000, "nj": 800}
    assert same(k.total.compulsory.expr, S("8*ni*nj"))


def test_exit_status_zero_when_main_cannot_be_modelled(tmp_path):
    p = write(tmp_path, "bench.c", BENCH.replace("    free(A);\n", "    free(A);\n    goto *argv;\n"))
    r = cli("analyze", p)
    assert r.exit_code == 0, r.output
    assert ": scale2d  [c, exact]" in r.output and ": main  [" not in r.output


def test_all_functions_shows_drivers_without_failing(tmp_path):
    # main with a syntax error the parser cannot get past: a failed driver, never exit status 1
    p = write(tmp_path, "bench.c", BENCH.replace("    return 0;\n}", "    return 0 +;\n}"))
    r = cli("analyze", p)
    assert r.exit_code == 0, r.output
    assert ": main  [" not in r.output
    r = cli("analyze", p, "--all-functions")
    assert r.exit_code == 0, r.output
    assert re.search(r": main  \[c, unsupported\]", r.output), r.output
    assert ": scale2d  [c, exact]" in r.output


def test_a_driver_named_with_kernel_is_shown(tmp_path):
    p = write(tmp_path, "bench.c", BENCH)
    r = cli("analyze", p, "--kernel", "main")
    # main inlines now() once (tv_sec + tv_usec * 1e-6: 2 fp64; the second call sits in a dropped
    # statement), fill_index (0) and scale2d (ni*nj = 800,000 fp32 multiplies): W = 800,002; approximate
    # (its calls through a function pointer are SR123); a driver never fails the run
    assert r.exit_code == 0, r.output
    assert ": main  [c, approximate]" in r.output, r.output
    assert re.search(r"W\s+800,002 FLOP\s+\(fp64 2 FLOP, fp32 800,000 FLOP\)", r.output), r.output


def test_all_functions_from_the_config(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.staticroof]\nall-functions = true\n")
    p = write(tmp_path, "bench.c", BENCH)
    r = cli("analyze", p, "--config", Path(tmp_path) / "pyproject.toml")
    assert r.exit_code == 0, r.output
    assert ": main  [c, approximate]" in r.output  # its dropped statements are SR123
    bad = write(tmp_path, "bad.toml", "[tool.staticroof]\nall-functions = 1\n")
    r = cli("analyze", p, "--config", bad)
    assert r.exit_code == 2 and "all-functions must be true or false" in r.output


def test_a_file_of_drivers_only_says_so(tmp_path):
    p = write(tmp_path, "setup.c", """
#include <string.h>
int main(void)
{
    int counts[16];
    for (int k = 0; k < 16; k++)
        counts[k] = k;
    return counts[3];
}
""")
    r = cli("analyze", p)
    assert r.exit_code == 0, r.output
    assert "SR006 no kernels: only drivers (main)" in r.output


def test_a_kernel_that_failed_is_not_taken_for_a_driver(tmp_path):
    # a syntax error in a function whose body multiplies floats in a loop: reported, exit status 1
    p = write(tmp_path, "k.c", """
void axpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i] +;
}
int main(void) { return 0; }
""")
    r = cli("analyze", p)
    assert r.exit_code == 1 and ": axpy  [c, unsupported]" in r.output


def test_a_kernel_whose_work_was_dropped_is_still_reported(tmp_path):
    # every statement of the loop is dropped (SR123): the IR has no work, but the syntax does, so the
    # function is a kernel (approximate), not a hidden driver
    p = write(tmp_path, "k.c", """
typedef float (*op_t)(float);
op_t op;
void apply(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = (*op)(x[i]) * 2.0f;
}
""")
    r = cli("analyze", p)
    assert ": apply  [c, approximate]" in r.output and "SR123" in r.output, r.output
