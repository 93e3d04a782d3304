"""The start-up server (staticroof/server, staticroof/launcher.py): a command run through it prints
byte for byte what it prints in its own process (stdout, stderr, exit status), whatever it is (an
analysis, a parse error, a usage error, a relative path under a configuration in its working
folder, an environment variable that changes the result, lint, a parallel folder); Ctrl-C reaches
it; a server whose sources changed, an unsafe folder, a stopped or idle server all leave the
command to its own process, with the same output.

Each test's server lives in a private folder (STATICROOF_SERVER_DIR) and is stopped at the end.
The tests that start a server of their own, SIGTERM and SIGKILL are marked slow (`pytest -m slow
tests/test_server.py`), except the stale server's and `server stop`'s.
Every comparison also checks that the command did go through the server (its count of commands
served), so a test cannot pass by falling back."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX") or not hasattr(socket, "send_fds")
                                or not hasattr(os, "fork"), reason="the server needs AF_UNIX sockets and fork")

SAXPY = ROOT / "samples" / "saxpy.c"
BROKEN = "void broken(int n, double *x) {\n    for (int i = 0; i < n; i++\n        x[i] = 0;\n}\n"
# a header of sizes and a kernel as a project has them; the configuration binds N
PARAMS_H = "#ifndef PARAMS_H\n#define PARAMS_H\n#define N 4096\ntypedef float real;\n#endif\n"
TRIAD_C = ('#include <time.h>\n#include "params.h"\n\n'
           "/* a[i] = b[i] + s*c[i]: W = 2N, Q = 12N */\n"
           "void triad(real *restrict a, const real *restrict b, const real *restrict c, real s)\n{\n"
           "    for (int i = 0; i < N; i++)\n        a[i] = b[i] + s * c[i];\n}\n\n"
           "int main(void)\n{\n    static real a[N], b[N], c[N];\n    clock_t t0 = clock();\n"
           "    triad(a, b, c, 3.0f);\n    return (int)(clock() - t0);\n}\n")


def _env(folder: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("STATICROOF_SERVER", "STATICROOF_CACHE_DIR")}
    env["STATICROOF_SERVER_DIR"] = str(folder)
    env.update(extra)
    return env


def _cli(args, env, cwd=ROOT, timeout=120, **kwargs):
    # -P: the installed staticroof whatever the working folder; `python -m` run from the checkout
    # would import its source tree, another installation than the server's (and so not served by
    # it) where the tests run on a non-editable install, as in CI
    safe = ["-P"] if Path(cwd) == ROOT else []
    return subprocess.run([sys.executable, *safe, "-m", "staticroof", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout, **kwargs)


class Server:
    """A server in a private folder, started and stopped by the CLI."""

    def __init__(self, folder: Path, env: dict | None = None, idle: float = 120, cwd: Path = ROOT):
        folder.mkdir(mode=0o700, exist_ok=True)
        self.folder = folder
        self.env = env or _env(folder)
        self.cwd = cwd
        out = _cli(["server", "start", "--idle", idle], self.env, cwd, timeout=300)
        assert out.returncode == 0 and "server started" in out.stdout, out.stdout + out.stderr

    def status(self) -> dict | None:
        out = _cli(["server", "status", "--format", "json"], self.env, self.cwd)
        answer = json.loads(out.stdout)
        return answer if answer["running"] else None

    def served(self) -> int:
        """Commands served so far, asked through the socket (no CLI process).  The socket is the
        one in this server's private folder: this process's own staticroof may be another copy
        (the checkout's source tree, where the tests run on a non-editable install) whose address
        is named differently."""
        from staticroof.server import protocol

        sockets = list(self.folder.glob("*.sock"))
        if len(sockets) != 1:
            return -1
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(5)
            sock.connect(str(sockets[0]))
        except OSError:
            sock.close()
            return -1
        with sock:
            assert sock.recv(1) == protocol.GREETING
            sock.sendall(b"S")
            return protocol.Reader(sock).message()["served"]

    def stop(self) -> None:
        _cli(["server", "stop"], self.env, self.cwd)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("server") / "srv")
    yield s
    s.stop()


def same(server: Server, args, cwd=ROOT, **env):
    """The command through the server and in its own process: stdout, stderr and status equal."""
    before = server.served()
    via = _cli(args, dict(server.env, **env), cwd)
    assert server.served() == before + 1, "the command did not go through the server"
    alone = _cli(args, dict(server.env, STATICROOF_SERVER="0", **env), cwd)
    assert (via.stdout, via.stderr, via.returncode) == (alone.stdout, alone.stderr, alone.returncode)
    return via


def test_analyze_prints_the_same(server):
    out = same(server, ["analyze", SAXPY])
    assert out.returncode == 0 and "W            2*n FLOP   (fp32)" in out.stdout
    out = same(server, ["analyze", SAXPY, "--format", "json"])
    assert json.loads(out.stdout)["kernels"][0]["name"] == "saxpy"


def test_errors_print_the_same(server, tmp_path):
    (tmp_path / "broken.c").write_text(BROKEN)
    assert same(server, ["analyze", "broken.c"], cwd=tmp_path).returncode == 1  # a parse error
    out = same(server, ["analyze", SAXPY, "--bogus"])  # a usage error: click's message names the program
    assert out.returncode == 2 and "Usage: python -m staticroof analyze" in out.stderr
    out = same(server, ["analyze", tmp_path / "missing.c"])
    assert out.returncode == 2 and "no such file or directory" in out.stderr
    assert same(server, ["--version"]).stdout.startswith("staticroof, version")


def test_working_folder_configuration_and_environment(server, tmp_path):
    (tmp_path / "params.h").write_text(PARAMS_H)
    (tmp_path / "triad.c").write_text(TRIAD_C)
    (tmp_path / "staticroof.toml").write_text("[sizes]\nN = 1000\n")
    out = same(server, ["analyze", "triad.c"], cwd=tmp_path)  # relative path, the folder's configuration
    assert "2*N = 2,000 FLOP" in out.stdout  # W = 2N at the configuration's N = 1000, not the header's 4096
    # an environment variable read when the command runs: an isl operation budget too small for any
    # count makes the analysis count at the fixed sizes (SR118), where the default budget gives the
    # formulas.  (Not STATICROOF_TIME_BUDGET: which fallback a CPU-time budget of 1e-9 s reaches
    # depends on how much the process has yet to do: SR126 in a cold process, SR125 in the server's
    # warm copy, both correct.)
    budget = same(server, ["analyze", "triad.c", "--format", "json"], cwd=tmp_path, STATICROOF_ISL_BUDGET="1")
    plain = same(server, ["analyze", "triad.c", "--format", "json"], cwd=tmp_path)
    assert budget.stdout != plain.stdout and "SR118" in budget.stdout and "SR118" not in plain.stdout


def test_lint_and_a_parallel_folder(server, tmp_path):
    out = same(server, ["lint", SAXPY])
    assert out.returncode in (0, 1)
    for name in ("saxpy.c", "daxpy.c", "vector_add.cu", "saxpy_numba.py"):
        shutil.copy(ROOT / "samples" / name, tmp_path)
    out = same(server, ["analyze", ".", "-j", "2", "--format", "json"], cwd=tmp_path)  # forks its own workers
    assert len(json.loads(out.stdout)["kernels"]) == 6  # saxpy, daxpy, vector_add and the three Numba kernels


def _long_run(server: Server, folder: Path, session: bool = True) -> subprocess.Popen:
    """`analyze` of 300 kernels at -j 2 through the server (many seconds on any machine), once the
    server runs it; in a session of its own, or (`session` False) in a group of its own in this
    session, as a shell runs a job (a new session's group is orphaned: Ctrl-Z never stops it)."""
    folder.mkdir()
    for i in range(300):
        (folder / f"k{i:03d}.c").write_text((ROOT / "samples" / "gemm.c").read_text().replace("gemm", f"gemm{i}"))
    before = server.served()
    p = subprocess.Popen([sys.executable, "-P", "-m", "staticroof", "analyze", str(folder), "-j", "2"], cwd=folder,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=server.env,
                         **({"start_new_session": True} if session else {"process_group": 0}))
    deadline = time.time() + 60
    while time.time() < deadline and server.served() == before:
        time.sleep(0.05)
    time.sleep(1.5)  # the command is analyzing, on its workers
    return p


def _running_gone(server: Server) -> bool:
    deadline = time.time() + 15
    while time.time() < deadline and (server.status() or {}).get("commands_running"):
        time.sleep(0.1)
    return server.status()["commands_running"] == 0


@pytest.mark.parametrize("how, status, says", [
    ("SIGINT", 1, "Aborted!"),  # Ctrl-C: a terminal sends it to its whole foreground group
    pytest.param("SIGTERM", 143, "", marks=pytest.mark.slow),  # a CI job's timeout: exit through Python
])
def test_signals_reach_the_command(server, tmp_path, how, status, says):
    p = _long_run(server, tmp_path / "many")
    if how == "SIGINT":
        os.killpg(p.pid, signal.SIGINT)
    else:
        os.kill(p.pid, signal.SIGTERM)
    _out, err = p.communicate(timeout=60)
    assert p.returncode == status and says in err and "Traceback" not in err, err
    assert _running_gone(server)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the command's process in /proc")
def test_a_killed_command_is_reported(server, tmp_path):
    p = _long_run(server, tmp_path / "many")
    parent = server.status()["pid"]
    (child,) = map(int, Path(f"/proc/{parent}/task/{parent}/children").read_text().split())
    os.killpg(child, signal.SIGKILL)  # the command and its workers, as the OOM killer might
    _out, err = p.communicate(timeout=60)
    assert p.returncode == 128 + signal.SIGKILL, err
    assert err.endswith(f"staticroof: the command was killed by SIGKILL (signal 9) in the start-up server's "
                        f"process {child}\n"), err
    assert _running_gone(server)


def test_an_unsafe_folder_is_not_used(server):
    os.chmod(server.folder, 0o755)
    try:
        before = server.served()
        via = _cli(["analyze", SAXPY], server.env)
        refused = _cli(["server", "start"], server.env)
    finally:
        os.chmod(server.folder, 0o700)
    assert server.served() == before  # ran in its own process
    alone = _cli(["analyze", SAXPY], dict(server.env, STATICROOF_SERVER="0"))
    assert (via.stdout, via.stderr, via.returncode) == (alone.stdout, alone.stderr, 0)
    assert refused.returncode == 2 and "mode 755" in refused.stderr


def test_stop_and_a_command_after_it(tmp_path):
    s = Server(tmp_path / "srv")
    assert s.status()["pid"] > 0
    again = _cli(["server", "start"], s.env)
    assert again.returncode == 0 and "running already" in again.stdout
    out = _cli(["server", "stop"], s.env)
    assert out.returncode == 0 and "server stopped" in out.stdout
    assert s.status() is None and not list(s.folder.glob("*.sock"))
    after = _cli(["analyze", SAXPY], s.env)
    assert after.returncode == 0 and "saxpy" in after.stdout
    assert _cli(["server", "status"], s.env).returncode == 1


def test_a_changed_source_makes_the_server_stale(tmp_path):
    # a copy of the package run from PYTHONPATH: its own installation, whose module we touch
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "staticroof", copy / "staticroof", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "grammars", copy / "grammars")
    env = _env(tmp_path / "srv", PYTHONPATH=str(copy))
    s = Server(tmp_path / "srv", env, idle=60, cwd=tmp_path)  # not ROOT: its staticroof would come first
    assert s.status()["identity"][2] == str(copy / "staticroof")
    module = copy / "staticroof" / "ir.py"
    module.write_text(module.read_text() + "\n")  # an edit (size and time change)
    via = _cli(["analyze", SAXPY], env, tmp_path)
    alone = _cli(["analyze", SAXPY], dict(env, STATICROOF_SERVER="0"), tmp_path)
    assert (via.stdout, via.stderr, via.returncode) == (alone.stdout, alone.stderr, 0)
    deadline = time.time() + 30
    while time.time() < deadline and s.status() is not None:
        time.sleep(0.1)
    assert s.status() is None  # the stale server exited
    log = next(s.folder.glob("*.log")).read_text()
    assert "ir.py changed" in log


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the processes' states in /proc")
def test_ctrl_z_stops_the_command_with_its_client(server, tmp_path):
    p = _long_run(server, tmp_path / "many", session=False)
    parent = server.status()["pid"]
    (child,) = map(int, Path(f"/proc/{parent}/task/{parent}/children").read_text().split())

    def state(pid):
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]

    os.kill(p.pid, signal.SIGTSTP)  # what Ctrl-Z sends
    time.sleep(0.5)
    assert (state(p.pid), state(child)) == ("T", "T")  # both stopped
    os.kill(p.pid, signal.SIGCONT)  # `fg`
    time.sleep(0.5)
    assert "T" not in (state(p.pid), state(child))
    os.killpg(p.pid, signal.SIGINT)
    _out, err = p.communicate(timeout=60)
    assert p.returncode == 1 and "Aborted!" in err


@pytest.mark.slow  # a server of its own: several seconds
def test_auto_starts_a_server_for_the_next_command(tmp_path):
    folder = tmp_path / "srv"
    folder.mkdir(mode=0o700)
    env = _env(folder, STATICROOF_SERVER="auto")
    first = _cli(["analyze", SAXPY], env)  # no server: runs here, then starts one in the background
    alone = _cli(["analyze", SAXPY], dict(env, STATICROOF_SERVER="0"))
    assert (first.stdout, first.stderr, first.returncode) == (alone.stdout, alone.stderr, 0)
    s = Server.__new__(Server)
    s.folder, s.env, s.cwd = folder, env, ROOT
    try:
        deadline = time.time() + 120
        while time.time() < deadline and s.served() < 0:
            time.sleep(0.2)
        assert s.served() == 0
        second = _cli(["analyze", SAXPY], env)
        assert s.served() == 1 and second.stdout == first.stdout
    finally:
        s.stop()


@pytest.mark.slow  # a server of its own: several seconds
def test_an_idle_server_exits(tmp_path):
    s = Server(tmp_path / "srv", idle=0.5)
    deadline = time.time() + 30
    while time.time() < deadline and s.status() is not None:
        time.sleep(0.1)
    assert s.status() is None and "idle for 0.5 s" in next(s.folder.glob("*.log")).read_text()


def test_a_command_through_the_server_imports_no_more_than_the_launcher(server, tmp_path):
    from test_startup import not_standard

    # the launcher as the console script runs it; the modules it holds at its exit on stderr's last line
    wrapper = ("import json, sys\nbefore = set(sys.modules)\nsys.argv = ['staticroof', *sys.argv[1:]]\n"
               "from staticroof.launcher import main\ntry:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
               "sys.stderr.write('\\nMODULES ' + json.dumps([code, sorted(set(sys.modules) - before)]) + '\\n')\n")
    before = server.served()
    out = subprocess.run([sys.executable, "-P", "-c", wrapper, "analyze", str(SAXPY)], capture_output=True, text=True,
                         cwd=tmp_path, env=server.env, timeout=120)
    code, modules = json.loads(out.stderr.splitlines()[-1][len("MODULES "):])
    assert server.served() == before + 1 and code == 0 and "saxpy" in out.stdout
    assert not_standard(modules) == [] and "click" not in modules


def test_a_socket_no_server_listens_on_is_removed(tmp_path, monkeypatch):
    from staticroof.server import client
    from staticroof.server.address import address

    folder = tmp_path / "srv"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("STATICROOF_SERVER_DIR", str(folder))
    monkeypatch.delenv("STATICROOF_SERVER", raising=False)
    where = address()
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(where.socket)  # what a server killed with SIGKILL leaves: the file, no listener
    dead.close()
    assert os.path.exists(where.socket)
    assert client.run(["staticroof", "analyze", "k.c"], None) == "no server"
    assert not os.path.exists(where.socket)
    # a live server's lock keeps its socket, even one that refuses (a full queue on some systems)
    import fcntl

    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(where.socket)
    dead.close()
    fd = os.open(where.lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert client.run(["staticroof", "analyze", "k.c"], None) == "no server"
        assert os.path.exists(where.socket)
    finally:
        os.close(fd)


def _fake_server(tmp_path, monkeypatch) -> socket.socket:
    """A socket listening where the client looks for this installation's server (in a private
    folder), for the tests that play the server's part themselves."""
    from staticroof.server.address import address

    folder = tmp_path / "srv"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("STATICROOF_SERVER_DIR", str(folder))
    monkeypatch.delenv("STATICROOF_SERVER", raising=False)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address().socket)
    listener.listen(1)
    return listener


@pytest.mark.parametrize("answer", [b"", b'{"decline": "stale"}\n', b"not json\n", b'["a list"]\n'])
def test_a_server_that_fails_before_answering_leaves_the_command_here(tmp_path, monkeypatch, capfd, answer):
    """Whatever a server does before it names the command's process (hang up, decline, garble),
    the client prints nothing and the command runs in its own process."""
    import threading

    from staticroof.server import client

    listener = _fake_server(tmp_path, monkeypatch)

    def serve():
        conn, _ = listener.accept()
        conn.sendall(b"+")  # the greeting (server/protocol.py)
        _tag, fds, _flags, _addr = socket.recv_fds(conn, 1, 8)
        for fd in fds:
            os.close(fd)
        conn.sendall(answer)
        conn.close()

    t = threading.Thread(target=serve)
    t.start()
    # the interpreter's own streams, as the `staticroof` command has them (pytest replaced them)
    streams = [open(fd, mode, closefd=False) for fd, mode in ((0, "r"), (1, "w"), (2, "w"))]
    monkeypatch.setattr(sys, "stdin", streams[0])
    monkeypatch.setattr(sys, "stdout", streams[1])
    monkeypatch.setattr(sys, "stderr", streams[2])
    try:
        outcome = client.run(["staticroof", "analyze", "k.c"], None)
    finally:
        t.join(10)
        listener.close()
    assert isinstance(outcome, str) and outcome.startswith(("declined", "failed")), outcome
    for s in streams[1:]:
        s.flush()
    assert capfd.readouterr() == ("", "")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the forwarding is undone


def test_streams_that_are_not_the_interpreters_leave_the_command_here(tmp_path, monkeypatch, capfd):
    from staticroof.server import client

    listener = _fake_server(tmp_path, monkeypatch)  # the connection is queued: nothing needs to accept it
    try:  # pytest's capture replaced sys.stdin, sys.stdout and sys.stderr
        assert client.run(["staticroof", "analyze", "k.c"], None) == \
            "failed: ValueError: standard stream 0 is not the interpreter's"
    finally:
        listener.close()
    assert capfd.readouterr() == ("", "")


def _raw_request(server: Server, header: bytes, trickle: float = 0.0) -> bytes:
    """Send a request as a hostile client would (its header as given, `trickle` seconds between its
    bytes) and return what the server answered (b"" when it hung up)."""
    (sock_path,) = server.folder.glob("*.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(str(sock_path))
    cwd = os.open(".", os.O_RDONLY)
    try:
        assert sock.recv(1) == b"+"  # the server's greeting
        socket.send_fds(sock, [b"R"], [0, 1, 2, cwd])
        try:
            if trickle:
                for byte in header:
                    sock.sendall(bytes([byte]))
                    time.sleep(trickle)
            else:
                sock.sendall(header)
        except OSError:  # the server hung up on it
            pass
        try:
            return sock.recv(65536)
        except OSError:
            return b""
    finally:
        os.close(cwd)
        sock.close()


def test_a_malformed_request_costs_only_itself(server):
    # #30 §17: JSON nested past the parser's depth, and fields of the wrong type, killed the server
    # (RecursionError, AttributeError); now the request is refused and the server serves on
    before = server.served()
    assert _raw_request(server, b"[" * 200000 + b"]" * 200000 + b"\n") == b""
    answer = _raw_request(server, json.dumps({"op": "run", "identity": 5, "argv": "x", "env": [], "nice": "0",
                                              "limits": 1, "streams": {}, "fingerprint": []}).encode() + b"\n")
    assert b"decline" in answer
    assert server.served() == before and same(server, ["analyze", SAXPY]).returncode == 0


def test_a_trickling_client_is_dropped(server):
    # #30 §12: a client sending a byte every second kept the server in its request for ever (each
    # read had 5 s); the whole header now has 5 s, then the server hangs up and serves the next
    import threading

    answers: list = []
    slow = threading.Thread(target=lambda: answers.append(_raw_request(server, b'{"op": "run"' + b" " * 30 + b"}\n",
                                                                       trickle=0.5)))
    t0 = time.monotonic()
    slow.start()
    time.sleep(1.0)
    assert server.served() >= 0  # the server still answers (within its 5 s for the slow header)
    slow.join(60)
    assert answers == [b""] and time.monotonic() - t0 < 25


@pytest.mark.slow
def test_a_frozen_server_is_bypassed_with_a_note(tmp_path):
    # #30 §12: a stopped (SIGSTOP) server accepted the connection and every command waited for ever;
    # the client now waits 15 s for the first answer, then runs the command itself and says why
    s = Server(tmp_path / "srv")
    pid = s.status()["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        out = _cli(["analyze", SAXPY], s.env, timeout=120)
        assert out.returncode == 0 and "saxpy" in out.stdout, out.stderr
        assert "did not answer within 15 s: running the command here" in out.stderr
        assert time.monotonic() - t0 < 60
    finally:
        os.kill(pid, signal.SIGCONT)
        s.stop()


def _no_new_privs():  # pragma: no cover - in the child, before exec
    import ctypes

    PR_SET_NO_NEW_PRIVS = 38
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError("prctl failed")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="restrictions are read from /proc")
def test_a_more_restricted_client_runs_its_command_itself(server):
    # #30 §3: a client with no_new_privs (as a sandbox sets it) read files through the server's
    # unrestricted copy; now the server declines it (its credentials differ) and the command runs in
    # the client's own process: the same output, and the server served nothing
    before = server.served()
    via = _cli(["analyze", SAXPY], server.env, preexec_fn=_no_new_privs)
    alone = _cli(["analyze", SAXPY], dict(server.env, STATICROOF_SERVER="0"))
    assert server.served() == before
    assert (via.stdout, via.stderr, via.returncode) == (alone.stdout, alone.stderr, alone.returncode)
    assert same(server, ["analyze", SAXPY]).returncode == 0  # an ordinary client is still served
