"""The trace oracle: every C sample, run at small sizes, agrees with its static counts; the
`staticroof trace` command reports the comparison and fails on a difference."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.trace import compare, run as run_trace

from helpers import ROOT, SAMPLES, analyze_file

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="the trace oracle needs a C compiler")

SMALL = {"n": 9, "m": 6, "N": 8}


def c_kernels():
    out = []
    for path in sorted(SAMPLES.glob("*.c")):
        for name in re.findall(r"staticroof:expect\s+(\w+)", path.read_text()):
            out.append(pytest.param(path, name, id=f"{path.name}:{name}"))
    return out


@pytest.mark.parametrize("path,kernel", c_kernels())
def test_every_c_sample_agrees_with_its_trace(path, kernel):
    kernels, _ = analyze_file(path, {k: str(v) for k, v in SMALL.items()})
    k = kernels[kernel]
    traced = run_trace(str(path), kernel, dict(k.sizes), "c")
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


CUDA_SIZES = {
    "saxpy.cu": {"n": 1000}, "vector_add.cu": {"n": 700}, "matmul_naive.cu": {"N": 20},
    "matmul_tiled.cu": {"N": 64}, "transpose.cu": {"rows": 40, "cols": 70}, "reduce.cu": {"n": 3000},
    "stencil2d.cu": {"n": 20}, "gemv_half.cu": {"M": 40, "K": 30}, "softmax.cu": {"rows": 10, "cols": 20},
    "l2norm.cu": {"n": 3000}, "saxpy_rtx5070.cu": {"n": 3000}, "vector_add_a100.cu": {"N": 700},
    "vecadd_gtx1080.cu": {"n": 100},
}
# Samples the serial trace cannot run as they are, and why.
UNTRACED = {
    # its grid is (n + 1023) / 1024 with n a struct field read on the host: the launch site's grid is
    # unknown, so the trace has no launch configuration (test_validate checks it at the run's size)
    "saxpy_rtx3070.cu",
}


def cuda_kernels():
    out = []
    for name, sizes in CUDA_SIZES.items():
        path = SAMPLES / name
        for kernel in re.findall(r"staticroof:expect\s+(\w+)", path.read_text()):
            out.append(pytest.param(path, kernel, sizes, id=f"{name}:{kernel}"))
    return out


def test_every_cuda_sample_is_traced():
    assert set(CUDA_SIZES) | UNTRACED == {p.name for p in SAMPLES.glob("*.cu")}


@pytest.mark.parametrize("path,kernel,sizes", cuda_kernels())
def test_every_cuda_sample_agrees_with_its_serial_trace(path, kernel, sizes):
    kernels, _ = analyze_file(path, {k: str(v) for k, v in sizes.items()})
    k = kernels[kernel]
    traced = run_trace(str(path), kernel, dict(k.sizes), "cuda", launch=k.launch)
    bad = [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
    assert not bad


def test_trace_command_prints_both_and_exits_zero_when_they_agree():
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "jacobi2d.c"), "-D", "n=7"])
    assert r.exit_code == 0, r.output
    # 5-point stencil at n = 7: (n-2)^2 = 25 points x 5 FLOPs = 125; A read n^2 - 4 = 45 doubles
    assert re.search(r"W\s+125\s+125 FLOP\n", r.output)
    assert re.search(r"A read\s+360\s+360 B\n", r.output)


def test_trace_command_needs_sizes():
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy.c")])
    assert r.exit_code == 2 and "give -D n=" in r.output


def test_trace_exits_one_on_a_difference_in_an_exact_kernel(tmp_path, monkeypatch):
    """A deliberately wrong static rule (every fp32 FLOP counted twice) is caught."""
    from staticroof.frontends.c import frontend as front

    original = front.Acc.flop
    monkeypatch.setattr(front.Acc, "flop", lambda self, prec, n=1: original(self, prec, 2 * n))
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy.c"), "-D", "n=10"])
    assert r.exit_code == 1 and "DIFFER" in r.output


def test_identical_references_are_identical_expressions(tmp_path):
    """`a[j + i + 1]` and `a[i + j + 1]` in one statement are the same reference (the analysis
    compares index expressions, not their spelling): one load, in the analysis and in the trace."""
    path = tmp_path / "k.c"
    path.write_text("void k(int n, double *restrict a, double *restrict b) {\n"
                    "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) "
                    "b[i] = a[j + i + 1] - a[i + j + 1];\n}\n")
    kernels, _ = analyze_file(path, {"n": "6"})
    traced = run_trace(str(path), "k", {"n": 6}, "c")
    # loads of a: one per (i, j) = 36 doubles = 288 bytes
    assert kernels["k"].total.arrays["a"].access_read.value == 288
    assert all(r.ok for r in compare(kernels["k"], traced))


def test_trace_command_on_a_cuda_file():
    r = CliRunner().invoke(main, ["trace", str(SAMPLES / "saxpy.cu"), "-D", "n=1000"])
    assert r.exit_code == 0, r.output
    # 1000 threads of work: 2 FLOPs each; x read, y read and written: 12 bytes each (the table
    # prints counts with separators and a unit per row, as the analysis report does)
    assert re.search(r"W\s+2,000\s+2,000 FLOP\n", r.output)
    assert re.search(r"Q compulsory\s+12,000\s+12,000 B\n", r.output)


def test_trace_refuses_a_cuda_kernel_without_a_launch(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text("__global__ void fill(float* y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n")
    r = CliRunner().invoke(main, ["trace", str(p)])
    assert r.exit_code == 2 and "--grid/--block" in r.output
    r = CliRunner().invoke(main, ["trace", str(p), "--grid", "3", "--block", "32"])
    # 3 blocks of 32 threads, one 4-byte store each: 384 bytes written, no FLOPs
    assert r.exit_code == 0, r.output
    assert re.search(r"Q compulsory\s+384\s+384 B\n", r.output)


# ---------------------------------------------------------------------------------------------
# Real code the oracle must run and count exactly (issue #9).  Each kernel is compiled once and run
# at sizes on both sides of every constant in it; the expected numbers are derived by hand (or,
# where strides alias, by enumerating the kernel's index formula in Python); the analysis must
# agree where it is exact (xfail, strictly, where it is known to be wrong).

TRACE_DATA = ROOT / "tests" / "data" / "trace"


def _bytes(t, name):
    """(read, write, loads, stores) of one array in bytes, as the compare rows count them."""
    a = t.arrays[name]
    return (a.first_read * a.elem_bytes, a.written * a.elem_bytes, a.loads * a.elem_bytes, a.stores * a.elem_bytes)


def _disagreements(path, kernel, sizes, traced):
    kernels, _ = analyze_file(path, {k: str(v) for k, v in sizes.items()})
    k = kernels[kernel]
    assert not k.failed, [str(d) for d in k.diagnostics]
    return [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]


# The 3-D stencil indexes a grid of fixed strides NX = 64, NY = 32 (`#define`s) over a box nz x ny x
# nx given at run time.  The old oracle sized buffers from the -D values (16*(max+8)^3 bytes), below
# the index IDX(nz-1, ny-2, nx-2) at small sizes: at 6 x 6 x 6, 384 B of a's reads were lost and
# 128 B of b's writes booked to a.
NX, NY = 64, 32


def _stencil_model(nz, ny, nx):
    idx = lambda k, j, i: (k * NY + j) * NX + i  # noqa: E731
    reads, writes = set(), set()
    for k in range(1, nz - 1):
        for j in range(1, ny - 1):
            for i in range(1, nx - 1):
                reads |= {idx(k, j, i), idx(k, j, i - 1), idx(k, j, i + 1), idx(k, j - 1, i), idx(k, j + 1, i),
                          idx(k - 1, j, i), idx(k + 1, j, i)}
                writes.add(idx(k, j, i))
    return len(reads), len(writes)


# (nz, ny, nx): below NY and NX (where the old oracle misbooked), above both, above one of them
STENCIL_SIZES = [(5, 6, 7), (6, 6, 6), (3, 40, 70), (4, 36, 10), (4, 20, 80)]


def test_stencil_with_macro_strides_is_counted_in_full():
    from staticroof.trace.c.executor import CProgram

    path = TRACE_DATA / "stencil3d_macro.c"
    program = CProgram(str(path), "stencil3d", {})
    for nz, ny, nx in STENCIL_SIZES:
        t = program.run({"nz": nz, "ny": ny, "nx": nx})
        p = (nz - 2) * (ny - 2) * (nx - 2)  # interior points
        # per point: 0.5*a, five adds of the six neighbours, 0.1*(...), the final add: 8 fp64 FLOPs
        assert t.flops == {"fp64": 8 * p}
        reads, writes = _stencil_model(nz, ny, nx)
        if ny <= NY and nx <= NX:  # no aliasing: the box's interior and its six faces, no edge
            assert reads == p + 2 * ((ny - 2) * (nx - 2) + (nz - 2) * (nx - 2) + (nz - 2) * (ny - 2))
            assert writes == p
        # seven distinct references per point, none invariant in the i loop; one store
        assert _bytes(t, "a") == (8 * reads, 0, 8 * 7 * p, 0)
        assert _bytes(t, "b") == (0, 8 * writes, 0, 8 * p)
        # lowest index: a[IDX(k-1, j, i)] at k = j = i = 1; highest: a[IDX(k+1, j, i)] at the far corner
        assert t.arrays["a"].reached == (NX + 1, ((nz - 1) * NY + ny - 2) * NX + nx - 2)
    program.close()


@pytest.mark.parametrize("sizes", [STENCIL_SIZES[0], STENCIL_SIZES[2]])  # below NY and NX, above both
def test_stencil_with_macro_strides_analysis_agrees(sizes):
    nz, ny, nx = sizes
    path = TRACE_DATA / "stencil3d_macro.c"
    d = {"nz": nz, "ny": ny, "nx": nx}
    assert not _disagreements(path, "stencil3d", d, run_trace(str(path), "stencil3d", d, "c"))


# The contraction R[a][b][d] = sum_c T[a][b][c] M[c][d] on tensors of padded extents DB = 128,
# DC = 96, DD = 80: the old oracle misbooked once an index outgrew 16*(max size+8)^3 bytes (at
# 3 x 4 x 5 x 6, R's writes were booked to M).  (na, nb, nc, nd): below every extent, above all,
# above DC only, above DB and DD.
DB, DC, DD = 128, 96, 80
CONTRACT_SIZES = [(3, 4, 5, 6), (2, 3, 4, 3), (1, 130, 100, 85), (2, 5, 97, 3), (2, 129, 6, 81)]


def test_contraction_with_macro_strides_is_counted_in_full():
    from staticroof.trace.c.executor import CProgram

    program = CProgram(str(TRACE_DATA / "contract_macro.c"), "contract", {})
    for na, nb, nc, nd in CONTRACT_SIZES:
        t = program.run({"na": na, "nb": nb, "nc": nc, "nd": nd})
        it = na * nb * nd * nc  # multiply-adds
        assert t.flops == {"fp32": 2 * it}
        T = {(a * DB + b) * DC + c for a in range(na) for b in range(nb) for c in range(nc)}
        M = {c * DD + d for c in range(nc) for d in range(nd)}
        R = {(a * DB + b) * DD + d for a in range(na) for b in range(nb) for d in range(nd)}
        if nb <= DB and nc <= DC and nd <= DD:  # the strides keep every element apart
            assert (len(T), len(M), len(R)) == (na * nb * nc, nc * nd, na * nb * nd)
        # T and M are loaded in every iteration of c; R is stored once per (a, b, d)
        assert _bytes(t, "T") == (4 * len(T), 0, 4 * it, 0)
        assert _bytes(t, "M") == (4 * len(M), 0, 4 * it, 0)
        assert _bytes(t, "R") == (0, 4 * len(R), 0, 4 * na * nb * nd)
        assert t.arrays["T"].reached == (0, ((na - 1) * DB + nb - 1) * DC + nc - 1)
    program.close()


@pytest.mark.slow  # the analysis of this four-size nest takes about 13 s
def test_contraction_with_macro_strides_analysis_agrees():
    path = TRACE_DATA / "contract_macro.c"
    for sizes in CONTRACT_SIZES[::2]:  # below the padded extents, above them
        d = dict(zip(("na", "nb", "nc", "nd"), sizes, strict=True))
        assert not _disagreements(path, "contract", d, run_trace(str(path), "contract", d, "c"))


def test_an_index_outside_every_region_is_an_error_naming_the_array(tmp_path):
    """No access is ever booked to another array or lost: one beyond its region (32 GiB either side
    of the pointer) stops the run, and the message names the array and the index."""
    from staticroof.trace import TraceError

    p = tmp_path / "far.c"
    p.write_text("void far(int n, const double *a, double *b) {\n"
                 "  for (int i = 0; i < n; i++) b[i] = a[(long)i << 40];\n}\n")
    with pytest.raises(TraceError, match=r"`a`\[1099511627776\] is outside"):
        run_trace(str(p), "far", {"n": 3}, "c")
    r = CliRunner().invoke(main, ["trace", str(p), "-D", "n=3"])
    assert r.exit_code == 2 and "`a`[1099511627776] is outside" in r.output
    assert isinstance(r.exception, SystemExit)  # a message, never a traceback


def test_an_access_the_instrumentation_cannot_see_faults_in_a_guard_zone(tmp_path):
    from staticroof.trace import TraceError

    p = tmp_path / "wild.c"
    p.write_text("#include <string.h>\nvoid wild(int n, double *a) {\n"
                 "  a[0] = 1.0;\n  memset(a + ((long)n << 32) + 1, 0, 8);\n}\n")
    # a + 2^32 + 1 elements is 32 GiB + 8 bytes past the pointer: the guard zone after a's region
    with pytest.raises(TraceError, match=r"touched byte 34359738376 of `a`"):
        run_trace(str(p), "wild", {"n": 1}, "c")


def test_negative_indices_are_counted(tmp_path):
    p = tmp_path / "back.c"
    p.write_text("void back(int n, const float *a, float *b) {\n"
                 "  for (int i = 0; i < n; i++) b[i] = a[i - 3] + a[i];\n}\n")
    for n in (1, 10):
        t = run_trace(str(p), "back", {"n": n}, "c")
        # a[-3 .. n-1]: n + 3 elements (n >= 3) or 2n (n < 3); two loads per i; one add per i
        assert _bytes(t, "a") == (4 * (n + 3 if n >= 3 else 2 * n), 0, 8 * n, 0)
        assert t.arrays["a"].reached == (-3, n - 1) and t.flops == {"fp32": n}
        assert not _disagreements(p, "back", {"n": n}, t)


def test_a_kernels_own_arrays_are_dram_arrays(tmp_path):
    """A variable-length array and a buffer malloc'ed and freed in every pass are counted (they were
    lost before); the buffer comes back in the same place each pass, as from an allocator."""
    from staticroof.trace import TraceError
    from staticroof.trace.c.executor import CProgram

    path = TRACE_DATA / "scratch_arrays.c"
    program = CProgram(str(path), "smooth_passes", {})
    for n, passes in ((5, 1), (40, 3)):
        t = program.run({"n": n, "passes": passes})
        # 2.0*a[i] once, then per pass tmp[i] + 1.0 and b[i] += acc[i]: n + 2*passes*n fp64
        assert t.flops == {"fp64": n + 2 * passes * n}
        assert _bytes(t, "tmp") == (0, 8 * n, 8 * passes * n, 8 * n)
        assert _bytes(t, "acc") == (0, 8 * n, 8 * passes * n, 8 * passes * n)
        assert _bytes(t, "b") == (8 * n, 8 * n, 8 * passes * n, 8 * passes * n)
        assert not _disagreements(path, "smooth_passes", {"n": n, "passes": passes}, t)
    program.close()
    p = tmp_path / "rows.c"
    p.write_text("#include <stdlib.h>\nvoid rows(int n, double *b) {\n  double *r[4];\n"
                 "  for (int i = 0; i < 4; i++) r[i] = malloc(n * sizeof(double));\n"
                 "  for (int i = 0; i < n; i++) r[1][i] = b[i];\n}\n")
    with pytest.raises(TraceError, match="allocated without naming it"):
        run_trace(str(p), "rows", {"n": 4}, "c")


def test_a_benchmark_file_with_its_own_main_is_traced():
    """main() with timers, malloc and printf is not compiled: only the kernel and what it calls."""
    path = TRACE_DATA / "bench_daxpy.c"
    for n in (37, 1000):
        t = run_trace(str(path), "daxpy", {"n": n}, "c")
        # y[i] = alpha*x[i] + y[i]: 2 fp64 FLOPs; x read, y read and written: 8 bytes each
        assert t.flops == {"fp64": 2 * n}
        assert _bytes(t, "x") == (8 * n, 0, 8 * n, 0) and _bytes(t, "y") == (8 * n, 8 * n, 8 * n, 8 * n)
        assert not _disagreements(path, "daxpy", {"n": n}, t)
    r = CliRunner().invoke(main, ["trace", str(path), "-D", "n=37"])
    assert r.exit_code == 0, r.output  # its main is a driver (host code): not a kernel, not traced
    assert re.search(r"W\s+74\s+74", r.output) and ": main" not in r.output


def test_parameters_the_kernel_never_reads_need_no_value():
    for name, kernel, prec in (("unused_param.c", "dscal", "fp64"), ("unused_param.cu", "sscal", "fp32")):
        path = TRACE_DATA / name
        elem = 8 if prec == "fp64" else 4
        for n in (100, 1000):  # the CUDA launch's block is 256
            t = run_trace(str(path), kernel, {"n": n}, "c" if name.endswith(".c") else "cuda")
            # x[i] = alpha * x[i]: one FLOP, x read and written once per element
            assert t.flops == {prec: n} and _bytes(t, "x") == (elem * n,) * 4
            assert not _disagreements(path, kernel, {"n": n}, t)
        r = CliRunner().invoke(main, ["trace", str(path), "-D", "n=100"])
        assert r.exit_code == 0, r.output


# CUDA: every kernel below has a launch `<<<(n + B - 1) / B, B>>>`; n = 100 is below the block
# size B, n = 1000 above it (the last block partly idle).

def _cuda(name, kernel):
    from staticroof.trace.cuda.executor import CudaProgram

    return CudaProgram(str(TRACE_DATA / name), kernel, {})


def test_overloaded_device_functions_are_each_their_own():
    program = _cuda("overload.cu", "sumsq")
    for n in (100, 1000):
        t = program.run({"n": n})
        # sq(x[i]) is float sq (an fp32 multiply), sq(y[i]) double sq (fp64), their sum fp64
        assert t.flops == {"fp32": n, "fp64": 2 * n}
        assert _bytes(t, "x") == (4 * n, 0, 4 * n, 0) and _bytes(t, "y") == (8 * n, 0, 8 * n, 0)
        assert _bytes(t, "out") == (0, 8 * n, 0, 8 * n)
    program.close()


def test_overloaded_device_functions_analysis_agrees():
    # sq(x[i]) takes float sq (x is float: an exact match), an fp32 multiply; sq(y[i]) double sq,
    # fp64; their sum is fp64: W fp32 n, fp64 2n (n = 1000: 1000 and 2000), not fp64 3n
    path = TRACE_DATA / "overload.cu"
    assert not _disagreements(path, "sumsq", {"n": 1000}, run_trace(str(path), "sumsq", {"n": 1000}, "cuda"))


def test_cxx_math_overloads_run_as_float_functions():
    """y[i] = sqrt(x) + fma(x, x, 1.0f) + fmin(x, 0.5f): sqrtf (one fp32 special call), fmaf (2 fp32
    FLOPs), fminf (free), two fp32 adds: 4 fp32 FLOPs and one fp32 sqrt per i.  w[i] = fma(x, u, 2.0)
    + sqrt(x*2): a double fma (2 fp64), x*2 an fp32 multiply, sqrtf (fp32 special), the sum fp64 (1):
    3 fp64, 1 fp32, one more fp32 sqrt.  Per i: fp32 5 FLOPs + 2 sqrt calls (a special call counts
    in W with weight 1) = 7, fp64 3 (C would run every call as the double function: fp64 10, fp32 1)."""
    program = _cuda("cxx_math.cu", "cxx_math")
    for n in (37, 1000):
        t = program.run({"n": n})
        assert t.flops == {"fp32": 7 * n, "fp64": 3 * n}
        assert t.special == {"sqrt": 2 * n}
    program.close()
    path = TRACE_DATA / "cxx_math.cu"
    assert not _disagreements(path, "cxx_math", {"n": 37}, run_trace(str(path), "cxx_math", {"n": 37}, "cuda"))


def test_texture_fetches_read_the_texture_memory():
    program = _cuda("texture.cu", "smooth")
    for n in (100, 1000):
        t = program.run({"n": n})
        # 0.5f * (tex[i] + tex[i+1]): 2 fp32 FLOPs; tex[0..n] read (n + 1 floats), two fetches each
        assert t.flops == {"fp32": 2 * n}
        assert _bytes(t, "tex") == (4 * (n + 1), 0, 8 * n, 0) and t.arrays["tex"].reached == (0, n)
        assert _bytes(t, "out") == (0, 4 * n, 0, 4 * n)
    program.close()


def test_texture_fetches_analysis_agrees():
    # tex is a read-only DRAM array of floats: tex[0..n] read, 4(n + 1) B (n = 1000: 4004), two
    # fetches a thread, 8n loads (8000); out written 4n (4000); 0.5f * (a + b) 2n fp32 (2000)
    path = TRACE_DATA / "texture.cu"
    assert not _disagreements(path, "smooth", {"n": 1000}, run_trace(str(path), "smooth", {"n": 1000}, "cuda"))


def test_another_kernels_dynamic_shared_memory_and_its_own():
    scale, blocksum = _cuda("shared_other.cu", "scale"), _cuda("shared_other.cu", "blocksum")
    for n in (100, 1000):
        t = scale.run({"n": n})
        assert t.flops == {"fp32": n}  # 3.0f * x[i]
        assert _bytes(t, "x") == (4 * n, 0, 4 * n, 0) and _bytes(t, "y") == (0, 4 * n, 0, 4 * n)
        assert not _disagreements(TRACE_DATA / "shared_other.cu", "scale", {"n": n}, t)
        g = (n + 255) // 256  # blocks
        t = blocksum.run({"n": n})
        # thread 0 of each block adds its 256 shared values; threads i < n read x[i]; one sum per block
        assert t.flops == {"fp32": 256 * g}
        assert _bytes(t, "x") == (4 * n, 0, 4 * n, 0) and _bytes(t, "out") == (0, 4 * g, 0, 4 * g)
        assert not _disagreements(TRACE_DATA / "shared_other.cu", "blocksum", {"n": n}, t)
    scale.close()
    blocksum.close()


def _table_cost(name):
    """FLOPs one call of `name` adds to W by the cost tables (0 where they do not list it; a call
    with output pointers costs the special calls it counts as)."""
    from staticroof import costs
    from staticroof.frontends.cuda.grammar import table

    entry = table()["intrinsics"].get(name) or costs.classify(name)
    if entry and entry["kind"] == "outputs":
        return sum(_table_cost(f) for f in entry["counts_as"])
    return entry.get("weight", 1) if entry and entry["kind"] == "special" else 0


def test_clock64_sincosf_and_uint_max_run():
    program = _cuda("clock_sincos.cu", "polar")
    w = _table_cost("__sincosf")
    assert w == 2  # one __sinf and one __cosf, 1 FLOP each
    for n in (100, 1000):
        t = program.run({"n": n})
        # s + c is one fp32 FLOP per thread, plus what a __sincosf call costs; the comparison is none
        assert t.flops == {"fp32": n + w * n} and t.special == {"__sinf": n, "__cosf": n}
        # angle[i] is read in two statements (two loads); xy, first: one store each; thread 0 times
        assert _bytes(t, "angle") == (4 * n, 0, 8 * n, 0)
        assert _bytes(t, "xy") == (0, 4 * n, 0, 4 * n) and _bytes(t, "first") == (0, 4 * n, 0, 4 * n)
        assert _bytes(t, "cycles") == (0, 8, 0, 8)
        assert not _disagreements(TRACE_DATA / "clock_sincos.cu", "polar", {"n": n}, t)
    program.close()


def test_sincosf_stores_through_its_output_pointers():
    program = _cuda("clock_sincos.cu", "polar_out")
    for n in (100, 1000):
        t = program.run({"n": n})
        assert _bytes(t, "s") == (0, 4 * n, 0, 4 * n) and _bytes(t, "c") == (0, 4 * n, 0, 4 * n)
        assert _bytes(t, "angle") == (4 * n, 0, 4 * n, 0)
        assert t.flops == {"fp32": 2 * n} and t.special == {"__sinf": n, "__cosf": n}
    program.close()


def test_sincosf_output_pointers_analysis_agrees():
    # __sincosf(angle[i], &s[i], &c[i]) stores s[i] and c[i]: 4n B each (n = 1000: 4000), and
    # counts as one __sinf and one __cosf (2n fp32); angle read 4n
    path = TRACE_DATA / "clock_sincos.cu"
    assert not _disagreements(path, "polar_out", {"n": 1000}, run_trace(str(path), "polar_out", {"n": 1000}, "cuda"))


def test_a_template_element_type_is_its_instantiation():
    program = _cuda("template_axpy.cu", "axpy")
    for n in (100, 1000):
        t = program.run({"n": n})
        # axpy<double>: a * x[i] + y[i] is 2 fp64 FLOPs; a is a double, not a size to ask for
        assert t.flops == {"fp64": 2 * n}
        assert _bytes(t, "x") == (8 * n, 0, 8 * n, 0) and _bytes(t, "y") == (8 * n,) * 4
        assert not _disagreements(TRACE_DATA / "template_axpy.cu", "axpy", {"n": n}, t)
    program.close()


def test_each_template_instantiation_and_deduced_device_template():
    """`scale<float>` and `scale<double>` (the analysis's names) run with their own element type and
    launch (blocks of 256 and 128); the template `mul` gets the type its arguments deduce."""
    path = TRACE_DATA / "template_device.cu"
    for kernel, prec, elem in (("scale<float>", "fp32", 4), ("scale<double>", "fp64", 8)):
        program = _cuda("template_device.cu", kernel)
        for n in (100, 1000):
            t = program.run({"n": n})
            # mul(s, x[i]) + mul(x[i], x[i]): two multiplies and an add in T; x[i] is one reference
            assert t.flops == {prec: 3 * n}
            assert _bytes(t, "x") == (elem * n, 0, elem * n, 0) and _bytes(t, "y") == (0, elem * n, 0, elem * n)
            assert not _disagreements(path, kernel, {"n": n}, t)
        program.close()
    t = run_trace(str(path), "mix", {"n": 1000}, "cuda")
    # mul(x[i], x[i]) is float mul (fp32), mul(y[i], y[i]) double mul (fp64), their sum fp64
    assert t.flops == {"fp32": 1000, "fp64": 2000}
    assert _bytes(t, "out") == (0, 8000, 0, 8000)
    assert not _disagreements(path, "mix", {"n": 1000}, t)


def test_the_temporary_folder_is_removed_also_on_error(tmp_path, monkeypatch):
    import tempfile

    from staticroof.trace import TraceError

    work = tmp_path / "tmp"
    work.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(work))
    ok, bad, crash = tmp_path / "ok.c", tmp_path / "bad.c", tmp_path / "crash.c"
    ok.write_text("void ok(int n, double *x) { for (int i = 0; i < n; i++) x[i] = 2.0 * x[i]; }\n")
    bad.write_text("void bad(int n, double *x) { x[0] = undeclared_name; }\n")
    crash.write_text("void crash(int n, int *x) { x[0] = x[1] / (n - n); }\n")
    run_trace(str(ok), "ok", {"n": 5}, "c")
    with pytest.raises(TraceError, match="did not compile"):
        run_trace(str(bad), "bad", {"n": 5}, "c")
    with pytest.raises(TraceError, match="crashed"):
        run_trace(str(crash), "crash", {"n": 5}, "c")
    assert not [p.name for p in work.iterdir() if p.name.startswith("staticroof-trace")]


def test_constant_memory_reads_are_counted():
    # constant_stencil.cu: fir, K = 5 taps in `__constant__ float coeff[K]`, launch of blocks of 128.
    # A = max(0, n - K + 1) threads pass the guard; each reads coeff[0..K-1] and in[i..i+K-1] (K
    # multiplies and K adds, fp32) and writes out[i].  coeff: K distinct elements once any thread
    # runs, K loads per thread (k varies in the loop); in: elements 0 .. A+K-2, i.e. n of them
    # when A >= 1, K loads per thread; out: A elements, one store each.  Sizes on both sides of
    # K (n = 4: no thread; n = 5: one) and of the block (n = 300: three blocks).
    program = _cuda("constant_stencil.cu", "fir")
    for n in (4, 5, 8, 300):
        t = program.run({"n": n})
        a = max(0, n - 5 + 1)
        assert t.flops == ({"fp32": 2 * 5 * a} if a else {})
        assert _bytes(t, "coeff") == (4 * 5 if a else 0, 0, 4 * 5 * a, 0)
        assert _bytes(t, "in") == (4 * n if a else 0, 0, 4 * 5 * a, 0)
        assert _bytes(t, "out") == (0, 4 * a, 0, 4 * a)
        assert not _disagreements(TRACE_DATA / "constant_stencil.cu", "fir", {"n": n}, t)
    program.close()


MIXED = """#include <stddef.h>

typedef struct {
    float *data;
    int n;
} vec_t;

/* y = a*x + y */
void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

/* v *= a, through a struct: analyzed, but the trace cannot run it yet */
void vscale(vec_t v, float a)
{
    for (int i = 0; i < v.n; i++)
        v.data[i] *= a;
}
"""


def test_a_kernel_the_trace_cannot_run_costs_only_itself(tmp_path):
    # vscale takes a struct by value, which the trace refuses; it used to end the command before
    # saxpy (which comes first) was reported.  saxpy at n = 10: 2n = 20 fp32 FLOPs; x read 4n = 40 B;
    # y read and written, 40 B each: Q = 120 B.  Exit 2: one kernel could not be traced.
    import json

    p = tmp_path / "mixed.c"
    p.write_text(MIXED)
    r = CliRunner().invoke(main, ["trace", str(p), "-D", "n=10", "-D", "v.n=10"])
    assert r.exit_code == 2, r.output
    assert f"{p}:9:6: saxpy at n = 10: agree" in r.output
    assert re.search(r"W\s+20\s+20 FLOP\n", r.output) and re.search(r"Q compulsory\s+120\s+120 B\n", r.output)
    assert f"{p}:16:6: vscale: not traced: `v` is a struct (vec_t) passed by value" in r.output
    r = CliRunner().invoke(main, ["trace", str(p), "-D", "n=10", "-D", "v.n=10", "--format", "json"])
    assert r.exit_code == 2
    saxpy, vscale = json.loads(r.output)["kernels"]
    assert saxpy["name"] == "saxpy" and all(row["ok"] for row in saxpy["rows"])
    assert {"quantity": "W", "static": 20, "traced": 20, "ok": True} in saxpy["rows"]
    assert vscale["name"] == "vscale" and "passed by value" in vscale["error"] and "rows" not in vscale
    # only the traceable kernel: it agrees, exit 0
    r = CliRunner().invoke(main, ["trace", str(p), "-D", "n=10", "--kernel", "saxpy"])
    assert r.exit_code == 0, r.output


def test_a_crash_names_the_signal_and_what_it_means(tmp_path):
    # `exit -8` / `exit -11` used to be all the trace said.  The fault handler names SIGFPE and
    # SIGSEGV; a signal it does not catch (SIGABRT) is named with its meaning.
    from staticroof.trace import TraceError

    p = tmp_path / "crash.c"
    p.write_text("#include <stdlib.h>\n"
                 "void quot(int n, int m, int *x) { for (int i = 0; i < n; i++) x[i] = i / (m - 10); }\n"
                 "void deref(int n, int *x) { int *p = 0; x[0] = p[n]; }\n"
                 "void bail(int n, int *x) { if (n > 3) abort(); x[0] = n; }\n")
    r = CliRunner().invoke(main, ["trace", str(p), "-D", "n=4", "-D", "m=10", "--kernel", "quot"])
    assert r.exit_code == 2 and "arithmetic exception: an integer division by zero" in r.output, r.output
    assert "exit -" not in r.output
    with pytest.raises(TraceError, match=r"segmentation fault at address"):
        run_trace(str(p), "deref", {"n": 4}, "c")
    with pytest.raises(TraceError, match=r"SIGABRT \(signal 6\), it aborted \(abort\(\) or a failed assert\)"):
        run_trace(str(p), "bail", {"n": 4}, "c")


def test_reads_and_writes_before_a_pointers_start_are_counted(tmp_path):
    # Issue #11 found writes before a buffer's start silently dropped.  Each pointer now has 32 GiB
    # of region on either side, so `x[i - 1]` at i = 0 is element -1 of x (a kernel may be handed
    # a pointer into a larger buffer): counted by the trace as by the analysis, never lost.
    # shift_out writes x[-1 .. n-2] from y[0 .. n-1]; shift_in writes x[0 .. n-1] from y[-3 .. n-4]:
    # n distinct elements of each array, one load or store per thread, 4 B each.  The CUDA launch
    # is (n + 255) / 256 blocks of 256: n = 100 is one partly idle block, n = 300 two.
    c = tmp_path / "shift.c"
    c.write_text("void shift_out(int n, float *x, const float *y) { for (int i = 0; i < n; i++) x[i - 1] = y[i]; }\n"
                 "void shift_in(int n, float *x, const float *y) { for (int i = 0; i < n; i++) x[i] = y[i - 3]; }\n")
    cu = tmp_path / "shift.cu"
    cu.write_text("""#define BLOCK 256
__global__ void shift_out(float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i - 1] = y[i];
}

__global__ void shift_in(float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = y[i - 3];
}

int main(void)
{
    int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, (n + 1) * sizeof(float));
    cudaMalloc(&y, (n + 3) * sizeof(float));
    shift_out<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x + 1, y, n);
    shift_in<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y + 3, n);
    return 0;
}
""")
    from staticroof.trace.c.executor import CProgram
    from staticroof.trace.cuda.executor import CudaProgram

    for path, make in ((c, CProgram), (cu, CudaProgram)):
        for kernel, x_from, y_from in (("shift_out", -1, 0), ("shift_in", 0, -3)):
            program = make(str(path), kernel, {})
            for n in (100, 300):
                t = program.run({"n": n})
                assert _bytes(t, "x") == (0, 4 * n, 0, 4 * n) and _bytes(t, "y") == (4 * n, 0, 4 * n, 0)
                assert t.arrays["x"].reached == (x_from, x_from + n - 1)
                assert t.arrays["y"].reached == (y_from, y_from + n - 1)
                assert not _disagreements(path, kernel, {"n": n}, t)
            program.close()


def test_const_file_scope_arrays_keep_their_values_and_are_counted(tmp_path):
    # A const (read-only) file-scope table crashed the trace: it wrote fill values into it before
    # the first read.  Tables with an initializer now keep their values.  Three-point smoothing with
    # weights w[3]: A = max(0, n - 2) outputs i = 1 .. n-2, each 3 fp32 multiplies and 2 adds.  In C
    # w[0], w[1], w[2] do not change in the i loop: one load each per loop execution (12 B once
    # A >= 1); in CUDA every thread loads all three (12 A bytes).  w is read whole (12 B) once A >= 1.
    # Sizes on both sides of 3 (n = 2: nothing runs; n = 3: one output) and of the block of 128.
    from staticroof.trace.c.executor import CProgram
    from staticroof.trace.cuda.executor import CudaProgram

    c = tmp_path / "smooth.c"
    c.write_text("static const float w[3] = {0.25f, 0.5f, 0.25f};\n\n"
                 "void smooth(int n, const float *in, float *out)\n{\n    for (int i = 1; i < n - 1; i++)\n"
                 "        out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];\n}\n")
    cu = tmp_path / "smooth.cu"
    cu.write_text("constexpr float w[3] = {0.25f, 0.5f, 0.25f};\n\n"
                  "__global__ void smooth(const float *in, float *out, int n)\n{\n"
                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (i > 0 && i < n - 1)\n"
                  "        out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];\n}\n\n"
                  "int main(void)\n{\n    int n = 4096;\n    float *in, *out;\n"
                  "    smooth<<<(n + 127) / 128, 128>>>(in, out, n);\n    return 0;\n}\n")
    for path, make, per_thread in ((c, CProgram, False), (cu, CudaProgram, True)):
        program = make(str(path), "smooth", {})
        for n in (2, 3, 50, 300):
            a = max(0, n - 2)
            t = program.run({"n": n})
            assert t.flops == ({"fp32": 5 * a} if a else {})
            assert _bytes(t, "w") == (12 if a else 0, 0, 12 * a if per_thread else 12 if a else 0, 0)
            assert _bytes(t, "in") == (4 * n if a else 0, 0, 12 * a, 0)
            assert not _disagreements(path, "smooth", {"n": n}, t)
        program.close()


def test_file_scope_shared_arrays_are_on_chip():
    # shared_filescope.cu stages through `__shared__ float tile[TILE]` (TILE = 32) and `extern
    # __shared__ float dyn[]` declared at file scope, outside the kernels: on-chip, as a `__shared__`
    # inside a kernel is, never DRAM traffic (the analysis counted them as DRAM arrays, the trace did
    # not: DIFFER).  Grid ceil(n/32) blocks of 32; threads i < n read in[i] into the tile, the others
    # store 0, then threads i < n add two tile values and halve them (1 add + 1 multiply, fp32) into
    # out[i].  W = 2n; in read 4n B, out written 4n B: Q = 8n; shared: loads 2 per thread i < n (8n B),
    # stores one per thread of the grid (128 ceil(n/32) B).  Sizes on both sides of the tile (31, 32,
    # 33) and several blocks (100).
    path = TRACE_DATA / "shared_filescope.cu"
    for kernel in ("mirror_static", "mirror_dynamic"):
        program = _cuda("shared_filescope.cu", kernel)
        for n in (31, 32, 33, 100):
            t = program.run({"n": n})
            assert t.flops == {"fp32": 2 * n}
            assert set(t.arrays) == {"in", "out"}  # the tile is not a DRAM array in the trace
            assert _bytes(t, "in") == (4 * n, 0, 4 * n, 0) and _bytes(t, "out") == (0, 4 * n, 0, 4 * n)
            kernels, _ = analyze_file(path, {"n": str(n)})
            k = kernels[kernel]
            assert k.exact and set(k.total.arrays) == {"in", "out"}
            assert k.total.compulsory.value == 8 * n and k.total.access.value == 8 * n
            assert k.total.shared.value == 8 * n + 128 * (-(-n // 32))
            assert not _disagreements(path, kernel, {"n": n}, t)
        program.close()
    # block_sums: a file-scope `__shared__ float block_total` (a scalar), g = ceil(n/128) blocks of 128.
    # Thread 0 zeroes it (one store per block), threads i < n atomicAdd in[i] into it (a load and a
    # store each, one fp32 add), thread 0 copies it to sums[blockIdx.x] (one load per block).  W = n;
    # in read 4n B, sums written 4g B; shared 8n + 8g B.  Its first use is a store: it was booked as a
    # register there (8n + 4g) before the fix.  Sizes on both sides of the block (127, 128, 129, 300).
    program = _cuda("shared_filescope.cu", "block_sums")
    for n in (127, 128, 129, 300):
        g = -(-n // 128)
        t = program.run({"n": n})
        assert t.flops == {"fp32": n} and set(t.arrays) == {"in", "sums"}
        assert _bytes(t, "in") == (4 * n, 0, 4 * n, 0) and _bytes(t, "sums") == (0, 4 * g, 0, 4 * g)
        k = analyze_file(path, {"n": str(n)})[0]["block_sums"]
        assert k.exact and k.total.compulsory.value == 4 * n + 4 * g
        assert k.total.shared.value == 8 * n + 8 * g
        assert not _disagreements(path, "block_sums", {"n": n}, t)
    program.close()


def test_the_traces_math_table_is_its_own_and_agrees_with_the_analysiss():
    """The trace classifies library calls with its own table (staticroof/trace/mathlib.py), not the
    analysis's (grammars/math.toml): the two must name the same functions the same way.  By hand:
    sqrtf is special (weight 1), fmaf an FMA of 2 FLOPs, fabsf free, sincosf stores through
    arguments 1 and 2 and counts as sinf and cosf."""
    from staticroof import costs
    from staticroof.trace import mathlib

    assert mathlib.classify("sqrtf") == {"kind": "special", "weight": 1, "flops": 0}
    assert mathlib.classify("fmaf")["flops"] == 2 and mathlib.classify("fabsf")["kind"] == "free"
    sincosf = mathlib.classify("sincosf")
    assert sincosf["outputs"] == [1, 2] and sincosf["counts_as"] == ["sinf", "cosf"]
    ours, theirs = mathlib.table(), costs.table()
    assert sorted(set(ours) ^ set(theirs)) == []
    assert [n for n in ours if ours[n] != theirs[n]] == []
    for path in (ROOT / "staticroof" / "trace").rglob("*.py"):  # no import of the analysis's table
        text = path.read_text(encoding="utf-8")
        assert "import costs" not in text and "costs import" not in text, path
