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
