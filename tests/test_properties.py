"""Property-based tests: random affine loop nests, static counts versus executed counts.

For every generated kernel the static W (by precision), Q compulsory (per array, read and written)
and access-level traffic must equal what the instrumented kernel really did, at two size
assignments drawn on both sides of the kernel's constant `C` (loops clamped to it or shifted by it,
guards comparing a size with it, rows of a parameter length at a stride of C, indices scaled or
shifted past the sizes by it, a byte buffer read through a float view; the CUDA form adds a guard
on a #defined thread count and a launch dimension the kernel never indexes), and the result must
be exact (so the self-check, SR121, must agree too).  The cache-bounded Q(M), a lower bound for
every schedule, must stay at or below what
an LRU cache of M bytes really moved running the kernel in program order (one such schedule), for
two small caches.

The default run draws 10 seeded examples of each property (helpers.quick: derandomized, a deadline
per example; each C example compiles and runs the kernel, about 3 s of CPU on a 2-core machine);
`pytest -m slow` runs the long twins, each from the seed and with the example count its `@seed` and
`long_run` name (listed in the README's Development section).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, seed, strategies as st

from staticroof.trace import compare
from staticroof.trace.c.executor import CProgram

from helpers import analyze_file, long_run, lru_words, quick

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="the trace oracle needs a C compiler")

SIZES = ({"n": 5, "m": 7}, {"n": 8, "m": 4})
VARS = ("i", "j", "k")


@st.composite
def size_pairs(draw, c: int):
    """Two size assignments, n on both sides of the kernel's constant C (below or at it, above it)."""
    below = {"n": draw(st.integers(1, c)), "m": draw(st.integers(1, 9))}
    above = {"n": draw(st.integers(c + 1, c + 6)), "m": draw(st.integers(1, 9))}
    return (below, above) if draw(st.booleans()) else (above, below)


@st.composite
def loop(draw, depth: int, outer: list):
    """One loop header over variable VARS[depth] given the outer variables (C is the kernel's
    `#define C`, compared with the sizes)."""
    v = VARS[depth]
    size = draw(st.sampled_from(["n", "m"]))
    kinds = ["rect", "offset", "strided", "down", "clamped", "tail"] + (["tri", "tri_strict"] if outer else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "rect":
        return f"for (int {v} = 0; {v} < {size}; {v}++)", v
    if kind == "clamped":  # min(size, C) trips
        return f"for (int {v} = 0; {v} < {size} && {v} < C; {v}++)", v
    if kind == "tail":  # max(size - C, 0) trips
        return f"for (int {v} = 0; {v} < {size} - C; {v}++)", v
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
    form = draw(st.sampled_from(["var", "var", "lin", "const", "sum", "stride", "past"]))
    if form == "const" or not live:
        return str(draw(st.integers(0, 3)))
    v = draw(st.sampled_from(live))
    c = draw(st.integers(0, 2))
    if form == "lin" and len(live) >= 2:
        w = draw(st.sampled_from([x for x in live if x != v]))
        return f"{v} * m + {w}" + (f" + {c}" if c else "")
    if form == "stride" and len(live) >= 2:  # rows of a parameter length at a constant stride C
        w = draw(st.sampled_from([x for x in live if x != v]))
        return f"{v} * C + {w}"
    if form == "past":  # a constant that scales or shifts an index past the sizes
        return draw(st.sampled_from([f"{v} * C", f"{v} + C", f"C * {v} + {c}"]))
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
    guard = draw(st.sampled_from([None, None, "even", "lt", "size"]))
    if guard == "even" and live:
        text = f"if ({live[-1]} % 2 == 0) {text}"
    elif guard == "lt" and len(live) >= 2:
        text = f"if ({live[0]} > {live[1]}) {text}"
    elif guard == "size":  # a size compared with the constant
        text = f"if (n > C) {text}"
    return text


@st.composite
def kernel(draw):
    c = draw(st.integers(2, 9))
    n_arrays = draw(st.integers(1, 4))
    types = [draw(st.sampled_from(["float", "double"])) for _ in range(n_arrays)]
    arrays = [f"a{k}" for k in range(n_arrays)]
    viewed = draw(st.booleans())  # one more array: a byte buffer read through a float view
    if viewed:
        arrays.append("((const float *)raw)")
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
    params = ", ".join(f"{t} *restrict {a}" for t, a in zip(types, arrays[:n_arrays], strict=True))
    if viewed:
        params += ", const unsigned char *restrict raw"
        # the view is read-only: a statement that stores into it is redirected to a0
        body = body.replace("((const float *)raw)[", "RAW[")
        body = "\n".join(_no_view_store(line) for line in body.split("\n")).replace("RAW[", "((const float *)raw)[")
        inner_body = "\n".join(_no_view_store(line) for line in inner_body.replace(
            "((const float *)raw)[", "RAW[").split("\n")).replace("RAW[", "((const float *)raw)[")
        mid = _no_view_store(mid.replace("((const float *)raw)[", "RAW[")).replace("RAW[", "((const float *)raw)[")
    define = f"#define C {c}\n"
    c_src = f"{define}void k(int n, int m, {params})\n{{\n{body}\n}}\n"
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
        names = [a for a in arrays if not a.startswith("((")]
        cu_params = ", ".join(f"{t} * __restrict__ {a}" for t, a in zip(types, names, strict=True))
        args = ", ".join(names)
        if viewed:
            cu_params += ", const unsigned char * __restrict__ raw"
            args += ", raw"
        # a guard on a #defined thread count, and a launch dimension the kernel never indexes
        half = draw(st.sampled_from([None, 1, 2, 3]))
        guard = f"i < {bound}" + (" && threadIdx.x < HALF" if half else "")
        block = draw(st.sampled_from(["4", "dim3(4, 2)"]))
        cuda_src = (define + (f"#define HALF {half}\n" if half else "")
                    + f"__global__ void k(int n, int m, {cu_params})\n{{\n"
                    f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    f"    if ({guard}) {{\n{rest}\n    }}\n}}\n"
                    f"int main() {{\n    int n = 5, m = 7;\n"
                    + "".join(f"    {t} *{a} = 0;\n" for t, a in zip(types, names, strict=True))
                    + ("    unsigned char *raw = 0;\n" if viewed else "")
                    + f"    k<<<(n + m + 3) / 4, {block}>>>(n, m, {args});\n    return 0;\n}}\n")
    return c_src, cuda_src, draw(size_pairs(c))


def _no_view_store(line: str) -> str:
    """A store into the read-only view (`RAW[..] = ...`) becomes a store into a0."""
    stripped = line.lstrip()
    if stripped.startswith("RAW["):
        return line.replace("RAW[", "a0[", 1)
    if stripped.startswith("if (") and ") RAW[" in stripped:
        return line.replace(") RAW[", ") a0[", 1)
    return line


def check(sources):
    c_src, cuda_src, sizes = sources
    check_c(c_src, sizes)
    if cuda_src is not None:
        check_cuda(cuda_src, sizes)


def check_cuda(src: str, size_pairs=SIZES):
    from staticroof.trace import run as run_trace

    work = Path(tempfile.mkdtemp(prefix="sr-prop-"))
    path = work / "k.cu"
    path.write_text(src)
    for sizes in size_pairs:
        kernels, _ = analyze_file(path, {n: str(v) for n, v in sizes.items()})
        k = kernels["k"]
        inexact = [d for d in k.diagnostics if d.approximate]
        assert not k.failed and not inexact, (src, [str(d) for d in k.diagnostics])
        traced = run_trace(str(path), "k", dict(k.sizes), "cuda", launch=k.launch)
        bad = [r for r in compare(k, traced) if not r.ok]
        assert not bad, (src, sizes, [(r.quantity, r.static, r.traced) for r in bad])
    shutil.rmtree(work, ignore_errors=True)


def check_c(src: str, size_pairs=SIZES):
    work = Path(tempfile.mkdtemp(prefix="sr-prop-"))
    path = work / "k.c"
    path.write_text(src)
    program = CProgram(str(path), "k", {})
    for sizes in size_pairs:
        kernels, _ = analyze_file(path, {n: str(v) for n, v in sizes.items()})
        k = kernels["k"]
        # exact numbers and formulas are required: the self-check (SR121) is approximate too
        inexact = [d for d in k.diagnostics if d.approximate]
        assert not k.failed and not inexact, (src, [str(d) for d in k.diagnostics])
        traced = program.run(sizes)
        bad = [r for r in compare(k, traced) if not r.ok]
        assert not bad, (src, sizes, [(r.quantity, r.static, r.traced) for r in bad])
    for m_bytes in LRU_BYTES:
        check_bound(path, program, size_pairs[0], m_bytes, src)
    shutil.rmtree(work, ignore_errors=True)


# Small caches (16 and 64 fp32 words): large enough to hold one statement's operands, small
# enough that the bound exceeds Q compulsory for the generated nests at these sizes.
LRU_BYTES = (64, 256)


def check_bound(path, program, sizes: dict, m_bytes: int, src: str):
    """Q(M) <= the bytes an LRU cache of M bytes moved in program order, and that schedule moves at
    least Q compulsory (a check of the simulation itself)."""
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run

    k = run([path], AnalysisOptions(defines={n: str(v) for n, v in sizes.items()}, cache_bytes=m_bytes)).kernels[0]
    assert not k.failed, (src, [str(d) for d in k.diagnostics])
    lru = program.run(sizes, lru_bytes=m_bytes).lru_bytes
    assert k.total.compulsory.value <= lru, (src, sizes, m_bytes, k.total.compulsory.value, lru)
    assert k.total.cache_bound.value <= lru, (src, sizes, m_bytes, float(k.total.cache_bound.value), lru,
                                              str(k.total.cache_bound.expr))


# ---------------------------------------------------------------------------------------------
# Reuse-heavy nests for the cache bound: three loops over n, references that are projections of
# the loop indices, and the register data flows the bound follows (an accumulator reset per (i, j),
# a value hoisted out of the inner loop, a temporary, a conditional reset, a hoisted constant).

PAIRS = [("i", "j"), ("i", "k"), ("j", "k"), ("k", "i"), ("j", "i"), ("k", "j")]
PROJECTIONS = [(), ("i",), ("j",), ("k",)] + PAIRS * 3  # mostly pairs: the shapes with reuse


def _at(p: tuple) -> str:
    return "0" if not p else p[0] if len(p) == 1 else f"{p[0]} * n + {p[1]}"


@st.composite
def reuse_kernel(draw):
    form = draw(st.sampled_from(["array", "acc", "hoist", "temp", "cond_reset", "const_hoist"]))
    if draw(st.booleans()):  # the three pairwise projections (matrix multiply), in any roles
        pairs = draw(st.permutations([("i", "j"), ("i", "k"), ("k", "j")]))
        p0, p1, p2 = (pr[::-1] if draw(st.booleans()) else pr for pr in pairs)
    else:
        p0, p1, p2 = (draw(st.sampled_from(PROJECTIONS)) for _ in range(3))
    op = draw(st.sampled_from(["+=", "="]))
    outer = draw(st.sampled_from([("i", "j"), ("j", "i")]))
    ij = [p for p in PROJECTIONS if set(p) <= {"i", "j"}]  # what may be indexed outside the k loop
    before, inner, after, top = "", "", "", ""
    if form == "array":
        inner = f"a0[{_at(p0)}] {op} a1[{_at(p1)}] * a2[{_at(p2)}];"
    elif form in ("acc", "cond_reset"):
        store = draw(st.sampled_from(ij))
        if form == "acc":
            before = "float s = 0.0f;"
        else:
            top, before = "float s = 0.0f;", "if (j == 0) s = 0.0f;"
        inner = f"s += a1[{_at(p1)}] * a2[{_at(p2)}];"
        after = f"a0[{_at(store)}] = s;"
    elif form in ("hoist", "const_hoist"):
        before = f"float h = a1[{_at(draw(st.sampled_from(ij)))}];" if form == "hoist" else "float h = 2.0f;"
        inner = f"a0[{_at(p0)}] {op} h * a2[{_at(p2)}];"
    else:
        inner = f"float t = a1[{_at(p1)}] * a2[{_at(p2)}]; a0[{_at(p0)}] {op} t;"
    a, b = outer
    body = (f"for (int {a} = 0; {a} < n; {a}++)\n  for (int {b} = 0; {b} < n; {b}++) {{\n    {before}\n"
            f"    for (int k = 0; k < n; k++) {{ {inner} }}\n    {after}\n  }}")
    src = (f"void k(int n, float *restrict a0, const float *restrict a1, const float *restrict a2)\n"
           f"{{\n  {top}\n  {body}\n}}\n")
    # What each iteration (i, j, k) of the computation needs in fast memory, written down from the
    # forms above (independently of the analysis): (array, projection, access) with access "r"
    # (read), "w" (written, not read), "rw" (`+=`: read, then written) or "new" (a partial sum: made
    # here, loaded again only if it was spilled).  A hoisted value is its source element, an
    # accumulator reset per (i, j) a partial sum S[i][j], stored to a0 once its k loop is done; a
    # chained accumulator (cond_reset) is a register, no data.  The bound holds for every order of
    # these iterations, so every order may be tried against it.
    target = "rw" if op == "+=" else "w"
    if form in ("array", "temp"):
        ops = [("a1", p1, "r"), ("a2", p2, "r"), ("a0", p0, target)]
    elif form == "acc":
        ops = [("a1", p1, "r"), ("a2", p2, "r"), ("S", ("i", "j"), "new")]
    elif form == "cond_reset":
        ops = [("a1", p1, "r"), ("a2", p2, "r")]
    elif form == "hoist":
        ops = [("a1", _hoisted(before), "r"), ("a2", p2, "r"), ("a0", p0, target)]
    else:
        ops = [("a2", p2, "r"), ("a0", p0, target)]
    last = [("a0", _stored(after), "w")] if form in ("acc", "cond_reset") else []
    return src, ops, last


def _hoisted(before: str) -> tuple:
    inside = before.split("a1[", 1)[1].split("]", 1)[0]
    return next(p for p in PROJECTIONS if _at(p) == inside)


def _stored(after: str) -> tuple:
    inside = after.split("a0[", 1)[1].split("]", 1)[0]
    return next(p for p in PROJECTIONS if _at(p) == inside)


def tiled_lru_words(n: int, m_words: int, ops, last, tile: int, order: str = "ijk") -> int:
    """Words an LRU cache of m_words moves running the iterations (i, j, k) tile by tile, tiles of
    `tile` in each index, both the tiles and the iterations in a tile in loop order `order`
    (outermost first), touching each iteration's operands; `last` is touched once per (i, j), with
    its final k (helpers.lru_words)."""
    from itertools import product

    def touches():
        starts = range(0, n, tile)
        for corner in product(starts, starts, starts):
            base = dict(zip(order, corner, strict=True))
            for point in product(*(range(base[v], min(base[v] + tile, n)) for v in order)):
                at = dict(zip(order, point, strict=True))
                for name, p, access in ops + (last if at["k"] == n - 1 else []):
                    yield (name, tuple(at[v] for v in p)), access
    return lru_words(touches(), m_words)


REUSE_SIZES = {"n": 12}
REUSE_LRU_BYTES = (16, 64)  # 4 and 16 fp32 words: the matmul-shaped bounds exceed Q compulsory
TILED_WORDS = (16, 64)
TILES = (1, 2, 3, 4)
ORDERS = ("ijk", "ikj", "jik", "jki", "kij", "kji")


def check_reuse(generated):
    """The bound against two schedules: the instrumented kernel in program order under an LRU cache
    (check_bound), and tiled orders of the computation's iterations (each tile size), whose best
    comes much closer to the optimum than program order does."""
    from staticroof.options import AnalysisOptions
    from staticroof.pipeline import run

    src, ops, last = generated
    work = Path(tempfile.mkdtemp(prefix="sr-prop-"))
    path = work / "k.c"
    path.write_text(src)
    program = CProgram(str(path), "k", {})
    for m_bytes in REUSE_LRU_BYTES:
        check_bound(path, program, REUSE_SIZES, m_bytes, src)
    n = REUSE_SIZES["n"]
    for m_words in TILED_WORDS:
        k = run([path], AnalysisOptions(defines={"n": str(n)}, cache_bytes=4 * m_words)).kernels[0]
        best = min(tiled_lru_words(n, m_words, ops, last, t, o) for t in TILES for o in ORDERS)
        assert k.total.cache_bound.value <= 4 * best, (src, m_words, float(k.total.cache_bound.value) / 4, best,
                                                       str(k.total.cache_bound.expr))
    shutil.rmtree(work, ignore_errors=True)


@quick(deadline_s=60)
@given(reuse_kernel())
def test_cache_bound_is_below_lru_traffic(src):
    check_reuse(src)


@pytest.mark.slow
@seed(2701)
@long_run(max_examples=2000, deadline_s=60)
@given(reuse_kernel())
def test_cache_bound_is_below_lru_traffic_long(src):
    check_reuse(src)


@quick(deadline_s=60)
@given(kernel())
def test_static_counts_equal_executed_counts(src):
    check(src)


@pytest.mark.slow
@seed(2702)
@long_run(max_examples=5000, deadline_s=60)
@given(kernel())
def test_static_counts_equal_executed_counts_long(src):
    check(src)


# ---------------------------------------------------------------------------------------------
# The same kernels as Numba source (tests/numba_form.py): the @njit form of the C nest and the
# @cuda.jit form of the CUDA one, analyzed by the Python front end and run by the Python trace.
# Each form costs about 1 s of CPU (two analyses, two traces), so the default run draws 10 kernels
# (about 15 s of CPU on this 2-core machine); `pytest -m slow` draws 2,000.

def check_numba(sources):
    from numba_form import cuda_form, njit_form

    c_src, cuda_src, sizes = sources
    check_python(njit_form(c_src), sizes)
    if cuda_src is not None:
        check_python(cuda_form(cuda_src), sizes)


def check_python(src: str, size_pairs=SIZES):
    from staticroof.trace import run as run_trace

    work = Path(tempfile.mkdtemp(prefix="sr-prop-"))
    path = work / "k.py"
    path.write_text(src)
    for sizes in size_pairs:
        defines = {n: str(v) for n, v in sizes.items()}
        kernels, _ = analyze_file(path, defines)
        k = kernels["k"]
        inexact = [d for d in k.diagnostics if d.approximate]
        assert not k.failed and not inexact, (src, [str(d) for d in k.diagnostics])
        traced = run_trace(str(path), "k", dict(k.sizes), "python", defines, launch=k.launch or None)
        bad = [r for r in compare(k, traced) if not r.ok]
        assert not bad, (src, sizes, [(r.quantity, r.static, r.traced) for r in bad])
    shutil.rmtree(work, ignore_errors=True)


@quick(deadline_s=30)
@given(kernel())
def test_numba_forms_static_counts_equal_traced_counts(src):
    check_numba(src)


@pytest.mark.slow
@seed(2703)
@long_run(max_examples=2000, deadline_s=30)
@given(kernel())
def test_numba_forms_static_counts_equal_traced_counts_long(src):
    check_numba(src)


def test_the_oracle_catches_a_wrong_count(tmp_path):
    """The comparison is not vacuous: a kernel whose static count differs from its execution (a
    data-dependent index the analysis bounds from above) is reported as different."""
    path = tmp_path / "g.c"
    path.write_text("void g(int n, const int *idx, float *x) { for (int i = 0; i < n; i++) x[idx[i] % 2] += 1.0f; }\n")
    kernels, _ = analyze_file(path, {"n": "6"})
    traced = CProgram(str(path), "g", {}).run({"n": 6})
    assert not kernels["g"].exact
    assert any(not r.ok for r in compare(kernels["g"], traced))
