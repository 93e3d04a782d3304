"""The long fuzz run of issue #11: N inputs from tests/fuzzing.py through `staticroof analyze`.

    python benchmarks/fuzz_long.py -n 100000 --out fuzz-run [--workers 2] [--until 22:20]

Case i is `fuzzing.case_for(i, seed)`, so a run is reproducible from its seed and resumes where
it stopped (rerun the same command: the indices already done are skipped).  Worker processes
(at most 2) each take a batch of indices and run them in-process; the parent watches them: a case
that runs past --case-timeout, a worker that dies (a signal, the memory limit) or a case after
which the worker's or its preprocessors' peak RSS is over 1 GiB is a failure of that case.  Every
failure's case is saved under OUT/failures/ (re-run one with --replay FILE); OUT/record.json
holds the totals: inputs, failures, time, peak memory, the command.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzz_oracle as oracle
import fuzzing

WORKER_AS_LIMIT = 4 << 30  # address space per worker: a runaway dies here instead of taking the machine


# ------------------------------------------------------------------------------- worker

def worker(args) -> int:
    """Run indices [start, start + count) (skipping `--skip` ones), one JSON line per case on
    OUT/progress-START.jsonl; `OUT/current-START` names the case in progress."""
    try:
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_AS_LIMIT, WORKER_AS_LIMIT))
    except (ValueError, OSError):
        pass
    # as the CLI's watched process: each kernel's hard CPU limit armed (staticroof/crashes.py), so a
    # count stuck in native code ends this worker by SIGXCPU where the CLI would redo the run without
    # that kernel (SR126); the parent notes such a case instead of waiting out --case-timeout
    from staticroof import crashes

    crashes.slot_page = crashes.new_slot()
    out = Path(args.out)
    skip = set(json.loads(args.skip)) if args.skip else set()
    base = out / "work"
    base.mkdir(exist_ok=True)
    progress = open(out / f"progress-{args.start}.jsonl", "a", buffering=1)
    current = out / f"current-{args.start}"
    for i in range(args.start, args.start + args.count):
        if i in skip:
            continue
        case = fuzzing.case_for(i, args.seed)
        current.write_text(str(i))
        try:
            o = oracle.check(case, base)
            problems, notes, seconds, code = o.problems, o.notes, o.seconds, o.exit_code
            output = (o.stdout + o.stderr)[-4000:]
        except Exception as e:  # the harness itself: still a finding, with the case kept
            problems, notes, seconds, code, output = [f"harness: {type(e).__name__}: {e}"], [], 0.0, None, ""
        rss_self, rss_children = oracle.peak_rss()
        if max(rss_self, rss_children) > oracle.MEMORY_LIMIT:
            problems.append(f"peak RSS {rss_self:,} B (staticroof), {rss_children:,} B (preprocessor) > 1 GiB")
        if problems:
            save_failure(out, i, case, problems, output)
        progress.write(json.dumps({"i": i, "ok": not problems, "s": round(seconds, 3), "code": code,
                                   "notes": notes, "ops": case.ops, "rss": max(rss_self, rss_children)}) + "\n")
        if max(rss_self, rss_children) > oracle.MEMORY_LIMIT:
            break  # the peak is a high-water mark: a fresh worker judges the next cases
    current.unlink(missing_ok=True)
    return 0


def save_failure(out: Path, i: int, case, problems, output: str) -> None:
    d = out / "failures"
    d.mkdir(exist_ok=True)
    (d / f"case-{i}.json").write_text(json.dumps({"index": i, "problems": problems, "output": output,
                                                  "describe": oracle.shrink_hint(case), "case": case.to_json()},
                                                 indent=1))


# ------------------------------------------------------------------------------- parent

def done_indices(out: Path) -> dict:
    done = {}
    for p in out.glob("progress-*.jsonl"):
        for line in p.read_text().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut short by a kill
            done[rec["i"]] = rec
    return done


def spawn(args, start: int, count: int, skip: list) -> subprocess.Popen:
    cmd = [sys.executable, __file__, "--worker", "--out", args.out, "--seed", str(args.seed), "--start", str(start),
           "--count", str(count), "--skip", json.dumps(skip)]
    log = open(Path(args.out) / "workers.log", "ab")
    return subprocess.Popen(cmd, stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)


def _deadline(args) -> float | None:
    if args.until:
        h, m = map(int, args.until.split(":"))
        now = dt.datetime.now()
        t = now.replace(hour=h, minute=m, second=0, microsecond=0)
        if t <= now:
            t += dt.timedelta(days=1)
        return time.time() + (t - now).total_seconds()
    return time.time() + args.max_seconds if args.max_seconds else None


def parent(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    record_path = out / "record.json"
    record = json.loads(record_path.read_text()) if record_path.exists() else {}
    if record and record.get("seed") != args.seed:
        sys.exit(f"{out} holds a run with seed {record.get('seed')}: use another --out or the same --seed")
    deadline = _deadline(args)
    started = time.time()
    elapsed_before = record.get("seconds", 0.0)
    done = done_indices(out)
    pending = [i for i in range(args.n) if i not in done]
    batches = [pending[k:k + args.batch] for k in range(0, len(pending), args.batch)]
    running: dict = {}  # start -> (proc, indices, heartbeat (index, since))
    hung: list = []
    peak_children = 0

    def write_record(final=False):
        d = done_indices(out)
        failed = sorted(int(p.stem.split("-")[1]) for p in (out / "failures").glob("case-*.json")) \
            if (out / "failures").exists() else []
        notes = {}
        for rec in d.values():
            for n in rec.get("notes", []):
                notes.setdefault(n, []).append(rec["i"])
        times = sorted(rec["s"] for rec in d.values() if rec.get("s") is not None)  # None: killed (timeout)
        rec = {"command": " ".join(sys.argv), "seed": args.seed, "target": args.n, "inputs": len(d),
               "failures": len(failed), "failed_indices": failed[:1000],
               "notes": {k: {"count": len(v), "indices": sorted(v)[:200]} for k, v in notes.items()},
               "seconds": round(elapsed_before + time.time() - started, 1),
               "median_case_s": times[len(times) // 2] if times else None, "max_case_s": times[-1] if times else None,
               "peak_rss_bytes": max([r.get("rss") or 0 for r in d.values()] + [peak_children]),
               "finished": final and len(d) >= args.n, "updated": dt.datetime.now().isoformat(timespec="seconds")}
        record_path.write_text(json.dumps(rec, indent=1))
        return rec

    while batches or running:
        while batches and len(running) < args.workers and (deadline is None or time.time() < deadline):
            b = batches.pop(0)
            start, count = b[0], b[-1] - b[0] + 1
            skip = [i for i in range(start, start + count) if i not in set(b)]
            running[start] = [spawn(args, start, count, skip), b, None]
        if deadline is not None and time.time() >= deadline:
            batches = []
            for proc, _b, _hb in running.values():
                _kill(proc)
        time.sleep(0.5)
        for start, entry in list(running.items()):
            proc, b, hb = entry
            cur = out / f"current-{start}"
            try:
                i = int(cur.read_text())
            except (OSError, ValueError):
                i = None
            if i is not None and (hb is None or hb[0] != i):
                entry[2] = hb = (i, time.time())
            if hb is not None and time.time() - hb[1] > args.case_timeout and proc.poll() is None:
                _kill(proc)
                save_failure(out, hb[0], fuzzing.case_for(hb[0], args.seed),
                             [f"ran longer than {args.case_timeout} s"], "")
                _progress(out, start, hb[0], f"timeout after {args.case_timeout} s")
                hung.append(hb[0])
            code = proc.poll()
            if code is None:
                continue
            # the largest reaped worker (or preprocessor below it), whatever the worker itself saw
            peak_children = max(peak_children, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
            del running[start]
            cur.unlink(missing_ok=True)
            d = done_indices(out)
            rest = [k for k in b if k not in d]
            if code == -signal.SIGXCPU and i is not None and i in rest:
                # a kernel past its hard CPU limit: what the CLI reports as SR126 (not a failure)
                _progress(out, start, i, "SR126: a kernel past its hard CPU limit (SIGXCPU)", ok=True)
                rest = [k for k in rest if k != i]
            elif code != 0 and i is not None and i in rest and (deadline is None or time.time() < deadline):
                why = f"worker ended by signal {-code}" if code < 0 else f"worker exited {code}"
                save_failure(out, i, fuzzing.case_for(i, args.seed), [why], "")
                _progress(out, start, i, why)
                rest = [k for k in rest if k != i]
            if rest and (deadline is None or time.time() < deadline):
                batches.insert(0, rest)  # the rest of a batch whose worker stopped early
        if not running or int(time.time()) % 30 == 0:
            write_record()
    rec = write_record(final=True)
    print(json.dumps(rec, indent=1))
    return 1 if rec["failures"] else 0


def _progress(out: Path, start: int, i: int, why: str, ok: bool = False) -> None:
    with open(out / f"progress-{start}.jsonl", "a") as f:
        f.write(json.dumps({"i": i, "ok": ok, "s": None, "code": None, "notes": [why] if ok else [],
                            "why": why}) + "\n")


def _kill(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def replay(path: str) -> int:
    rec = json.loads(Path(path).read_text())
    case = fuzzing.Case.from_json(rec["case"])
    o = oracle.check(case)
    print(oracle.shrink_hint(case))
    print(o.stdout[-3000:], o.stderr[-3000:], sep="\n")
    print("exit", o.exit_code, "problems:", o.problems or "none")
    return 1 if o.problems else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=int(os.environ.get("STATICROOF_FUZZ_N", "100000")))
    ap.add_argument("--out", default="fuzz-run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, choices=(1, 2))
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--case-timeout", type=float, default=180.0)
    ap.add_argument("--until", help="HH:MM: start no case after this time (local)")
    ap.add_argument("--max-seconds", type=float)
    ap.add_argument("--replay", metavar="FILE", help="run one saved failure again")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--count", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--skip", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    return worker(args) if args.worker else parent(args)


if __name__ == "__main__":
    sys.exit(main())
