"""`lint` through the content-hash cache (issue #12 item 3): a warm run on unchanged files prints
exactly what the cold run printed without importing the analysis (no sympy); a changed file, a
changed header, a changed configuration or other options are new entries; `--no-cache` neither
reads nor writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from staticroof.cli import main

from helpers import AOS_HEADER, BODIES, HOT_HEADER, lint, lint_codes


@pytest.fixture(autouse=True)
def _no_project_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def _entries(root: Path, kind: str = "lint") -> list:
    return sorted((root / ".staticroof_cache" / "v1" / kind).rglob("*.json"))


def test_warm_run_prints_the_same_without_the_analysis(tmp_path):
    files = {"nbody.h": AOS_HEADER, "bodies.c": BODIES}
    cold = lint(tmp_path, files)
    assert lint_codes(cold[1]) == ["RF201"] and len(_entries(tmp_path)) == 1
    assert (tmp_path / ".staticroof_cache" / "CACHEDIR.TAG").is_file()
    code = ("import sys\nfrom staticroof.cli import main\n"
            f"try:\n    main(['lint', {str(tmp_path / 'bodies.c')!r}, '--format', 'json'])\n"
            "except SystemExit as e:\n    status = e.code\n"
            "print('analysis imported' if 'sympy' in sys.modules else 'no analysis', status, file=sys.stderr)\n")
    warm = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert warm.stderr.strip() == "no analysis 1"
    again = lint(tmp_path, files)
    assert again[:2] == cold[:2]


def test_a_changed_header_is_a_new_entry(tmp_path):
    assert lint_codes(lint(tmp_path, {"nbody.h": AOS_HEADER, "bodies.c": BODIES})[1]) == ["RF201"]
    # only the header changes: the struct now holds just what the loop uses
    assert lint(tmp_path, {"nbody.h": HOT_HEADER, "bodies.c": BODIES})[:2] == (0, [])
    assert len(_entries(tmp_path)) == 2


def test_configuration_and_options_are_in_the_key(tmp_path):
    files = {"nbody.h": AOS_HEADER, "bodies.c": BODIES}
    assert lint_codes(lint(tmp_path, files)[1]) == ["RF201"]
    assert lint(tmp_path, files, "--ignore", "RF2")[:2] == (0, [])
    (Path(tmp_path) / "pyproject.toml").write_text('[tool.staticroof]\nselect = ["RF1"]\n')
    assert lint(tmp_path, files)[:2] == (0, [])
    (Path(tmp_path) / "pyproject.toml").write_text('[tool.staticroof]\nselect = ["RF2"]\n')
    found = lint(tmp_path, files, "-D", "n=100")[1]
    # n = 100: 24*n = 2,400 B as a structure of arrays
    assert lint_codes(found) == ["RF201"] and "24*n = 2,400 B" in found[0][3]


def test_no_cache_writes_nothing(tmp_path):
    p = Path(tmp_path) / "bodies.c"
    (Path(tmp_path) / "nbody.h").write_text(AOS_HEADER)
    p.write_text(BODIES)
    r = CliRunner().invoke(main, ["lint", str(p), "--no-cache"])
    assert r.exit_code == 1 and "RF201" in r.output
    assert not (Path(tmp_path) / ".staticroof_cache").exists()


def test_a_corrupt_entry_is_a_miss(tmp_path):
    files = {"nbody.h": AOS_HEADER, "bodies.c": BODIES}
    cold = lint(tmp_path, files)
    (entry,) = _entries(tmp_path)
    entry.write_text(entry.read_text().replace('"findings"', '"findingz"'))
    assert lint(tmp_path, files)[:2] == cold[:2]


def test_library_versions_without_importlib_metadata():
    # the cache key's library versions come from the dist-info folders importlib.metadata reads
    from importlib import metadata

    from staticroof.cache.keys import _LIBRARIES, _library_version

    for name in (*_LIBRARIES, "click", "networkx"):
        try:
            expected = metadata.version(name)
        except metadata.PackageNotFoundError:
            expected = "-"
        assert _library_version(name) == expected, name
