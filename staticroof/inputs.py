"""Reading the files a user (or a pull request) hands us, defensively.

staticroof runs inside pre-commit hooks and CI jobs on whatever a repository holds, so no input
may hang it, exhaust its memory or make it write anywhere: a path must name a regular file (a FIFO
or `/dev/zero` would block or never end), its size is capped before a byte is read, and its text
must be in an encoding we can decode (UTF-8 with or without a BOM, UTF-16 with a BOM, else
Latin-1 for 8-bit text); binary data is refused rather than parsed as a kernel named `e`.
"""

from __future__ import annotations

import os
import stat

# Documented in the README ("Limits").  A kernel source of 16 MiB is far beyond any hand-written
# file; a machine file or configuration is a few kilobytes.
SOURCE_LIMIT = 16 * 1024 * 1024
TOML_LIMIT = 1024 * 1024


class InputError(Exception):
    """The file cannot be used; the message says why (the caller adds the path)."""


def read_bytes(path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or InputError.  The file is opened
    without blocking (a FIFO is seen for what it is) and read no further than the limit."""
    try:
        fd = os.open(str(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError("is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise InputError("not a regular file (a device, FIFO or socket is never read)")
        if st.st_size > limit:
            raise InputError(f"{st.st_size:,} bytes: larger than the {limit:,}-byte limit for this input")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # the file grew while we read it
                raise InputError(f"larger than the {limit:,}-byte limit for this input")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)


def decode(raw: bytes) -> str:
    """Text of a source or configuration file, or InputError when it is not text."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError("not text in a supported encoding (a UTF-16 BOM, but invalid UTF-16)") from None
    if b"\x00" in raw:
        raise InputError("not text in a supported encoding (UTF-8, UTF-16 with a BOM or Latin-1): "
                         "it contains NUL bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def read_text(path, limit: int = SOURCE_LIMIT) -> str:
    return decode(read_bytes(path, limit))


def is_regular(path) -> bool:
    try:
        return stat.S_ISREG(os.stat(str(path)).st_mode)
    except OSError:
        return False


__all__ = ["InputError", "SOURCE_LIMIT", "TOML_LIMIT", "read_bytes", "decode", "read_text", "is_regular"]
