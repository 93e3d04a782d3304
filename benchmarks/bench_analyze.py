"""Time `staticroof analyze` on the bundled samples: end to end (a fresh process, as a pre-commit
hook runs it) and per file in one warm process.  Also checks that the analyze path imports no heavy
optional module.  Not a test: run it by hand and quote the numbers.

    python benchmarks/bench_analyze.py [--repeat 5] [PATH]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numba", "matplotlib", "numpy", "torch")


def end_to_end(path: Path, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "staticroof", "analyze", str(path)], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - t)
    return times


def python_start(repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path", nargs="?", default=str(ROOT / "samples"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    path = Path(args.path)

    start = python_start(args.repeat)
    e2e = end_to_end(path, args.repeat)
    print(f"python start-up            {start * 1000:8.1f} ms (median of {args.repeat})")
    print(f"analyze {path.name:<18} {statistics.median(e2e) * 1000:8.1f} ms end to end "
          f"({(statistics.median(e2e) - start) * 1000:.1f} ms after Python start)")

    t = time.perf_counter()
    from staticroof.analysis import analyze  # noqa: F401  (the imports the analyze path pays for)
    from staticroof.frontends import load  # noqa: F401
    from staticroof.pipeline import run
    print(f"imports                    {(time.perf_counter() - t) * 1000:8.1f} ms")

    files = sorted(list(path.rglob("*.c")) + list(path.rglob("*.cu"))) if path.is_dir() else [path]
    rows = []
    for f in files:
        t = time.perf_counter()
        run([f], {})
        first = time.perf_counter() - t
        rows.append((f.name, first))
    for name, dt in sorted(rows, key=lambda r: -r[1]):
        print(f"  {name:<24} {dt * 1000:8.1f} ms")
    per = [dt for _, dt in rows]
    print(f"per file: median {statistics.median(per) * 1000:.1f} ms, max {max(per) * 1000:.1f} ms, "
          f"total {sum(per) * 1000:.1f} ms over {len(per)} files")
    heavy = [m for m in HEAVY if m in sys.modules]
    print("heavy modules imported:", ", ".join(heavy) if heavy else "none")
    return 1 if heavy else 0


if __name__ == "__main__":
    sys.exit(main())
