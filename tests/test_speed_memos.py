"""Per-process memos of the per-file work (issue #15): a header's tokens (frontends/tokens.py), an
array's first-access counts (analysis/traffic.py), a weighted sum's count (analysis/polyhedra.py)
and a domain's condition (analysis/conditions.py).  Each must give what computing afresh gives."""

from __future__ import annotations

from staticroof.analysis import traffic
from staticroof.frontends.common import tokens as T

from helpers import analyze_source

HEADER = ('# 1 "/opt/cuda/include/vec.h" 1\nstruct v2 { float x, y; };\n#pragma unroll 4\n'
          '  float dot2(struct v2, struct v2);\n')


def _plain(text: str, file: str = "k.cu") -> list:
    out: list = []
    T._scan(text, 0, file, 1, True, out, memo=False)  # no segment remembered: the tokenizer as it was
    return out


def test_a_header_segment_gives_the_tokens_of_one_pass_in_every_file():
    # the header's tokens keep its own lines (1-3 of vec.h, the pragma's column 1) and the main
    # file's resume at the marker's line (5 of k.cu), whatever the main file is
    for main in ("__global__ void k(float *x) { x[0] = 1; }\n", "int a;\n\n  int b = 2;\n"):
        text = '# 1 "k.cu"\n' + HEADER + '# 5 "k.cu" 2\n' + main
        T._SEGMENTS.clear()
        first, again = T.tokenize(text, "k.cu"), T.tokenize(text, "k.cu")
        assert first == _plain(text) and again == _plain(text)
        dot = next(t for t in first if t.text == "dot2")
        assert (dot.file, dot.line, dot.col) == ("/opt/cuda/include/vec.h", 3, 9)
        assert next(t for t in first if t.kind == "pragma").line == 2
        assert first[-1].file == "k.cu" and first[-1].line == 5 + main.count("\n") - 1


def test_a_block_comment_across_a_line_marker_is_never_cut_there():
    # `# 7 "w"` inside /* ... */ is no line marker: the segment is tokenized with the whole text
    text = '# 1 "q"\nint a; /* x\n# 7 "w"\n*/ int b;\n# 9 "z"\nint c;\n'
    T._SEGMENTS.clear()
    got = T.tokenize(text, "q")
    assert got == _plain(text)
    assert [(t.text, t.file, t.line) for t in got if t.kind == "id"] == \
        [("int", "q", 1), ("a", "q", 1), ("int", "q", 3), ("b", "q", 3), ("int", "z", 9), ("c", "z", 9)]


DOT = """
float dot(int n, const float *x, const float *y)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
"""


def test_a_remembered_first_access_count_is_the_count_afresh(tmp_path, monkeypatch):
    # the same kernel in a second file (another name) has the same maps (they name no array and
    # no kernel): its first accesses are the first file's counts, remembered, each a copy of its
    # own (Count.pw adds equal objects once).  Each array reads n distinct floats: Q = 4n + 4n =
    # 8n bytes, W = 2n; at n = 1 and 10 (below and above every constant of the kernel: 0 and 1).
    monkeypatch.setattr(traffic, "_FIRST", {})
    k = analyze_source(DOT, tmp_path, {"n": "10"})["dot"]
    assert len(traffic._FIRST) == 2  # x[i] and y[i]: slots 0 and 1 of the statement's times
    again = analyze_source(DOT.replace("dot", "dot_again"), tmp_path, {"n": "10"}, name="again.c")["dot_again"]
    assert len(traffic._FIRST) == 2  # nothing counted afresh
    for kern in (k, again):
        assert kern.exact
        for n in (1, 10):
            assert kern.total.compulsory.pieces.value({"n": n}) == 8 * n
            assert kern.total.flops.pieces.value({"n": n}) == 2 * n
            for name in ("x", "y"):
                assert kern.total.arrays[name].read.pieces.value({"n": n}) == 4 * n
    assert again.total.compulsory.value == k.total.compulsory.value == 80


def test_the_self_checks_remembered_conditions_and_constants():
    import sympy

    from staticroof.analysis import selfcheck as SC

    n, m = sympy.symbols("n m")
    cond = sympy.And(n >= 8, m < 100)
    for _ in range(2):  # decided afresh, then remembered: the same answers
        assert SC._holds(cond, {"n": 8, "m": 99}) is True
        assert SC._holds(cond, {"n": 7, "m": 99}) is False
        assert SC._holds(cond, {"n": 8}) is False  # m is not in the point: it cannot be said to hold
        # 2n + n/3 is 7n/3 (a fraction: denominator 3); floor(m/4) (denominator 4) = 1; 0 is no constant
        e = sympy.Lt(2 * n + n / 3 - 100, 0) & sympy.Eq(sympy.floor(m / 4), 1)
        assert SC._numbers(e) == ({1, 100}, {3, 4})
    assert SC._numbers(True) == (frozenset(), frozenset())  # not the integer 1
    assert SC._numbers(sympy.Integer(1)) == (frozenset({1}), frozenset())


VEC3 = """
struct Vec3 {
    float x, y, z;
    __device__ float norm2() const;
};

__device__ float Vec3::norm2() const { return x * x + y * y + z * z; }

__global__ void norms(int n, const Vec3 *v, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = v[i].norm2();
}
"""


def test_the_cxx_context_sees_the_items_as_split():
    # cuda_source splits the items once and lends them to the C++ rewrites' context as they were
    # split: classdefs.begin then makes `Vec3::norm2` part of its class (no function item), but
    # the context, as with its own split, still sees it as a function
    from staticroof.frontends.cuda.source import cuda_source
    from staticroof.frontends.cuda.toplevel import split_items

    src = cuda_source("vec3.cu", '# 1 "vec3.cu"\n' + VEC3, {})
    fresh = {it.name for it in split_items(T.tokenize('# 1 "vec3.cu"\n' + VEC3, "vec3.cu")) if it.is_function}
    assert set(src.cxx.functions) == fresh
    assert "norms" in fresh and len(fresh) == 2


def test_a_weighted_sum_is_its_unit_sum_scaled():
    """polyhedra._unit_sum: Count.pw of w*A + w*B is the weight-1 sum A + B (made once) scaled by w,
    the very object summing the scaled terms gives.  A counts {0 <= i < n} (n for n >= 1), B the
    multiples of 3 among them (floor((n + 2)/3)), with guarded pieces (n >= 1), and C = {0 <= i < m,
    i < 5} (min(m, 5)) on another domain.  By hand, 4*(A + B) at n = 7 is 4*(7 + 3) = 40, at n = 3
    4*(3 + 1) = 16; 4*(A + C) at n = 2, m = 9 is 4*(2 + 5) = 28; and 4*A + 2*B (unequal weights:
    the plain sum) at n = 7 is 28 + 6 = 34."""
    import islpy as isl
    import sympy

    from staticroof.analysis import polyhedra as P

    def count(text):
        return isl.Set(text).card()

    a = count("[p_n, p_m] -> { S[i] : 0 <= i < p_n }")
    b = count("[p_n, p_m] -> { S[i] : 0 <= i < p_n and i mod 3 = 0 }")
    c = count("[p_n, p_m] -> { S[i] : 0 <= i < p_m and i < 5 }")
    namer = P.Namer()
    namer.param(sympy.Symbol("n")), namer.param(sympy.Symbol("m"))
    for x, y, sizes, value in [(a, b, {"n": 7, "m": 1}, 40), (a, b, {"n": 3, "m": 1}, 16),
                               (a, c, {"n": 2, "m": 9}, 28)]:
        P._UNIT.clear()
        unit = P.Count([(1, x), (1, y)], namer).pw()  # made and remembered
        scaled = P.Count([(4, x), (4, y)], namer)
        afresh = P._weighted_sum([(4, x), (4, y)])
        assert str(scaled.pw()) == str(afresh) == str(unit.scale_val(isl.Val(4)))
        assert scaled.value(sizes) == value
    mixed = P.Count([(4, a), (2, b)], namer)
    assert str(mixed.pw()) == str(P._weighted_sum([(4, a), (2, b)])) and mixed.value({"n": 7, "m": 1}) == 34


def test_compiled_closures_are_shared_by_their_text():
    # two compilers with their sizes in other slots: n - m in the first (n: v[0], m: v[1]) and m - n
    # in the second (m: v[0], n: v[1]) are the same text, so one closure; each gives its own
    # answer at its own values (5 - 3 = 2 and 5 - 3 = 2), and n + m is another text and closure
    import sympy

    from staticroof.analysis.evaluators import ExpressionCompiler

    n, m = sympy.symbols("n m")
    a, b = ExpressionCompiler(), ExpressionCompiler()
    a.slot(n), a.slot(m)
    b.slot(m), b.slot(n)
    f, g = a.compile(n - m), b.compile(m - n)
    assert a.code(n - m) == b.code(m - n) and f is g
    assert f([5, 3]) == 2 and g([5, 3]) == 2 and g([3, 5]) == -2
    h = a.compile(n + m)
    assert h is not f and h([5, 3]) == 8
    assert a.compile(sympy.floor(n / 2))([7, 0]) == 3


def test_a_remembered_condition_is_the_condition_of_its_text_and_sizes():
    """conditions.set_condition remembers by the set's isl text and the sizes its parameters stand
    for.  The same text under two namers is two conditions (n >= 101, N >= 101: the memo would give
    the first twice if it ignored the sizes); a set built apart with the same text gives the first's
    condition object; what is remembered equals the condition computed afresh (_condition)."""
    import islpy as isl
    import sympy

    from staticroof.analysis import conditions as C
    from staticroof.analysis.polyhedra import Namer

    text = "[p_n, p_m] -> { : p_n >= 101 and p_m <= 7 }"
    lower, upper = Namer(), Namer()
    lower.params.update({"p_n": sympy.Symbol("n"), "p_m": sympy.Symbol("m")})
    upper.params.update({"p_n": sympy.Symbol("N"), "p_m": sympy.Symbol("M")})
    C._conditions.clear()
    a = C.set_condition(isl.Set(text), lower)
    b = C.set_condition(isl.Set(text), upper)
    n, m, N, M = sympy.symbols("n m N M")
    assert a == sympy.And(n >= 101, m <= 7) and b == sympy.And(N >= 101, M <= 7)
    assert C.set_condition(isl.Set(text), lower) is a
    dom = isl.Set(text)
    assert a == C._condition(dom, ["p_n", "p_m"], [n, m])


def test_an_opaque_terms_value_is_remembered_as_printed():
    """probes._opaque gives an opaque term (a floor) the small value of its printed text, as
    _small(str(x), k) does afresh; floor(n/4) and floor(n/3) print apart, so differ_opaque tells
    floor(n/4) + 1 from floor(n/3) + 1 and not from itself.  A floor holding a Float is valued afresh
    each time (== ignores a Float's precision, its printing does not): nothing is remembered."""
    import sympy

    from staticroof.analysis import probes

    n = sympy.Symbol("n")
    f4, f3 = sympy.floor(n / 4), sympy.floor(n / 3)
    probes._opaque.cache_clear()
    assert probes._opaque(f4, 0) == probes._small("floor(n/4)", 0)
    assert probes._opaque(f3, 1) == probes._small("floor(n/3)", 1)
    assert probes.differ_opaque(f4 + 1, f3 + 1) and not probes.differ_opaque(f4 + 1, 1 + f4)
    before = probes._opaque.cache_info().currsize
    assert not probes.differ_opaque(sympy.floor(n + sympy.Float(0.5)), sympy.floor(n + sympy.Float(0.5)))
    assert probes._opaque.cache_info().currsize == before
