"""Every example in the README (a ```` ``` ```` block starting with `$ staticroof ...`) is run and
its shown output compared with the real one, so the examples cannot drift from the tool.

An example may elide lines with `...`: the lines it shows must appear in the output in that order
(each compared with runs of whitespace collapsed); without `...` the output must match exactly."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import ROOT

README = ROOT / "README.md"
_BLOCK = re.compile(r"^```[^\n]*\n(\$ staticroof [^\n]*)\n(.*?)^```", re.M | re.S)


def examples():
    text = README.read_text(encoding="utf-8")
    out = []
    for m in _BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append(pytest.param(m.group(1)[2:], m.group(2), id=f"README.md:{line}"))
    return out


def _norm(line: str) -> str:
    return " ".join(line.split())


def test_the_readme_has_examples():
    assert len(examples()) >= 4


@pytest.mark.parametrize("command,shown", examples())
def test_readme_example(command, shown, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = shlex.split(command)[1:]
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    got = [_norm(x) for x in result.output.splitlines() if x.strip()]
    want = [_norm(x) for x in shown.splitlines() if x.strip()]
    if "..." not in want:
        assert got == want, "\n".join(result.output.splitlines())
        return
    pos = 0
    for w in want:
        if w == "...":
            continue
        try:
            pos = got.index(w, pos) + 1
        except ValueError:
            pytest.fail(f"README line not in the output (or out of order):\n  {w}\n\noutput:\n{result.output}")
