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


# ---------------------------------------------------------------------------------------------
# Predefined macros (predefined.py): the host's and nvcc's, the same through either preprocessor


def _preprocessor(system: bool, monkeypatch):
    if system and not pp.system_preprocessor_available():
        pytest.skip("no system C compiler")
    if not system:
        monkeypatch.setenv("STATICROOF_NO_CPP", "1")


def _values(path, system: bool, **options) -> list:
    out = pp.preprocess(str(path), path.read_text(), {}, use_system=system, **options)
    assert out.ok, out.diagnostics
    return [line.strip() for line in out.text.splitlines() if line.strip() and not line.startswith("#")]


def test_both_preprocessors_define_exactly_the_same_macros(tmp_path):
    # every name either preprocessor might define of its own (GCC's builtins, pcpp's) and every
    # predefined one: the values are the same, and only the predefined set is defined
    from staticroof.frontends.common.predefined import C_MACROS, CUDA_MACROS

    if not pp.system_preprocessor_available():
        pytest.skip("no system C compiler to compare with")
    names = sorted(set(C_MACROS) | set(CUDA_MACROS) | {"__STDC_UTF_16__", "__STDC_UTF_32__", "__PCPP__",
                                                       "__GNUC_STDC_INLINE__", "__OPTIMIZE__", "unix", "linux"})
    p = tmp_path / "m.c"
    p.write_text("".join(f'"{n}": {n}\n' for n in names))
    for predefined in (C_MACROS, CUDA_MACROS):
        with_cc = _values(p, True, predefined=predefined)
        assert with_cc == _values(p, False, predefined=predefined)
        got = {k.strip('"'): v for k, v in (line.split(": ") for line in with_cc)}
        want = {n: ("1234" if n == "__BYTE_ORDER__" else predefined.get(n, n)) for n in names}
        assert got == want
    assert "__STDC_VERSION__" not in CUDA_MACROS and C_MACROS["__STDC_VERSION__"] == "201710L"


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_platform_branches_take_the_linux_gcc_path(system, monkeypatch, tmp_path):
    # `#error Unsupported system` does not fire; the C17 branch is taken: W = 2n, Q = 8n
    _preprocessor(system, monkeypatch)
    p = tmp_path / "k.c"
    p.write_text("#if defined(__linux__) && defined(__x86_64__) && defined(__unix__) && __GNUC__ >= 4\n"
                 "#define OK 1\n#elif defined(_WIN32) || defined(__APPLE__)\n#define OK 2\n"
                 "#else\n#error Unsupported system\n#endif\n"
                 "#if __STDC_VERSION__ < 199901L || !__STDC__ || __SIZEOF_POINTER__ != 8\n#error old C\n#endif\n"
                 "#ifdef __CUDACC__\n#error not CUDA\n#endif\n"
                 "void f(int n, float *x) {\n  for (int i = 0; i < n; i++) x[i] = 2.0f * x[i] + 1.0f;\n}\n")
    kernels, report = analyze_file(p)
    assert not report.failed and not report.file_diagnostics
    k = kernels["f"]
    assert k.exact and same(k.total.flops.expr, S("2*n")) and same(k.total.compulsory.expr, S("8*n"))


_CU = ("#include <EGL/egl.h>\n#include <GL/gl.h>\n"
       "#if !defined(__linux__) || !defined(__NVCC__)\n#error Unsupported system\n#endif\n"
       "#ifdef __STDC_VERSION__\n#error C++ has no __STDC_VERSION__\n#endif\n"
       "#ifdef __CUDACC__\n"
       "__global__ void add(const float *a, float *c, int n) {\n"
       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
       "#if __CUDACC_VER_MAJOR__ >= 11 && __cplusplus >= 201103L && __CUDA_ARCH__ >= 700\n"
       "  if (i < n) c[i] = a[i] * a[i] + 1.0f;\n"
       "#else\n"
       "  if (i < n) c[i] = a[i];\n"
       "#endif\n"
       "}\n#endif\n")


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_cuda_guards_take_the_nvcc_device_path_and_platform_headers_are_stubs(system, monkeypatch, tmp_path):
    # the kernel under #ifdef __CUDACC__, its sm_70+ branch for CUDA >= 11: c[i] = a[i]*a[i] + 1
    # under i < n: W = 2n, Q = 8n; <EGL/egl.h> and <GL/gl.h> are empty stubs, each with a note
    _preprocessor(system, monkeypatch)
    p = tmp_path / "k.cu"
    p.write_text(_CU)
    kernels, report = analyze_file(p)
    notes = [d for d in report.file_diagnostics if d.code == "SR004"]
    assert [(d.location.line, "EGL/egl.h" in d.message, "GL/gl.h" in d.message) for d in notes] == [
        (1, True, False), (2, False, True)]
    assert not report.failed
    k = kernels["add"]
    assert k.exact and same(k.total.flops.expr, S("2*n")) and same(k.total.compulsory.expr, S("8*n"))
    # -D overrides a predefined value: the pre-sm_70 branch copies, W = 0
    kernels, _ = analyze_file(p, defines={"__CUDA_ARCH__": "600"})
    assert same(kernels["add"].total.flops.expr, S("0")) and same(kernels["add"].total.compulsory.expr, S("8*n"))


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_user_defines_and_undefines_override_the_predefined(system, tmp_path):
    from staticroof.frontends.common.predefined import CUDA_MACROS

    if system and not pp.system_preprocessor_available():
        pytest.skip("no system C compiler")
    p = tmp_path / "k.cu"
    p.write_text("#ifdef __CUDACC__\ncuda\n#endif\n#ifndef __STDC__\nno_stdc\n#endif\n"
                 "CUDA_ARCH __CUDA_ARCH__ GNUC __GNUC__\n")
    assert _values(p, system, predefined=CUDA_MACROS) == ["cuda", "CUDA_ARCH 800 GNUC 12"]
    out = pp.preprocess(str(p), p.read_text(), {"__CUDA_ARCH__": "900", "__GNUC__": "9"}, use_system=system,
                        predefined=CUDA_MACROS, undefines=["__CUDACC__", "__STDC__"])
    assert out.ok and [ln for ln in out.text.splitlines() if ln and not ln.startswith("#")] == [
        "no_stdc", "CUDA_ARCH 900 GNUC 9"]
    # a -D of a predefined name is a macro, never a size (even one without the leading `__`)
    out = pp.preprocess(str(p), p.read_text(), {"_LP64": "0"}, use_system=system, predefined=CUDA_MACROS)
    assert out.ok and not out.bindings


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_an_unsupported_system_error_still_fires_when_asked_for(system, monkeypatch, tmp_path):
    _preprocessor(system, monkeypatch)
    p = tmp_path / "k.c"
    p.write_text("#if __GNUC__ < 5\n#error Unsupported compiler\n#endif\nvoid f(int n, float *x) {}\n")
    _kernels, report = analyze_file(p, defines={"__GNUC__": "4"})
    (d,) = [d for d in report.file_diagnostics if d.code == "SR005"]
    assert d.message == "#error Unsupported compiler" and d.location.line == 2


@pytest.mark.parametrize("system", [True, False], ids=["cc", "pcpp"])
def test_a_missing_user_header_names_the_include_folder_that_has_it(system, monkeypatch, tmp_path):
    _preprocessor(system, monkeypatch)
    proj = tmp_path / "a" / "b" / "proj"
    (proj / "app").mkdir(parents=True)
    (proj / "common" / "inc").mkdir(parents=True)
    (proj / "common" / "inc" / "helper_math.h").write_text("#define SCALE 2.0f\n")
    p = proj / "app" / "k.cu"
    p.write_text("// a kernel\n#include \"helper_math.h\"\n"
                 "__global__ void scale(float *x, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  if (i < n) x[i] = SCALE * x[i];\n}\n")
    monkeypatch.chdir(tmp_path)  # the folder is shown relative to the current one when under it
    kernels, report = analyze_file(p)
    (d,) = [d for d in report.file_diagnostics if d.code == "SR131"]
    assert d.message.startswith("helper_math.h not found: read as empty")
    assert "pass -I a/b/proj/common/inc)" in d.message
    assert (d.location.file, d.location.line, d.location.col) == (str(p), 2, 10)
    # read as empty, the kernel is still reported: SCALE is declared nowhere (SR132, approximate)
    assert not kernels["scale"].exact and "SR132" in {x.code for x in kernels["scale"].diagnostics}
    # with the -I it names, the kernel is analyzed: W = n, Q = 8n
    kernels, report = analyze_file(p, include_dirs=[str(proj / "common" / "inc")])
    assert not report.failed and same(kernels["scale"].total.flops.expr, S("n"))
    # nothing of that name nearby: the error still says what to pass
    (proj / "common" / "inc" / "helper_math.h").unlink()
    _kernels, report = analyze_file(p)
    (d,) = [d for d in report.file_diagnostics if d.code == "SR131"]
    assert d.message.endswith("(a user header: pass -I with the folder that holds it)")


def test_the_search_for_a_missing_header_is_bounded(tmp_path, monkeypatch):
    # nearest the top first, at most HEADER_SEARCH_SHOWN places, a path with folders in the name
    for k in range(5):
        (tmp_path / f"d{k}" / "sub" / "x").mkdir(parents=True)
        (tmp_path / f"d{k}" / "sub" / "x" / "h.h").write_text("")
    (tmp_path / ".hidden" / "x").mkdir(parents=True)
    (tmp_path / ".hidden" / "x" / "h.h").write_text("")
    start = tmp_path / "d0" / "sub"
    assert pp.header_folders("x/h.h", start) == [(tmp_path / f"d{k}" / "sub").resolve() for k in range(3)]
    monkeypatch.setattr(pp, "HEADER_SEARCH_FOLDERS", 3)
    assert pp.header_folders("x/h.h", start) == []
