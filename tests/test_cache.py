"""The content-hash cache (staticroof/cache): hits, what makes a miss, corrupt and foreign entries,
concurrent runs, and where the folder may appear."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

import staticroof
from staticroof import pipeline
from staticroof.cache import Cache, codec, file_key, runner
from staticroof.cache.keys import code_fingerprint
from staticroof.cache.store import CACHEDIR_TAG
from staticroof.cli import main
from staticroof.options import AnalysisOptions
from staticroof.reports import json as json_report, text as text_report

from helpers import SAMPLES

# A header of sizes and a kernel with a timer and a driver, as such files are written.
PARAMS_H = "#ifndef PARAMS_H\n#define PARAMS_H\n#define N 1000\ntypedef float real;\n#endif\n"
SCALE_C = """#include <stdio.h>
#include <time.h>
#include "params.h"

/* y[i] = a*x[i] + y[i] over N elements: W = 2N (one multiply, one add), Q = 12N (x read,
 * y read and written, 4 bytes each).  With N = 1000 from params.h: W = 2000, Q = 12000. */
void scale_add(real a, const real *restrict x, real *restrict y) {
    for (int i = 0; i < N; i++)
        y[i] = a * x[i] + y[i];
}

int main(void) {
    static real x[N], y[N];
    clock_t t0 = clock();
    scale_add(2.0f, x, y);
    printf("%f s\\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return 0;
}
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder with a pyproject.toml (the cache goes beside it), as the working folder."""
    (tmp_path / "pyproject.toml").write_text("[tool.staticroof]\n")
    (tmp_path / "params.h").write_text(PARAMS_H)
    (tmp_path / "scale.c").write_text(SCALE_C)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("STATICROOF_CACHE_DIR", raising=False)
    return tmp_path


def analyze(*args):
    r = CliRunner().invoke(main, ["analyze", *map(str, args)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r


def flops(output: str) -> dict:
    return {k["name"]: k["flops"]["total"] for k in json.loads(output)["kernels"]}


def entries(root):
    return sorted(p for p in (root / ".staticroof_cache").rglob("*.json"))


def test_second_run_is_a_hit_and_reports_the_same(project, monkeypatch):
    first = analyze("scale.c", "--use-cache", "--format", "json")
    assert first.exit_code == 0, first.output
    assert flops(first.output) == {"scale_add": 2000}  # W = 2N, N = 1000
    assert len(entries(project)) == 1

    def no_analysis(*a, **k):
        raise AssertionError("a hit must not analyze again")

    monkeypatch.setattr(pipeline, "run", no_analysis)
    second = analyze("scale.c", "--use-cache", "--format", "json")
    assert second.exit_code == 0 and second.output == first.output
    text = analyze("scale.c", "--use-cache")  # the text report from the same entry
    assert "W            2*N = 2,000 FLOP" in text.output


def test_folder_only_when_used_with_tag_and_gitignore(project):
    subprocess.run(["git", "init", "-q"], check=True)
    assert analyze("scale.c").exit_code == 0
    assert not (project / ".staticroof_cache").exists()  # a plain analyze writes nothing
    assert analyze("scale.c", "--no-cache").exit_code == 0
    assert not (project / ".staticroof_cache").exists()
    assert analyze("scale.c", "--use-cache").exit_code == 0
    root = project / ".staticroof_cache"
    assert (root / "CACHEDIR.TAG").read_text() == CACHEDIR_TAG
    assert (root / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert (root / ".gitignore").read_text().splitlines()[-1] == "*"
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], capture_output=True,
                            text=True, check=True).stdout
    assert ".staticroof_cache" not in status and "scale.c" in status


def test_cache_goes_beside_the_configuration(project, monkeypatch):
    sub = project / "src"
    sub.mkdir()
    (project / "scale.c").rename(sub / "scale.c")
    (project / "params.h").rename(sub / "params.h")
    monkeypatch.chdir(sub)
    assert analyze("scale.c", "--use-cache").exit_code == 0
    assert (project / ".staticroof_cache" / "CACHEDIR.TAG").is_file()
    assert not (sub / ".staticroof_cache").exists()


def test_header_change_is_a_miss(project):
    assert flops(analyze("scale.c", "--use-cache", "--format", "json").output) == {"scale_add": 2000}
    (project / "params.h").write_text(PARAMS_H.replace("N 1000", "N 3000"))
    # W = 2N with N = 3000 now: a stale entry would still say 2000
    assert flops(analyze("scale.c", "--use-cache", "--format", "json").output) == {"scale_add": 6000}
    assert len(entries(project)) == 2


def test_header_earlier_on_the_search_path_is_a_miss(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (b / "params.h").write_text(PARAMS_H)
    src = tmp_path / "scale.c"
    src.write_text(SCALE_C.replace('"params.h"', "<params.h>"))
    before = file_key(src, "analysis", {}, [a, b])
    (a / "params.h").write_text(PARAMS_H)  # the same text, but now found in a/ first
    assert file_key(src, "analysis", {}, [a, b]) != before
    (a / "params.h").unlink()
    assert file_key(src, "analysis", {}, [a, b]) == before


CHANGES = {
    "defines": {"N": "64"}, "include_dirs": ["inc"], "weights": {"expf": 4}, "only": {"scale_add"},
    "launches": {None: {"grid": (4,), "block": (256,)}}, "cache_bytes": 40 * 2**20, "l1_bytes": 196608,
    "all_functions": True, "kernel_sizes": {"scale_add": {"N": 64}}, "dtypes": {None: {"x": "float32"}},
}


@pytest.mark.parametrize("option", sorted(CHANGES))
def test_each_option_is_in_the_key(project, option):
    base = runner.key_of("scale.c", AnalysisOptions())
    assert runner.key_of("scale.c", AnalysisOptions(**{option: CHANGES[option]})) != base
    assert runner.key_of("scale.c", AnalysisOptions()) == base  # and keys are stable


def test_kind_file_name_config_and_version_are_in_the_key(project, monkeypatch):
    cfg = project / "pyproject.toml"
    base = file_key("scale.c", "analysis", {}, config_path=cfg)
    assert file_key("scale.c", "lint", {}, config_path=cfg) != base
    assert file_key("./scale.c", "analysis", {}, config_path=cfg) != base  # results carry the name
    cfg.write_text("[tool.staticroof]\nall-functions = true\n")
    assert file_key("scale.c", "analysis", {}, config_path=cfg) != base
    cfg.write_text("[tool.staticroof]\n")
    assert file_key("scale.c", "analysis", {}, config_path=cfg) == base
    with monkeypatch.context() as m:
        m.setattr(staticroof, "__version__", "99.0.0")
        code_fingerprint.cache_clear()
        try:
            assert file_key("scale.c", "analysis", {}, config_path=cfg) != base
        finally:
            code_fingerprint.cache_clear()
    assert file_key("scale.c", "analysis", {}, config_path=cfg) == base
    # the preprocessor in use is asked on every key, not once per process (a start-up server's command
    # may run with STATICROOF_NO_CPP=1: its pcpp result must not be stored under the cc key, #30 §7)
    from staticroof.frontends.common.preprocess import system_compiler

    if system_compiler() is not None:
        with monkeypatch.context() as m:
            m.setenv("STATICROOF_NO_CPP", "1")
            assert file_key("scale.c", "analysis", {}, config_path=cfg) != base
        assert file_key("scale.c", "analysis", {}, config_path=cfg) == base


def test_unreadable_file_has_no_key(tmp_path):
    (tmp_path / "bin.c").write_bytes(b"\x00\x01\x02")
    assert file_key(tmp_path / "bin.c", "analysis", {}) is None
    assert file_key(tmp_path / "missing.c", "analysis", {}) is None


def _corrupt_truncated(path):
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])


def _corrupt_garbage(path):
    path.write_bytes(b"\x80\x04\x95 not json at all")


def _corrupt_foreign_key(path):
    doc = json.loads(path.read_text())
    doc["key"] = "0" * 64
    path.write_text(json.dumps(doc))


def _corrupt_other_format(path):
    doc = json.loads(path.read_text())
    doc["format"] = 999
    path.write_text(json.dumps(doc))


def _corrupt_forged_expression(path):
    # a node naming something outside the codec's sympy classes must never be built
    doc = json.loads(path.read_text())
    doc["payload"]["x"].insert(0, ["__import__", [0]])
    path.write_text(json.dumps(doc))


def _corrupt_forged_class(path):
    doc = json.loads(path.read_text())
    doc["payload"]["v"] = {"c": "Popen", "f": {"args": ["true"]}}
    path.write_text(json.dumps(doc))


def _corrupt_deep(path):
    doc = json.loads(path.read_text())
    path.write_text(json.dumps(doc)[:-1] + ", \"extra\": " + "[" * 100000 + "]" * 100000 + "}")


def _corrupt_fifo(path):
    path.unlink()
    os.mkfifo(path)


def _corrupt_symlink(path):
    target = path.with_suffix(".target")
    path.rename(target)
    path.symlink_to(target)


CORRUPTIONS = [_corrupt_truncated, _corrupt_garbage, _corrupt_foreign_key, _corrupt_other_format,
               _corrupt_forged_expression, _corrupt_forged_class, _corrupt_deep, _corrupt_fifo, _corrupt_symlink]


def test_corrupt_or_foreign_entry_is_a_miss(project):
    """Each corruption of a real entry is a miss (None), never an exception."""
    report = pipeline.run([project / "scale.c"])
    payload = runner.encode_report(report)
    cache = Cache(project / ".staticroof_cache")
    for k, corrupt in enumerate(CORRUPTIONS):
        key = f"{k:064x}"
        assert cache.put("analysis", key, payload)
        assert cache.get("analysis", key, decode=runner.decode_report) is not None
        corrupt(cache.entry_path("analysis", key))
        assert cache.get("analysis", key, decode=runner.decode_report) is None, corrupt.__name__


def test_analyze_replaces_a_corrupt_entry(project):
    first = analyze("scale.c", "--use-cache", "--format", "json")
    (entry,) = entries(project)
    _corrupt_forged_expression(entry)
    again = analyze("scale.c", "--use-cache", "--format", "json")
    assert again.exit_code == 0 and again.output == first.output  # analyzed afresh, no traceback
    assert json.loads(entry.read_text())["key"] == entry.stem  # and replaced by a whole entry
    assert runner.decode_report(json.loads(entry.read_text())["payload"]).kernels[0].name == "scale_add"


def test_entry_of_another_file_under_this_key_is_a_miss(project):
    (project / "copy.c").write_text(SCALE_C.replace("scale_add", "other_kernel"))
    analyze("scale.c", "copy.c", "--use-cache")
    a, b = entries(project)
    a.write_bytes(b.read_bytes())  # a whole, valid entry, but of the other key
    out = analyze("scale.c", "copy.c", "--use-cache", "--format", "json").output
    assert sorted(flops(out)) == ["other_kernel", "scale_add"]


def test_unwritable_or_linked_cache_is_skipped_silently(project, monkeypatch):
    (project / "blocker").write_text("a file where the cache folder would go")
    monkeypatch.setenv("STATICROOF_CACHE_DIR", str(project / "blocker" / "cache"))
    r = analyze("scale.c", "--use-cache", "--format", "json")
    assert r.exit_code == 0 and flops(r.output) == {"scale_add": 2000}
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    (project / "linked").symlink_to(elsewhere)
    monkeypatch.setenv("STATICROOF_CACHE_DIR", str(project / "linked"))
    assert analyze("scale.c", "--use-cache").exit_code == 0
    assert list(elsewhere.iterdir()) == []  # a cache folder that is a link is never written through


_WRITER = """
import sys
from staticroof.cache import Cache
cache = Cache(sys.argv[1])
for _ in range(20):
    assert cache.put("analysis", "ab" * 32, sys.argv[2] * 300000)
"""
_READER = """
import sys
from staticroof.cache import Cache
cache = Cache(sys.argv[1])
seen = set()
for _ in range(150):
    got = cache.get("analysis", "ab" * 32)
    if got is not None:
        if got not in ("a" * 300000, "b" * 300000, "c" * 300000):
            sys.exit("a torn entry")
        seen.add(got[0])
print("".join(sorted(seen)))
"""


def test_concurrent_writers_and_readers_see_whole_entries(tmp_path):
    """Three processes write the same entry (300 kB, several system calls per write) while two
    read it: a reader sees no entry or a whole one, never a mix."""
    root = tmp_path / ".staticroof_cache"
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(root), c]) for c in "abc"]
    procs += [subprocess.Popen([sys.executable, "-c", _READER, str(root)], stdout=subprocess.PIPE, text=True)
              for _ in range(2)]
    for p in procs:
        p.wait(120)
        assert p.returncode == 0
    assert Cache(root).get("analysis", "ab" * 32) in ("a" * 300000, "b" * 300000, "c" * 300000)
    assert not [p for p in root.rglob("*") if p.name.startswith(".tmp-")]  # no temporary file left behind


def test_kinds_and_keys_are_file_names_only(tmp_path):
    cache = Cache(tmp_path / "c")
    assert not cache.put("../escape", "ab" * 32, 1)
    assert not cache.put("analysis", "../../x", 1)
    assert cache.get("analysis", "../../x") is None
    assert not (tmp_path / "c").exists()  # neither a refused write nor a read creates the folder


def _report(path):
    return pipeline.run([path], AnalysisOptions(cache_bytes=40 * 2**20, l1_bytes=196608))


@pytest.mark.parametrize("sample", ["stencil1d.c", "saxpy.cu"])
def test_codec_round_trip_reports_the_same(sample):
    """stencil1d's counts are piecewise in n (the JSON lists every piece); saxpy.cu has a launch."""
    report = _report(SAMPLES / sample)
    back = runner.decode_report(json.loads(json.dumps(runner.encode_report(report))))
    assert json_report.render(back.kernels, back.file_diagnostics) == \
        json_report.render(report.kernels, report.file_diagnostics)
    assert text_report.render(back.kernels, back.file_diagnostics, False) == \
        text_report.render(report.kernels, report.file_diagnostics, False)
    for k, b in zip(report.kernels, back.kernels, strict=True):
        assert b.total.flops.expr == k.total.flops.expr and b.total.compulsory.expr == k.total.compulsory.expr


def test_codec_refuses_unknown_things():
    import sympy

    with pytest.raises(codec.EncodeError):
        codec.dump(sympy.Function("f")(sympy.Symbol("n")))
    with pytest.raises(codec.EncodeError):
        codec.dump(object())
    with pytest.raises(ValueError):
        codec.load({"x": [["Symbol", "n", {"evil": True}]], "v": {"e": 0}})
    with pytest.raises(ValueError):
        codec.load({"x": [["Add", [0]]], "v": {"e": 0}})  # a node may refer only to earlier nodes
    with pytest.raises(KeyError):
        codec.load({"x": [], "v": {"c": "Path", "f": {}}})
    deep = [["Symbol", "n", {}]] + [["Add", [k, 0]] for k in range(1000)]  # printing it would recurse
    with pytest.raises(ValueError):
        codec.load({"x": deep, "v": {"e": 1000}})
    n = sympy.Symbol("n", integer=True, positive=True)
    e = sympy.Max(sympy.floor(n / 4) + 1, 2 * n) + sympy.Rational(1, 3)
    assert codec.load(json.loads(json.dumps(codec.dump([e, (1, None)])))) == [e, (1, None)]


def test_lint_rules_read_a_decoded_entry_as_a_fresh_result():
    """Lint's rules read the summaries and the loop IR they keep: on a hit (a decoded entry) every
    rule reports exactly what it reports on a fresh analysis (the memory accumulator of
    gemm_accum.c, the uncoalesced transpose, the fusion of the L2-norm kernels, ...)."""
    from staticroof.lint.context import FileContext
    from staticroof.lint.engine import selected_rules
    from staticroof.lint.settings import Settings

    rules = selected_rules(Settings())
    seen = set()
    for sample in ("gemm_accum.c", "transpose.cu", "l2norm.cu"):
        report = pipeline.run([SAMPLES / sample])
        back = runner.decode_report(json.loads(json.dumps(runner.encode_report(report))))
        fresh = [f for r in rules for f in r.check(FileContext(sample, report.kernels, report.file_diagnostics,
                                                                  Settings()))]
        cached = [f for r in rules for f in r.check(FileContext(sample, back.kernels, back.file_diagnostics,
                                                                   Settings()))]
        assert cached == fresh
        seen |= {f.code for f in fresh}
    assert {"RF202", "RF203"} <= seen  # the comparison covers rules that walk the IR


@pytest.mark.parametrize("include", ['#include /* the sizes */ "sizes.h"', '#include \\\n  "sizes.h"'],
                         ids=["comment", "continued"])
def test_headers_found_as_the_preprocessor_finds_them(tmp_path, monkeypatch, include):
    # #30 §6: an include with a comment in it or continued on the next line was missed by the key's
    # header search, so after editing the header --use-cache printed the old count.  N = 8 then 16:
    # W = N (one multiply per element), Q = 8N
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sizes.h").write_text("#define N 8\n")
    (tmp_path / "k.c").write_text(include + "\nvoid k(float *x) { for (int i = 0; i < N; i++) x[i] *= 2.0f; }\n")
    first = CliRunner().invoke(main, ["analyze", "--use-cache", "k.c"])
    assert "Q compulsory" in first.output and "64 B" in first.output, first.output
    (tmp_path / "sizes.h").write_text("#define N 16\n")
    second = CliRunner().invoke(main, ["analyze", "--use-cache", "k.c"])
    assert "Q compulsory" in second.output and "128 B" in second.output, second.output


def test_a_computed_include_is_never_cached(tmp_path):
    # `#include HDR`: only the preprocessor knows the file, so the file has no key (it is analyzed every
    # time) rather than a key that misses the header
    (tmp_path / "sizes.h").write_text("#define N 8\n")
    (tmp_path / "k.c").write_text('#define HDR "sizes.h"\n#include HDR\nvoid k(float *x) { x[0] = N; }\n')
    assert file_key(tmp_path / "k.c", "analysis", {}) is None
