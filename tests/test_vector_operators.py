"""Vector-type operators from a helper header (issue #28 §2): `float3 + float3` calls the file's (or an
included header's) `operator+`, which is inlined like any device function (tests/data/idioms/
vector_ops.cu with helper_math_lite.h, written the way the CUDA samples' helper_math.h is).  Before,
every such operator was SR105 (approximate, one operation per lane guessed).  Expectations by hand.

(The trace cannot run these kernels: its C has no operator overloading.)"""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, codes, same

DATA = ROOT / "tests" / "data" / "idioms" / "vector_ops.cu"

EXPECT = {
    # x[i]*s: operator*(float3, float) 3 multiplies; + y[i]: operator+ 3 adds.  x read 12 B, y read
    # and written 12 B each: W = 6*n, Q = 36*n.
    "axpy3": {"W": "6*n", "Q": "36*n"},
    # a = y[i] (12 B); a += x[i]: operator+= 3 adds (x 12 B); y[i] = a (12 B); dot(a, x[i]): 3
    # multiplies and 2 adds (x[i] again: the same element); d[i] 4 B.  W = 8*n, Q = 40*n.
    "acc3": {"W": "8*n", "Q": "40*n"},
    # x[i] - y[i]: 3 subtractions; 0.5f * (...): operator*(float, float3) 3 multiplies; p[i] + p[i]:
    # operator+(float4, float4) 4 adds.  x, y, z 12 B each; p read 16, q written 16: W = 10*n, Q = 68*n.
    "mixed": {"W": "10*n", "Q": "68*n"},
}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_a_helper_headers_vector_operators_are_inlined(kernel):
    k = analyze_file(DATA)[0][kernel]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.flops.expr, S(EXPECT[kernel]["W"])) and same(k.total.compulsory.expr, S(EXPECT[kernel]["Q"]))
    assert "fp32" in k.total.by_precision


def test_a_vector_type_without_an_operator_is_not_followed():
    """int3 + int3 with no operator in the file: SR105, approximate; integer lanes count no FLOP (it
    counted 3 'FLOPs' of int32).  Q: a read 12 B, b written 12 B: 24*n."""
    k = analyze_file(DATA)[0]["no_operator"]
    assert not k.exact and "SR105" in codes(k)
    assert k.total.flops.expr == 0 and same(k.total.compulsory.expr, S("24*n"))
