"""The cache-bounded traffic Q(M): HBL exponents and the bound's behaviour, derived by hand."""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from staticroof.analysis.bounds import hbl_exponent
from staticroof.options import AnalysisOptions
from staticroof.pipeline import run

from helpers import SAMPLES, S, lru_words, same


def test_hbl_exponents():
    # matmul C[i][j] += A[i][k]*B[k][j]: projections {i,j}, {i,k}, {k,j}; each index is in two of
    # them, so s_C + s_A >= 1, s_C + s_B >= 1, s_A + s_B >= 1: minimum 3/2 at s = 1/2 each
    assert hbl_exponent(((0, 1), (0, 2), (1, 2)), (0, 1, 2)) == Fraction(3, 2)
    # streaming x[i], y[i]: one index, s_x + s_y >= 1: s* = 1
    assert hbl_exponent(((0,),), (0,)) == 1
    # pair sum x[i] + y[j]: s_x >= 1 and s_y >= 1: s* = 2
    assert hbl_exponent(((0,), (1,)), (0, 1)) == 2
    # an index no reference uses bounds nothing
    assert hbl_exponent(((0,),), (0, 1)) is None


def _kernel(path, defines, cache):
    report = run([path], AnalysisOptions(defines=defines, cache_bytes=cache))
    return report.kernels[0]


def test_matmul_bound_grows_as_n_cubed_over_sqrt_m():
    k = _kernel(SAMPLES / "gemm_accum.c", {"N": "8192"}, 40 * 2**20)
    expr = k.total.cache_bound.expr
    N, M = S("N"), sympy.Symbol("M_cache")
    # the matrix-multiply shape takes Smith et al.'s tight bound: 2|I|/sqrt(Mw) - 2Mw words with
    # |I| = N^3 and Mw = M/4 words; in bytes (x4): 8N^3*2/sqrt(M) - 2M = 16*N^3/sqrt(M) - 2*M
    expected = sympy.sympify("16*N**3/sqrt(M_cache) - 2*M_cache", locals={"N": N, "M_cache": M})
    assert any(sympy.simplify(a - expected) == 0 for a in expr.args)
    # never below compulsory; equal to it while the working set fits
    assert k.total.cache_bound.value >= k.total.compulsory.value
    # the cache-bounded intensity saturates: W / Q(M) -> sqrt(M) / sqrt(2) * ... as N grows
    big = expr.subs({N: 10**7, M: 40 * 2**20})
    bigger = expr.subs({N: 10**8, M: 40 * 2**20})
    ratio = (2 * 10**24 / bigger) / (2 * 10**21 / big)
    assert abs(float(ratio) - 1) < 0.01
    assert k.total.departs_at is not None


def test_streaming_bound_is_the_compulsory_traffic():
    k = _kernel(SAMPLES / "saxpy.c", {"n": "4096"}, 40 * 2**20)
    assert same(k.total.cache_bound.expr, S("12*n")) and k.total.cache_bound.value == 12 * 4096


def test_bound_departs_between_1024_and_8192_on_a_40mb_l2():
    # fp32 GEMM, 40 MiB: the working set 12 MB fits at N = 1024, 768 MB does not at N = 8192.
    # gemm_accum (C read and written, Q compulsory 16N^2): the bound exceeds it where
    # 16N^3/sqrt(M) - 2M > 16N^2 with sqrt(M) = sqrt(41,943,040) = 6476.34:
    #   N = 7142: 16*7142^3/6476.34 - 83,886,080 - 16*7142^2 = -2,076   (still fits)
    #   N = 7143: ... = +147,468                                        (departs)
    k = _kernel(SAMPLES / "gemm_accum.c", {"N": "8192"}, 40 * 2**20)
    assert k.total.departs_at == {"N": 7143}
    # gemm.c (register accumulator, Q compulsory 12N^2): 16N^3/sqrt(M) - 2M > 12N^2 first at
    # N = 5850 (-65,287 at 5849, +47,925 at 5850)
    assert _kernel(SAMPLES / "gemm.c", {"N": "8192"}, 40 * 2**20).total.departs_at == {"N": 5850}
    small = _kernel(SAMPLES / "gemm_accum.c", {"N": "1024"}, 40 * 2**20)
    assert small.total.cache_bound.value == small.total.compulsory.value


def _lru_tiled_matmul(n: int, m_words: int, tile: int) -> int:
    """Words moved by a tiled C += A*B under a fully associative LRU cache of m_words: misses
    (loads) plus dirty evictions and the final write-back of C."""
    def touches():
        for ii in range(0, n, tile):
            for jj in range(0, n, tile):
                for kk in range(0, n, tile):
                    for i in range(ii, min(ii + tile, n)):
                        for j in range(jj, min(jj + tile, n)):
                            for k in range(kk, min(kk + tile, n)):
                                yield ("A", i, k), "r"
                                yield ("B", k, j), "r"
                                yield ("C", i, j), "rw"
    return lru_words(touches(), m_words)


def test_bound_is_below_a_real_tiled_schedule(tmp_path):
    """Q_bound must be a lower bound: no schedule moves fewer words.  A tiled matmul under an LRU
    cache of M words, simulated for small N, always moves at least the bound."""
    for n, m_words, tile in ((16, 48, 4), (24, 108, 6), (32, 192, 8), (32, 64, 4)):
        k = _kernel(SAMPLES / "gemm_accum.c", {"N": str(n)}, 4 * m_words)
        bound_words = k.total.cache_bound.value / 4
        simulated = _lru_tiled_matmul(n, m_words, tile)
        assert bound_words <= simulated, (n, m_words, bound_words, simulated)


# ---------------------------------------------------------------------------------------------
# What a loop body's operands are (staticroof.analysis.projections).  Each kernel below is
# matrix multiply or a near miss; the expected bound is derived by hand from its projections.
#
# For fp32 (4-byte words) and a cache of M bytes = M/4 words:
#  - the matrix-multiply shape ({i,j}, {i,k}, {k,j}) takes Smith et al.'s 2|I|/sqrt(Mw) - 2Mw
#    words with |I| = N^3: bytes 4*(2N^3/sqrt(M/4) - 2M/4) = 16*N**3/sqrt(M) - 2*M;
#  - two input projections {i,k}, {k,j} (i and j each in one of them): s* = 2, both inputs
#    (c = 2), the segment bound |I|*Mw/((2Mw)(2Mw)) - Mw = N^3/(4Mw) - Mw words
#    = 4*(N^3/M - M/4) bytes = 4*N**3/M - M;
#  - the updated target {i,j} (c = 3, a partial sum) and the input {k,j}: s* = 2, K = 3*2,
#    N^3*Mw/(6*Mw^2) - Mw = N^3/(6Mw) - Mw words = 4*(4N^3/(6M) - M/4) bytes = 8*N**3/(3*M) - M.

MATMUL = "16*N**3/sqrt(M_cache) - 2*M_cache"
TWO_PROJECTIONS = "4*N**3/M_cache - M_cache"
TARGET_AND_INPUT = "8*N**3/(3*M_cache) - M_cache"

BODIES = {
    # s is reset for every (i, j) and read after the k loop: scalar expansion makes it C[i][j]
    "register_accumulator": (MATMUL, """
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                float s = 0.0f;
                for (int k = 0; k < N; k++)
                    s += A[i][k] * B[k][j];
                C[i][j] = s;
            }"""),
    # i-k-j order with A[i][k] hoisted into a register: a stands for A, so (i, k) is an operand
    "hoisted_operand": (MATMUL, """
        for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++) {
                float a = A[i][k];
                for (int j = 0; j < N; j++)
                    C[i][j] += a * B[k][j];
            }"""),
    # the body split through a temporary: t is written before it is read (internal), and the
    # two statements of the k body are one iteration with operands A, B and s
    "split_body": (MATMUL, """
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                float s = 0.0f;
                for (int k = 0; k < N; k++) {
                    float t = A[i][k] * B[k][j];
                    s += t;
                }
                C[i][j] = s;
            }"""),
    # a hoisted constant is no data: only C[i][j] (updated) and B[k][j] are operands
    "hoisted_constant": (TARGET_AND_INPUT, """
        for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++) {
                float a = 2.0f;
                for (int j = 0; j < N; j++)
                    C[i][j] += a * B[k][j];
            }"""),
    # a reset under a condition resets nothing: s carries across j, it is no (i, j) array, and
    # the k body's operands are A[i][k] and B[k][j] alone ({i,k}, {k,j}: s* = 2 again)
    "conditional_reset": (TWO_PROJECTIONS, """
        float s = 0.0f;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                if (j == 0)
                    s = 0.0f;
                for (int k = 0; k < N; k++)
                    s += A[i][k] * B[k][j];
                C[i][j] = s;
            }"""),
    # C[i][j] = ... overwritten across k and never read back: a schedule may drop each of those
    # values at once, so C is no operand (the matmul bound would be wrong here: k outermost with
    # a row of B held moves about 3N^2 words); A[i][k] and B[k][j] are inputs: s* = 2
    "overwritten_target": (TWO_PROJECTIONS, """
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                for (int k = 0; k < N; k++)
                    C[i][j] = A[i][k] * B[k][j];"""),
    # a DRAM temporary written, then read in the same iteration, is internal to it (as a local
    # would be): T[i][j] is no operand, and neither is C[i][j] (overwritten across k)
    "dram_temporary": (TWO_PROJECTIONS, """
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                for (int k = 0; k < N; k++) {
                    T[i][j] = A[i][k] * B[k][j];
                    C[i][j] = T[i][j] * 2.0f;
                }"""),
    # an accumulator whose result nobody reads is dead: no operand either
    "dead_accumulator": (TWO_PROJECTIONS, """
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                float s = 0.0f;
                for (int k = 0; k < N; k++)
                    s += A[i][k] * B[k][j];
                C[i][j] = 1.0f;
            }"""),
}


def test_an_accumulators_constant_is_three(tmp_path):
    # s is reset per i and stored after: a partial sum over (j, k), made by the computation
    # (c = 3); x[j] and y[k] are inputs (c = 2).  LP: i needs s, j needs x, k needs y: s* = 3 with
    # K = 3*2*2 = 12.  |I| = N^3; words N^3*Mw/(12*Mw^3) - Mw = N^3/(12*Mw^2) - Mw with Mw = M/4,
    # bytes 4*(16*N^3/(12*M^2) - M/4) = 16*N**3/(3*M**2) - M.
    src = tmp_path / "acc3.c"
    src.write_text("#define N 64\nvoid acc3(const float x[N], const float y[N], float out[N])\n{\n"
                   "  for (int i = 0; i < N; i++) {\n    float s = 0.0f;\n"
                   "    for (int j = 0; j < N; j++)\n      for (int k = 0; k < N; k++)\n"
                   "        s += x[j] * y[k];\n    out[i] = s;\n  }\n}\n")
    M = sympy.Symbol("M_cache")
    expr = _kernel(src, {}, 40 * 2**20).total.cache_bound.expr
    want = 16 * S("N")**3 / (3 * M**2) - M
    assert any(sympy.simplify(t - want) == 0 for t in expr.args), expr
    # the number uses the same constant: with M = 16 B and N = 64, 16*64^3/(3*16^2) - 16
    # = 5461.33 - 16 = 5445.33 B, above Q compulsory (x, y, out: 3*64*4 = 768 B); with K = 8
    # (c = 2 everywhere) it would be 4*64^3/(8*4^2)... = 8176 B
    k = _kernel(src, {}, 16)
    # (bytes are whole: the bound rounds up to 5446 B)
    assert k.total.cache_bound.value == 5446 == math.ceil(16 * 64**3 / (3 * 16**2) - 16)


def _body_kernel(tmp_path, name, body):
    src = tmp_path / f"{name}.c"
    src.write_text("#define N 64\n"
                   f"void {name}(const float A[N][N], const float B[N][N], float C[N][N], float T[N][N])\n"
                   f"{{{body}\n}}\n")
    return _kernel(src, {}, 40 * 2**20)


def test_operands_of_matmul_bodies(tmp_path):
    M = sympy.Symbol("M_cache")
    for name, (expected, body) in BODIES.items():
        k = _body_kernel(tmp_path, name, body)
        expr = k.total.cache_bound.expr
        want = sympy.sympify(expected, locals={"N": S("N"), "M_cache": M})
        terms = expr.args if isinstance(expr, sympy.Max) else (expr,)
        assert any(sympy.simplify(t - want) == 0 for t in terms), (name, expr)
        # and no stronger term: the near misses must not claim the matmul bound
        if expected != MATMUL:
            assert "sqrt" not in str(expr), (name, expr)


def test_a_shifted_index_is_not_a_projection(tmp_path):
    # y[i] += x[i + k] * w[k]: x[i + k] is not a one-to-one image of (i, k), so only y (i, an
    # updated target: c = 3) and w (k, an input: c = 2) bound the iterations: s* = 2, K = 6,
    # |I| = n*K, and in bytes (fp32, Mw = M/4) 4*(n*K/(6*Mw) - Mw) = 8*n*K/(3*M) - M.
    # (Counting x as (i, k) would give s* = 1: no bound.)
    src = tmp_path / "conv.c"
    src.write_text("void conv(int n, int K, const float *x, const float *w, float *y)\n"
                   "{ for (int i = 0; i < n; i++) for (int k = 0; k < K; k++) y[i] += x[i + k] * w[k]; }\n")
    k = _kernel(src, {}, 40 * 2**20)
    want = sympy.sympify("8*n*K/(3*M_cache) - M_cache",
                         locals={"n": S("n"), "K": S("K"), "M_cache": sympy.Symbol("M_cache")})
    assert any(sympy.simplify(t - want) == 0 for t in k.total.cache_bound.expr.args)


def test_cuda_thread_indices_combine_into_rows_and_columns():
    # matmul_naive: row = 16*blockIdx.y + threadIdx.y, col = 16*blockIdx.x + threadIdx.x (16x16
    # blocks), acc reset per thread: the four thread loops are two index classes, one-to-one on
    # the domain because threadIdx < 16; with k the body is the matmul shape: 16N^3/sqrt(M) - 2M
    k = _kernel(SAMPLES / "matmul_naive.cu", {"N": "8192"}, 40 * 2**20)
    want = sympy.sympify(MATMUL, locals={"N": S("N"), "M_cache": sympy.Symbol("M_cache")})
    assert any(sympy.simplify(t - want) == 0 for t in k.total.cache_bound.expr.args)


def test_index_classes_need_a_one_to_one_combination(tmp_path):
    # y[16*b + t] with t < 16 is one row index (b, t) -> 16b + t is one-to-one); with t < 32 two
    # iterations share an element, so b and t stay separate classes
    from staticroof.analysis import polyhedra as P
    from staticroof.analysis.domain import instances
    from staticroof.analysis.projections import bodies
    from staticroof.frontends import load

    for width, classes in ((16, [(0, 1)]), (32, [(0,), (1,)])):
        src = tmp_path / f"rows{width}.c"
        src.write_text(f"void f(int n, float *y, const float *x)\n{{ for (int b = 0; b < n; b++) "
                       f"for (int t = 0; t < {width}; t++) y[16*b + t] += x[16*b + t]; }}\n")
        res, _ = load(str(src), {}, (), None)
        namer = P.Namer()
        (body,) = bodies(res.kernels[0], instances(res.kernels[0], namer), namer)
        assert body.classes == classes, (width, body.classes)


def test_shared_memory_staging_is_followed_to_dram(tmp_path):
    # matmul_tiled.cu: As[ty][tx] = A[row*N + t*32 + tx] is the only writer of As, so the body's
    # As[ty][k] holds A[32*by + ty][32*t + k] (the thread tx' = k wrote it); likewise Bs[k][tx]
    # holds B[32*t + k][32*bx + tx]; acc is reset per thread: C[row][col].  Index classes
    # row = (by, ty), col = (bx, tx), K = (t, k): the matmul shape over |I| = (32F)^3 iterations
    # (F = floor(N/32)), so 16*(32F)^3/sqrt(M) - 2M = 524288*F**3/sqrt(M) - 2M bytes in fp32.
    F, M = sympy.floor(S("N") / 32), sympy.Symbol("M_cache")
    k = _kernel(SAMPLES / "matmul_tiled.cu", {"N": "8192"}, 40 * 2**20)
    assert any(sympy.simplify(t - (524288 * F**3 / sympy.sqrt(M) - 2 * M)) == 0
               for t in k.total.cache_bound.expr.args)
    # the naive kernel's bound at N = 32F: the bound is the computation's, not the code's
    naive = _kernel(SAMPLES / "matmul_naive.cu", {}, 40 * 2**20)
    term = next(t for t in naive.total.cache_bound.expr.args if "sqrt" in str(t))
    assert sympy.simplify(term.subs(S("N"), 32 * F) - (524288 * F**3 / sympy.sqrt(M) - 2 * M)) == 0

    # a second writer (an else branch storing 0) leaves the staged value unknown: no bound
    text = (SAMPLES / "matmul_tiled.cu").read_text().replace(
        "        As[ty][tx] = A[row * N + t * TILE + tx];\n",
        "        if (row < N) As[ty][tx] = A[row * N + t * TILE + tx]; else As[ty][tx] = 0.0f;\n")
    src = tmp_path / "two_writers.cu"
    src.write_text(text)
    k2 = _kernel(src, {"N": "8192"}, 40 * 2**20)
    assert "sqrt" not in str(k2.total.cache_bound.expr)


def _lru_blocked_pairsum(n: int, m_words: int, block: int) -> int:
    """Words loaded by `s += x[i] + y[j]` over all pairs, x in blocks of `block` held while y
    streams past, under a fully associative LRU cache of m_words (s stays in a register)."""
    def touches():
        for ii in range(0, n, block):
            for j in range(n):
                for i in range(ii, min(ii + block, n)):
                    yield ("x", i), "r"
                    yield ("y", j), "r"
    return lru_words(touches(), m_words)


def test_general_constant_bound_is_below_blocked_schedules():
    """The general HBL constant (c = 2, s* = 2 for pairsum's {i}, {j}) must stay a lower bound:
    n^2 * Mw / (2Mw)^2 - Mw = n^2/(4Mw) - Mw words, against blocked LRU schedules that beat the
    plain loop order.  At n = 128, Mw = 8: 16384/32 - 8 = 504 words > Q compulsory (256)."""
    for n, m_words in ((128, 8), (96, 6), (160, 16)):
        k = _kernel(SAMPLES / "pairsum.c", {"n": str(n)}, 4 * m_words)
        bound_words = k.total.cache_bound.value / 4
        assert bound_words == max(2 * n, Fraction(n * n, 4 * m_words) - m_words)
        for block in (1, m_words // 2, m_words - 2, m_words - 1):
            assert bound_words <= _lru_blocked_pairsum(n, m_words, block), (n, m_words, block)


def test_three_inputs_in_the_matmul_shape_keep_the_general_constants(tmp_path):
    # t += A[i][j] * B[j][k] * C[k][i], t reset once outside the loops (no operand): the three
    # pairwise projections are all inputs, not Smith et al.'s C += A*B, so the general bound:
    # s* = 3/2 at s = 1/2 each, K = 2^(3/2), |I| = N^3; words N^3*Mw/(2^(3/2)*Mw^(3/2)) - Mw with
    # Mw = M/4, bytes 4*(N^3*sqrt(M/4)/(2*sqrt(2)*M/4) ... ) = 4*N**3/sqrt(2*M) - M
    src = tmp_path / "tri.c"
    src.write_text("#define N 64\nfloat tri(const float A[N][N], const float B[N][N], const float C[N][N])\n{\n"
                   "  float t = 0.0f;\n  for (int i = 0; i < N; i++)\n    for (int j = 0; j < N; j++)\n"
                   "      for (int k = 0; k < N; k++)\n        t += A[i][j] * B[j][k] * C[k][i];\n  return t;\n}\n")
    M = sympy.Symbol("M_cache", positive=True)
    expr = _kernel(src, {}, 40 * 2**20).total.cache_bound.expr
    want = 4 * S("N")**3 / sympy.sqrt(2 * M) - M
    assert any(sympy.simplify(t.subs(sympy.Symbol("M_cache"), M) - want) == 0 for t in expr.args), expr
