"""The cache-bounded traffic Q(M): HBL exponents and the bound's behaviour, derived by hand."""

from __future__ import annotations

from fractions import Fraction

import sympy

from helpers import SAMPLES, S, analyze_file, same
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
    # words: N^3 * Mw / (2 Mw)^(3/2) - Mw with Mw = M/4; in bytes (x4): 2*sqrt(2)*N^3/sqrt(M) - M
    expected = sympy.sympify("2*sqrt(2)*N**3/sqrt(M_cache) - M_cache", locals={"N": N, "M_cache": M})
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
