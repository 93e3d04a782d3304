"""The oracle of the fuzz suite (issue #11): run one case through `staticroof analyze` in this
process and judge what the README promises of any input: no Python traceback, no SR099 (internal
error), exit status 0, 1 or 2 by the README's rules (2 only for usage errors and unreadable
input, 1 when something could not be analyzed, 0 when every kernel was), JSON output that
parses, and no file created, changed or removed anywhere but the run's own temporary folder
(TMPDIR), which must be empty afterwards.  Peak memory (under 1 GiB, the preprocessor included)
is a high-water mark of a process: `peak_rss` reads it; a worker process judges it per input.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import stat
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from fuzzing import Case

MEMORY_LIMIT = 1 << 30  # peak RSS of a run, preprocessor included (issue #11)


@dataclass
class Layout:
    root: Path
    src: Path
    cwd: Path
    tmp: Path
    outside: Path
    tag: str
    args: list


def materialize(case: Case, root: Path) -> Layout:
    """Lay the case out under `root`: src/ (its files), cwd/ (the working folder unless the case
    runs from src/), tmp/ (TMPDIR, empty afterwards) and outside/ (where absolute includes point:
    never created)."""
    tag = f"fz{os.getpid()}_{abs(hash(root)) % 10**8}"
    lay = Layout(root, root / "src", root / "cwd", root / "tmp", root / "outside", tag, [])
    for d in (lay.src, lay.cwd, lay.tmp):
        d.mkdir(parents=True)
    for rel, data in case.files.items():
        p = lay.src / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    for rel in case.fifos:
        if "@symlink" in rel:  # NAME@symlink: a link to itself (a loop); NAME@symlink=TARGET
            name, _, target = rel.partition("@symlink")
            os.symlink(target[1:].replace("{outside}", str(lay.outside)) if target else name, lay.src / name)
        elif hasattr(os, "mkfifo"):
            os.mkfifo(lay.src / rel)
    subst = {"{src}": str(lay.src), "{outside}": str(lay.outside), "{main}": str(lay.src / case.main),
             "{tag}": tag}
    last = []  # `{--main}`: the file after `--`, which must follow every option
    for a in case.args:
        if a == "{--main}":
            last = ["--", str(lay.src / case.main)]
            continue
        for k, v in subst.items():
            a = a.replace(k, v)
        lay.args.append(a)
    lay.args += last
    # the include tricks name {outside} and {tag} inside the sources too
    for rel, data in case.files.items():
        if b"{outside}" in data or b"{tag}" in data:
            (lay.src / rel).write_bytes(data.replace(b"{outside}", str(lay.outside).encode())
                                        .replace(b"{tag}", tag.encode()))
    return lay


def snapshot(root: Path) -> dict:
    """{path: (kind, size, mtime_ns)} of everything under root (links not followed)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            out[p] = (stat.S_IFMT(st.st_mode), st.st_size if stat.S_ISREG(st.st_mode) else 0, st.st_mtime_ns)
    return out


def _escape_targets(lay: Layout) -> list[Path]:
    """Where an `#include <../../escape_TAG/x.h>` would land if a stub were written for it."""
    return [anc / f"escape_{lay.tag}" for anc in [lay.tmp, *lay.tmp.parents]]


_ERROR_CODES = None


def error_codes() -> set:
    global _ERROR_CODES
    if _ERROR_CODES is None:
        from staticroof.diagnostics import RULES

        _ERROR_CODES = {r.code for r in RULES.values() if r.severity == "error"}
    return _ERROR_CODES


@dataclass
class Outcome:
    exit_code: int | None
    stdout: str
    stderr: str
    problems: list
    seconds: float
    notes: list = field(default_factory=list)  # not failures: SR121 (self-check), slow runs


def invoke(lay: Layout, case: Case):
    """Run `staticroof analyze` in this process with TMPDIR (and tempfile's folder) set to the
    case's tmp/ and the working folder set; returns click's Result."""
    from click.testing import CliRunner

    from staticroof.cli import main

    old_cwd, old_tmp = os.getcwd(), tempfile.tempdir
    old_env = {k: os.environ.get(k) for k in ("TMPDIR", "STATICROOF_NO_CPP")}
    os.environ["TMPDIR"] = str(lay.tmp)
    if case.no_cpp:
        os.environ["STATICROOF_NO_CPP"] = "1"
    else:
        os.environ.pop("STATICROOF_NO_CPP", None)
    tempfile.tempdir = str(lay.tmp)
    os.chdir(lay.src if case.cwd_src else lay.cwd)
    try:
        return CliRunner().invoke(main, ["analyze", *lay.args], catch_exceptions=True)
    finally:
        os.chdir(old_cwd)
        tempfile.tempdir = old_tmp
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def check(case: Case, base: Path | None = None) -> Outcome:
    """Run one case and judge it (see the module docstring)."""
    root = Path(tempfile.mkdtemp(prefix="fz-", dir=base))
    try:
        lay = materialize(case, root)
        before = snapshot(root)
        dev_zero = os.stat("/dev/zero").st_mtime_ns if os.path.exists("/dev/zero") else None
        t0 = time.perf_counter()
        res = invoke(lay, case)
        seconds = time.perf_counter() - t0
        problems = judge(case, lay, res)
        after = snapshot(root)
        for p in sorted(set(after) - set(before)):
            problems.append(f"created {p}")
        for p in sorted(set(before) - set(after)):
            problems.append(f"removed {p}")
        for p in sorted(set(before) & set(after)):
            if before[p] != after[p] and not p.startswith(str(lay.tmp)):
                problems.append(f"changed {p}")
        if any(lay.tmp.iterdir()):
            problems.append(f"left in TMPDIR: {sorted(os.listdir(lay.tmp))}")
        for t in _escape_targets(lay):
            if os.path.lexists(t):
                problems.append(f"created {t}")
                shutil.rmtree(t, ignore_errors=True)
        if dev_zero is not None and os.stat("/dev/zero").st_mtime_ns != dev_zero:
            problems.append("touched /dev/zero")
        out = Outcome(res.exit_code, res.stdout, res.stderr, problems, seconds)
        if "SR121" in res.output:
            out.notes.append("SR121")
        return out
    finally:
        shutil.rmtree(root, ignore_errors=True)


def judge(case: Case, lay: Layout, res) -> list[str]:
    """The README's promises about one run's output and exit status."""
    problems = []
    output = res.stdout + res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        tb = "".join(traceback.format_exception(res.exception))
        problems.append(f"exception: {tb[-3000:]}")
    if "Traceback (most recent call last)" in output:
        problems.append("a traceback in the output")
    if "SR099" in output:
        at = output.index("SR099")
        problems.append(f"SR099: {' '.join(output[at:at + 400].split())}")  # the message follows (text or JSON)
    code = res.exit_code
    if code not in (0, 1, 2):
        problems.append(f"exit status {code}")
        return problems
    if case.expect is not None and code != case.expect:
        problems.append(f"exit status {code}, expected {case.expect} (a usage error)")
    usage = ("Error:" in res.stderr or "Usage:" in res.stderr or "staticroof:" in res.stderr
             or re.search(r"\bSR00[37]\b", output) is not None)
    if code == 2 and not usage:
        problems.append("exit status 2 without a usage error or unreadable input")
    if re.search(r"\bSR00[37]\b", output) and code != 2:
        problems.append(f"exit status {code} with SR003/SR007 (unreadable input or a bad -D value: README says 2)")
    fmt_json = "--format" in lay.args and lay.args[lay.args.index("--format") + 1:][:1] == ["json"]
    if fmt_json and res.stdout.strip():
        try:
            doc = json.loads(res.stdout, parse_constant=_not_json)  # NaN, Infinity: not JSON
        except ValueError as e:
            problems.append(f"JSON output does not parse: {e}")
            return problems
        if not isinstance(doc, dict) or doc.get("version") != 1:
            problems.append("JSON output without version 1")
            return problems
        problems += _locations(doc, lay, case.cwd_src)
        errors = [d for d in doc.get("diagnostics", []) if d.get("severity") == "error"]
        unsupported = [k for k in doc.get("kernels", []) if k.get("status") != "ok"]
        drivers_shown = ("--all-functions" in lay.args or "--kernel" in lay.args
                         or b"all-functions" in case.files.get("pyproject.toml", b""))
        if code == 0 and (errors or (unsupported and not drivers_shown)):
            problems.append("exit status 0 with an error diagnostic or an unanalyzed kernel")
        if code == 1 and not errors and not unsupported:
            problems.append("exit status 1 with no error and every kernel analyzed")
    elif code == 1 and not any(re.search(rf"\b{c}\b", output) for c in error_codes()) and "not analyzed" not in output:
        problems.append("exit status 1 without an error diagnostic")
    return problems


def _not_json(token: str):
    raise ValueError(f"{token} is not a JSON value")


def _locations(doc: dict, lay: Layout, cwd_src: bool) -> list[str]:
    """Every location names a file the run was given (or reached: a header, a stub) and a line
    within it: an internal alias, a name cut at a quote or a `#line` an input injected is wrong."""
    from staticroof.resources import grammars_dir

    out, lines = [], {}
    stubs = str(grammars_dir())
    items = [("file", d) for d in doc.get("diagnostics", [])]
    for k in doc.get("kernels", []):
        items += [("kernel", k)] + [("kernel diagnostic", d) for d in k.get("diagnostics", [])]
    for what, d in items:
        f = d.get("file")
        if not f or f.startswith("<"):
            continue
        p = Path(f) if os.path.isabs(f) else Path(lay.src if cwd_src else lay.cwd, f)
        if not (str(p).startswith((str(lay.src), stubs, str(lay.outside))) or f.startswith("/dev/")):
            out.append(f"{what} location in a file the run was not given: {f!r}")
            continue
        if p not in lines:
            try:
                lines[p] = p.read_bytes().count(b"\n") + 1 if p.is_file() else None
            except OSError:
                lines[p] = None
        if lines[p] is not None and not 0 <= int(d.get("line") or 0) <= lines[p] + 1:
            out.append(f"{what} location {f}:{d.get('line')} past the end of the file ({lines[p]} lines)")
    return out


def peak_rss() -> tuple[int, int]:
    """(this process's, its children's) peak resident set size in bytes."""
    scale = 1 if os.uname().sysname == "Darwin" else 1024
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale)


def shrink_hint(case: Case) -> str:
    """A one-line description of a case for the record."""
    return f"{case.seed} ops={'+'.join(case.ops) or '-'} args={case.args}"
