"""Compulsory traffic of PolyBench-GPU kernels whose rows are strided by a #define while the sizes
are parameters (`c[i * NJ + j]`, j < nj): the flat index is one-to-one only while nj <= NJ, so the
elements are counted as isl sets of flat indices, and the first accesses are looked for among the
references that can make one (traffic._leading), in the symbolic count too.  The lexmin of every
reference's times over such a set was past the isl budget (SR118: counted at the sizes only); that
of the one leading read is cheap, and each kernel now has exact formulas at every size.

Every count below is derived by hand from one rule, `rows(r, length, stride)`, and checked at sizes
on both sides of every constant of the kernel (the stride, the block's 32 and 8), then against a
brute-force run of the kernel's loops at sizes small enough to run, on both sides of the stride.
"""

from __future__ import annotations

import pytest

from staticroof.options import AnalysisOptions
from staticroof.pipeline import run

from helpers import ROOT

CUDA = ROOT / "tests" / "data" / "cuda"


def rows(r: int, length: int, stride: int) -> int:
    """|{stride*i + t : 0 <= i < r, 0 <= t < length}|, by hand.  Row i is the interval
    [stride*i, stride*i + length - 1].  With length <= stride it ends before row i + 1 starts
    (stride*i + length - 1 < stride*(i + 1)): r disjoint rows, r*length elements.  With length >
    stride each row reaches into the next, so the union is the one interval
    [0, stride*(r - 1) + length - 1]: stride*(r - 1) + length elements.  Both give r*stride at
    length = stride.  No row or an empty row: 0."""
    if r <= 0 or length <= 0:
        return 0
    return r * length if length <= stride else stride * (r - 1) + length


# In every kernel below each thread's first access to each element it touches is a read when the
# array is read at all (`c *= beta`, `x = x - ...`, `G += ...` read before they write), so an
# element's first access is a read whichever thread reaches it first: the elements read first are
# all the elements of a read array, and the elements written are those of its writes.

def gemm_acc(ni: int, nj: int, nk: int) -> dict:
    """polybench_style.cu gemm_acc_kernel, NJ = NK = 1000: thread (i, j), i < ni, j < nj; c[i*1000 + j]
    read and written; a[i*1000 + k], k < nk, and b[k*1000 + j] read.  (elements read first, written)"""
    c = rows(ni, nj, 1000)
    return {"a": (rows(ni, nk, 1000), 0), "b": (rows(nk, nj, 1000), 0), "c": (c, c)}


def reduce_(m: int, n: int) -> dict:
    """polybench_acc_style.cu reduce_kernel, M = 500: thread (i, j), i < n, j < m; data[i*500 + j]
    read and written; mean[j] and std[j] read (m elements each)."""
    d = rows(n, m, 500)
    return {"data": (d, d), "mean": (m, 0), "std": (m, 0)}


def syr2k(ni: int, nj: int) -> dict:
    """syr2k_kernel, NI = NJ = 400: thread (i, j), i, j < ni; c[i*400 + j] read and written;
    a[i*400 + k], a[j*400 + k], b[i*400 + k], b[j*400 + k], k < nj: rows 0..ni-1 of length nj."""
    c = rows(ni, ni, 400)
    return {"a": (rows(ni, nj, 400), 0), "b": (rows(ni, nj, 400), 0), "c": (c, c)}


def mm3(ni: int, nj: int, nl: int) -> dict:
    """mm3_kernel3, NJ = NL = 400: thread (i, j), i < ni, j < nl; G[i*400 + j] += E[i*400 + k] *
    F[k*400 + j], k < nj: G read (first, at k = 0) and written."""
    g = rows(ni, nl, 400)
    return {"E": (rows(ni, nj, 400), 0), "F": (rows(nj, nl, 400), 0), "G": (g, g)}


def fdtd2(nx: int, ny: int) -> dict:
    """fdtd_step2_kernel, NY = 350: thread (i, j), i < nx, 0 < j < ny; ex[i*351 + j] read and
    written: row i is 351*i + [1, ny - 1], ny - 1 long at stride 351; hz[i*350 + j] and
    hz[i*350 + j - 1]: 350*i + [0, ny - 1], ny long at stride 350 (none at ny = 1)."""
    ex = rows(nx, ny - 1, 351)
    return {"ex": (ex, ex), "hz": (rows(nx, ny, 350) if ny >= 2 else 0, 0)}


def fdtd3(nx: int, ny: int) -> dict:
    """fdtd_step3_kernel, NY = 350: thread (i, j), i < X = nx - 1, j < Y = ny - 1; hz[i*350 + j]
    read and written (X rows of Y); ex[i*351 + j] and ex[i*351 + j + 1]: X rows of Y + 1 at stride
    351; ey[i*350 + j] and ey[(i + 1)*350 + j]: rows 0..X, X + 1 rows of Y at stride 350.  No
    thread when X or Y is 0."""
    x, y = nx - 1, ny - 1
    if x <= 0 or y <= 0:
        return {"hz": (0, 0), "ex": (0, 0), "ey": (0, 0)}
    hz = rows(x, y, 350)
    return {"hz": (hz, hz), "ex": (rows(x, y + 1, 351), 0), "ey": (rows(x + 1, y, 350), 0)}


# (file, kernel, hand count, its sizes, the points: both sides of each stride and of the block's 32, 8)
_EDGES = [1, 2, 7, 8, 9, 31, 32, 33]
CASES = {
    "gemm_acc_kernel": ("polybench_style.cu", gemm_acc, ("ni", "nj", "nk"),
                        [(ni, nj, nk) for ni in (1, 2, 8, 9) for nj in _EDGES + [999, 1000, 1001, 2500]
                         for nk in (1, 33, 999, 1000, 1001, 2500)]),
    "reduce_kernel": ("polybench_acc_style.cu", reduce_, ("m", "n"),
                      [(m, n) for m in _EDGES + [499, 500, 501, 1200] for n in (1, 2, 8, 9, 600)]),
    "syr2k_kernel": ("polybench_acc_style.cu", syr2k, ("ni", "nj"),
                     [(ni, nj) for ni in _EDGES + [399, 400, 401, 900] for nj in _EDGES + [399, 400, 401, 900]]),
    "mm3_kernel3": ("polybench_acc_style.cu", mm3, ("ni", "nj", "nl"),
                    [(ni, nj, nl) for ni in (1, 2, 9) for nj in (1, 33, 399, 400, 401, 900)
                     for nl in _EDGES + [399, 400, 401, 900]]),
    "fdtd_step2_kernel": ("polybench_acc_style.cu", fdtd2, ("nx", "ny"),
                          [(nx, ny) for nx in (1, 2, 8, 9, 300) for ny in _EDGES + [349, 350, 351, 352, 353, 800]]),
    "fdtd_step3_kernel": ("polybench_acc_style.cu", fdtd3, ("nx", "ny"),
                          [(nx, ny) for nx in (1, 2, 3, 9, 10, 300)
                           for ny in _EDGES + [349, 350, 351, 352, 353, 800]]),
}


@pytest.fixture(scope="module")
def summaries():
    out = {}
    for file in sorted({f for f, *_ in CASES.values()}):
        names = {k for k, (f, *_rest) in CASES.items() if f == file}
        out.update({k.name: k for k in run([CUDA / file], AnalysisOptions(only=names)).kernels})
    return out


def _counted(summary, sizes: dict) -> dict:
    """The analyzer's (elements read first, written) per array at these sizes (covering grid)."""
    out = {}
    for name, a in summary.total.arrays.items():
        size = 4  # fp32
        out[name] = (a.read.pieces.value(sizes) // size, a.write.pieces.value(sizes) // size)
    return out


@pytest.mark.parametrize("kernel", sorted(CASES))
def test_exact_formulas_at_every_size(summaries, kernel):
    _file, hand, names, points = CASES[kernel]
    k = summaries[kernel]
    assert k.exact and "SR118" not in {d.code for d in k.diagnostics}, [str(d) for d in k.diagnostics]
    for point in points:
        sizes = dict(zip(names, point, strict=True))
        assert _counted(k, sizes) == hand(*point), sizes
        # Q compulsory: 4 bytes per element read first and per element written
        assert k.total.compulsory.pieces.value(sizes) == 4 * sum(r + w for r, w in hand(*point).values()), sizes


def test_the_pieces_shown(summaries):
    """The pieces printed for the arrays of gemm_acc_kernel: c[i*1000 + j] is ni*nj elements up to
    nj = 1000 and 1000*(ni - 1) + nj above (4 bytes each); a[i*1000 + k] the same in nk."""
    arrays = summaries["gemm_acc_kernel"].total.arrays
    pieces = {name: [(str(c), str(e)) for c, e in arrays[name].read.piece_list()] for name in ("a", "c")}
    assert pieces == {"a": [("nk <= 1000", "4*ni*nk"), ("nk >= 1001", "4000*ni + 4*nk - 4000")],
                      "c": [("nj <= 1000", "4*ni*nj"), ("nj >= 1001", "4000*ni + 4*nj - 4000")]}
    # at the sizes main passes (1000 each) the formula is that of the rows that do not overlap
    assert str(arrays["c"].write.expr) == "4*ni*nj"


# ---------------------------------------------------------------------------------------------
# Brute force: the kernels' loops run in Python, every access recorded in program order

class Run:
    def __init__(self):
        self.first: dict = {}  # (array, element) -> "r" | "w"
        self.written: set = set()

    def r(self, array: str, e: int) -> None:
        self.first.setdefault((array, e), "r")

    def w(self, array: str, e: int) -> None:
        self.first.setdefault((array, e), "w")
        self.written.add((array, e))

    def counts(self, arrays) -> dict:
        return {a: (sum(1 for (b, _), k in self.first.items() if b == a and k == "r"),
                    sum(1 for b, _ in self.written if b == a)) for a in arrays}


def run_gemm_acc(ni, nj, nk):
    x = Run()
    for i in range(ni):
        for j in range(nj):
            x.r("c", i * 1000 + j)  # c[i*NJ + j] *= beta
            x.w("c", i * 1000 + j)
            for k in range(nk):  # c += alpha * a[i*NK + k] * b[k*NJ + j]
                x.r("c", i * 1000 + j)
                x.r("a", i * 1000 + k)
                x.r("b", k * 1000 + j)
                x.w("c", i * 1000 + j)
    return x.counts("abc")


def run_syr2k(ni, nj):
    x = Run()
    for i in range(ni):
        for j in range(ni):
            x.r("c", i * 400 + j)
            x.w("c", i * 400 + j)
            for k in range(nj):
                x.r("c", i * 400 + j)
                x.r("a", i * 400 + k)
                x.r("b", j * 400 + k)
                x.r("b", i * 400 + k)
                x.r("a", j * 400 + k)
                x.w("c", i * 400 + j)
    return x.counts("abc")


def run_reduce(m, n):
    x = Run()
    for i in range(n):
        for j in range(m):
            x.r("data", i * 500 + j)  # data[i*M + j] -= mean[j]
            x.r("mean", j)
            x.w("data", i * 500 + j)
            x.r("data", i * 500 + j)  # data[i*M + j] /= sqrt(FLOAT_N) * std[j]
            x.r("std", j)
            x.w("data", i * 500 + j)
    return x.counts(("data", "mean", "std"))


def run_mm3(ni, nj, nl):
    x = Run()
    for i in range(ni):
        for j in range(nl):
            for k in range(nj):  # G[i*NL + j] += E[i*NJ + k] * F[k*NL + j]
                x.r("G", i * 400 + j)
                x.r("E", i * 400 + k)
                x.r("F", k * 400 + j)
                x.w("G", i * 400 + j)
    return x.counts("EFG")


def run_fdtd2(nx, ny):
    x = Run()
    for i in range(nx):
        for j in range(1, ny):  # ex[i*(NY + 1) + j] = ex[...] - 0.5f*(hz[i*NY + j] - hz[i*NY + j - 1])
            x.r("ex", i * 351 + j)
            x.r("hz", i * 350 + j)
            x.r("hz", i * 350 + j - 1)
            x.w("ex", i * 351 + j)
    return x.counts(("ex", "hz"))


def run_fdtd3(nx, ny):
    x = Run()
    for i in range(nx - 1):
        for j in range(ny - 1):
            x.r("hz", i * 350 + j)
            x.r("ex", i * 351 + j + 1)
            x.r("ex", i * 351 + j)
            x.r("ey", (i + 1) * 350 + j)
            x.r("ey", i * 350 + j)
            x.w("hz", i * 350 + j)
    return x.counts(("ex", "ey", "hz"))


@pytest.mark.parametrize("kernel, simulate, point", [
    ("gemm_acc_kernel", run_gemm_acc, (1, 1, 1)),
    ("gemm_acc_kernel", run_gemm_acc, (3, 999, 2)),
    ("gemm_acc_kernel", run_gemm_acc, (3, 1001, 2)),
    ("gemm_acc_kernel", run_gemm_acc, (2, 3, 1001)),
    ("reduce_kernel", run_reduce, (499, 2)),
    ("reduce_kernel", run_reduce, (501, 3)),
    ("mm3_kernel3", run_mm3, (2, 3, 401)),
    ("mm3_kernel3", run_mm3, (2, 401, 3)),
    ("fdtd_step2_kernel", run_fdtd2, (2, 351)),
    ("fdtd_step2_kernel", run_fdtd2, (3, 352)),
    ("fdtd_step2_kernel", run_fdtd2, (2, 1)),
    ("syr2k_kernel", run_syr2k, (2, 401)),
    ("syr2k_kernel", run_syr2k, (33, 3)),
    ("fdtd_step3_kernel", run_fdtd3, (3, 351)),
    ("fdtd_step3_kernel", run_fdtd3, (3, 353)),
    ("fdtd_step3_kernel", run_fdtd3, (1, 9)),
])
def test_against_running_the_loops(summaries, kernel, simulate, point):
    sizes = dict(zip(CASES[kernel][2], point, strict=True))
    assert _counted(summaries[kernel], sizes) == simulate(*point) == CASES[kernel][1](*point)


# ---------------------------------------------------------------------------------------------
# The rule itself: first accesses among the leading references give the same function

ROW_SUMS = r"""#include <stdlib.h>
#define LD 64

/* Row sums of a tile stored with a leading dimension, as a blocked solver forms its residual. */
void row_sums(int n, int m, const float *a, float *s, float *t)
{
    for (int i = 0; i < n; i++) {
        s[i] = 0.0f;                           /* s: written first, then read and written */
        for (int j = 0; j < m; j++)
            s[i] += a[i * LD + j];             /* a: rows overlap once m > LD */
        t[i * LD] = 0.5f * t[i * LD] + s[i];   /* t: read first, then written */
    }
}

int main(void)
{
    int n = 100, m = 80;
    float *a = calloc(n * LD + m, sizeof(float)), *s = calloc(n, sizeof(float)), *t = calloc(n * LD, sizeof(float));
    row_sums(n, m, a, s, t);
    return (int)s[0];
}
"""


def test_leading_references_count_the_same_function(tmp_path):
    """For each array, the counts from the leading references equal those from every reference, as
    isl functions of n and m (at every size), and by hand: s is written first (read first 0,
    written n: its leading reference is the write alone); a read rows(n, m, 64); t[i*64] read first
    and written, n each (its leading reference is the read)."""
    import islpy as isl

    from staticroof.analysis import polyhedra as P, traffic
    from staticroof.analysis.domain import instances
    from staticroof.frontends import load

    path = tmp_path / "row_sums.c"
    path.write_text(ROW_SUMS)
    kernel = next(k for k in load(str(path), {})[0].kernels if k.name == "row_sums")
    namer = P.Namer()
    insts = instances(kernel, namer)
    t_rank = max(len(i.schedule) + 1 for i in insts)
    kinds = {}
    for name, refs in traffic.dram_refs(kernel, insts).items():
        coords = [r[0].index for r in refs]
        texts = traffic._map_texts(refs, coords, namer, t_rank)
        kept = tuple(traffic._leading(refs, coords, namer))
        kinds[name] = [texts[k][0] for k in kept]
        every, leading = traffic._first_counts(texts, None), traffic._first_counts(texts, kept)
        for full, pruned in zip(every, leading, strict=True):
            assert (full is None) == (pruned is None), name
            if full is not None:
                assert full.sub(pruned).is_zero(), name
        for n in (1, 2, 5):
            for m in (1, 63, 64, 65, 200):
                point = isl.Point.zero(leading[-1].get_domain_space())
                space = leading[-1].get_domain_space()
                for k in range(space.dim(isl.dim_type.param)):
                    v = {"p_n": n, "p_m": m}[space.get_dim_name(isl.dim_type.param, k)]
                    point = point.set_coordinate_val(isl.dim_type.param, k, v)
                got = tuple(None if pw is None else pw.eval(point).to_python() for pw in leading)
                assert got == {"s": (n, 0), "a": (None, rows(n, m, 64)), "t": (n, n)}[name], (name, n, m)
    assert kinds == {"s": ["write"], "a": ["read"], "t": ["read"]}
