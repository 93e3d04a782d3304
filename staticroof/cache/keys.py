"""Cache keys: one SHA-256 over everything a file's result depends on.

- the file's name as given (results carry it) and its bytes;
- every user header it includes, transitively, found as the preprocessor finds them (beside the
  including file, then `-I` folders): a header edited, added earlier on the search path, or
  created where a missing one was looked for changes the key;
- the options (sizes, macros, include folders, costs, launches, cache sizes, kernel filter, ...)
  and the configuration file's bytes;
- staticroof itself: its version, a fingerprint of its code and shipped data (size and
  modification time of each file, so an edited checkout never reads results of older code), the
  versions of the libraries that shape results, and which preprocessor runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

from ..inputs import SOURCE_LIMIT, TOML_LIMIT, InputError, decode, read_bytes
from .store import FORMAT

# Libraries whose version can change a result or its printed form.
_LIBRARIES = ("sympy", "islpy-barvinok", "islpy", "pycparser", "pcpp")


def fingerprint() -> str:
    """staticroof's identity for the cache: its code and libraries (computed once per process, a few
    milliseconds), and the preprocessor in use, asked on every call: a start-up server's forked
    command may run with STATICROOF_NO_CPP=1 or another PATH than the server had (issue #30 §7)."""
    from ..frontends.common.preprocess import system_compiler, system_preprocessor_available

    cc = system_compiler() if system_preprocessor_available() else None
    return hashlib.sha256(f"{code_fingerprint()} preprocessor {cc or 'pcpp'}".encode()).hexdigest()


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    from .. import __version__
    from ..resources import grammars_dir

    h = hashlib.sha256()
    h.update(f"staticroof {__version__} cache {FORMAT} python {sys.version_info[:2]}\n".encode())
    for name in _LIBRARIES:
        h.update(f"{name} {_library_version(name)}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for root in (package, grammars_dir()):
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if f.endswith((".pyc", ".pyo")):
                    continue
                p = Path(folder) / f
                try:
                    st = p.stat()
                except OSError:
                    continue
                h.update(f"{p.relative_to(root).as_posix()} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _library_version(name: str) -> str:
    return _installed().get(_normal(name), "-")


def _normal(name: str) -> str:
    return "".join("_" if c in "-_." else c for c in name).lower()


@lru_cache(maxsize=1)
def _installed() -> dict:
    """{normalized distribution name: version} from the `NAME-VERSION.dist-info` (or `.egg-info`)
    folders on sys.path, the first one found winning as it does for importlib.metadata, which
    reads the same folders: importing importlib.metadata alone costs a warm `lint` run a third of
    its time."""
    out: dict = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for n in names:
            stem, _, suffix = n.rpartition(".")
            if suffix not in ("dist-info", "egg-info") or "-" not in stem:
                continue
            dist, _, version = stem.partition("-")
            out.setdefault(_normal(dist), version.split("-")[0])
    return out


def canonical(value):
    """`value` as JSON-ready data with a fixed order (sets sorted, tuples as lists, keys as
    strings), so equal options give equal keys."""
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def file_key(path, kind: str, options: dict, include_dirs=(), config_path=None, stub_dirs=()) -> str | None:
    """The key of `path`'s entry of `kind` under `options`, or None when the file cannot be read
    as text (the command reports that; there is nothing to cache)."""
    from ..frontends.common.preprocess import included_headers

    try:
        raw = read_bytes(path, SOURCE_LIMIT)
        text = decode(raw)
    except InputError:
        return None
    h = hashlib.sha256()
    h.update(fingerprint().encode())
    h.update(b"\0kind\0" + kind.encode())
    h.update(b"\0options\0" + json.dumps(canonical(options), sort_keys=True).encode())
    h.update(b"\0include\0" + json.dumps([str(d) for d in include_dirs]).encode())
    h.update(b"\0file\0" + str(path).encode("utf-8", "surrogateescape") + b"\0" + hashlib.sha256(raw).digest())
    try:
        headers = included_headers(str(path), text, include_dirs, stub_dirs)
    except (OSError, ValueError, RecursionError):
        return None
    for name, htext in headers:
        h.update(b"\0header\0" + name.encode("utf-8", "surrogateescape") + b"\0")
        h.update(hashlib.sha256(htext.encode("utf-8", "surrogatepass")).digest())
    if config_path is not None:
        try:
            h.update(b"\0config\0" + hashlib.sha256(read_bytes(config_path, TOML_LIMIT)).digest())
        except InputError:
            h.update(b"\0config\0unreadable")
    return h.hexdigest()
