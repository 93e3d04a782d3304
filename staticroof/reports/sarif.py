"""SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), for code scanning: one run of
the `staticroof` tool, its rules, and one result per annotation with its file and region.

Paths are repository-relative URIs under the `%SRCROOT%` base (percent-encoded, so a name with
spaces is still a URI reference); a result with no line has no region.  `tests/test_diff.py`
validates the output against the official schema (`tests/data/sarif-schema-2.1.0.json`).
"""

from __future__ import annotations

import json
from urllib.parse import quote

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def _uri(path: str) -> str:
    return quote(path.replace("\\", "/"), safe="/")


def log(annotations, rules: dict, properties: dict | None = None) -> dict:
    """The SARIF log of `annotations` (staticroof.reports.annotation.Annotation).  `rules`: {code:
    (name, description)} for every code that may appear (those used are listed, in code order)."""
    from .. import __version__

    used = sorted({a.code for a in annotations} | set(rules))
    index = {code: k for k, code in enumerate(used)}
    descriptors = []
    for code in used:
        name, text = rules.get(code, ("", code))
        d = {"id": code, "shortDescription": {"text": text.split(": ")[0].split(". ")[0]},
             "fullDescription": {"text": text}, "defaultConfiguration": {"level": "warning"}}
        if name:
            d["name"] = name
        descriptors.append(d)
    results = []
    for a in annotations:
        r = {"ruleId": a.code, "ruleIndex": index[a.code], "level": a.level, "message": {"text": a.message}}
        if a.file:
            physical = {"artifactLocation": {"uri": _uri(a.file), "uriBaseId": "%SRCROOT%"}}
            if a.line > 0:
                physical["region"] = {"startLine": a.line, **({"startColumn": a.col} if a.col > 0 else {})}
            r["locations"] = [{"physicalLocation": physical}]
        results.append(r)
    run = {"tool": {"driver": {"name": "staticroof", "version": __version__, "semanticVersion": __version__,
                               "rules": descriptors}},
           "columnKind": "unicodeCodePoints", "results": results}
    if properties:
        run["properties"] = properties
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(annotations, rules: dict, properties: dict | None = None) -> str:
    return json.dumps(log(annotations, rules, properties), indent=2)


def render_diff(result) -> str:
    from ..diff.compare import RULES
    from .diff import diff_annotations

    rules = dict(RULES)
    rules["RD901"] = ("not-analyzed", "The kernel was analyzed in the base revision and cannot be analyzed now, so "
                                      "its numbers are missing from the review.")
    props = {"base": result.base, "baseCommit": result.base_commit, "head": result.head,
             "headCommit": result.head_commit or None, "machine": result.machine, "failUnder": result.fail_under,
             "regressions": len(result.regressions)}
    return render(diff_annotations(result), rules, props)
