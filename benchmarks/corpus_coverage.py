"""Coverage of a folder of real kernels: how much of it staticroof analyzes, and how.

For every .c/.cu file (default tests/data/real), and in total: kernels found, exact, approximate
(with the reasons grouped by diagnostic code), unsupported (by code), internal errors (SR099) and
the time taken; then the share of `__global__` functions and of C functions with loops that were
analyzed (exact, or approximate with a reason), the issue's target being 95%.  The denominators
come from scanning the source text, not from the analyzer, so a file the analyzer loses whole (a
missing header, a preprocessor error) still counts its functions as not analyzed.  Not a test:
run it by hand and quote the numbers (`--json` for a machine-readable summary).

    python benchmarks/corpus_coverage.py [PATH ...] [--json] [-D NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from staticroof.diagnostics import RULES
from staticroof.pipeline import AnalysisOptions, run  # the options, re-exported beside the function

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "tests" / "data" / "real"

_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_STRINGS = re.compile(r'"(?:\\.|[^"\\\n])*"')
_GLOBAL = re.compile(r"__global__[^;{(]*?\b(\w+)\s*\(")
_FUNC = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;{}]*\)\s*\{", re.M)
_LOOP = re.compile(r"\b(for|while|do)\b")
_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}
_ATTRIBUTES = re.compile(r"__launch_bounds__\s*\([^)]*\)|__attribute__\s*\(\(.*?\)\)")


def _code(text: str) -> str:
    """The source without comments, string literals and attributes (their braces, parentheses and
    words would mislead)."""
    return _ATTRIBUTES.sub(" ", _STRINGS.sub('""', _COMMENTS.sub(" ", text)))


def _body(text: str, open_brace: int) -> str:
    depth = 0
    for i in range(open_brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[open_brace:i + 1]
    return text[open_brace:]


def scanned_functions(path: Path) -> tuple[set, set]:
    """(`__global__` function names, names of C functions whose body has a loop), from the text.
    `main` is a driver, not a kernel (issue #10): it is not counted."""
    text = _code(path.read_text(errors="replace"))
    if path.suffix == ".cu":
        return {m.group(1) for m in _GLOBAL.finditer(text)}, set()
    loops = set()
    for m in _FUNC.finditer(text):
        name = m.group(1)
        if name not in _KEYWORDS and name != "main" and _LOOP.search(_body(text, m.end() - 1)):
            loops.add(name)
    return set(), loops


def base_name(name: str) -> str:
    """`axpy<double>` -> `axpy` (each instantiation of a template kernel is reported on its own)."""
    return name.split("<", 1)[0]


def analyze_one(path: Path, defines: dict) -> dict:
    t0 = time.perf_counter()
    report = run([path], AnalysisOptions(defines=defines))
    seconds = time.perf_counter() - t0
    row = {"file": str(path), "seconds": seconds, "kernels": 0, "exact": 0, "approximate": 0,
           "unsupported": 0, "internal": 0, "approx_codes": Counter(), "unsupported_codes": Counter(),
           "file_codes": Counter(d.code for d in report.file_diagnostics if RULES.get(d.code) is None
                                 or RULES[d.code].severity == "error"),
           "analyzed": set(), "failed": set()}
    row["internal"] += row["file_codes"].get("SR099", 0)
    for k in report.kernels:
        row["kernels"] += 1
        codes = {d.code for d in k.diagnostics}
        row["internal"] += "SR099" in codes
        if k.failed:
            row["unsupported"] += 1
            row["unsupported_codes"].update(c for c in codes if RULES.get(c) and RULES[c].severity == "error")
            row["failed"].add(base_name(k.name))
            continue
        if k.exact:
            row["exact"] += 1
        else:
            row["approximate"] += 1
            row["approx_codes"].update(c for c in codes if RULES.get(c) and RULES[c].approximate)
        row["analyzed"].add(base_name(k.name))
    globals_, c_loops = scanned_functions(path)
    analyzed = row["analyzed"] - row["failed"]  # a template kernel counts only if every instantiation did
    row["global_total"], row["global_ok"] = len(globals_), len(globals_ & analyzed)
    row["cloop_total"], row["cloop_ok"] = len(c_loops), len(c_loops & analyzed)
    row["missing"] = sorted((globals_ | c_loops) - analyzed)
    return row


def _codes(counter: Counter) -> str:
    return ", ".join(f"{c} x{n}" if n > 1 else c for c, n in sorted(counter.items())) or "-"


def _share(ok: int, total: int) -> str:
    return f"{ok}/{total} = {100.0 * ok / total:.1f}%" if total else "-"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    ap.add_argument("--json", action="store_true", help="print a JSON summary instead of the table")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    defines = dict(d.partition("=")[::2] for d in args.defines)

    files = []
    for p in args.paths:
        files += [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.suffix in (".c", ".cu"))
    rows = [analyze_one(f, defines) for f in files]

    total = {key: sum(r[key] for r in rows) for key in ("kernels", "exact", "approximate", "unsupported",
                                                         "internal", "seconds", "global_total", "global_ok",
                                                         "cloop_total", "cloop_ok")}
    approx_codes = sum((r["approx_codes"] for r in rows), Counter())
    unsupported_codes = sum((r["unsupported_codes"] + r["file_codes"] for r in rows), Counter())
    if args.json:
        out = {"files": [{**{k: v for k, v in r.items() if k not in ("analyzed", "failed")},
                          "approx_codes": dict(r["approx_codes"]), "unsupported_codes": dict(r["unsupported_codes"]),
                          "file_codes": dict(r["file_codes"])} for r in rows],
               "total": {**total, "approx_codes": dict(approx_codes), "unsupported_codes": dict(unsupported_codes)}}
        print(json.dumps(out, indent=2))
        return 0

    base = args.paths[0] if len(args.paths) == 1 and args.paths[0].is_dir() else None
    print(f"{'file':34} {'kern':>4} {'exact':>5} {'appr':>4} {'unsup':>5} {'SR099':>5} {'time':>7}  "
          "approximate because / unsupported because")
    for r in rows:
        name = str(Path(r["file"]).relative_to(base)) if base else r["file"]
        why = f"{_codes(r['approx_codes'])} / {_codes(r['unsupported_codes'] + r['file_codes'])}"
        print(f"{name:34} {r['kernels']:4} {r['exact']:5} {r['approximate']:4} {r['unsupported']:5} "
              f"{r['internal']:5} {r['seconds']:6.2f}s  {why}")
    print(f"{'total':34} {total['kernels']:4} {total['exact']:5} {total['approximate']:4} "
          f"{total['unsupported']:5} {total['internal']:5} {total['seconds']:6.2f}s")
    print()
    print(f"approximate, by code:  {_codes(approx_codes)}")
    print(f"unsupported, by code:  {_codes(unsupported_codes)}")
    print(f"__global__ functions analyzed:    {_share(total['global_ok'], total['global_total'])}   (target 95%)")
    print(f"C functions with loops analyzed:  {_share(total['cloop_ok'], total['cloop_total'])}   (target 95%)")
    missing = [f"{Path(r['file']).name}:{m}" for r in rows for m in r["missing"]]
    if missing:
        print(f"not analyzed: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
