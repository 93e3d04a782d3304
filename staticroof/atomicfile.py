"""Files written whole or not at all: a temporary file beside the target, then a rename over it
(atomic on POSIX and Windows).  Concurrent writers each leave a whole file; a failed write (a full
disk) leaves neither a partial file nor a damaged old one; a symbolic link at the target is replaced,
never followed.  Used by the cache's entries and by `plot -o`."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def write_atomic(path, write: Callable, like_open: bool = False) -> None:
    """Call `write(f)` on a binary file beside `path`, then rename it over `path`.  `like_open`: the
    file's mode as open() would give it (0666 less the umask), not mkstemp's 0600.  OSError when it
    cannot be written."""
    import tempfile  # only a run that writes pays for it

    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        if like_open:
            umask = os.umask(0o022)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
