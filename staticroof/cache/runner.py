"""The pipeline through the cache: each file's part of the report (its kernel summaries, its file
diagnostics, whether it failed) is one entry of kind "analysis".

The summaries are stored before any machine places them (placing is cheap and the machine's
sizes are in the key anyway), so a hit serves `analyze --format text|json`, `diff` and lint's
numeric rules exactly as a fresh analysis would.  A result with an internal error (SR099) or a
preprocessor failure (SR005: it may be a timeout or the memory limit) is not stored.  The key is
taken again after the analysis and the entry stored only if the file and its headers did not
change in between.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import codec
from .keys import file_key
from .store import Cache

if TYPE_CHECKING:  # a run whose files all hit their printed reports (cache/printed.py) needs no pipeline
    from ..pipeline import Report

KIND = "analysis"
# an internal error, a preprocessor failure, and a result that ran past its time budget (a slower or
# busier machine, or a faster one, would report another)
_TRANSIENT = ("SR099", "SR005", "SR124", "SR125", "SR126")


def options_of(defines, include_dirs, weights, only, launches, cache_bytes, l1_bytes, all_functions,
               kernel_sizes=None, dtypes=None, time_budget=None) -> dict:
    """Everything but the file that `pipeline.run` reads: the analysis options part of the key.  The
    time budget is not: a result that fell back is never stored, and one that did not is the same
    under any budget."""
    return {"defines": dict(defines or {}), "include": [str(d) for d in include_dirs or ()],
            "weights": dict(weights or {}), "only": sorted(only or ()),
            "launches": {"*" if k is None else k: v for k, v in (launches or {}).items()},
            "cache_bytes": cache_bytes, "l1_bytes": l1_bytes, "all_functions": bool(all_functions),
            "kernel_sizes": kernel_sizes or {},
            "dtypes": {"*" if k is None else k: v for k, v in (dtypes or {}).items()}}


def run(files, defines: dict, include_dirs=(), weights: dict | None = None, only: set | None = None,
        launches: dict | None = None, cache_bytes: int | None = None, l1_bytes: int | None = None,
        all_functions: bool = False, kernel_sizes: dict | None = None, cache: Cache | None = None,
        config_path=None, dtypes: dict | None = None, time_budget: float | None = None) -> Report:
    """`pipeline.run` with the same arguments, reading and filling `cache` file by file (no cache:
    exactly `pipeline.run`)."""
    from .. import pipeline
    from ..pipeline import Report

    args = (defines, include_dirs, weights, only, launches, cache_bytes, l1_bytes, all_functions, kernel_sizes, dtypes)
    if cache is None:
        return pipeline.run(files, *args, time_budget=time_budget)
    options = options_of(*args)
    report = Report()
    for path in files:
        stubs = stub_dirs(path)
        key = file_key(path, KIND, options, include_dirs, config_path, stubs)
        part = cache.get(KIND, key, decode=decode_report) if key else None
        if part is None:
            part = pipeline.run([path], *args, time_budget=time_budget)
            if key and not transient(part) and file_key(path, KIND, options, include_dirs, config_path,
                                                          stubs) == key:
                try:
                    cache.put(KIND, key, encode_report(part))
                except codec.EncodeError:
                    pass
        report.kernels.extend(part.kernels)
        report.file_diagnostics.extend(part.file_diagnostics)
        report.failed = report.failed or part.failed
    return report


def encode_report(part: Report) -> dict:
    return codec.dump({"kernels": part.kernels, "file_diagnostics": part.file_diagnostics, "failed": part.failed})


def decode_report(data) -> Report:
    from ..analysis.summary import KernelSummary
    from ..diagnostics import Diagnostic
    from ..pipeline import Report

    doc = codec.load(data)
    kernels, diags, failed = doc["kernels"], doc["file_diagnostics"], doc["failed"]
    if (not isinstance(kernels, list) or not all(isinstance(k, KernelSummary) for k in kernels)
            or not isinstance(diags, list) or not all(isinstance(d, Diagnostic) for d in diags)
            or not isinstance(failed, bool)):
        raise ValueError("not a report")
    return Report(kernels, diags, failed)


def transient(part: Report) -> bool:
    """Did the result come from an internal error or a preprocessor past its limits (not stored)?"""
    diags = list(part.file_diagnostics) + [d for k in part.kernels for d in k.diagnostics]
    return any(d.code in _TRANSIENT for d in diags)


def stub_dirs(path) -> list:
    """The stub header folders the preprocessor searches for `path` (a key covers those headers)."""
    from ..frontends import language_of
    from ..resources import grammars_dir

    return [grammars_dir() / "cuda"] if language_of(path) == "cuda" else []
