"""Property-based tests: random affine loop nests, static counts versus executed counts.

For every generated kernel the static W (by precision), Q compulsory (per array, read and written)
and access-level traffic must equal what the instrumented kernel really did, at two different size
assignments.  200 examples run by default; `pytest -m slow` runs 5,000.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import analyze_file
from staticroof.trace import compare
from staticroof.trace.c_executor import CProgram

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="the trace oracle needs a C compiler")

SIZES = ({"n": 5, "m": 7}, {"n": 8, "m": 4})
VARS = ("i", "j", "k")


@st.composite
def loop(draw, depth: int, outer: list):
    """One loop header over variable VARS[depth] given the outer variables."""
    v = VARS[depth]
    size = draw(st.sampled_from(["n", "m"]))
    kinds = ["rect", "offset", "strided", "down"] + (["tri", "tri_strict"] if outer else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "rect":
        return f"for (int {v} = 0; {v} < {size}; {v}++)", v
    if kind == "offset":
        return f"for (int {v} = 1; {v} < {size} - 1; {v}++)", v
    if kind == "strided":
        step = draw(st.sampled_from([2, 3]))
        return f"for (int {v} = 0; {v} < {size}; {v} += {step})", v
    if kind == "down":
        return f"for (int {v} = {size} - 1; {v} >= 0; {v}--)", v
    u = draw(st.sampled_from(outer))
    op = "<=" if kind == "tri" else "<"
    return f"for (int {v} = 0; {v} {op} {u}; {v}++)", v


@st.composite
def index(draw, live: list):
    """An affine, never negative index: v + c, a linearized v*m + w, or a constant."""
    form = draw(st.sampled_from(["var", "var", "lin", "const", "sum"]))
    if form == "const" or not live:
        return str(draw(st.integers(0, 3)))
    v = draw(st.sampled_from(live))
    c = draw(st.integers(0, 2))
    if form == "lin" and len(live) >= 2:
        w = draw(st.sampled_from([x for x in live if x != v]))
        return f"{v} * m + {w}" + (f" + {c}" if c else "")
    if form == "sum" and len(live) >= 2:
        w = draw(st.sampled_from([x for x in live if x != v]))
        return f"{v} + {w}" + (f" + {c}" if c else "")
    return v + (f" + {c}" if c else "")


@st.composite
def statement(draw, arrays: list, live: list):
    target = draw(st.sampled_from(arrays))
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        a = draw(st.sampled_from(arrays))
        terms.append(f"{a}[{draw(index(live))}]")
    if draw(st.booleans()):
        terms.append(draw(st.sampled_from(["2.0f", "0.5", "3.0f"])))
    expr = terms[0]
    for t in terms[1:]:
        expr = f"{expr} {draw(st.sampled_from(['+', '-', '*']))} {t}"
    op = draw(st.sampled_from(["=", "=", "+="]))
    text = f"{target}[{draw(index(live))}] {op} {expr};"
    guard = draw(st.sampled_from([None, None, "even", "lt"]))
    if guard == "even" and live:
        text = f"if ({live[-1]} % 2 == 0) {text}"
    elif guard == "lt" and len(live) >= 2:
        text = f"if ({live[0]} > {live[1]}) {text}"
    return text


@st.composite
def kernel(draw):
    n_arrays = draw(st.integers(1, 4))
    types = [draw(st.sampled_from(["float", "double"])) for _ in range(n_arrays)]
    arrays = [f"a{k}" for k in range(n_arrays)]
    depth = draw(st.integers(1, 3))
    headers, live = [], []
    for d in range(depth):
        header, v = draw(loop(d, list(live)))
        headers.append(header)
        live.append(v)
    inner = [draw(statement(arrays, live)) for _ in range(draw(st.integers(1, 2)))]
    body = "\n".join(inner)
    # imperfect nesting: sometimes a statement between the outer and the inner loops
    mid = draw(statement(arrays, live[:1])) if depth >= 2 and draw(st.booleans()) else ""
    inner_body = body
    for d in range(depth - 1, -1, -1):
        extra = mid if d == 1 else ""
        body = f"{headers[d]} {{\n{extra}\n{body}\n}}"
    params = ", ".join(f"{t} *restrict {a}" for t, a in zip(types, arrays))
    c_src = f"void k(int n, int m, {params})\n{{\n{body}\n}}\n"
    # the same nest with its outer loop made a grid of threads (when it is a plain 0..S loop)
    cuda_src = None
    first = headers[0]
    if first.startswith("for (int i = 0; i < ") and first.endswith("; i++)"):
        bound = first[len("for (int i = 0; i < "):-len("; i++)")]
        rest = inner_body
        for d in range(depth - 1, 0, -1):
            extra = mid if d == 1 else ""
            rest = f"{headers[d]} {{\n{extra}\n{rest}\n}}"
        if depth == 1:
            rest = inner_body
        cu_params = ", ".join(f"{t} * __restrict__ {a}" for t, a in zip(types, arrays))
        args = ", ".join(arrays)
        cuda_src = (f"__global__ void k(int n, int m, {cu_params})\n{{\n"
                    f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    f"    if (i < {bound}) {{\n{rest}\n    }}\n}}\n"
                    f"int main() {{\n    int n = 5, m = 7;\n"
                    + "".join(f"    {t} *{a} = 0;\n" for t, a in zip(types, arrays))
                    + f"    k<<<(n + m + 3) / 4, 4>>>(n, m, {args});\n    return 0;\n}}\n")
    return c_src, cuda_src


def check(sources):
    c_src, cuda_src = sources
    check_c(c_src)
    if cuda_src is not None:
        check_cuda(cuda_src)


def check_cuda(src: str):
    from staticroof.trace import run as run_trace

    work = Path(tempfile.mkdtemp(prefix="sr-prop-"))
    path = work / "k.cu"
    path.write_text(src)
    for sizes in SIZES:
        kernels, _ = analyze_file(path, {n: str(v) for n, v in sizes.items()})
        k = kernels["k"]
        inexact = [d for d in k.diagnostics if d.approximate and d.code != "SR112"]
        assert not k.failed and not inexact, (src, [str(d) for d in k.diagnostics])
        traced = run_trace(str(path), "k", dict(k.sizes), "cuda", launch=k.launch)
        bad = [r for r in compare(k, traced) if not r.ok]
        assert not bad, (src, sizes, [(r.quantity, r.static, r.traced) for r in bad])
    shutil.rmtree(work, ignore_errors=True)


def check_c(src: str):
    work = Path(tempfile.mkdtemp(prefix="sr-prop-"))
    path = work / "k.c"
    path.write_text(src)
    program = CProgram(str(path), "k", {})
    for sizes in SIZES:
        kernels, _ = analyze_file(path, {n: str(v) for n, v in sizes.items()})
        k = kernels["k"]
        # exact numbers are required; SR112 only says the *formula* is piecewise in a way it could not
        # write down (the numbers at given sizes are exact)
        inexact = [d for d in k.diagnostics if d.approximate and d.code != "SR112"]
        assert not k.failed and not inexact, (src, [str(d) for d in k.diagnostics])
        traced = program.run(sizes)
        bad = [r for r in compare(k, traced) if not r.ok]
        assert not bad, (src, sizes, [(r.quantity, r.static, r.traced) for r in bad])
    shutil.rmtree(work, ignore_errors=True)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(kernel())
def test_static_counts_equal_executed_counts(src):
    check(src)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck))
@given(kernel())
def test_static_counts_equal_executed_counts_long(src):
    check(src)


def test_the_oracle_catches_a_wrong_count(tmp_path):
    """The comparison is not vacuous: a kernel whose static count differs from its execution (a
    data-dependent index the analysis bounds from above) is reported as different."""
    path = tmp_path / "g.c"
    path.write_text("void g(int n, const int *idx, float *x) { for (int i = 0; i < n; i++) x[idx[i] % 2] += 1.0f; }\n")
    kernels, _ = analyze_file(path, {"n": "6"})
    traced = CProgram(str(path), "g", {}).run({"n": 6})
    assert not kernels["g"].exact
    assert any(not r.ok for r in compare(kernels["g"], traced))
