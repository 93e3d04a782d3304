"""Time `staticroof analyze` the way users meet it, and write a JSON record (issue #15, item 4).

Cases: (a) `small`, one small file (samples/saxpy.c); (b) `samples`, the samples folder; (c)
`generated`, a folder of 200 kernels of mixed shapes (benchmarks/kernels.py: BLAS-1/2/3, stencils,
reductions, C and CUDA) written to a temporary folder; (d) `slowest`, the slowest files of the
test corpus (SLOWEST below, found with `--find-slowest`); (e) `bench30`, benchmarks/bench30/, 30
kernels as a benchmark suite's users write them (BLAS, solvers, stencils, the all-pairs shortest
paths over int data), target: at most 8x the time of `small`; (f) `corpus`, every C and CUDA
file under samples/ and tests/data/ in one command, target: 3 s wall including start-up.  Each
case is timed as whole processes (`python -m staticroof analyze PATH --format json`, as a
pre-commit hook runs it, on every core: median of --repeat) and in one process (every file
through the pipeline, after a warm-up file).  `--jobs-cases` times whole processes of those cases
again at `-j 1`, `-j 2`, ... up to the usable cores (the `jobs` record), and each run is checked
to print the same JSON as `-j 1`.

Wall time alone lies on a shared machine, so every figure has its CPU time beside it (the
children's user + system time for processes, `time.process_time` in process), and the record
holds the core count and load average.  The start-up timings include `analyze` and `lint` of
one small file through a start-up server (`staticroof server start`) against the same commands in
their own process, alternated, median of at least 9.  Child processes get a private bytecode cache that a
warm-up run fills, so an environment with PYTHONDONTWRITEBYTECODE does not time compilation.

    python benchmarks/bench_analyze.py [--repeat 3] [--repeat-large 1] [--cases small,samples,generated,slowest]
                                       [--generated 200] [--json bench_analyze.json]
    python benchmarks/bench_analyze.py --find-slowest [--top 5]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
HEAVY = ("numba", "matplotlib", "numpy", "torch")
CASES = ("small", "samples", "generated", "slowest", "bench30", "corpus")
TARGETS = {"bench30": 8.0}  # case: at most this many times the whole-process time of `small`
CORPUS_TARGET_S = 3.0
KERNEL_MEDIAN_MS, KERNEL_MAX_S = 15.0, 2.0  # in one process, CPU of each kernel's analysis
# The slowest files of samples/ and tests/data/ in one process, from `--find-slowest` on
# 2026-12-01 (2 cores, load about 8.5; CPU seconds): rtx5070_kernels.cu 25.0, polybench_acc_style.cu
# 13.8, contract_macro.c 8.9, then polybench_style.cu 8.2 and llm_layers.cu 7.8 (88 files, 191
# kernels, 110.6 s CPU in all).  The top three are the case; re-derive when the analysis changes.
SLOWEST = ("tests/data/ncu/rtx5070_kernels.cu", "tests/data/cuda/polybench_acc_style.cu",
           "tests/data/trace/contract_macro.c")


def _child_env(pycache: str) -> dict:
    env = dict(os.environ, STATICROOF_SERVER="0")  # a start-up server only where it is the case timed
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def _command() -> list:
    """`staticroof` as users run it: the environment's console script, else `python -m staticroof`."""
    script = Path(sys.executable).parent / "staticroof"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "staticroof"]


def server_times(env: dict, repeat: int, folder: Path) -> dict:
    """`analyze` and `lint --no-cache` of samples/saxpy.c as whole processes through a start-up
    server (`staticroof server start`, in a private folder), each run alternated with the same
    command in its own process (STATICROOF_SERVER=0).  The CPU time is the client's only: the
    server's copy that runs the command is not a child of this process."""
    folder.mkdir(mode=0o700)
    served = {k: v for k, v in env.items() if k != "STATICROOF_SERVER"}
    served["STATICROOF_SERVER_DIR"] = str(folder)
    alone = dict(served, STATICROOF_SERVER="0")
    base = _command()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": ROOT}
    subprocess.run([*base, "server", "start", "--idle", "600"], env=served, check=True, **quiet)
    out: dict = {"command": Path(base[0]).name if len(base) == 1 else "python -m staticroof"}
    try:
        for name, args in (("analyze small", ["analyze", "samples/saxpy.c"]),
                           ("lint small", ["lint", "--no-cache", "samples/saxpy.c"])):
            cmd = [*base, *args]
            subprocess.run(cmd, env=served, **quiet)  # the server's first copy of this command
            via, own = [], []
            for _ in range(repeat):
                via.append(process_times_of(cmd, 1, served))
                own.append(process_times_of(cmd, 1, alone))
            for label, runs in ((f"{name} via server", via), (f"{name} in-process", own)):
                out[label] = {"median_wall_s": statistics.median(r["median_wall_s"] for r in runs),
                              "median_cpu_s": statistics.median(r["median_cpu_s"] for r in runs),
                              "walls_s": [r["median_wall_s"] for r in runs]}
    finally:
        subprocess.run([*base, "server", "stop"], env=served, **quiet)
    return out


def process_times(paths: list, repeat: int, env: dict, jobs: int | None = None, outputs: list | None = None) -> dict:
    """Whole `analyze` processes: wall and CPU (user + system of the child and its workers) of each
    run, at `-j jobs` (None: the default, every core).  `outputs` collects each run's JSON."""
    runs = []
    option = [] if jobs is None else ["-j", str(jobs)]
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "staticroof", "analyze", *map(str, paths), "--format", "json",
                            *option], capture_output=True, text=True, cwd=ROOT, env=env)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        kernels = len(json.loads(p.stdout)["kernels"]) if p.stdout.strip().startswith("{") else None
        runs.append({"wall_s": wall, "cpu_s": cpu, "exit": p.returncode, "kernels": kernels})
        if outputs is not None:
            outputs.append(p.stdout)
    return {"jobs": jobs, "runs": runs, "median_wall_s": statistics.median(r["wall_s"] for r in runs),
            "median_cpu_s": statistics.median(r["cpu_s"] for r in runs)}


def jobs_times(paths: list, repeat: int, env: dict) -> dict:
    """Whole processes at -j 1, 2, 4, ... and the usable cores, the counts alternated in every repeat
    (so that a shared machine's load falls on all of them alike); `same_output`: every run printed
    the JSON of the first -j 1 run."""
    from staticroof.workers import default_jobs

    most = default_jobs()
    counts = sorted({1, most} | {j for j in (2, 4, 8, 16) if j < most})
    outputs: list = []
    rounds = [{j: process_times(paths, 1, env, j, outputs) for j in counts} for _ in range(repeat)]
    by = {}
    for j in counts:
        runs = [r for one in rounds for r in one[j]["runs"]]
        by[str(j)] = {"jobs": j, "runs": runs, "median_wall_s": statistics.median(r["wall_s"] for r in runs),
                      "median_cpu_s": statistics.median(r["cpu_s"] for r in runs)}
    serial = by["1"]["median_wall_s"]
    for row in by.values():
        row["speed_up"] = serial / row["median_wall_s"] if row["median_wall_s"] else None
    return {"by_jobs": by, "same_output": all(o == outputs[0] for o in outputs)}


def corpus_files() -> list:
    """Every C and CUDA file of samples/ and tests/data/ (the `corpus` case, one command)."""
    return [f for f in collect([ROOT / "samples", ROOT / "tests" / "data"]) if f.suffix in (".c", ".cu")]


def command_times(args: list, repeat: int, env: dict) -> dict:
    return process_times_of([sys.executable, *args], repeat, env)


def process_times_of(cmd: list, repeat: int, env: dict) -> dict:
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return {"median_wall_s": statistics.median(walls), "median_cpu_s": statistics.median(cpus)}


def warm_cache_times(path: Path, repeat: int, env: dict, cache_dir: Path) -> dict:
    """`analyze --use-cache PATH` once to fill a private cache folder, then timed on the hits (what a
    pre-commit hook pays on files it has seen: cache/printed.py)."""
    env = dict(env, STATICROOF_CACHE_DIR=str(cache_dir))
    cmd = [sys.executable, "-m", "staticroof", "analyze", "--use-cache", str(path)]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    return process_times_of(cmd, repeat, env)


def import_times(env: dict) -> dict:
    """CPU and wall of the analyze path's imports in a fresh process: sympy, islpy, pycparser, then the
    rest of what `analyze` imports (staticroof's own modules and what they pull in)."""
    code = ("import json, time\nout = {}\n"
            "for name, stmt in (('sympy', 'import sympy'), ('islpy', 'import islpy'),"
            " ('pycparser', 'import pycparser'),"
            " ('staticroof (the rest)', 'import staticroof.cli, staticroof.pipeline, staticroof.analysis, "
            "staticroof.frontends, staticroof.frontends.c.frontend, staticroof.reports.json')):\n"
            "    c, w = time.process_time(), time.perf_counter()\n    exec(stmt)\n"
            "    out[name] = {'cpu_s': time.process_time() - c, 'wall_s': time.perf_counter() - w}\n"
            "print(json.dumps(out))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return json.loads(p.stdout)


def collect(paths: list) -> list:
    from staticroof.cli import collect_sources

    files, errors = collect_sources([str(p) for p in paths])
    assert not errors, errors
    return files


class _KernelClock:
    """CPU time of each kernel's analysis, without its file's loading: the pipeline marks the start and
    end of every kernel (and of every file's loading, index -1) for crash isolation
    (staticroof/crashes.py), and those marks are where this clock reads the time."""

    def __init__(self):
        from staticroof import crashes

        self.crashes, self.rows, self.file, self._at = crashes, [], "", None

    def __enter__(self):
        self._begin, self._end = self.crashes.begin, self.crashes.end
        def begin(key, index, name):
            self._at = (index, name, time.process_time())
            return self._begin(key, index, name)

        def end():
            if self._at is not None and self._at[0] >= 0:
                self.rows.append({"file": self.file, "kernel": self._at[1],
                                  "cpu_s": time.process_time() - self._at[2]})
            self._at = None
            return self._end()

        self.crashes.begin, self.crashes.end = begin, end
        return self

    def __exit__(self, *exc):
        self.crashes.begin, self.crashes.end = self._begin, self._end


def in_process(paths: list, top: int = 5) -> dict:
    """Every file through the pipeline in this process (imports already paid by the warm-up)."""
    from staticroof.pipeline import run

    rows = []
    clock = _KernelClock()
    for f in collect(paths):
        clock.file = _rel(f)
        c, w = time.process_time(), time.perf_counter()
        with clock:
            report = run([f])
        rows.append({"file": clock.file, "wall_s": time.perf_counter() - w, "cpu_s": time.process_time() - c,
                     "kernels": len(report.kernels), "failed": sum(1 for k in report.kernels if k.failed),
                     # a file the front end could not read at all (an SR099 internal error, say)
                     "file_errors": sum(1 for d in report.file_diagnostics if d.severity == "error"),
                     "approximate": sum(1 for k in report.kernels if not k.failed and not k.exact)})
    kernels = sum(r["kernels"] for r in rows)
    total_cpu = sum(r["cpu_s"] for r in rows)
    return {"files": len(rows), "kernels": kernels, "failed": sum(r["failed"] for r in rows),
            "file_errors": sum(r["file_errors"] for r in rows),
            "approximate": sum(r["approximate"] for r in rows),
            "total_wall_s": sum(r["wall_s"] for r in rows), "total_cpu_s": total_cpu,
            "median_file_cpu_s": statistics.median(r["cpu_s"] for r in rows) if rows else None,
            "cpu_per_kernel_s": total_cpu / kernels if kernels else None,
            # each kernel's analysis alone (its file's loading is in the files' figures)
            "median_kernel_cpu_s": statistics.median(r["cpu_s"] for r in clock.rows) if clock.rows else None,
            "max_kernel_cpu_s": max((r["cpu_s"] for r in clock.rows), default=None),
            "slowest": sorted(rows, key=lambda r: -r["cpu_s"])[:top],
            "slowest_kernels": sorted(clock.rows, key=lambda r: -r["cpu_s"])[:top]}


def _rel(f) -> str:
    try:
        return str(Path(f).resolve().relative_to(ROOT))
    except ValueError:
        return Path(f).name


def machine() -> dict:
    return {"platform": platform.platform(), "python": platform.python_version(),
            "cpu_count": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0)),
            "processor": platform.processor() or platform.machine()}


def _git_commit():
    p = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return p.stdout.strip() or None


def find_slowest(top: int) -> list:
    """Every C and CUDA file of samples/ and tests/data/ in one process, slowest (CPU) first."""
    in_process([ROOT / "samples" / "saxpy.c"])  # warm-up: imports
    rows = in_process(corpus_files(), top)
    for row in rows["slowest"]:
        print(f"{row['cpu_s']:8.2f} s CPU {row['wall_s']:8.2f} s wall  {row['file']}")
    for row in rows["slowest_kernels"]:
        print(f"{row['cpu_s']:8.2f} s CPU  {row['file']}: {row['kernel']}")
    print(f"{rows['files']} files, {rows['kernels']} kernels, {rows['total_cpu_s']:.1f} s CPU in all")
    return rows["slowest"]


def main(argv=None) -> int:
    # heavy modules the caller had loaded already (a test process) are not the analysis's doing
    preloaded = {m for m in HEAVY if m in sys.modules}
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="whole-process runs of small and samples (median)")
    ap.add_argument("--repeat-large", type=int, default=1, help="whole-process runs of generated and slowest")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--generated", type=int, default=200, help="kernels in the generated folder")
    ap.add_argument("--json", dest="json_path", default="bench_analyze.json")
    ap.add_argument("--find-slowest", action="store_true")
    ap.add_argument("--quick", action="store_true",
                    help="skip the bytecode warm-up and the start-up timings (the CI smoke run)")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--jobs-cases", default="",
                    help="cases to time again at -j 1, 2, ... up to the usable cores (e.g. bench30,corpus)")
    ap.add_argument("--no-in-process", action="store_true", help="time whole processes only")
    args = ap.parse_args(argv)
    if args.find_slowest:
        find_slowest(args.top)
        return 0
    cases = [c for c in args.cases.split(",") if c]
    jobs_cases = [c for c in args.jobs_cases.split(",") if c]
    unknown = (set(cases) | set(jobs_cases)) - set(CASES)
    if unknown:
        ap.error(f"unknown case(s) {', '.join(sorted(unknown))}; cases are {', '.join(CASES)}")

    with tempfile.TemporaryDirectory(prefix="staticroof-bench-") as tmp:
        # --quick: the environment as it is (a fresh bytecode cache would time compiling sympy)
        env = dict(os.environ, STATICROOF_SERVER="0") if args.quick else _child_env(str(Path(tmp) / "pyc"))
        small = ROOT / "samples" / "saxpy.c"
        paths = {"small": [small], "samples": [ROOT / "samples"],
                 "slowest": [ROOT / p for p in SLOWEST if (ROOT / p).is_file()],
                 "bench30": [ROOT / "benchmarks" / "bench30"], "corpus": corpus_files()}
        if "generated" in cases or "generated" in jobs_cases:
            from kernels import generate

            generate(Path(tmp) / "generated", args.generated)
            paths["generated"] = [Path(tmp) / "generated"]
        load_before = os.getloadavg()
        record = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "commit": _git_commit(),
                  "machine": machine(), "repeat": args.repeat, "repeat_large": args.repeat_large,
                  "generated_kernels": args.generated, "quick": args.quick, "cases": {}}
        if not args.quick:
            process_times([small], 1, env)  # fills the bytecode cache: compilation is not timed
            record["start_up"] = {
                "python -c pass": command_times(["-c", "pass"], args.repeat, env),
                "staticroof --version": command_times(["-m", "staticroof", "--version"], args.repeat, env),
                "staticroof rules": command_times(["-m", "staticroof", "rules"], args.repeat, env),
                "staticroof machines": command_times(["-m", "staticroof", "machines"], args.repeat, env),
                "analyze --use-cache small (warm)": warm_cache_times(small, args.repeat, env, Path(tmp) / "cache"),
                "imports": import_times(env),
                "server": server_times(env, max(9, args.repeat), Path(tmp) / "server")}
        c, w = time.process_time(), time.perf_counter()
        in_process([small])  # warm-up: the imports this process pays once
        record["in_process_warm_up"] = {"wall_s": time.perf_counter() - w, "cpu_s": time.process_time() - c}
        repeat = {"small": args.repeat, "samples": args.repeat, "generated": args.repeat_large,
                  "slowest": args.repeat_large}
        repeat.update(bench30=args.repeat, corpus=args.repeat_large)
        for case in cases:
            record["cases"][case] = {"paths": [_rel(p) for p in paths[case]] if case != "corpus" else
                                     ["samples/**.c|.cu", "tests/data/**.c|.cu"],
                                     "files": len(collect(paths[case])),
                                     "process": process_times(paths[case], repeat[case], env)}
            if not args.no_in_process:
                record["cases"][case]["in_process"] = in_process(paths[case])
            _print_case(case, record["cases"][case])
        record["targets"] = targets(record["cases"])
        for case in jobs_cases:
            record.setdefault("jobs", {})[case] = jobs_times(paths[case], repeat[case], env)
            _print_jobs(case, record["jobs"][case])
        record["load_average"] = {"before": load_before, "after": os.getloadavg()}
        record["heavy_modules_in_process"] = [m for m in HEAVY if m in sys.modules and m not in preloaded]
    Path(args.json_path).write_text(json.dumps(record, indent=1) + "\n")
    su = record.get("start_up", {})
    for name in ("python -c pass", "staticroof --version", "staticroof rules", "staticroof machines",
                 "analyze --use-cache small (warm)"):
        if name in su:
            print(f"{name:<32} {su[name]['median_wall_s']:7.3f} s wall {su[name]['median_cpu_s']:7.3f} s CPU")
    for name, t in su.get("server", {}).items():
        if isinstance(t, dict):
            print(f"{name:<32} {t['median_wall_s']:7.3f} s wall {t['median_cpu_s']:7.3f} s CPU (client)")
    for name, t in su.get("imports", {}).items():
        print(f"import {name:<17} {t['wall_s']:7.3f} s wall {t['cpu_s']:7.3f} s CPU")
    for name, t in record["targets"].items():
        print(f"target {name}: {t['measured']:.2f} (at most {t['at_most']}): {'met' if t['met'] else 'NOT met'}")
    print(f"load average {load_before[0]:.1f} -> {record['load_average']['after'][0]:.1f} on "
          f"{record['machine']['usable_cpus']} CPUs; record in {args.json_path}")
    return 1 if record["heavy_modules_in_process"] else 0


def targets(cases: dict) -> dict:
    """The issue's targets the cases measured: bench30 against small (a ratio of whole-process
    wall times, both on this machine in this run) and the corpus's wall time."""
    def target(measured: float, most: float) -> dict:
        return {"measured": measured, "at_most": most, "met": measured <= most}

    out = {}
    for case, most in TARGETS.items():
        if case in cases and "small" in cases:
            ratio = cases[case]["process"]["median_wall_s"] / cases["small"]["process"]["median_wall_s"]
            out[f"{case} / small"] = target(ratio, most)
    if "corpus" in cases:
        out["corpus wall s"] = target(cases["corpus"]["process"]["median_wall_s"], CORPUS_TARGET_S)
    for case in ("generated", "corpus"):  # in one process: the median kernel, and no kernel over 2 s
        i = cases.get(case, {}).get("in_process")
        if i and i["median_kernel_cpu_s"] is not None:
            out[f"{case} median kernel ms"] = target(i["median_kernel_cpu_s"] * 1000, KERNEL_MEDIAN_MS)
            out[f"{case} slowest kernel s"] = target(i["max_kernel_cpu_s"], KERNEL_MAX_S)
    return out


def _print_jobs(case: str, r: dict) -> None:
    cells = ", ".join(f"-j {j}: {row['median_wall_s']:.2f} s wall ({row['speed_up']:.2f}x)"
                      for j, row in r["by_jobs"].items())
    print(f"{case:<10} {cells}; same output: {r['same_output']}")


def _print_case(case: str, r: dict) -> None:
    p = r["process"]
    print(f"{case:<10} process: {p['median_wall_s']:7.2f} s wall {p['median_cpu_s']:7.2f} s CPU (median)", end="")
    if "in_process" not in r:
        print(f", {r['files']} files")
        return
    i = r["in_process"]
    per = i["cpu_per_kernel_s"]
    print(f"; in process: {i['files']} files ({i['file_errors']} with errors), {i['kernels']} kernels "
          f"({i['failed']} failed, {i['approximate']} approximate), {i['total_wall_s']:.2f} s wall "
          f"{i['total_cpu_s']:.2f} s CPU"
          + (f", {per * 1000:.0f} ms CPU per kernel" if per else ""))
    for row in i["slowest"][:3]:
        print(f"    {row['cpu_s']:7.2f} s CPU  {row['file']}")
    if i["median_kernel_cpu_s"] is not None:
        print(f"    kernels alone: median {i['median_kernel_cpu_s'] * 1000:.1f} ms CPU, slowest "
              + ", ".join(f"{k['kernel']} ({k['file']}) {k['cpu_s']:.2f} s" for k in i["slowest_kernels"][:3]))


if __name__ == "__main__":
    sys.exit(main())
