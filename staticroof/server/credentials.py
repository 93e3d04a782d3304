"""Whose request the server runs (issue #30 §3): a forked copy of the server runs a command with the
server's privileges, so a client is served only when it holds no fewer restrictions than the server:
the same user, group and supplementary groups, the same capabilities (permitted, effective,
inheritable, bounding, ambient), the same `no_new_privs` and seccomp mode, and the same namespaces
(user, mount, PID, network, IPC, UTS, cgroup).  A client that differs in any of them (a sandboxed
shell, a process that dropped its capabilities) is declined and runs its command in its own
process, under its own restrictions.  Read from /proc (Linux); elsewhere only the user is checked
(the server folder's 0700 keeps other users out).
"""

from __future__ import annotations

import os
import socket
import struct

_STATUS_KEYS = ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")
_NAMESPACES = ("user", "mnt", "pid", "net", "ipc", "uts", "cgroup")


def peer(conn: socket.socket) -> tuple[int, int, int] | None:
    """(pid, uid, gid) of the process at the other end of `conn`, or None where the system cannot say."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    pid, uid, gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    return pid, uid, gid


def restrictions(pid: int | str) -> dict | None:
    """What confines process `pid` (see the module docstring), or None without /proc."""
    base = f"/proc/{pid}"
    try:
        with open(f"{base}/status", encoding="ascii", errors="replace") as f:
            status = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return None
    out: dict = {k: " ".join(status.get(k, "").split()) for k in _STATUS_KEYS}
    for ns in _NAMESPACES:
        try:
            out[f"ns:{ns}"] = os.readlink(f"{base}/ns/{ns}")
        except OSError:
            out[f"ns:{ns}"] = None
    return out


def why_not_served(conn: socket.socket) -> str | None:
    """Why the client at `conn` may not borrow the server's privileges, or None."""
    who = peer(conn)
    if who is None:
        return None
    pid, uid, _gid = who
    if uid != os.getuid():
        return "another user"
    ours = restrictions("self")
    if ours is None:
        return None
    theirs = restrictions(pid)
    if theirs is None:
        return "the client's process could not be inspected"
    differ = [k for k in ours if ours[k] != theirs.get(k)]
    return f"the client runs under other restrictions ({', '.join(differ)})" if differ else None
