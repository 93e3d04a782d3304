"""Preprocessing: stub headers instead of the host's, size macros kept symbolic, both preprocessors."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from staticroof.frontends.common import preprocess as pp

from helpers import SAMPLES, S, analyze_file, same


def test_integer_defines_become_size_markers():
    text, sizes = pp.rewrite_sizes("#define N 1024\n#define TILE (1 << 5)\n#define T double\n#define _X 3\n")
    assert sizes == {"N": 1024, "TILE": 32}
    assert "__SR_SIZE(N, 1024)" in text and "__SR_SIZE(TILE, 32)" in text
    assert "#define T double" in text and "#define _X 3" in text  # types and reserved names untouched


def test_value_tested_macros_stay_macros():
    # N's value decides an #if: it must remain a real macro; `defined(M)` only tests existence
    _text, sizes = pp.rewrite_sizes("#define N 8\n#define M 4\n#if N > 4 && defined(M)\n#endif\n")
    assert sizes == {"M": 4}


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_both_preprocessors_agree_on_samples(system, monkeypatch):
    if system and not pp.system_preprocessor_available():
        pytest.skip("no system C compiler")
    if not system:
        monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    for path in (SAMPLES / "gemm.c", SAMPLES / "l2norm.c", SAMPLES / "jacobi2d.c"):
        kernels, _ = analyze_file(path)
        for k in kernels.values():
            assert k.exact and k.location.line > 1
    kernels, _ = analyze_file(SAMPLES / "gemm.c")
    assert same(kernels["gemm"].total.flops.expr, S("2*N**3")) and kernels["gemm"].sizes == {"N": 1024}


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_line_numbers_survive_preprocessing(system, monkeypatch, tmp_path):
    if not system:
        monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    p = tmp_path / "k.c"
    p.write_text("#include <math.h>\n#include <stdio.h>\n\n#define N 10\n\nvoid f(float *x) {\n"
                 "  for (int i = 0; i < N; i++) x[i] = 2.0 * x[i];\n}\n")
    kernels, _ = analyze_file(p)
    k = kernels["f"]
    assert k.location.line == 6
    (d,) = [d for d in k.diagnostics if d.code == "SR107"]
    assert d.location.line == 7


def test_unknown_system_header_is_an_empty_stub_and_a_note(tmp_path):
    p = tmp_path / "k.c"
    p.write_text("#include <vendor/blas_ext.h>\n#include <omp.h>\nvoid f(int n, float *x) {\n"
                 "#pragma omp parallel for\n  for (int i = 0; i < n; i++) x[i] += 1.0f;\n}\n")
    kernels, report = analyze_file(p)
    notes = [d for d in report.file_diagnostics if d.code == "SR004"]
    assert len(notes) == 1 and "vendor/blas_ext.h" in notes[0].message and notes[0].location.line == 1
    assert kernels["f"].exact and not report.failed


def test_host_headers_are_never_read(tmp_path):
    # a program that only compiles against the stubs: our <stdio.h> has no `fopen64`, so a call to
    # it is an unknown function (SR105), proving the host's header was not used
    p = tmp_path / "k.c"
    p.write_text("#include <stdio.h>\n"
                 "void f(int n, float *x) { fopen64(\"a\", \"r\"); for (int i = 0; i < n; i++) x[i] = 0.0f; }\n")
    kernels, _ = analyze_file(p)
    assert any(d.code == "SR105" and "fopen64" in d.message for d in kernels["f"].diagnostics)


@pytest.mark.skipif(not pp.system_preprocessor_available(), reason="no system C compiler to compare with")
@pytest.mark.parametrize("path,defines", [(SAMPLES / "softmax.cu", []),
                                          (SAMPLES.parent / "tests" / "data" / "cuda" / "header_sizes.cu",
                                           ["-D", "N=64"])], ids=["softmax", "header"])
def test_pcpp_in_its_child_process_gives_what_cc_gives(path, defines, monkeypatch):
    # The whole JSON report (W, Q, sizes, locations, diagnostics) is the same through either
    # preprocessor; header_sizes.cu reaches a user header whose #define N is a size.
    from click.testing import CliRunner

    from staticroof.cli import main

    def report():
        r = CliRunner().invoke(main, ["analyze", "--format", "json", str(path), *defines])
        assert r.exit_code == 0, r.output
        return r.output

    with_cc = report()
    monkeypatch.setenv("STATICROOF_NO_CPP", "1")
    assert report() == with_cc


def test_cpp_host_library_headers_of_a_cu_file_are_known_and_empty(tmp_path):
    # a CUDA program's host side includes the C++ library; the kernel cannot use it, and the front
    # end reads main only for the launch (std::min of the grid is known by name). No SR004 note, and
    # the kernel is as without the includes: c[i] = a[i] + b[i] under i < n: W = n, Q = 12n.
    p = tmp_path / "k.cu"
    p.write_text("#include <vector>\n#include <chrono>\n#include <iostream>\n#include <algorithm>\n"
                 "#include <cstdio>\n"
                 "__global__ void add(const float *a, const float *b, float *c, int n) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n"
                 "int main() {\n  int n = 1000;\n  std::vector<float> h(n);\n"
                 "  auto t0 = std::chrono::steady_clock::now();\n  float *a, *b, *c;\n"
                 "  add<<<std::min((n + 255) / 256, 65535), 256>>>(a, b, c, n);\n"
                 "  std::cout << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();\n"
                 "  return 0;\n}\n")
    kernels, report = analyze_file(p)
    assert not [d for d in report.file_diagnostics if d.code == "SR004"]
    k = kernels["add"]
    assert k.exact and same(k.total.flops.expr, S("n")) and same(k.total.compulsory.expr, S("12*n"))
    assert k.sizes == {"n": 1000}


@pytest.mark.skipif(os.name != "posix" or shutil.which("sh") is None, reason="no POSIX shell")
def test_the_system_preprocessor_runs_under_its_limits_without_forking_python(monkeypatch):
    """The shell that starts cc sets the limits (no preexec_fn, so subprocess may vfork): a child
    sees 4 MiB of output (8192 blocks of 512 bytes) and 64 MiB of address space (65536 KiB)."""
    monkeypatch.setattr(pp, "CPP_OUTPUT_LIMIT", 4 << 20)
    monkeypatch.setattr(pp, "CPP_MEMORY_LIMIT", 64 << 20)
    command, preexec = pp._limited(["sh", "-c", "ulimit -f; ulimit -v"])
    assert preexec is None
    assert subprocess.run(command, capture_output=True, text=True).stdout.split() == ["8192", "65536"]
