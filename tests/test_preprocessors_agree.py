"""Results never depend on whether a C compiler is installed (issue #30 §8): the system
preprocessor (`cc -E -undef`) and pcpp (STATICROOF_NO_CPP=1) see the same macros, GCC's dynamic
built-ins (`__LINE__`, `__has_include`...) included, and give the same report for every sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from staticroof.frontends.common import preprocess as pp
from staticroof.frontends.common.predefined import FEATURE_QUERIES, GCC_BUILTINS

from helpers import SAMPLES

needs_cc = pytest.mark.skipif(not pp.system_preprocessor_available(), reason="no system C compiler to compare with")


def _lines(path: Path, system: bool) -> list:
    out = pp.preprocess(str(path), path.read_text(), {}, use_system=system)
    assert out.ok, out.diagnostics
    return [line.strip() for line in out.text.splitlines() if line.strip() and not line.startswith("#")]


# (name, defined under `cc -E -undef`, hence under both)
_NAMES = [*((n, True) for n in GCC_BUILTINS + FEATURE_QUERIES), ("__STDC_HOSTED__", True),
          ("__STDC_UTF_16__", False), ("__STDC_UTF_32__", False), ("__PCPP__", False), ("__has_feature", False)]


@needs_cc
def test_ifdef_and_defined_agree_on_every_builtin(tmp_path):
    p = tmp_path / "m.c"
    p.write_text("".join(f"#ifdef {n}\n{n}_ifdef\n#endif\n#if defined({n})\n{n}_paren\n#endif\n"
                         f"#if defined {n}\n{n}_bare\n#endif\n#ifndef {n}\n{n}_ifndef\n#endif\n" for n, _ in _NAMES))
    want = [f"{n}_{how}" for n, defined in _NAMES for how in (("ifdef", "paren", "bare") if defined else ("ifndef",))]
    assert _lines(p, True) == want
    assert _lines(p, False) == want


@needs_cc
def test_builtin_values_in_if_agree(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "there.h").write_text("#if __INCLUDE_LEVEL__ == 1\nlevel_one\n#endif\n")
    p = tmp_path / "v.c"
    p.write_text('#define HDR "there.h"\n#include "inc/there.h"\n'
                 '#if __has_include("inc/there.h")\nquote_found\n#endif\n'
                 "#if __has_include(<math.h>)\nstub_found\n#endif\n"
                 "#if !__has_include(<no_such_header_xyz.h>) && !__has_include(\"nope.h\")\nmissing_absent\n#endif\n"
                 "#if defined(__has_include) && __has_include_next(\"v.c\")\nnext_found\n#endif\n"
                 "#define SUB inc/there.h\n#define STR(x) #x\n#define XSTR(x) STR(x)\n"
                 "#if __has_include(XSTR(SUB))\nmacro_found\n#endif\n"
                 "#if __INCLUDE_LEVEL__ == 0 && __LINE__ > 10 && __COUNTER__ == 0\nmain_level\n#endif\n"
                 "#if __has_attribute(noinline) || __has_builtin(__builtin_expect)\nqueried\n#endif\n"
                 "#undef __LINE__\n#ifndef __LINE__\nline_undefined\n#endif\n")
    want = ["level_one", "quote_found", "stub_found", "missing_absent", "next_found", "macro_found", "main_level",
            "line_undefined"]
    assert _lines(p, True) == want
    assert _lines(p, False) == want


def _report(paths, monkeypatch, pcpp: bool) -> dict:
    from click.testing import CliRunner

    from staticroof.cli import main

    if pcpp:
        monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    else:
        monkeypatch.delenv("STATICROOF_NO_CPP", raising=False)
    r = CliRunner().invoke(main, ["analyze", "--format", "json", "--no-cache", *map(str, paths)])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.output)


def _comparable(report: dict) -> list:
    """Each kernel's name, W, Q, exactness and diagnostics (SR005's text is the preprocessor's own)."""
    def diagnostics(ds):
        return sorted((d.get("code"), d.get("line"), "" if d.get("code") == "SR005" else d.get("message"))
                      for d in ds or ())

    return [(k["name"], k["file"], k["status"], k["exact"], k["flops"], k["bytes"],
             diagnostics(k.get("diagnostics"))) for k in report["kernels"]] + [diagnostics(report.get("diagnostics"))]


@needs_cc
def test_every_sample_gives_the_same_report_through_both(monkeypatch):
    paths = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".c", ".cu"))
    assert len(paths) >= 20
    with_cc = _report(paths, monkeypatch, pcpp=False)
    assert len(with_cc["kernels"]) >= len(paths)
    assert _comparable(_report(paths, monkeypatch, pcpp=True)) == _comparable(with_cc)


@needs_cc
@pytest.mark.slow
def test_every_real_file_gives_the_same_report_through_both(monkeypatch):
    real = Path(__file__).parent / "data" / "real"
    paths = sorted(p for p in real.rglob("*") if p.suffix in (".c", ".cu", ".cpp"))
    assert _comparable(_report(paths, monkeypatch, pcpp=True)) == _comparable(_report(paths, monkeypatch, pcpp=False))
