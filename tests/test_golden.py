"""Byte-for-byte JSON of whole runs, against stored copies (issue #15: "results are identical before
and after every optimization").

Speed work (caches, lazy imports, reordered isl calls, process pools) must not change a single
number, formula, diagnostic or ordering.  Each case below is one `analyze ... --format json` run over
a folder of real kernels; its output is compared with the copy in tests/data/golden/.  Re-derive a
copy only when a counting rule or the JSON changes on purpose, and say so in the commit:

    python tests/test_golden.py --update
"""

from __future__ import annotations

import difflib
import os
import sys

import pytest
from click.testing import CliRunner

from helpers import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden"

# name -> analyze arguments (paths relative to the repository root, so output names are stable)
CASES = {
    "samples": ["samples"],
    "samples_sized_a100": ["samples", "-D", "n=1000", "-D", "N=1000", "--machine", "a100"],
    "data_c_python": ["tests/data/c", "tests/data/python"],
}


def _run(args: list[str]) -> tuple[int, str]:
    from staticroof.cli import main

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, ["analyze", *args, "--format", "json"], catch_exceptions=False)
    finally:
        os.chdir(here)
    return result.exit_code, result.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_matches_the_stored_copy(name):
    code, out = _run(CASES[name])
    stored = (GOLDEN / f"{name}.json").read_text()
    if out != stored:
        diff = "".join(difflib.unified_diff(stored.splitlines(True), out.splitlines(True),
                                            f"stored/{name}.json", f"now/{name}.json", n=2))
        pytest.fail(f"`analyze {' '.join(CASES[name])} --format json` changed:\n{diff[:6000]}")
    assert code == 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_golden.py --update")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, args in CASES.items():
        code, out = _run(args)
        (GOLDEN / f"{name}.json").write_text(out)
        print(f"{name}: exit {code}, {len(out)} bytes")
