"""Host C as benchmark programs write it (issue #28 §3): a data-dependent `if` whose branches count
nothing (a line break every 20 values of a dump, an `exit` when malloc fails) costs the same either
way and is no approximation; memory from a file's allocation wrapper (`xmalloc`, polybench's
`polybench_alloc_data`) is an array like malloc's (tests/data/idioms/host_c.c).  Expectations by hand,
checked by the trace at n = 37 and n = 1000 (both sides of the dump's 20)."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, codes, same, skip_without_cc

DATA = ROOT / "tests" / "data" / "idioms" / "host_c.c"

EXPECT = {
    # no FLOP; A read once per element: Q = 8*n**2 (the `% 20` only picks where a newline goes)
    "print_matrix": {"W": "0", "Q": "8*n**2"},
    # t = xmalloc(...): a heap array.  t[i] = 2*x[i] (1), y[i] = t[i] + 1 (1): W = 2*n; x read 8n, t
    # written 8n (read back after: no more), y written 8n: Q = 24*n
    "two_pass": {"W": "2*n", "Q": "24*n"},
}


@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_host_idioms_are_exact(kernel):
    k = analyze_file(DATA)[0][kernel]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert "SR104" not in codes(k)
    assert same(k.total.flops.expr, S(EXPECT[kernel]["W"])) and same(k.total.compulsory.expr, S(EXPECT[kernel]["Q"]))


def test_a_data_dependent_branch_with_work_stays_approximate():
    """clip: `v = 1 + 0.5*(v - 1)` (3 FLOPs) only where x[i] > 1: counted for every i, SR104."""
    k = analyze_file(DATA)[0]["clip"]
    assert not k.exact and "SR104" in codes(k)
    assert same(k.total.flops.expr, S("3*n"))


@pytest.mark.parametrize("n", [37, 1000])
@pytest.mark.parametrize("kernel", sorted(EXPECT))
def test_host_idioms_agree_with_the_trace(kernel, n):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = analyze_file(DATA, {"n": str(n)})[0][kernel]
    traced = run_trace(str(DATA), kernel, {"n": n}, "c")
    # the totals (the trace names xmalloc's region after its `p`, the analysis after the caller's `t`)
    rows = [r for r in compare(k, traced) if not r.quantity.startswith(("p ", "t "))]
    assert {r.quantity for r in rows} >= {"W", "Q compulsory", "Q access"}
    assert not [(r.quantity, r.static, r.traced) for r in rows if not r.ok]
