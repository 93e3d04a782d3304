"""The server process: imports and warms the analysis once, then forks a copy of that pristine
state for each request (server/child.py), so no request sees what another left behind.

It listens on the installation's socket (server/address.py), holds the lock file for its whole
life (a second server for the same installation exits at once), reports each command's exit
status to its client, and ends after `idle` seconds without a request, on `server stop`, on
SIGTERM, or once one of its source files changed: staticroof's modules and grammars are checked
before each command (a changed one declines it: it runs in its client), every other module the
server had loaded (sympy's, islpy's, ...) while the command runs (about a thousand files, a few ms
of CPU), so the next command is declined.
"""

from __future__ import annotations

import errno
import fcntl
import gc
import os
import selectors
import signal
import socket
import sys
import time
from contextlib import contextmanager

from . import credentials, protocol
from .address import Address, address, identity, make

WARM = {
    "warm.c": "void warm(int n, float *x)\n{\n    for (int i = 0; i < n; i++)\n        x[i] = 2.0f * x[i] + 1.0f;\n}\n",
    "warm.cu": "__global__ void warm(float *x, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (i < n)\n        x[i] = 2.0f * x[i] + 1.0f;\n}\n",
    "warm.py": "from numba import njit\n\n\n@njit(\"void(float32[:])\")\ndef warm(x):\n"
               "    for i in range(x.shape[0]):\n        x[i] = 2.0 * x[i] + 1.0\n",
}


def log(text: str) -> None:
    sys.stderr.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {text}\n")
    sys.stderr.flush()


def warm() -> None:
    """Every module a command needs, imported, and one kernel of each language analyzed and
    linted through the CLI (its output discarded): what the first command of a process pays."""
    import contextlib
    import io
    import tempfile

    from .. import cli
    from ..lint import command as _lint  # noqa: F401

    with tempfile.TemporaryDirectory(prefix="staticroof-server-warm-") as tmp, _inside(tmp):
        paths = []
        for name, text in WARM.items():
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            paths.append(path)
        for args in (["analyze", *paths, "-j", "1"], ["analyze", *paths, "-j", "1", "--format", "json"],
                     ["lint", *paths, "-j", "1"]):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                try:
                    cli.main(args, prog_name="staticroof", standalone_mode=False)
                except BaseException as e:  # only time is at stake
                    if not isinstance(e, SystemExit):
                        log(f"warm-up: {' '.join(args[:1])}: {type(e).__name__}: {e}")
    tempfile.tempdir = None  # a command chooses it again from its own environment


@contextmanager
def _inside(folder: str):
    """The warm-up's working folder and cache (lint fills one): `folder`, so that it finds no
    configuration and writes nothing outside it."""
    before, cache = os.getcwd(), os.environ.get("STATICROOF_CACHE_DIR")
    os.chdir(folder)
    os.environ["STATICROOF_CACHE_DIR"] = os.path.join(folder, "cache")
    try:
        yield
    finally:
        os.chdir(before)
        if cache is None:
            del os.environ["STATICROOF_CACHE_DIR"]
        else:
            os.environ["STATICROOF_CACHE_DIR"] = cache


def watched_files() -> tuple[dict, dict]:
    """{path: (mtime_ns, size)} of the files a change to makes this server's answers stale:
    staticroof's modules and grammars (loaded or not), then every other module file loaded now."""
    from ..resources import grammars_dir
    from .address import PACKAGE_DIR

    own: set[str] = set()
    for root in {PACKAGE_DIR, str(grammars_dir())}:
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            own.update(os.path.join(folder, n) for n in names if not n.endswith((".pyc", ".pyo")))
    others = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and os.path.isabs(path) and path not in own:
            others.add(path)
    return _stats(own), _stats(others)


def _stats(paths) -> dict:
    out = {}
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        out[path] = (st.st_mtime_ns, st.st_size)
    return out


def changed(files: dict) -> str | None:
    for path, (mtime, size) in files.items():
        try:
            st = os.stat(path)
        except OSError:
            return path
        if st.st_mtime_ns != mtime or st.st_size != size:
            return path
    return None


def own_fingerprint(inserted: str | None) -> dict:
    fp = protocol.fingerprint()
    fp["path"] = [p for p in sys.path if p != inserted] if inserted is not None else list(sys.path)
    return fp


def _limit_ok(ours, theirs) -> bool:
    """A limit the client has that this process can set (lowering is allowed, raising is not)."""
    import resource

    inf = resource.RLIM_INFINITY

    def big(v):
        return float("inf") if v == inf else v

    return big(theirs[1]) <= big(ours[1]) and big(theirs[0]) <= big(theirs[1])


class Server:
    def __init__(self, where: Address, idle: float, inserted: str | None):
        self.where = where
        self.idle = idle
        self.inserted = inserted
        self.started = time.time()
        self.last = time.monotonic()
        self.served = 0
        self.children: dict[int, socket.socket | None] = {}  # pid -> its client's connection (None: gone)
        self.began: dict[int, float] = {}  # pid -> when its command was forked (time.monotonic)
        self.stopping = False
        self.listener: socket.socket | None = None
        self.inode = 0
        self.selector = selectors.DefaultSelector()
        self.fingerprint: dict = {}
        self.files: dict = {}  # staticroof's own files: checked before each command
        self.others: dict = {}  # the other modules' (sympy, islpy, ...): checked while a command runs
        self.wake = (-1, -1)

    # -- life ---------------------------------------------------------------------------------
    def bind(self) -> None:
        """Listen on a temporary name, then rename it into place: a client never finds a socket
        that refuses it while its server is alive."""
        temporary = f"{self.where.socket}.{os.getpid()}"
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(temporary)
        s.listen(64)
        os.replace(temporary, self.where.socket)
        self.inode = os.stat(self.where.socket).st_ino
        self.listener = s

    def close(self) -> None:
        """Stop listening and remove the socket (when it is still ours)."""
        if self.listener is None:
            return
        self.selector.unregister(self.listener)
        self.listener.close()
        self.listener = None
        try:
            if os.stat(self.where.socket).st_ino == self.inode:
                os.unlink(self.where.socket)
        except OSError:
            pass

    def stop(self, why: str) -> None:
        if not self.stopping:
            log(f"stopping: {why}")
        self.stopping = True
        self.close()

    def serve(self) -> None:
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self.wake = (r, w)
        signal.set_wakeup_fd(w)
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"):
            signal.signal(getattr(signal, name), lambda signum, frame: self.stop(signal.Signals(signum).name))
        assert self.listener is not None
        self.selector.register(self.listener, selectors.EVENT_READ, "listener")
        self.selector.register(r, selectors.EVENT_READ, "wake")
        while True:
            self.reap()
            if self.stopping and not self.children:
                break
            timeout = None
            if not self.children and not self.stopping:
                left = self.idle - (time.monotonic() - self.last)
                if left <= 0:
                    self.stop(f"idle for {self.idle:g} s")
                    continue
                timeout = left
            for key, _events in self.selector.select(timeout):
                if key.data == "listener" and self.listener is not None:
                    self.accept()
                elif key.data == "wake":
                    try:
                        while os.read(r, 512):
                            pass
                    except BlockingIOError:
                        pass
                elif isinstance(key.data, int):
                    self.client_gone(key.data, key.fileobj)  # type: ignore[arg-type]
        log(f"stopped after {self.served} requests")

    def reap(self) -> None:
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid not in self.children:
                continue
            conn = self.children.pop(pid)
            code = os.waitstatus_to_exitcode(status)
            began = self.began.pop(pid, self.last)
            self.last = time.monotonic()
            log(f"command {pid}: {'exit' if code >= 0 else 'signal'} {abs(code)}, {self.last - began:.3f} s, "
                f"{usage.ru_utime + usage.ru_stime:.3f} s CPU (with its children)")
            if conn is None:
                continue
            self.selector.unregister(conn)
            try:
                protocol.send(conn, {"exit": code} if code >= 0 else {"signal": -code})
            except OSError:
                pass
            conn.close()

    def client_gone(self, pid: int, conn: socket.socket) -> None:
        """The client's connection is readable: it sends nothing after its request, so it has
        gone (killed): its command is stopped as a SIGTERM stops it, its status sent nowhere."""
        try:
            data = conn.recv(1)
        except OSError:
            data = b""
        if data:
            return
        self.selector.unregister(conn)
        conn.close()
        self.children[pid] = None
        try:
            os.killpg(pid, signal.SIGTERM)
        except OSError:
            pass

    # -- requests -----------------------------------------------------------------------------
    def accept(self) -> None:
        assert self.listener is not None
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        fds: list = []
        try:
            conn.settimeout(5.0)
            why = credentials.why_not_served(conn)
            if why == "another user":
                conn.close()
                return
            conn.sendall(protocol.GREETING)
            tag, fds, _flags, _addr = socket.recv_fds(conn, 1, 8)
            if tag == b"R" and why is not None:  # it runs its command itself, under its own restrictions
                log(f"declined: {why}")
                protocol.send(conn, {"decline": why})
                conn.close()
            elif tag == b"R":
                owned, fds = fds, []  # request() closes them, however it ends
                self.request(conn, owned)
            elif tag == b"S":
                protocol.send(conn, self.status())
                conn.close()
            elif tag == b"Q":
                protocol.send(conn, {"stopping": os.getpid()})
                conn.close()
                self.stop("server stop")
            else:
                conn.close()
        except Exception as e:  # a malformed or hostile request costs itself, never the server
            log(f"request failed: {type(e).__name__}: {e}")
            conn.close()
        finally:
            for fd in fds:
                os.close(fd)

    def status(self) -> dict:
        return {"pid": os.getpid(), "started": self.started, "uptime_s": time.time() - self.started,
                "served": self.served, "commands_running": len(self.children), "idle_s": self.idle,
                "socket": self.where.socket, "log": self.where.log, "identity": identity().split("\0")}

    def decline(self, header: dict, fds: list) -> str | None:
        """Why this process cannot run the request as its client would, or None."""
        if header.get("identity") != identity():
            return "another installation"
        if len(fds) != 4:
            return "descriptors missing"
        theirs = header.get("fingerprint", {})
        for key, value in self.fingerprint.items():
            if theirs.get(key) != value:
                return f"the interpreter differs ({key})"
        if header["nice"] < os.getpriority(os.PRIO_PROCESS, 0):
            return "a higher priority than the server's"
        import resource

        for name, limit in header["limits"].items():
            if hasattr(resource, name) and not _limit_ok(resource.getrlimit(getattr(resource, name)), limit):
                return f"a resource limit above the server's ({name})"
        path = changed(self.files)
        if path is not None:
            self.stop(f"{path} changed")
            return "stale"
        return None

    def request(self, conn: socket.socket, fds: list) -> None:
        try:
            header = protocol.Reader(conn).message(REQUEST_SECONDS)
            why = _malformed(header) or self.decline(header, fds)
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        if why is not None:
            for fd in fds:
                os.close(fd)
            log(f"declined: {why}")
            protocol.send(conn, {"decline": why})
            conn.close()
            return
        sys.stdout.flush()
        sys.stderr.flush()
        mine, theirs = socket.socketpair()
        began = time.monotonic()
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child; its coverage is the command's)
            mine.close()
            self._child(header, fds, theirs, conn)
        theirs.close()
        for fd in fds:
            os.close(fd)
        try:
            mine.settimeout(CHILD_READY_SECONDS)
            ready = mine.recv(4096)
        except OSError:
            ready = b""
        if ready != b"ok":
            os.waitpid(pid, 0)
            why = ready.decode("utf-8", "replace") or "the command's process did not start"
            log(f"declined: {why}")
            protocol.send(conn, {"decline": why})
            conn.close()
            mine.close()
            return
        try:
            protocol.send(conn, {"pid": pid})
        except OSError:  # the client has gone: the command never starts
            mine.close()
            os.waitpid(pid, 0)
            conn.close()
            return
        mine.sendall(b"go")
        mine.close()
        conn.settimeout(None)
        self.served += 1
        self.children[pid] = conn
        self.began[pid] = began
        self.selector.register(conn, selectors.EVENT_READ, pid)
        path = changed(self.others)  # while the command runs: a few ms for about a thousand files
        if path is not None:
            self.stop(f"{path} changed")

    def _child(self, header: dict, fds: list, pair: socket.socket, conn: socket.socket) -> None:
        from . import child

        code = 70
        try:
            os.setpgid(0, 0)  # the client's Ctrl-C reaches this process's whole group
            child.reset_signals()
            for fd in self.wake:
                os.close(fd)
            if self.listener is not None:
                self.listener.close()
            for other in self.children.values():
                if other is not None:
                    other.close()
            conn.close()
            self.selector.close()
            try:
                child.become(header, fds)
            except Exception as e:
                pair.sendall(f"the command's process could not be set up: {e}".encode())
                os._exit(0)
            pair.sendall(b"ok")
            pair.settimeout(None)
            go = b""
            while len(go) < 2:
                chunk = pair.recv(2 - len(go))
                if not chunk:  # the server could not tell the client: the command never runs
                    os._exit(0)
                go += chunk
            pair.close()
            code = child.run_command()
        finally:
            os._exit(code)


REQUEST_SECONDS = 5.0  # the whole request header, however it trickles in
CHILD_READY_SECONDS = 10.0  # the forked command's process set up (the client waits a little longer)

# What a request's header holds, by type: anything else is declined before it is used (#30 §17).
_HEADER_TYPES = {"identity": str, "argv": list, "env": dict, "umask": int, "nice": int, "limits": dict,
                 "streams": list, "fingerprint": dict}


def _malformed(header: dict) -> str | None:
    for key, kind in _HEADER_TYPES.items():
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            return f"a malformed request ({key})"
    if not all(isinstance(a, str) for a in header["argv"]) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in header["env"].items()):
        return "a malformed request (argv, env)"
    if not all(isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)
               for v in header["limits"].values()):
        return "a malformed request (limits)"
    if not all(isinstance(st, dict) for st in header["streams"]):
        return "a malformed request (streams)"
    return None


def _locked(fd: int, seconds: float) -> bool:
    """The lock taken within `seconds`: False while another server of this installation holds it."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EACCES) or time.monotonic() > deadline:
                return False
            time.sleep(0.05)


def main(argv: list) -> None:
    """`python -m staticroof.server.daemon IDLE READY_FD [INSERTED]` (server/spawn.py starts it)."""
    idle = float(argv[0])
    ready = int(argv[1])
    inserted = argv[2] if len(argv) > 2 else None
    where = address()

    def answer(text: str) -> None:
        try:
            os.write(ready, text.encode() + b"\n")
            os.close(ready)
        except OSError:
            pass

    try:
        make(where.folder)
        lock = os.open(where.lock, os.O_RDWR | os.O_CREAT, 0o600)
        if not _locked(lock, 3.0):  # a server that is stopping (stale) releases it within moments
            answer("running")
            return
        log(f"starting: {sys.executable}, {where.socket}, idle {idle:g} s")
        t = time.perf_counter()
        warm()
        server = Server(where, idle, inserted)
        server.fingerprint = own_fingerprint(inserted)
        server.files, server.others = watched_files()
        gc.collect()
        gc.freeze()  # the forked copies share these pages instead of copying them on a collection
        server.bind()
    except Exception as e:
        answer(f"error {type(e).__name__}: {e}")
        log(f"could not start: {type(e).__name__}: {e}")
        return
    log(f"ready in {time.perf_counter() - t:.2f} s, watching {len(server.files)} + {len(server.others)} files")
    answer(f"ok {os.getpid()}")
    try:
        server.serve()
    finally:
        server.close()
        os.close(lock)


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
