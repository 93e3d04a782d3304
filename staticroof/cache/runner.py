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
    from ..options import AnalysisOptions
    from ..pipeline import Report

KIND = "analysis"
# an internal error, a preprocessor failure, a crash (SR127), and a result that ran past its time
# budget (a slower or busier machine, or a faster one, would report another)
_TRANSIENT = ("SR099", "SR005", "SR124", "SR125", "SR126", "SR127")


def run(files, options: AnalysisOptions, cache: Cache | None = None, config_path=None) -> Report:
    """`pipeline.run(files, options)`, reading and filling `cache` file by file (no cache and one
    job: exactly `pipeline.run`).  The files the cache misses are analyzed on up to `options.jobs`
    worker processes (None: every core; staticroof/workers.py); the report is in the order of
    `files` either way.  The options' part of each key is `options.key_fields()`."""
    from .. import pipeline
    from ..pipeline import Report

    if cache is None and (options.jobs == 1 or len(files) <= 1):
        return pipeline.run(files, options)
    parts: list = [None] * len(files)
    keys: list = [None] * len(files)
    for i, path in enumerate(files):
        if cache is not None:
            keys[i] = key_of(path, options, config_path)
            parts[i] = cache.get(KIND, keys[i], decode=decode_report) if keys[i] else None
    missed = [i for i, part in enumerate(parts) if part is None]
    fresh = analyze_each([files[i] for i in missed], options)
    for i, (part, data) in zip(missed, fresh, strict=True):
        parts[i] = part
        path = files[i]
        if cache is not None and keys[i] and not transient(part) and key_of(path, options, config_path) == keys[i]:
            try:
                cache.put(KIND, keys[i], encode_report(part) if data is None else data)
            except codec.EncodeError:
                pass
    report = Report()
    for part in parts:
        report.kernels.extend(part.kernels)
        report.file_diagnostics.extend(part.file_diagnostics)
        report.failed = report.failed or part.failed
        report.names.update(part.names)
    return pipeline.once_each(report)


def key_of(path, options: AnalysisOptions, config_path=None) -> str | None:
    """The key of `path`'s analysis entry (keys.file_key) under `options`: the fields pipeline.run
    reads (AnalysisOptions.key_fields; not the time budget: a result that fell back is never
    stored, and one that did not is the same under any budget)."""
    return file_key(path, KIND, options.key_fields(), options.include_dirs, config_path, stub_dirs(path))


def analyze_each(files: list, options: AnalysisOptions) -> list:
    """[(pipeline.run([file], options), its encoding or None) for file in files], on up to
    `options.jobs` processes.  A worker sends its part encoded as the cache stores it (codec: an analysis holds
    isl sets and closures that pickle cannot carry, and a decoded part is what a cache hit serves);
    a part the codec cannot encode is analyzed again here."""
    from functools import partial

    from ..workers import run_all

    got = run_all(partial(_one, options=options), files, options.jobs, lost, pack=_pack,
                  unpack=partial(_unpack, options=options), warm=warm_up)
    return [item if isinstance(item, tuple) else (item, None) for item in got]


def _one(path, options: AnalysisOptions) -> Report:
    from .. import pipeline

    return pipeline.run([path], options)


def _pack(part: Report):
    try:
        return encode_report(part)
    except codec.EncodeError:
        return None


def _unpack(path, data, options: AnalysisOptions) -> tuple:
    if data is not None:
        try:
            return decode_report(data), data
        except Exception:  # our own encoding, just made: should not happen, and costs only time
            pass
    return _one(path, options), None


def lost(path, why: str) -> Report:
    """The part of a file whose worker died: an internal error of that file alone (SR099)."""
    from ..diagnostics import Diagnostic, Location
    from ..pipeline import Report

    return Report([], [Diagnostic("SR099", f"internal error: {why}", Location(str(path)))], True)


# One tiny kernel per front end: analyzed before the workers are forked, it loads what the first
# file of that language would (modules imported on first use, sympy's and the grammar's caches),
# about 0.3 s each, once for all the workers instead of once in each.
_WARM_UP = {
    ".c": "void warm(int n, float *x)\n{\n    for (int i = 0; i < n; i++)\n        x[i] = 2.0f * x[i] + 1.0f;\n}\n",
    ".cu": "__global__ void warm(float *x, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i < n)\n        x[i] = 2.0f * x[i] + 1.0f;\n}\n",
}


def warm_up(files) -> None:
    """What every worker needs, loaded here once (see _WARM_UP); never fails a run."""
    import importlib
    import tempfile
    from pathlib import Path

    from .. import pipeline
    from ..frontends import frontend_for

    for loader in sorted({f.loader for f in map(frontend_for, files) if f is not None}):
        importlib.import_module(loader.partition(":")[0])
    suffixes = sorted({Path(f).suffix for f in files} & _WARM_UP.keys())
    if not suffixes:
        return
    with tempfile.TemporaryDirectory(prefix="staticroof-warm-") as tmp:
        for suffix in suffixes:
            path = Path(tmp) / f"warm{suffix}"
            try:
                path.write_text(_WARM_UP[suffix])
                pipeline.run([path])
            except Exception:  # only time is at stake
                pass


def encode_report(part: Report) -> dict:
    return codec.dump({"kernels": part.kernels, "file_diagnostics": part.file_diagnostics, "failed": part.failed,
                       "names": sorted(part.names)})


def decode_report(data) -> Report:
    from ..analysis.summary import KernelSummary
    from ..diagnostics import Diagnostic
    from ..pipeline import Report

    doc = codec.load(data)
    kernels, diags, failed, names = doc["kernels"], doc["file_diagnostics"], doc["failed"], doc["names"]
    if (not isinstance(kernels, list) or not all(isinstance(k, KernelSummary) for k in kernels)
            or not isinstance(diags, list) or not all(isinstance(d, Diagnostic) for d in diags)
            or not isinstance(failed, bool) or not isinstance(names, list)
            or not all(isinstance(n, str) for n in names)):
        raise ValueError("not a report")
    return Report(kernels, diags, failed, set(names))


def transient(part: Report) -> bool:
    """Did the result come from an internal error or a preprocessor past its limits (not stored)?"""
    diags = list(part.file_diagnostics) + [d for k in part.kernels for d in k.diagnostics]
    return any(d.code in _TRANSIENT for d in diags)


def stub_dirs(path) -> list:
    """The stub header folders the preprocessor searches for `path` (a key covers those headers)."""
    from ..frontends import language_of
    from ..resources import grammars_dir

    return [grammars_dir() / "cuda"] if language_of(path) in ("cuda", "cpp") else []
