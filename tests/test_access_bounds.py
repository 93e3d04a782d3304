"""An approximate access count is an upper bound: two different non-affine references of one
statement are two accesses, never merged into one (issue #28, found on an attention kernel whose
static loads were 2,400 B against 2,880 B traced)."""

from __future__ import annotations

from helpers import S, analyze_source, same

GATHER2 = """
void gather2(int n, const int *a, const int *b, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[a[i]] * x[b[i]];
}
"""


def test_two_indirect_reads_of_one_statement_are_two_accesses(tmp_path):
    # per trip: a[i], b[i], x[a[i]], x[b[i]] loaded (4 x 4 B) and y[i] stored (4 B): 20 B;
    # x alone is two loads of 4 B per trip, whatever a and b hold.
    k = analyze_source(GATHER2, tmp_path)["gather2"]
    assert not k.exact  # the x elements are data-dependent (SR101)
    assert same(k.total.arrays["x"].access_read.expr, S("8*n"))
    assert same(k.total.access.expr, S("20*n"))


HALVES = """
__global__ void add_halves(const float *input, float *output, int n)
{
    int i = blockIdx.x * blockDim.x%s + threadIdx.x;
    output[i] = input[i] + input[i + blockDim.x];
}
"""


def test_two_references_shifted_by_the_block_are_two_accesses(tmp_path):
    """Issue #32: `input[i] + input[i + blockDim.x]` with the launch unknown (T = blockDim_x *
    gridDim_x threads) is two loads per thread, Q access = 2*4*T + 4*T (output) = 12*T, never below
    the compulsory count.  With i = blockIdx*blockDim + threadIdx the two windows overlap: input's
    distinct elements are i in [0, T + blockDim_x): Q = 4*(T + blockDim_x) + 4*T.  With the block's
    stride doubled (`blockDim.x * 2`) they do not: 2*T elements, Q = 12*T = Q access."""
    T = S("blockDim_x*gridDim_x")
    k = analyze_source(HALVES % "", tmp_path, name="halves.cu")["add_halves"]
    assert same(k.total.access.expr, 12 * T)
    assert same(k.total.compulsory.expr, 8 * T + S("4*blockDim_x"))
    k = analyze_source(HALVES % " * 2", tmp_path, name="halves2.cu")["add_halves"]
    assert same(k.total.access.expr, 12 * T) and same(k.total.compulsory.expr, 12 * T)
