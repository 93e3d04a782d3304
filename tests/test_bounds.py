"""The cache-bounded traffic Q(M): HBL exponents and the bound's behaviour, derived by hand."""

from __future__ import annotations

from fractions import Fraction

import sympy

from helpers import SAMPLES, S, same
from staticroof.analysis.bounds import hbl_exponent
from staticroof.pipeline import run


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
    report = run([path], defines, cache_bytes=cache)
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
    # fp32 GEMM, 40 MiB: the working set 12 MB fits at N = 1024, 768 MB does not at N = 8192;
    # 16N^3/sqrt(M) - 2M > 16N^2 from N ~ sqrt(M) ~ 6476
    k = _kernel(SAMPLES / "gemm_accum.c", {"N": "8192"}, 40 * 2**20)
    assert k.total.departs_at == {"N": 8192}
    small = _kernel(SAMPLES / "gemm_accum.c", {"N": "1024"}, 40 * 2**20)
    assert small.total.cache_bound.value == small.total.compulsory.value


def _lru_tiled_matmul(n: int, m_words: int, tile: int) -> int:
    """Words moved by a tiled C += A*B under a fully associative LRU cache of m_words: misses
    (loads) plus dirty evictions and the final write-back of C."""
    from collections import OrderedDict

    cache: OrderedDict = OrderedDict()
    moved = 0

    def touch(key, write):
        nonlocal moved
        if key in cache:
            cache.move_to_end(key)
            cache[key] = cache[key] or write
            return
        moved += 1
        cache[key] = write
        if len(cache) > m_words:
            _, dirty = cache.popitem(last=False)
            moved += dirty

    for ii in range(0, n, tile):
        for jj in range(0, n, tile):
            for kk in range(0, n, tile):
                for i in range(ii, min(ii + tile, n)):
                    for j in range(jj, min(jj + tile, n)):
                        for k in range(kk, min(kk + tile, n)):
                            touch(("A", i, k), False)
                            touch(("B", k, j), False)
                            touch(("C", i, j), True)
    return moved + sum(1 for dirty in cache.values() if dirty)


def test_bound_is_below_a_real_tiled_schedule(tmp_path):
    """Q_bound must be a lower bound: no schedule moves fewer words.  A tiled matmul under an LRU
    cache of M words, simulated for small N, always moves at least the bound."""
    for n, m_words, tile in ((16, 48, 4), (24, 108, 6), (32, 192, 8), (32, 64, 4)):
        k = _kernel(SAMPLES / "gemm_accum.c", {"N": str(n)}, 4 * m_words)
        bound_words = k.total.cache_bound.value / 4
        simulated = _lru_tiled_matmul(n, m_words, tile)
        assert bound_words <= simulated, (n, m_words, bound_words, simulated)
