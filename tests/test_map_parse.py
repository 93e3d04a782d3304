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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def _counts(reads, writes) -> tuple:
    """What _first_counts reads of the maps (every reference leading), as isl's text."""
    written = None if writes is None else str(writes.domain().card())
    if reads is None:
        return written, None
    first = reads.domain() if writes is None else reads.union(writes).lexmin().intersect(reads).domain()
    return written, str(first.card())


_SPY = """
import json, sys
from staticroof import pipeline
from staticroof.analysis import traffic
seen = []
real = traffic._maps
traffic._maps = lambda texts: (seen.append(texts), real(texts))[1]
pipeline.run(sys.argv[1:], {}, time_budget=0)
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
        new, old = _counts(*traffic._maps(texts)), _counts(*_whole_text_maps(texts))
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
