"""Where the server of this installation and user listens, and whether that place is safe.

The folder is per user (`$STATICROOF_SERVER_DIR`, else `$XDG_RUNTIME_DIR/staticroof`, else
`$TMPDIR/staticroof-UID`), made 0700, and refused when another user owns it or anyone else may
enter it: whoever can reach the socket runs commands as its owner.  The socket's name comes from
the installation (the interpreter and its environment, the package's folder, the version), so two virtual
environments or two checkouts each have their own server; the server checks the whole identity
again on every request (a name is a short checksum, not a proof).

Standard library only: the launcher imports this before it decides anything.
"""

from __future__ import annotations

import os
import stat
import sys
import zlib

from .. import __version__

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


class Address:
    """The server folder and the installation's checksum, NAME: the socket, lock and log files are
    NAME.sock, NAME.lock and NAME.log there.  (Not a NamedTuple: `typing` costs the launcher 3 ms.)"""

    __slots__ = ("folder", "name")

    def __init__(self, folder: str, name: str):
        self.folder = folder
        self.name = name

    @property
    def socket(self) -> str:
        return os.path.join(self.folder, self.name + ".sock")

    @property
    def lock(self) -> str:
        return os.path.join(self.folder, self.name + ".lock")

    @property
    def log(self) -> str:
        return os.path.join(self.folder, self.name + ".log")


class Unsafe(Exception):
    """The folder may not be used (another owner, group or world access, not a folder)."""


def identity() -> str:
    """The installation a server stands for: a request from another is declined.  The interpreter
    as a real path (`python` and `python3` of one environment are one) and its prefix (two
    virtual environments of one interpreter are two)."""
    return "\0".join((os.path.realpath(sys.executable), sys.prefix, PACKAGE_DIR, __version__))


def folder() -> str:
    given = os.environ.get("STATICROOF_SERVER_DIR")
    if given:
        return os.path.abspath(given)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "staticroof")
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"staticroof-{os.getuid()}")


def address() -> Address:
    data = identity().encode("utf-8", "surrogateescape")
    return Address(folder(), f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}")


def check(path: str) -> None:
    """Raise Unsafe unless `path` is a folder (not a link) of this user that no one else may use."""
    try:
        st = os.lstat(path)
    except OSError as e:
        raise Unsafe(f"{path}: {e.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise Unsafe(f"{path} is not a folder")
    if st.st_uid != os.getuid():
        raise Unsafe(f"{path} belongs to another user (uid {st.st_uid})")
    if st.st_mode & 0o077:
        raise Unsafe(f"{path} may be used by other users (mode {stat.S_IMODE(st.st_mode):o}; it must be 700)")


def make(path: str) -> None:
    """The folder, made 0700 when missing (its parents too), then checked (raises Unsafe)."""
    if not os.path.lexists(path):
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            os.mkdir(path, 0o700)
        except FileExistsError:  # made by another command meanwhile: checked below
            pass
        except OSError as e:
            raise Unsafe(f"{path}: cannot make the folder: {e.strerror}") from None
    check(path)
