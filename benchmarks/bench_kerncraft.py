"""staticroof against Kerncraft, side by side in one run, on Kerncraft's own example kernels (issue #15).

Kerncraft (https://github.com/RRZE-HPC/kerncraft; `pip install kerncraft` into a separate virtual
environment: it is no dependency of ours) reads its example kernels (bare declarations and a loop
nest, `examples/kernels/` of its source distribution, which the wheel does not ship) and a machine
file (`examples/machine-files/`); its static modes (`-p LC`, layer conditions, the default here, and
`-p ECMData`) need no benchmark run on the machine.  staticroof reads the same computations written
as C functions (benchmarks/kerncraft/, one file per example, same names).

Measured, alternating the two tools in every repeat so that both see the same load:
- batch: every kernel, each tool its best way: staticroof one process over the folder (`analyze
  benchmarks/kerncraft`, on every core); Kerncraft one command per kernel, after a warm-up run of
  each (its caches and bytecode filled), one after another;
- single: one kernel (`--single`, default triad) in one fresh process each.
Wall and CPU time (the children's user + system) of each, the ratios Kerncraft / staticroof, and
the targets (batch >= 30x less wall time, single >= 5x) go to a JSON record.

    python benchmarks/bench_kerncraft.py [--kerncraft /tmp/kc-venv/bin/kerncraft] [--examples DIR]
        [--machine-file FILE] [--mode LC|ECMData] [--repeat 3] [--single triad] [--json FILE]

Without Kerncraft or its examples it prints how to get them and exits 0 (skipped).  To get the
examples: `pip download --no-deps --no-binary :all: kerncraft` and unpack the archive; pass its
`examples/` folder as --examples (or set KERNCRAFT_EXAMPLES).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ROOT / "benchmarks" / "kerncraft"
# Sizes both tools analyze at (Kerncraft needs constants; staticroof's formulas stay symbolic and
# the numbers use these).  Kerncraft's names are upper case, our parameters lower case.
SIZES = {"N": 1000, "M": 1000}
TARGETS = {"batch": 30.0, "single": 5.0}  # Kerncraft's wall time over ours, at least


def find_kerncraft(given: str | None) -> str | None:
    if given:
        return given if Path(given).is_file() else None
    for candidate in (shutil.which("kerncraft"), "/tmp/kc-venv/bin/kerncraft"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def find_examples(given: str | None) -> Path | None:
    candidates = [given, os.environ.get("KERNCRAFT_EXAMPLES")]
    candidates += [str(p) for p in sorted(Path("/tmp").glob("kc-src/kerncraft-*/examples"))]
    for c in candidates:
        if c and (Path(c) / "kernels").is_dir() and (Path(c) / "machine-files").is_dir():
            return Path(c)
    return None


def pairs(examples: Path) -> list[tuple[str, Path, Path]]:
    """(name, Kerncraft's example, our C function) for every example we have written."""
    out = []
    for ours in sorted(OURS.glob("*.c")):
        theirs = examples / "kernels" / ours.name
        if theirs.is_file():
            out.append((ours.stem, theirs, ours))
    return out


def timed(cmds: list[list[str]], env: dict) -> dict:
    """Run the commands one after another: wall and CPU (children's user + system) of all of them."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    codes = [subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env).returncode
             for c in cmds]
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall_s": wall, "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "exits": codes}


def kerncraft_cmd(kerncraft: str, mode: str, machine: Path, kernel: Path) -> list[str]:
    cmd = [kerncraft, "-p", mode, "-m", str(machine), str(kernel)]
    for name, value in SIZES.items():
        cmd += ["-D", name, str(value)]
    return cmd


def ours_cmd(paths: list[Path]) -> list[str]:
    cmd = [sys.executable, "-m", "staticroof", "analyze", *map(str, paths), "--format", "json"]
    for name, value in SIZES.items():
        cmd += ["-D", f"{name.lower()}={value}"]
    return cmd


def summary(runs: list[dict]) -> dict:
    return {"runs": runs, "median_wall_s": statistics.median(r["wall_s"] for r in runs),
            "median_cpu_s": statistics.median(r["cpu_s"] for r in runs),
            "all_succeeded": all(code == 0 for r in runs for code in r["exits"])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kerncraft", default=None, help="the kerncraft command (default: on PATH, or /tmp/kc-venv)")
    ap.add_argument("--examples", default=None, help="Kerncraft's examples/ folder (kernels/, machine-files/)")
    ap.add_argument("--machine-file", default="SkylakeSP_Gold-6148.yml",
                    help="a machine file of examples/machine-files/ (or a path)")
    ap.add_argument("--mode", default="LC", choices=["LC", "ECMData"], help="Kerncraft's static model")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--single", default="triad", help="the kernel of the single-process comparison")
    ap.add_argument("--only", default="", help="comma-separated kernel names (default: every pair)")
    ap.add_argument("--json", dest="json_path", default="bench_kerncraft.json")
    args = ap.parse_args(argv)

    kerncraft = find_kerncraft(args.kerncraft)
    examples = find_examples(args.examples)
    if kerncraft is None or examples is None:
        why = ("kerncraft is not installed (python3 -m venv /tmp/kc-venv && /tmp/kc-venv/bin/pip install kerncraft)"
               if kerncraft is None else
               "Kerncraft's examples/ folder was not found (pip download --no-deps --no-binary :all: kerncraft, "
               "unpack it, pass --examples DIR/examples or set KERNCRAFT_EXAMPLES)")
        print(f"bench_kerncraft: skipped: {why}")
        return 0
    machine = Path(args.machine_file)
    if not machine.is_file():
        machine = examples / "machine-files" / args.machine_file
    if not machine.is_file():
        ap.error(f"no machine file {args.machine_file}")
    chosen = pairs(examples)
    if args.only:
        wanted = set(args.only.split(","))
        chosen = [p for p in chosen if p[0] in wanted]
    single = [p for p in chosen if p[0] == args.single]
    if not chosen or not single:
        ap.error(f"no kernel pairs (or no {args.single}) under {OURS} and {examples / 'kernels'}")

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    theirs_batch = [kerncraft_cmd(kerncraft, args.mode, machine, k) for _, k, _ in chosen]
    ours_batch = [ours_cmd([o for _, _, o in chosen])]
    theirs_single = [kerncraft_cmd(kerncraft, args.mode, machine, single[0][1])]
    ours_single = [ours_cmd([single[0][2]])]
    warm = {"kerncraft": timed(theirs_batch, env), "staticroof": timed(ours_batch, env)}  # caches, bytecode
    failed = [name for (name, _, _), code in zip(chosen, warm["kerncraft"]["exits"], strict=True) if code]
    if failed:  # a kernel Kerncraft does not accept is left out of both sides
        chosen = [p for p in chosen if p[0] not in failed]
        theirs_batch = [kerncraft_cmd(kerncraft, args.mode, machine, k) for _, k, _ in chosen]
        ours_batch = [ours_cmd([o for _, _, o in chosen])]
    runs: dict = {"batch": {"kerncraft": [], "staticroof": []}, "single": {"kerncraft": [], "staticroof": []}}
    for _ in range(args.repeat):  # alternating, so both tools see the same load
        runs["batch"]["staticroof"].append(timed(ours_batch, env))
        runs["batch"]["kerncraft"].append(timed(theirs_batch, env))
        runs["single"]["staticroof"].append(timed(ours_single, env))
        runs["single"]["kerncraft"].append(timed(theirs_single, env))
    record = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "commit": _git_commit(),
              "machine": {"cpu_count": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0))},
              "load_average_after": os.getloadavg(), "kerncraft": _version(kerncraft), "mode": args.mode,
              "machine_file": machine.name, "sizes": SIZES, "repeat": args.repeat,
              "kernels": [name for name, _, _ in chosen], "left_out": failed, "single_kernel": args.single,
              "examples_from": "examples/kernels/ of Kerncraft's source distribution (RRZE-HPC/kerncraft)",
              "warm_up": warm, "results": {}, "targets": {}}
    for case in ("batch", "single"):
        ours, theirs = summary(runs[case]["staticroof"]), summary(runs[case]["kerncraft"])
        wall_ratio = theirs["median_wall_s"] / ours["median_wall_s"]
        cpu_ratio = theirs["median_cpu_s"] / ours["median_cpu_s"] if ours["median_cpu_s"] else None
        record["results"][case] = {"staticroof": ours, "kerncraft": theirs, "wall_ratio": wall_ratio,
                                   "cpu_ratio": cpu_ratio}
        record["targets"][case] = {"wall_ratio_at_least": TARGETS[case], "measured": wall_ratio,
                                   "met": wall_ratio >= TARGETS[case]}
        print(f"{case:<6} ({len(chosen) if case == 'batch' else 1} kernel{'s' if case == 'batch' else ''}): "
              f"staticroof {ours['median_wall_s']:.2f} s wall {ours['median_cpu_s']:.2f} s CPU; "
              f"kerncraft -p {args.mode} {theirs['median_wall_s']:.2f} s wall {theirs['median_cpu_s']:.2f} s CPU; "
              f"{wall_ratio:.1f}x wall, {cpu_ratio or 0:.1f}x CPU (target {TARGETS[case]:.0f}x wall: "
              f"{'met' if wall_ratio >= TARGETS[case] else 'NOT met'})")
    if failed:
        print(f"left out (Kerncraft failed on them): {', '.join(failed)}")
    Path(args.json_path).write_text(json.dumps(record, indent=1) + "\n")
    print(f"record in {args.json_path}")
    return 0


def _version(kerncraft: str) -> str | None:
    p = subprocess.run([kerncraft, "--version"], capture_output=True, text=True)
    return (p.stdout or p.stderr).strip() or None


def _git_commit():
    p = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return p.stdout.strip() or None


if __name__ == "__main__":
    sys.exit(main())
