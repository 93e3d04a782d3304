"""The printed reports an analysis entry keeps (staticroof/cache/printed.py): believed only beside the
very result they were printed from, one per way of printing (the latest MAX_VIEWS), and invisible to
the readers of the analysis (lint, diff), which decode the entry as before.  No analysis runs here:
the entries hold an empty report, so each test takes milliseconds."""

from __future__ import annotations

from staticroof.cache import Cache, printed, runner
from staticroof.options import AnalysisOptions
from staticroof.pipeline import Report

VIEW = {"kernels": ["k.c:1:6: k  [c, exact]"], "diagnostics": ["k.c:1:1: SR004 note"], "codes": ["SR004"],
        "failed": False, "names": []}


def _part():
    return runner.encode_report(Report())


def test_views_ride_in_the_entry_and_the_report_still_decodes():
    payload = printed.with_views(_part(), {"a": VIEW})
    assert printed.views_of(payload) == {"a": VIEW}
    decoded = runner.decode_report(payload)  # what lint and diff read: the views are ignored
    assert decoded.kernels == [] and decoded.file_diagnostics == [] and decoded.failed is False
    assert printed.views_of(_part()) == {}  # an entry written by lint has none


def test_views_of_an_altered_result_are_not_believed():
    payload = printed.with_views(_part(), {"a": VIEW})
    # the result beside the views changes (failed flips): the views were printed from another one
    payload["v"]["d"] = [[k, (not v) if k == "failed" else v] for k, v in payload["v"]["d"]]
    assert printed.views_of(payload) == {}
    forged = printed.with_views(_part(), {"a": VIEW})
    forged["x"].append(["Integer", 7])
    assert printed.views_of(forged) == {}
    garbled = printed.with_views(_part(), {"a": VIEW})
    garbled["v"]["d"][-1][1] = garbled["v"]["d"][-1][1][:-3]  # truncated JSON of the views
    assert printed.views_of(garbled) == {}


def test_a_view_of_the_wrong_shape_is_a_miss():
    assert printed._decode_view(VIEW, "text") is not None
    assert printed._decode_view(VIEW, "json") is None  # text lines are not JSON objects
    assert printed._decode_view({**VIEW, "codes": []}, "text") is None  # a code per diagnostic
    assert printed._decode_view({**VIEW, "failed": "no"}, "text") is None
    assert printed._decode_view({**VIEW, "extra": 1}, "text") is None
    assert printed._decode_view({**VIEW, "names": [1]}, "text") is None  # the names --dtype and -D can mean
    assert printed._decode_view({k: v for k, v in VIEW.items() if k != "names"}, "text") is None  # an older entry
    assert printed._decode_view({"kernels": [{"name": "k"}], "diagnostics": [], "codes": [], "failed": True,
                                 "names": ["n"]}, "json").names == ["n"]


def test_each_way_of_printing_is_kept_up_to_the_latest_few(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "k.c"
    src.write_text("void k(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 0; }\n")
    options = AnalysisOptions()
    cache = Cache(tmp_path / ".staticroof_cache")
    key = runner.key_of(src, options)
    assert cache.put(runner.KIND, key, _part())  # an analysis entry as lint leaves it: no views
    shown = []

    def show(report):
        shown.append(report)
        return printed.Printed([f"block {len(shown)}"], [], [], False)

    for n in range(printed.MAX_VIEWS + 2):  # ten ways of printing, each shown once from the entry
        view = {"format": "text", "color": False, "unit": None, "machine": {"name": f"m{n}"}}
        (part,) = printed.run([src], options, view, show, cache)
        assert part.kernels == [f"block {n + 1}"]
    assert len(shown) == printed.MAX_VIEWS + 2  # every first sight decoded the stored (empty) report
    views = printed.views_of(cache.get(runner.KIND, key))
    names = [printed.view_name({"format": "text", "color": False, "unit": None, "machine": {"name": f"m{n}"}})
             for n in range(printed.MAX_VIEWS + 2)]
    assert list(views) == names[2:]  # the latest eight, oldest first
    # a kept way of printing is read back without showing anything
    last = {"format": "text", "color": False, "unit": None, "machine": {"name": f"m{printed.MAX_VIEWS + 1}"}}
    (again,) = printed.run([src], options, last, show, cache)
    assert again.kernels == [f"block {printed.MAX_VIEWS + 2}"] and len(shown) == printed.MAX_VIEWS + 2
