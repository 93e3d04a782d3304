"""The Python trace oracle: each kernel's pure-Python body run with wrapped arrays and scalars
(elements read and written recorded, arithmetic counted by precision with Numba's promotion), at
sizes on both sides of the kernels' constants; the static counts must equal the traced ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from staticroof.pipeline import run
from staticroof.trace import TraceError, compare, run as run_trace

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "python"
SAMPLES = ROOT / "samples"

CASES = [
    (SAMPLES / "saxpy_numba.py", "saxpy", [{"n": 1}, {"n": 37}]),
    (SAMPLES / "daxpy_numba.py", "daxpy", [{"n": 5}]),
    (SAMPLES / "gemm_numba.py", "gemm", [{"N": 1}, {"N": 6}]),
    (SAMPLES / "gemm_numba.py", "gemm_accum", [{"N": 4}]),
    (SAMPLES / "stencil2d_numba.py", "jacobi2d", [{"n": 2}, {"n": 3}, {"n": 9}]),  # the interior starts at 3
    (SAMPLES / "reduce_numba.py", "sum32", [{"n": 17}]),
    (DATA / "blas1.py", "nrm2", [{"n": 9}]),
    (DATA / "blas1.py", "swap", [{"n": 4}]),
    (DATA / "stencils.py", "blur3", [{"n": 2}, {"n": 3}, {"n": 10}]),
    (DATA / "stencils.py", "heat1d", [{"n": 6, "nt": 3}]),
    (DATA / "linalg.py", "trmv_lower", [{"n": 1}, {"n": 7}]),
    (DATA / "linalg.py", "gemm_tn", [{"k": 2, "n": 3, "m": 4}]),
    (DATA / "misc.py", "polyval", [{"deg": 1, "n": 3}, {"deg": 4, "n": 2}]),
    (DATA / "misc.py", "brighten", [{"h": 3, "w": 5}]),
    (DATA / "control.py", "last", [{"n": 1}, {"n": 2}, {"n": 8}]),
    (DATA / "control.py", "skip_odd", [{"x_shape0": 6}, {"x_shape0": 7}]),
    (DATA / "control.py", "piecewise", [{"n": 9}, {"n": 10}, {"n": 11}, {"n": 19}, {"n": 20}, {"n": 21}]),
    (DATA / "ufuncs_and_helpers.py", "sigmoid32", [{"n": 3}]),
    (DATA / "ufuncs_and_helpers.py", "sumsq", [{"n": 4}]),
    (DATA / "ufuncs_and_helpers.py", "gadd", [{"x_shape0": 5}]),
]


@pytest.mark.parametrize("path,kernel,points", CASES, ids=[f"{c[0].name}:{c[1]}" for c in CASES])
def test_static_equals_traced(path, kernel, points):
    for sizes in points:
        defines = {n: str(v) for n, v in sizes.items()}
        report = run([path], defines, only={kernel})
        (k,) = report.kernels
        assert k.exact, [str(d) for d in k.diagnostics]
        traced = run_trace(str(path), kernel, dict(k.sizes), "python", defines)
        bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
        assert not bad, (sizes, bad)


def test_what_the_trace_does_not_run_is_said():
    report = run([SAMPLES / "saxpy_numba.py"], {"n": "8"}, only={"saxpy_gpu"})
    (k,) = report.kernels
    with pytest.raises(TraceError, match="CUDA kernels are not traced yet"):
        run_trace(str(SAMPLES / "saxpy_numba.py"), "saxpy_gpu", dict(k.sizes), "python", {"n": "8"})
