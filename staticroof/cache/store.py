"""The cache folder on disk: where it is, how an entry is written and when one is believed.

Layout (like ruff's): ``.staticroof_cache/CACHEDIR.TAG`` (so backup tools skip it),
``.staticroof_cache/.gitignore`` holding ``*`` (so git never sees it), and one JSON file per
entry under ``v<FORMAT>/<kind>/<first two hex digits>/<key>.json``.

An entry is written to a temporary file in its own folder and renamed into place, so a reader
(another run, at the same moment) sees either no entry or a whole one.  Reading never trusts the
file: a truncated, corrupt or foreign entry (another key, another format), a symbolic link, a
FIFO or an oversized file is a miss, never an error.  Any failure to write (a read-only
checkout, a full disk) turns writing off for the rest of the run, silently: the cache only
ever saves time.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from ..atomicfile import write_atomic

CACHE_DIR = ".staticroof_cache"
FORMAT = 1  # the layout of an entry; bump it when that changes
ENTRY_LIMIT = 64 * 1024 * 1024  # bytes: nothing we write comes near this

# https://bford.info/cachedir/ : the signature line is fixed by that specification.
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by staticroof.\n"
                "# For information about cache directory tags, see:\n"
                "#\thttps://bford.info/cachedir/\n")
GITIGNORE = "# Automatically created by staticroof.\n*\n"


def cache_root(config_path: Path | None = None, cwd: Path | None = None) -> Path:
    """`.staticroof_cache` beside the project's configuration file, else in the working folder;
    `STATICROOF_CACHE_DIR` names another folder (a CI job's temporary space)."""
    env = os.environ.get("STATICROOF_CACHE_DIR")
    if env:
        return Path(env)
    base = Path(config_path).parent if config_path else (cwd or Path.cwd())
    return base / CACHE_DIR


class Cache:
    """Entries by (kind, key).  `kind` names what is stored ("analysis", "lint", ...), so one
    key never means two things; the payload is any JSON value."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
        self.writable = True
        self.write_error: str | None = None

    @classmethod
    def beside(cls, config_path: Path | None = None, cwd: Path | None = None) -> Cache:
        return cls(cache_root(config_path, cwd))

    def entry_path(self, kind: str, key: str) -> Path:
        return self.root / f"v{FORMAT}" / kind / key[:2] / f"{key}.json"

    # -- reading -----------------------------------------------------------------------------

    def get(self, kind: str, key: str, decode=None):
        """The payload stored for (kind, key), passed through `decode` when given; None on a miss
        (no entry, or one that is not a whole, well-formed entry for this very key)."""
        value = self._read(kind, key)
        if value is not None and decode is not None:
            try:
                value = decode(value)
            except Exception:
                value = None
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def _read(self, kind: str, key: str):
        if not _safe_name(kind) or not _safe_name(key) or not self._folders_safe(kind, key):
            return None
        path = self.entry_path(kind, key)
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_size > ENTRY_LIMIT:
                return None
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as f:
                raw = f.read(ENTRY_LIMIT + 1)
            doc = json.loads(raw)
        except (OSError, ValueError, RecursionError):
            return None
        if (not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("kind") != kind
                or doc.get("key") != key or "payload" not in doc):
            return None
        return doc["payload"]

    def _folders_safe(self, kind: str, key: str) -> bool:
        """No folder on the way to an entry may be a symbolic link (a cache folder committed to a
        repository must not point reads or writes elsewhere)."""
        entry = self.entry_path(kind, key)
        for folder in (self.root, self.root / f"v{FORMAT}", entry.parent.parent, entry.parent):
            if folder.is_symlink():
                return False
        return True

    # -- writing -----------------------------------------------------------------------------

    def put(self, kind: str, key: str, payload) -> bool:
        """Store `payload` (a JSON value) for (kind, key); False when it could not be written."""
        if not self.writable or not _safe_name(kind) or not _safe_name(key):
            return False
        try:
            data = json.dumps({"format": FORMAT, "kind": kind, "key": key, "payload": payload},
                              separators=(",", ":")).encode("utf-8")
        except (TypeError, ValueError, RecursionError):
            return False
        try:
            self._prepare()
            if not self._folders_safe(kind, key):
                return False
            entry = self.entry_path(kind, key)
            entry.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(entry, data)
        except OSError as e:
            self.writable = False
            self.write_error = f"{self.root}: {e.strerror or e}"
            return False
        return True

    def _prepare(self) -> None:
        """Make the folder, its CACHEDIR.TAG and its .gitignore (only when something is written:
        a command that only reads never creates the folder)."""
        if self.root.is_symlink():
            raise OSError(f"{self.root} is a symbolic link")
        self.root.mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", GITIGNORE)):
            f = self.root / name
            if not os.path.lexists(f):
                _write_atomic(f, text.encode("utf-8"))


def _safe_name(name: object) -> bool:
    """Kinds and keys become file names: letters, digits, `-` and `_` only."""
    return isinstance(name, str) and 0 < len(name) <= 128 and all(c.isascii() and (c.isalnum() or c in "-_")
                                                                   for c in name)


def _write_atomic(path: Path, data: bytes) -> None:
    write_atomic(path, lambda f: f.write(data))


def usable(store: Cache | None) -> Cache | None:
    """`store`, unless git tracks its folder (issue #30 §9: a committed cache could be forged, and a
    forged entry would turn a failing lint into a pass in a fresh clone): then None, with a note."""
    if store is None:
        return None
    from ..gitcmd import tracked

    if tracked(store.root):
        import sys

        print(f"staticroof: {store.root} is tracked by git: not using it (a committed cache could be forged; "
              f"add {CACHE_DIR}/ to .gitignore)", file=sys.stderr)
        return None
    return store
