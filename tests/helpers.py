"""Shared test helpers: analyze C source text and read exact results as sympy expressions (checked
with this file's own exact evaluator, not the analysis's); hypothesis settings for property tests;
a stand-in C compiler that holds a run at a known point for signal tests; the trace oracle's
agreement check; plots read back; and the kernels and functions several test files share (a test
module never imports another)."""

from __future__ import annotations

import itertools
import re
from datetime import timedelta
from pathlib import Path

import pytest
import sympy
from hypothesis import settings

from staticroof.options import AnalysisOptions
from staticroof.pipeline import run

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


# Property tests (hypothesis).  The default run's are `quick`: derandomized (the examples depend only
# on the test's name, so every run and machine draws the same ones and a failure cannot land on an
# unrelated change), about 10 examples, a deadline on each, no example database (a failure one run
# stored never replays in another), every health check on.  Their long twins are `long_run`, marked
# `slow` and seeded with `@seed(...)` on the test: `pytest -m slow` runs them (README, Development,
# lists each one's seed and example count).
QUICK_EXAMPLES = 10


def quick(deadline_s: float, max_examples: int = QUICK_EXAMPLES) -> settings:
    """The default run's settings: seeded, `max_examples` examples, each failing past `deadline_s`."""
    return settings(max_examples=max_examples, derandomize=True, database=None,
                    deadline=timedelta(seconds=deadline_s))


def long_run(max_examples: int, deadline_s: float) -> settings:
    """A `-m slow` run's settings: `max_examples` examples drawn from the seed the test names with
    hypothesis's `@seed`, each failing past `deadline_s`."""
    return settings(max_examples=max_examples, derandomize=False, database=None,
                    deadline=timedelta(seconds=deadline_s))


def analyze_file(path, defines=None, include_dirs=()):
    """{kernel name: KernelSummary} for one file (plus the whole Report as `.report`)."""
    report = run([Path(path)], AnalysisOptions(defines=defines or {}, include_dirs=include_dirs))
    out = {k.name: k for k in report.kernels}
    return out, report


def analyze_source(src: str, tmp_path, defines=None, name="kernel.c", include_dirs=()):
    p = Path(tmp_path) / name
    p.write_text(src)
    return analyze_file(p, defines, include_dirs)[0]


_FUNCS = {"floor": sympy.floor, "ceiling": sympy.ceiling, "Min": sympy.Min, "Max": sympy.Max,
          "Piecewise": sympy.Piecewise, "Mod": sympy.Mod}


def S(text: str) -> sympy.Expr:
    """Parse an expected expression; every identifier is a plain symbol (so `N` is not sympy's N)."""
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    local = {n: _FUNCS.get(n, sympy.Symbol(n)) for n in names}
    return sympy.sympify(text, locals=local)


def formula_at(q, sizes: dict):
    """The formula of a Quantity that holds at these sizes: the one shown when it holds there,
    else the piece whose condition holds (every piece is kept with its condition)."""
    values = {sympy.Symbol(k): v for k, v in sizes.items()}
    if not q.piecewise:
        return q.expr
    for cond, expr in q.piece_list():
        if bool(sympy.sympify(cond).subs(values)):
            return expr
    raise AssertionError(f"no piece of {q.expr} holds at {sizes}")


def same(a, b) -> bool:
    """Exact equality of two formulas: symbolically when sympy proves it, otherwise at points that
    cover every residue of each floor's (ceiling's, Mod's) divisor with quotients 2 and 3, and small
    values, for every size (all combinations when there are few, else each size through its
    values with the others cycling): `floor(N/32)**3` and `floor(N/32)**2` differ at N = 64."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    d = sympy.expand(a - b)
    if d == 0:
        return True
    syms = sorted(d.free_symbols, key=str)
    if not syms:
        return sympy.simplify(d) == 0
    axes = [_values(d, s) for s in syms]
    total = 1
    for ax in axes:
        total *= len(ax)
    if total <= 20000:
        points = itertools.product(*axes)
    else:
        points = _cycled(axes)
    try:
        f = exact_function(d, syms)
    except ValueError:  # sqrt, a function exact_function does not know: sympy at fewer points
        pts = list(points)[:400]
        return all(sympy.simplify(d.subs(dict(zip(syms, p, strict=True)))) == 0 for p in pts)
    return all(_zero(f, p) for p in points)


def _zero(f, point) -> bool:
    try:
        return f(point) == 0
    except ZeroDivisionError:  # a rational formula's pole: no value to compare
        return True


def exact_function(expr, symbols):
    """`expr` (sympy) as a Python function of the values of `symbols` (ints), computed exactly in
    `fractions.Fraction`: the oracle's own evaluator, sharing no code with the analysis (whose
    staticroof.analysis.interpret.evaluator it checks formulas of).  Sums, products, integer
    powers, rationals, floor, ceiling, Mod (sympy's: the sign of the divisor), Min, Max and
    Piecewise with comparisons, And, Or and Not; anything else (sqrt, a symbol not in `symbols`) is a
    ValueError."""
    import math
    import operator
    from fractions import Fraction

    slots = {s: i for i, s in enumerate(symbols)}
    compare = {sympy.StrictLessThan: operator.lt, sympy.LessThan: operator.le, sympy.StrictGreaterThan: operator.gt,
               sympy.GreaterThan: operator.ge, sympy.Equality: operator.eq, sympy.Unequality: operator.ne}

    def build(e):
        if e is sympy.true or e is sympy.false:
            v = bool(e)
            return lambda x: v
        if e.is_Rational:
            v = Fraction(int(e.p), int(e.q))
            return lambda x: v
        if e.is_Symbol:
            if e not in slots:
                raise ValueError(f"{e} has no value")
            i = slots[e]
            return lambda x: x[i]
        if isinstance(e, sympy.Piecewise):
            pieces = [(build(v), build(c)) for v, c in e.args]

            def piecewise(x):
                for value, cond in pieces:
                    if cond(x):
                        return value(x)
                raise ValueError(f"no piece of {e} holds at {x}")
            return piecewise
        args = [build(a) for a in e.args]
        if e.is_Add:
            return lambda x: sum(a(x) for a in args)
        if e.is_Mul:
            return lambda x: math.prod(a(x) for a in args)
        if e.is_Pow:
            if not e.exp.is_Integer:
                raise ValueError(f"{e}: not an integer power")
            base, n = args[0], int(e.exp)
            return lambda x: Fraction(base(x)) ** n
        if isinstance(e, sympy.floor):
            return lambda x: math.floor(args[0](x))
        if isinstance(e, sympy.ceiling):
            return lambda x: math.ceil(args[0](x))
        if isinstance(e, sympy.Mod):  # p - q*floor(p/q)
            p, q = args
            return lambda x: p(x) - q(x) * math.floor(Fraction(p(x)) / q(x))
        if isinstance(e, sympy.Min):
            return lambda x: min(a(x) for a in args)
        if isinstance(e, sympy.Max):
            return lambda x: max(a(x) for a in args)
        if type(e) in compare:
            op, (lhs, rhs) = compare[type(e)], args
            return lambda x: op(lhs(x), rhs(x))
        if isinstance(e, sympy.And):
            return lambda x: all(a(x) for a in args)
        if isinstance(e, sympy.Or):
            return lambda x: any(a(x) for a in args)
        if isinstance(e, sympy.Not):
            return lambda x: not args[0](x)
        raise ValueError(f"{type(e).__name__} is not evaluated here")

    f = build(sympy.sympify(expr))
    return lambda point: f(tuple(Fraction(v) for v in point))


def _values(expr, sym) -> list:
    """Small values and every residue of each divisor of `sym` in the expression's floors, ceilings
    and Mods, with quotients 2 and 3."""
    period = 1
    for f in expr.atoms(sympy.floor, sympy.ceiling):
        c = sympy.expand(f.args[0]).coeff(sym)
        if c.is_Rational:
            period = sympy.ilcm(period, c.q)
    for m in expr.atoms(sympy.Mod):
        if m.args[1].is_Integer and m.args[0].has(sym):
            period = sympy.ilcm(period, int(m.args[1]))
    period = int(period)
    vals = set(range(1, 12)) | {37}
    vals |= {q * period + r for q in (2, 3) for r in range(period)}
    return sorted(vals)


def _cycled(axes):
    """Each axis through all its values, the other axes cycling through theirs."""
    for k, ax in enumerate(axes):
        for step, v in enumerate(ax):
            yield tuple(v if j == k else other[(step * (j + 1)) % len(other)] for j, other in enumerate(axes))


def lru_words(touches, m_words: int) -> int:
    """Words a fully associative LRU cache of m_words moves for a stream of (element, access)
    touches, access being "r" (read), "w" (written, not read), "rw" (read, then written) or "new"
    (a partial sum: made at its first touch, loaded again only if it was spilled).  Loads on
    misses that need the old value; dirty elements stored on eviction and at the end."""
    from collections import OrderedDict

    cache: OrderedDict = OrderedDict()
    made = set()
    moved = 0
    for key, access in touches:
        write = access != "r"
        if key in cache:
            cache.move_to_end(key)
            cache[key] = cache[key] or write
            continue
        if access in ("r", "rw") or (access == "new" and key in made):
            moved += 1
        made.add(key)
        cache[key] = write
        if len(cache) > m_words:
            _, dirty = cache.popitem(last=False)
            moved += dirty
    return moved + sum(1 for dirty in cache.values() if dirty)


# ---------------------------------------------------------------------------------------------
# Signal tests: a run is signalled once it has started, never after a fixed sleep.  The marker is a
# stand-in C compiler first on PATH: preprocessing a file that contains BLOCK, it records its pid in
# `started/` and blocks (the run waits for it, in the preprocessor's own session, until the run is
# stopped); any other call goes to the real compiler.  A test that waits for the marker signals a
# run that is in the middle of a file and cannot have finished.

BLOCK = "sr_test_block_here"
BLOCKED_KERNEL = f"/* {BLOCK} */\nvoid k(float *x, int n) {{ for (int i = 0; i < n; i++) x[i] = 0; }}\n"


def make_blocking_cc(folder) -> tuple[dict, Path]:
    """(environment with the stand-in first on PATH, the folder its pids appear in); tests use the
    `blocking_cc` fixture (conftest.py), which also stops any stand-in a failed run left blocked."""
    import os
    import shutil

    folder = Path(folder)
    bin_dir, started = folder / "bin", folder / "started"
    bin_dir.mkdir(parents=True)
    started.mkdir()
    real = next((shutil.which(c) for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    other = f'exec "{real}" "$@"' if real else 'echo "no C compiler" >&2; exit 1'
    script = bin_dir / "cc"
    # the input file is the last argument; `exec sleep` keeps the pid the run knows (and kills)
    script.write_text(f"""#!/bin/sh
for last in "$@"; do :; done
if [ -f "$last" ] && grep -q {BLOCK} "$last"; then
    echo $$ > "{started}/$$.tmp" && mv "{started}/$$.tmp" "{started}/$$"
    exec sleep 600
fi
{other}
""")
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return env, started


def wait_for_start(proc, started: Path, count: int = 1, timeout: float = 120) -> list:
    """The pids of the first `count` blocked preprocessors; fails if the run ends first."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = [int(p.name) for p in started.iterdir() if p.name.isdigit()]
        if len(pids) >= count:
            return pids
        if proc.poll() is not None:
            raise AssertionError(f"the run ended (status {proc.returncode}) before {count} preprocessor(s) started")
        time.sleep(0.02)
    raise AssertionError(f"no {count} preprocessor(s) started in {timeout} s")


def parent_of(pid: int) -> int | None:
    """The parent's pid (Linux's /proc), None once `pid` is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie, ended and not yet reaped, is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def stop_left(started: Path) -> None:
    """Kill every stand-in preprocessor still blocked (each leads a session of its own)."""
    import os
    import signal

    for p in started.iterdir():
        if p.name.isdigit() and running(int(p.name)):
            try:
                os.killpg(int(p.name), signal.SIGKILL)
            except OSError:
                pass


def all_stop(pids, timeout: float = 10) -> bool:
    """Whether every pid has stopped within `timeout` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while any(running(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# ---------------------------------------------------------------------------------------------
# Shared by several test files

# The keys pre-commit reads from a hook definition (pre-commit's clientlib.MANIFEST_HOOK_DICT).
HOOK_KEYS = {"id", "name", "entry", "language", "alias", "files", "exclude", "types", "types_or", "exclude_types",
             "additional_dependencies", "args", "always_run", "fail_fast", "pass_filenames", "description",
             "language_version", "log_file", "minimum_pre_commit_version", "require_serial", "stages", "verbose"}


def codes(k) -> set:
    """The codes of a kernel's diagnostics."""
    return {d.code for d in k.diagnostics}


def code_list(k) -> list:
    """The codes of a kernel's diagnostics, in order, repeats kept."""
    return [d.code for d in k.diagnostics]


def report_codes(report) -> list:
    """The codes of a report's file diagnostics, then of its failed kernels'."""
    return [d.code for d in report.diagnostics] + [d.code for _, _, d in report.failed]


def c_compiler() -> str | None:
    import shutil

    return next((shutil.which(c) for c in ("cc", "gcc") if shutil.which(c)), None)


needs_cc = pytest.mark.skipif(c_compiler() is None, reason="the trace oracle needs a C compiler (cc or gcc)")


def skip_without_cc(what: str = "the trace oracle") -> None:
    """Skip the rest of the test, with the reason, when no C compiler runs `what`: a check that
    cannot run is reported as skipped, never passed."""
    if c_compiler() is None:
        pytest.skip(f"{what} needs a C compiler (cc or gcc)")


def totals_agree(k, expected: dict) -> None:
    """`k` is exact and its totals are the expected formulas: keys W, Q, Q_access, Q_shared and the
    precisions (fp32, fp64, ...)."""
    assert k.exact, [str(d) for d in k.diagnostics]
    t = k.total
    got = {"W": t.flops.expr, "Q": t.compulsory.expr, "Q_access": t.access.expr, "Q_shared": t.shared.expr}
    got.update({p: q.expr for p, q in t.by_precision.items()})
    for key, formula in expected.items():
        assert same(got[key], S(formula)), f"{k.name} {key}: got {got[key]}, expected {formula}"


def trace_agrees(path, kernel: str, sizes: dict, k, language: str = "c", launch: dict | None = None):
    """The static counts of `k` equal what the traced run of `kernel` did (staticroof.trace, under
    `launch` for CUDA); returns the trace.  Skipped without a C compiler."""
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    traced = run_trace(str(path), kernel, sizes, language, launch=launch)
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad, bad
    return traced


def formula_agrees(got, expected, k) -> bool:
    """A formula `got` of kernel `k` against its expectation: exact symbolic equality; else, for a
    GPU kernel whose expectation is written in the launch's symbols (blockDim_x, ...) or with a
    compile-time size's value, equality once the launch's and the sizes' known values are put in
    for the symbols only one side has (then for all of them)."""
    if same(got, expected):
        return True
    values = dict(k.sizes)
    for role, dims in (("gridDim", k.launch.get("grid", ())), ("blockDim", k.launch.get("block", ()))):
        for d, v in zip("xyz", dims, strict=False):
            if v is not None:
                values.setdefault(f"{role}_{d}", v)
    symbols = {str(x) for x in got.free_symbols} ^ {str(x) for x in expected.free_symbols}
    subs = {S(n): v for n, v in values.items() if n in symbols}
    if not subs:
        return False
    g, e = got.subs(subs), expected.subs(subs)
    if same(g, e):
        return True
    full = {S(n): v for n, v in values.items()}
    g, e = got.subs(full), expected.subs(full)
    return not g.free_symbols and not e.free_symbols and sympy.simplify(g - e) == 0


# ---------------------------------------------------------------------------------------------
# Kernels and a git helper shared by test_diff.py, test_baseline.py and test_action.py

GEMM_H = """#ifndef GEMM_H
#define GEMM_H
#include <time.h>
#define N 768
static inline double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
#endif
"""

DRIVER = """
int main(void) {
    static float A[N][N], B[N][N], C[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) { A[i][j] = 1.0f; B[i][j] = 2.0f; C[i][j] = 0.0f; }
    double t0 = seconds();
    gemm(A, B, C);
    printf("gemm %d: %.3f s\\n", N, seconds() - t0);
    return 0;
}
"""

REGISTER = """#include <stdio.h>
#include <math.h>
#include "gemm.h"

/* C = A * B with the dot product in a register */
void gemm(const float A[N][N], const float B[N][N], float C[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}
""" + DRIVER

ACCUMULATE = REGISTER.replace("""            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
""", """            for (int k = 0; k < N; k++)
                C[i][j] += A[i][k] * B[k][j];
""")


def git(repo, *args):
    import subprocess

    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def new_repo(root: Path, files: dict | None = None, message: str = "base", branch: str | None = None) -> Path:
    """A git repository at `root` with a committer configured and, when `files` ({relative path:
    text}) is given, those files committed as `message`."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", *(["-b", branch] if branch else []))
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "dev")
    if files:
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", message)
    return root


def run_diff(*args) -> tuple:
    """(exit status, output) of `staticroof diff ARGS` in this process; never a traceback."""
    from click.testing import CliRunner

    from staticroof.cli import main

    result = CliRunner().invoke(main, ["diff", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


# ---------------------------------------------------------------------------------------------
# `staticroof lint` and its kernels, shared by test_lint.py, test_lint_cache.py and test_lint_config.py

def lint(tmp_path, files: dict, *args):
    """(exit code, findings as (file name, line, code, message), output) of `staticroof lint`."""
    import json

    from click.testing import CliRunner

    from staticroof.cli import main

    paths = []
    for name, text in files.items():
        p = Path(tmp_path) / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        paths.append(str(p))
    r = CliRunner().invoke(main, ["lint", *paths, "--format", "json", *args])
    found = json.loads(r.stdout) if r.exit_code in (0, 1) else []
    return r.exit_code, [(Path(f["file"]).name, f["line"], f["code"], f["message"]) for f in found], r.output


def lint_codes(found) -> list:
    """The codes of `lint`'s findings, in order."""
    return [c for _, _, c, _ in found]


BODIES = """\
#include <stdlib.h>
#include "nbody.h"

void drift(int n, body_t *b, float dt)
{
    for (int i = 0; i < n; i++) {
        b[i].x += b[i].vx * dt;
        b[i].y += b[i].vy * dt;
    }
}

int main(void)
{
    body_t *b = calloc(NBODY, sizeof(body_t));
    for (int step = 0; step < 100; step++)
        drift(NBODY, b, 0.01f);
    free(b);
    return 0;
}
"""
AOS_HEADER = """\
#define NBODY 10000
typedef struct {
    float x, y, z;
    float vx, vy, vz;
    float mass;
} body_t;
"""
HOT_HEADER = """\
#define NBODY 10000
typedef struct {   /* the members the time step touches; z, vz and mass live elsewhere */
    float x, y;
    float vx, vy;
} body_t;
"""
GEMM = """\
#include <stdio.h>
#include <stdlib.h>
#include "sizes.h"

void gemm(int n, const float *A, const float *B, float *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
BODY
        }
}

int main(void)
{
    float *A = malloc(sizeof(float) * MAT_N * MAT_N);
    float *B = malloc(sizeof(float) * MAT_N * MAT_N);
    float *C = calloc(MAT_N * MAT_N, sizeof(float));
    gemm(MAT_N, A, B, C);
    printf("%f\\n", C[0]);
    return 0;
}
"""
IN_MEMORY = """\
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[i * n + k] * B[k * n + j];"""


# ---------------------------------------------------------------------------------------------
# Plots read back: matplotlib's SVG is text.  Each text drawn is also written as an XML comment,
# each scatter plot is a `PathCollection_N` group with one <use x= y=> per marker (in points of the
# page), and each major tick of a log axis has its mark (<use>) and its label `10^{k}`: two of them
# give the page position of every value on that axis.

def read_svg_plot(path) -> dict:
    """{"texts": every text drawn, "series": for each scatter plot outside the legend, in drawing
    order, its markers as (x, y) in data coordinates} of a log-log plot matplotlib saved as SVG."""
    import math
    import xml.etree.ElementTree as ET

    svg = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path, parser=ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))).getroot()

    def comments(el):
        return [c.text.strip() for c in el.iter() if c.tag is ET.Comment]

    def groups(prefix, within=root):
        return [g for g in within.iter(f"{svg}g") if (g.get("id") or "").startswith(prefix)]

    texts = comments(root)
    # tick labels are numbers in the axis label's unit: FLOP/B on x, GFLOP/s or TFLOP/s on y
    unit = {"x": 1.0, "y": 1e12 if "attainable performance (TFLOP/s)" in texts else 1e9}

    def axis(kind: str):
        ticks = []
        for g in groups(f"{kind}tick_"):
            labels = [t for t in comments(g) if re.fullmatch(r"\d+(\.\d+)?(e[-+]?\d+)?", t)]
            if labels:
                mark = next(g.iter(f"{svg}use"))
                ticks.append((round(math.log10(float(labels[0]) * unit[kind])), float(mark.get(kind))))
        assert len(ticks) >= 2, f"fewer than two labelled {kind} ticks"
        (k0, p0), (k1, p1) = ticks[0], ticks[-1]
        per_decade = (p1 - p0) / (k1 - k0)
        return lambda pos: 10 ** (k0 + (float(pos) - p0) / per_decade) if math.isfinite(float(pos)) else None

    to_x, to_y = axis("x"), axis("y")
    in_legend = {id(g) for legend in groups("legend_") for g in groups("PathCollection_", legend)}
    def centres(g):
        """The markers' centres: `use` elements, or (hollow markers) each `path`'s bounding box centre."""
        marks = [(u.get("x"), u.get("y")) for u in g.iter(f"{svg}use")]
        for path in ([] if marks else g.iter(f"{svg}path")):
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
            xs, ys = nums[0::2], nums[1::2]
            marks.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
        return [(to_x(x), to_y(y)) for x, y in marks]

    series = [centres(g) for g in groups("PathCollection_") if id(g) not in in_legend]
    return {"texts": texts, "series": series}
