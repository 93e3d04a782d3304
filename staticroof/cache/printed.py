"""`analyze --use-cache`: a file's printed report kept in its analysis entry, so that a run where
every file hits prints from JSON alone, importing no front end, no analysis and no sympy (whose
import is most of a cold run's time).

A view is one way of printing a file: the format, color, and the machine and unit its kernels are
placed under.  For each view seen (the latest `MAX_VIEWS`), the entry holds each kernel's block
(text) or object (JSON), the file's diagnostics the same way, their codes (the exit status reads
them) and whether the file failed: what the report of a fresh run is joined from
(reports.text.join, reports.json.join), so a hit prints it byte for byte.

The views ride in the analysis entry (one entry per file, which `lint` and `diff` read as before)
as one more item of the encoded report, ``"printed"``: a JSON string ``{"of": digest, "views":
{name: view}}``, where `digest` is the SHA-256 of the rest of the entry.  They are believed only
for that very analysis: an entry whose result was altered, truncated or forged is a miss as a
whole, analyzed afresh and replaced, as runner.py does.  An entry is written, like the analysis
entry, only when the result is not transient and the file did not change meanwhile.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .keys import canonical
from .store import Cache

if TYPE_CHECKING:
    from ..options import AnalysisOptions

ITEM = "printed"  # the encoded report's item that holds the views
MAX_VIEWS = 8  # per file: text and JSON, with and without color, under a machine or two


@dataclass
class Printed:
    """One file's part of the printed report."""

    kernels: list = field(default_factory=list)  # each kernel's text block or JSON object
    diagnostics: list = field(default_factory=list)  # the file's diagnostics: text lines or JSON objects
    codes: list = field(default_factory=list)  # those diagnostics' codes
    failed: bool = False  # a kernel or the file could not be analyzed
    transient: bool = False  # from an internal error or a preprocessor past its limits: not stored
    names: list = field(default_factory=list)  # pipeline.Report.names, sorted (what --dtype and -D can mean)


def view_name(view: dict) -> str:
    """A short, stable name for a way of printing (its options as JSON, hashed)."""
    return hashlib.sha256(json.dumps(canonical(view), sort_keys=True).encode()).hexdigest()[:32]


def run(files, options: AnalysisOptions, view: dict, show, cache: Cache, config_path=None) -> list:
    """[Printed] of each file under `view` (with a "format" of "text" or "json"), read from the
    file's analysis entry in `cache` when it has this view, else `show(report)` of the entry's
    report (or of a fresh analysis when the entry is missing or not believed), stored.
    `options`: the analysis's (runner.run's); `show` places and prints a pipeline.Report.  The
    fresh analyses run on up to `options.jobs` processes (runner.analyze_each)."""
    from . import runner

    name, fmt = view_name(view), view["format"]
    out: list = [None] * len(files)
    entries: list = [None] * len(files)  # (key, payload, views, report) of each file not printed yet
    for i, path in enumerate(files):
        key = runner.key_of(path, options, config_path)
        payload = cache.get(runner.KIND, key) if key else None
        views = views_of(payload)
        out[i] = _decode_view(views.get(name), fmt)
        if out[i] is None:
            entries[i] = (key, payload, views, _report(payload))
    fresh = [i for i, e in enumerate(entries) if e is not None and e[3] is None]
    analyzed = dict(zip(fresh, runner.analyze_each([files[i] for i in fresh], options), strict=True))
    for i, path in enumerate(files):
        if entries[i] is None:
            continue
        key, payload, views, report = entries[i]
        if i in analyzed:
            report, data = analyzed[i]
            stored = runner.encode_report(report) if data is None else data
        else:
            stored = _analysis_part(payload)
        part = show(report)  # after encoding: summaries are stored before a machine places them
        if (key and stored is not None and not part.transient
                and runner.key_of(path, options, config_path) == key):
            kept = dict(list({k: v for k, v in views.items() if k != name}.items())[-(MAX_VIEWS - 1):])
            kept[name] = _encode_view(part)
            cache.put(runner.KIND, key, with_views(stored, kept))
        out[i] = part
    return out


def _report(payload):
    from . import runner

    if payload is None:
        return None
    try:
        return runner.decode_report(_analysis_part(payload))
    except Exception:  # anything malformed is a miss, as in Cache.get
        return None


def _encode_view(part: Printed) -> dict:
    return {"kernels": part.kernels, "diagnostics": part.diagnostics, "codes": part.codes, "failed": part.failed,
            "names": part.names}


def _decode_view(data, fmt: str) -> Printed | None:
    """The Printed of a stored view for format `fmt`; None for anything else (a miss)."""
    item = str if fmt == "text" else dict
    if not isinstance(data, dict) or set(data) != {"kernels", "diagnostics", "codes", "failed", "names"}:
        return None
    kernels, diagnostics, codes, failed = data["kernels"], data["diagnostics"], data["codes"], data["failed"]
    names = data["names"]
    if (not isinstance(kernels, list) or not all(isinstance(k, item) for k in kernels)
            or not isinstance(diagnostics, list) or not all(isinstance(d, item) for d in diagnostics)
            or not isinstance(codes, list) or len(codes) != len(diagnostics)
            or not all(isinstance(c, str) for c in codes) or not isinstance(failed, bool)
            or not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
        return None
    return Printed(kernels, diagnostics, codes, failed, names=names)


# -- the views inside an encoded report (cache.codec's dump of runner.encode_report's dict) ----------

def _split(payload):
    """(the payload without its views, the views' JSON string or None); None when the payload is
    not an encoded report's dump."""
    if not isinstance(payload, dict) or set(payload) != {"x", "v"}:
        return None
    value = payload["v"]
    if not isinstance(value, dict) or set(value) != {"d"} or not isinstance(value["d"], list):
        return None
    rest, text = [], None
    for pair in value["d"]:
        if isinstance(pair, list) and len(pair) == 2 and pair[0] == ITEM:
            text = pair[1]
        else:
            rest.append(pair)
    return {"x": payload["x"], "v": {"d": rest}}, text


def _analysis_part(payload):
    split = _split(payload)
    return split[0] if split is not None else None


def _digest(part) -> str:
    return hashlib.sha256(json.dumps(part, separators=(",", ":")).encode()).hexdigest()


def views_of(payload) -> dict:
    """{view name: stored view} of an analysis entry's payload; {} when it has none, or when the
    rest of the entry is not the analysis they were printed from."""
    split = _split(payload)
    if split is None or not isinstance(split[1], str):
        return {}
    part, text = split
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    if (not isinstance(doc, dict) or doc.get("of") != _digest(part) or not isinstance(doc.get("views"), dict)):
        return {}
    return doc["views"]


def with_views(part: dict, views: dict) -> dict:
    """The analysis payload `part` (without views) carrying `views`."""
    text = json.dumps({"of": _digest(part), "views": views}, separators=(",", ":"))
    return {"x": part["x"], "v": {"d": [*part["v"]["d"], [ITEM, text]]}}
