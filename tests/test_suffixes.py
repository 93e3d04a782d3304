"""Issue #28, C item: K&R definitions, C++ keywords as names in C, and the C++/CUDA suffixes
(`.cpp .cc .cxx .hpp`: C++ host code read by the CUDA front end's C++ layer; `.cuh`: CUDA)."""

from __future__ import annotations

import pytest

from staticroof.cli import collect_sources
from staticroof.frontends import language_of

from helpers import analyze_file, analyze_source, trace_agrees

SIZES = (37, 1000)  # on both sides of every constant

KR_DOT = """double dot(x, y, n)
double *x, *y;
int n;
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
"""


@pytest.mark.parametrize("n", SIZES)
def test_kr_dot(tmp_path, n):
    # one multiply and one add per i, in double: W = 2n fp64; x and y read once: Q = 8n + 8n = 16n
    k = analyze_source(KR_DOT, tmp_path, {"n": str(n)})["dot"]
    assert not k.failed and k.exact
    assert k.total.by_precision["fp64"].value == 2 * n
    assert k.total.flops.value == 2 * n
    assert k.total.compulsory.value == 16 * n
    trace_agrees(tmp_path / "kernel.c", "dot", {"n": n}, k)


KR_CALLS = """static double twice(v) double v; { return 2.0 * v; }
void scale(a, n, s)
float *a;
double s;
{
    int i;
    for (i = 0; i < n; i++)
        a[i] = twice(a[i]) * s;
}
"""


@pytest.mark.parametrize("n", SIZES)
def test_kr_undeclared_int_and_calls(tmp_path, n):
    # `n` is undeclared: int.  Per i: 2.0*v and *s in double: W = 2n fp64; a read and written: Q = 8n
    k = analyze_source(KR_CALLS, tmp_path, {"n": str(n)})["scale"]
    assert k.total.by_precision["fp64"].value == 2 * n
    assert k.total.compulsory.value == 8 * n
    trace_agrees(tmp_path / "kernel.c", "scale", {"n": n}, k)


CXX_NAMES = """struct node { int this; float *new; };
static float operator(float delete, float virtual) { return delete * virtual; }
void f(float *private, float *protected, int namespace, struct node *friend)
{
    int public = 0, class = 2, template = 1, typename = 3;
    for (int i = 0; i < namespace; i++)
        private[i] = operator(protected[i], friend->new[i]) * class + template + public + typename + friend->this;
}
"""


@pytest.mark.parametrize("n", SIZES)
def test_cxx_keywords_are_names_in_c(tmp_path, n):
    # per i: one multiply in operator, then * class, + template, + public, + typename, + this: W = 6n
    # fp32 (the int operands convert to float); protected and friend->new read, private written: Q = 12n
    k = analyze_source(CXX_NAMES, tmp_path, {"namespace": str(n)})["f"]
    assert not k.failed
    assert k.total.by_precision["fp32"].value == 6 * n
    assert k.total.compulsory.value == 12 * n
    # (no trace: the C trace does not run kernels with struct members yet)


SAXPY_CPP = """#include <vector>
class Scaler {
public:
    explicit Scaler(float a) : a_(a) {}
    float apply(float v) const { return a_ * v; }
private:
    float a_;
};

void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

void scale(int n, const float *x, float *y)
{
    Scaler s(2.0f);
    for (int i = 0; i < n; ++i)
        y[i] = s.apply(x[i]);
}

int main() {
    std::vector<float> x(1000), y(1000);
    saxpy(1000, 2.0f, x.data(), y.data());
    return 0;
}
"""

# the same loop as C, for the trace (the C++ front end has no trace executor yet)
SAXPY_C = """void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
"""


@pytest.mark.parametrize("n", SIZES)
def test_cpp_openmp_loop_and_class(tmp_path, n):
    # saxpy: a*x[i] + y[i] is 2 fp32 FLOP per i: W = 2n; x read, y read and written: Q = 4n*3 = 12n
    # scale: s.apply(x[i]) is a_*v, 1 fp32 FLOP per i: W = n; x read, y written: Q = 8n
    # main (std::vector) is a driver: not reported, and its C++ costs no kernel
    got, _report = analyze_file(_write(tmp_path, "saxpy.cpp", SAXPY_CPP), {"n": str(n)})
    assert sorted(got) == ["saxpy", "scale"]
    k = got["saxpy"]
    assert k.language == "cpp" and not k.failed
    assert k.total.by_precision["fp32"].value == 2 * n
    assert k.total.compulsory.value == 12 * n
    s = got["scale"]
    assert s.total.by_precision["fp32"].value == n
    assert s.total.compulsory.value == 8 * n
    c = analyze_source(SAXPY_C, tmp_path, {"n": str(n)})["saxpy"]
    assert (c.total.flops.value, c.total.compulsory.value) == (k.total.flops.value, k.total.compulsory.value)
    trace_agrees(tmp_path / "kernel.c", "saxpy", {"n": n}, c)


def test_cpp_is_cplusplus(tmp_path):
    # `__cplusplus` is defined and `__STDC_VERSION__` is not: the C++ branch is read (W = n, Q = 8n)
    src = """#if defined(__cplusplus) && !defined(__STDC_VERSION__)
void k(int n, const float *x, float *y) { for (int i = 0; i < n; i++) y[i] = 2.0f * x[i]; }
#endif
"""
    k = analyze_file(_write(tmp_path, "k.cc", src), {"n": "37"})[0]["k"]
    assert k.total.flops.value == 37 and k.total.compulsory.value == 8 * 37


CUH = """__global__ void axpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


@pytest.mark.parametrize("n", SIZES)
def test_cuh_kernel(tmp_path, n):
    # one thread per i < n (grid assumed to cover the guard): W = 2n fp32, Q = 12n
    path = _write(tmp_path, "axpy.cuh", CUH)
    k = analyze_file(path, {"n": str(n)})[0]["axpy"]
    assert k.language == "cuda"
    assert k.total.by_precision["fp32"].value == 2 * n
    assert k.total.compulsory.value == 12 * n
    # (no trace: without a launch site the trace has no launch configuration)


def test_folder_walk_picks_up_cpp_suffixes(tmp_path):
    for name in ("a.cc", "b.cxx", "c.hpp", "d.cpp"):
        _write(tmp_path, name, SAXPY_C)
    _write(tmp_path, "e.cuh", CUH)
    _write(tmp_path, "f.h", "int x;\n")  # a header alone: C or C++ is undecidable, never collected
    files, errors = collect_sources([tmp_path])
    assert not errors
    assert [f.name for f in files] == ["a.cc", "b.cxx", "c.hpp", "d.cpp", "e.cuh"]
    assert {language_of(f) for f in files} == {"cpp", "cuda"}
    for f in files[:4]:
        k = analyze_file(f, {"n": "1000"})[0]["saxpy"]
        assert (k.language, k.total.flops.value, k.total.compulsory.value) == ("cpp", 2000, 12000)


def _write(folder, name, text):
    p = folder / name
    p.write_text(text)
    return p
