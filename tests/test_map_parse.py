"""traffic._maps builds each reference's access and schedule maps from a loop body parsed once as a
set, restricted to it, instead of parsing every whole map (`S[..] -> A[..] : constraints`) from its
text (issue #15: parsing was most of the compulsory-traffic time).  The maps must be the same maps,
and what the counting reads of them (the elements written, the elements read first, as isl's
quasi-polynomial text: the JSON's formulas come from it) must be the same text.  Checked on every
reference set met while analysing real files, against the whole-text construction kept here."""

from __future__ import annotations

import os

import islpy as isl
import pytest

from staticroof.analysis import traffic

from helpers import ROOT

FILES = ["tests/data/real/cuda/gemm.cu", "tests/data/cuda/laplace3d.cu", "tests/data/cuda/tile_div_mod.cu",
         "tests/data/real/cuda/stencils.cu", "samples/jacobi2d.c", "samples/triangular.c",
         "samples/stencil2d.cu", "benchmarks/bench30/fdtd2d.c", "benchmarks/bench30/floyd_warshall.c"]


def _whole_text_maps(texts: tuple):
    """_maps as it was: each reference's two maps parsed from their whole text."""
    reads = writes = None
    for kind, hdr, dims, body, idx, when in texts:
        acc = isl.Map(f"{hdr} -> {{ S[{dims}] -> A[{idx}] : {body} }}")
        m = acc.reverse().apply_range(isl.Map(f"{hdr} -> {{ S[{dims}] -> T[{when}] : {body} }}"))
        if kind == "read":
            reads = m if reads is None else reads.union(m)
        else:
            writes = m if writes is None else writes.union(m)
    return reads, writes


def _counts(texts: tuple, maps) -> tuple:
    """traffic._first_counts of the references (elements written, elements read first) with `maps`
    as its _maps, as isl's text; its memo is emptied before and after (it would answer the second)."""
    real = traffic._maps
    traffic._maps = maps
    traffic._FIRST.clear()
    try:
        return tuple(None if pw is None else str(pw) for pw in traffic._first_counts(texts))
    finally:
        traffic._maps = real
        traffic._FIRST.clear()


_SPY = """
import json, sys
from staticroof.options import AnalysisOptions
from staticroof import pipeline
from staticroof.analysis import traffic
seen = []
real = traffic._maps
traffic._maps = lambda texts: (seen.append(texts), real(texts))[1]
pipeline.run(sys.argv[1:], AnalysisOptions(time_budget=0))
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def met():
    """Every tuple of references _maps was given while the files were analysed, in a fresh process
    (in this one, memos filled by earlier tests would leave some uncounted)."""
    import json
    import subprocess
    import sys

    paths = [os.path.join(ROOT, f) for f in FILES]
    assert all(os.path.exists(p) for p in paths)
    env = dict(os.environ, STATICROOF_SERVER="0")
    run = subprocess.run([sys.executable, "-c", _SPY, *paths], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    return list(dict.fromkeys(tuple(tuple(t) for t in texts) for texts in json.loads(run.stdout)))


def test_files_meet_many_reference_sets(met):
    # floors of tile counts (gemm), 3-d grids (laplace3d), modulo indices (tile_div_mod), triangles
    assert len(met) >= 40
    assert any("floor" in t[3] for ts in met for t in ts)
    assert any(len(ts) >= 4 for ts in met)


def test_same_maps_as_whole_text_parsing(met):
    for texts in met:
        new, old = traffic._maps(texts), _whole_text_maps(texts)
        for a, b in zip(new, old, strict=True):
            assert (a is None) == (b is None), texts
            if a is not None:
                assert a.is_equal(b), texts


def test_same_counts_as_whole_text_parsing(met):
    """The counts are the same functions.  Their isl text is the same for all but one of the 45
    reference sets met here (laplace3d's write set, whose pieces isl splits differently); the
    formulas read from them, and so the JSON, are the same (test_same_json_as_whole_text_parsing)."""
    differ = 0
    for texts in met:
        new, old = _counts(texts, traffic._maps), _counts(texts, _whole_text_maps)
        for a, b in zip(new, old, strict=True):
            assert (a is None) == (b is None), texts
            if a is not None and a != b:
                differ += 1
                assert isl.PwQPolynomial(a).sub(isl.PwQPolynomial(b)).is_zero(), texts
    assert differ <= 2


_RUN = """
import sys
from staticroof.analysis import traffic
if sys.argv[1] == "whole":
    sys.path.insert(0, sys.argv[2])
    from test_map_parse import _whole_text_maps
    traffic._maps = _whole_text_maps
from staticroof.cli import main
main(["analyze", "--format", "json", "-j", "1", *sys.argv[3:]])
"""


def test_same_json_as_whole_text_parsing():
    """End to end, in fresh processes (no memo shared): the JSON, byte for byte, of the files with
    tile-count floors, 3-d grids (the reference set whose count's text differs) and modulo indices."""
    import subprocess
    import sys

    env = dict(os.environ, STATICROOF_TIME_BUDGET="0", STATICROOF_SERVER="0")
    out = []
    for how in ("shared", "whole"):
        run = subprocess.run([sys.executable, "-c", _RUN, how, os.path.dirname(__file__), *FILES[:3]], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        out.append(run.stdout)
    assert out[0] == out[1]
    assert '"kernels"' in out[0]


def test_shared_parses_are_not_changed_by_use(met):
    # one parsed object serves every later reference with the same text: using it changes nothing
    texts = max(met, key=len)
    first = [str(m) for m in traffic._maps(texts) if m is not None]
    for m in traffic._maps(texts):
        if m is not None:
            m.domain().card(), m.lexmin()
    assert [str(m) for m in traffic._maps(texts) if m is not None] == first


HEADS = r"""/* Four loops over the first 100 elements, as a buffer-processing file writes them.  Their
 * maps name no array, so the loop bodies' texts recur from kernel to kernel: the later kernels
 * take every parsed body and access from the earlier ones (traffic._parsed). */
#define HEAD 100

void copy_head(int n, const float *x, float *y)
{
    for (int i = 0; i < n; ++i)
        if (i < HEAD)
            y[i] = x[i];
}

void copy_head_again(int n, const float *u, float *v)
{
    for (int i = 0; i < n; ++i)
        if (i < HEAD)
            v[i] = u[i];
}

void through_temp(int n, const float *x, float *t, float *y)
{
    for (int i = 0; i < n; ++i)
        if (i < HEAD) {
            t[i] = x[i];
            y[i] = 2.0f * t[i];
        }
}

void pair_sum(int n, const float *x, float *y)
{
    for (int i = 1; i < n; ++i)
        if (i < HEAD)
            y[i] = x[i - 1] + x[i];
}
"""


def heads_expected(n: int) -> dict:
    """(elements read first, elements written) per kernel and array, by hand.  The first three run
    i = 0 .. k-1 with k = min(n, 100): x (u) read first k times, y (v) written k times; t[i] is
    written before it is read, so it is written k times and never read first.  pair_sum runs
    i = 1 .. c with c = min(n, 100) - 1 (none when n <= 1): it writes y[1..c] (c elements) and reads
    x[0..c-1] and x[1..c], whose union x[0..c] is c + 1 elements when c >= 1, none otherwise."""
    k = min(n, 100)
    c = max(min(n, 100) - 1, 0)
    return {"copy_head": {"x": (k, 0), "y": (0, k)}, "copy_head_again": {"u": (k, 0), "v": (0, k)},
            "through_temp": {"x": (k, 0), "t": (0, k), "y": (0, k)},
            "pair_sum": {"x": (c + 1 if c else 0, 0), "y": (0, c)}}


@pytest.mark.parametrize("n", [1, 2, 37, 99, 100, 101, 1000])
def test_shared_parses_count_each_kernel_by_hand(tmp_path, n):
    """Sizes on both sides of the kernels' 100 (and at it), and the empty and one-iteration loops.
    The macro stays a size of the formulas (`Min(HEAD, n)`), bound to its 100 here."""
    from staticroof import analysis
    from staticroof.frontends import load

    path = tmp_path / "heads.c"
    path.write_text(HEADS)
    lowered, _ = load(str(path), {})
    got = {}
    sizes = {"n": n, "HEAD": 100}
    for kernel in lowered.kernels:
        result = analysis.count_attempt(kernel, {}, {}, False, 0)
        got[kernel.name] = {name: (t.read.value(sizes) or 0, t.write.value(sizes) or 0)
                            for name, t in result.total.arrays.items()}
    assert got == heads_expected(n)
