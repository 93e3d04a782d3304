"""First accesses at given sizes (issue #15): when the first accesses are too complex for a
formula (SR118), each array's elements read first are counted at the sizes, and only among the
references that can make an element's first access (traffic._leading): a reference with an
earlier reference of the same element in every iteration where it runs is left out.

The kernel below has one reference of each kind the rule must tell apart; every count is derived
by hand and checked at sizes on both sides of its constant (the guard's 2) and with an empty
inner loop (m = 0), where a later statement of the outer body does make a first access."""

from __future__ import annotations

import pytest

from staticroof import analysis
from staticroof.analysis import traffic
from staticroof.frontends import load

SOURCE = r"""#include <stdio.h>
#include <stdlib.h>

/* A residual update as a solver writes it.  Per row i:
 *   y[i] = 0.5 * y[i]          reads y[i] (slot 0), then writes it (slot 1)
 *   y[i] += a[i*m + j], j < m  reads and writes y[i] again: never a first access
 *   s = 0; s += v[i] * a[..]   reads v[i] inside the loop only (the first access of v[i] there)
 *   v[i] = s                   writes v[i]: its first access when m = 0
 *   if (i >= 2) w[i] = y[i]    writes w[i] for i >= 2 only
 *   w[i] += 1.0                reads w[i]: the first access of w[0] and w[1]
 */
void residual(int n, int m, double *y, const double *a, double *v, double *w)
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.5 * y[i];
        double s = 0.0;
        for (int j = 0; j < m; j++) {
            y[i] += a[i * m + j];
            s += v[i] * a[i * m + j];
        }
        v[i] = s;
        if (i >= 2)
            w[i] = y[i];
        w[i] += 1.0;
    }
}

int main(void)
{
    int n = 100, m = 10;
    double *y = calloc(n, sizeof(double)), *a = calloc(n * m, sizeof(double));
    double *v = calloc(n, sizeof(double)), *w = calloc(n, sizeof(double));
    residual(n, m, y, a, v, w);
    printf("%f\n", y[0] + v[0] + w[0]);
    return 0;
}
"""


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    path = tmp_path_factory.mktemp("first") / "residual.c"
    path.write_text(SOURCE)
    lowered, _ = load(str(path), {})
    return next(k for k in lowered.kernels if k.name == "residual")


def expected(n: int, m: int) -> dict:
    """(elements read first, elements written) per array, by hand:
    y: every y[i] is read first (slot 0 of the outer statement) and written: n, n.
    a: read only, n*m elements (a[i*m + j] is injective for 0 <= j < m): n*m, 0.
    v: v[i] is read first inside the loop when it runs (m >= 1), else written first: n or 0; n written.
    w: w[i] is written first for i >= 2, read first for i = 0, 1: min(n, 2) read first; n written."""
    return {"y": (n, n), "a": (n * m, 0), "v": (n if m >= 1 else 0, n), "w": (min(n, 2), n)}


@pytest.fixture(scope="module")
def symbolic(kernel):
    """The symbolic count: its first accesses too are looked for among the leading references only
    (traffic._first_counts), so the values below check that rule at every size as well."""
    return analysis.count_attempt(kernel, {}, {}, False, 0)


@pytest.mark.parametrize("n, m", [(1, 0), (1, 3), (2, 1), (3, 0), (5, 3), (7, 4)])
def test_first_reads_at_the_sizes(kernel, symbolic, monkeypatch, n, m):
    sizes = {"n": n, "m": m}
    used = []
    real = traffic._concrete_first_reads

    def spy(*args):
        found = real(*args)
        used.append(found is not None)
        return found

    monkeypatch.setattr(traffic, "_concrete_first_reads", spy)
    result = analysis.count_attempt(kernel, sizes, {}, False, 0, concrete=True)
    got = {name: (t.read.value(sizes) or 0, t.write.value(sizes) or 0) for name, t in result.total.arrays.items()}
    assert got == expected(n, m)
    assert any(used)  # the references left out gave the count, not the full union
    # the symbolic count (every reference in the union) agrees at these sizes
    assert {name: (t.read.value(sizes) or 0, t.write.value(sizes) or 0)
            for name, t in symbolic.total.arrays.items()} == expected(n, m)


def test_which_references_can_be_first(kernel):
    """The references of y left out: the write of the outer statement (slot 1, after its read) and
    both references in the loop.  Kept for v: the read in the loop and the write after it (the loop
    may not run).  For w: both the guarded write and the read after it (the guard need not hold)."""
    from staticroof.analysis import polyhedra as P
    from staticroof.analysis.domain import instances

    namer = P.Namer()
    insts = instances(kernel, namer)
    refs = traffic.dram_refs(kernel, insts)
    kept = {}
    for name in ("y", "v", "w"):
        affine = [r for r in refs[name] if r[0].index is not None]
        coords = [r[0].index for r in affine]
        kept[name] = [(affine[k][0].kind, len(affine[k][1].dims)) for k in traffic._leading(affine, coords, namer)]
    assert kept == {"y": [("read", 1)], "v": [("read", 2), ("write", 1)], "w": [("write", 1), ("read", 1)]}
