"""Issue #28 §2: kernels launched from kernels, std::bool_constant tag parameters and a host class
template with new[]/delete[] (tests/data/idioms/device_launch.cu).  Expectations derived by hand; each
exact one is run by `staticroof trace` on both sides of the child's block of 128 (m = 100 and 200)."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, codes, same, skip_without_cc

DATA = ROOT / "tests" / "data" / "idioms" / "device_launch.cu"


def test_every_kernel_is_reported():
    """The host class template (new[] in its constructor, delete[] in its destructor) costs nothing."""
    ks, _ = analyze_file(DATA)
    assert set(ks) == {"child", "parent", "parent_dynamic", "tagged<true>", "tagged<false>"}


def test_a_kernel_launched_from_a_kernel_runs_its_threads_there():
    """Each of the n rows launches ceil(m/128) blocks of 128 threads; the m threads i < m write
    y[row*m + i] = 2*x[row*m + i]: W = n*m multiplies, x read and y written at n*m distinct
    elements: Q = 8*n*m."""
    k = analyze_file(DATA)[0]["parent"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert same(k.total.flops.expr, S("m*n")) and same(k.total.compulsory.expr, S("8*m*n"))


def test_a_child_launch_with_a_runtime_block_is_not_followed():
    """`child<<<(m + threads - 1)/threads, threads>>>`: the child's block is a run-time value (its
    symbol would be the parent's own blockDim): SR105, approximate, nothing counted for it."""
    k = analyze_file(DATA)[0]["parent_dynamic"]
    assert not k.exact and "SR105" in codes(k)


def test_a_bool_constant_tag_is_its_template_value():
    """`std::bool_constant<kScale>` is a tag parameter (an int placeholder); `kScale ? 2*x : x` is
    decided at compile time per instantiation: tagged<true> W = n, tagged<false> W = 0 (the
    condition on the template value alone is folded, as the compiler folds it); Q = 8*n each."""
    ks, _ = analyze_file(DATA)
    assert ks["tagged<true>"].exact and same(ks["tagged<true>"].total.flops.expr, S("n"))
    assert ks["tagged<false>"].exact and ks["tagged<false>"].total.flops.expr == 0
    for name in ("tagged<true>", "tagged<false>"):
        assert same(ks[name].total.compulsory.expr, S("8*n")), name


@pytest.mark.parametrize("sizes", [{"n": 37, "m": 200}, {"n": 5, "m": 100}])
def test_a_device_launch_agrees_with_the_trace(sizes):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = analyze_file(DATA, {n: str(v) for n, v in sizes.items()})[0]["parent"]
    traced = run_trace(str(DATA), "parent", sizes, "cuda", launch={"grid": (1, 1, 1), "block": (64, 1, 1)})
    assert not [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]


@pytest.mark.parametrize("n", [37, 1000])
@pytest.mark.parametrize("kernel", ["tagged<true>", "tagged<false>"])
def test_tagged_kernels_agree_with_the_trace(kernel, n):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = analyze_file(DATA, {"n": str(n)})[0][kernel]
    traced = run_trace(str(DATA), kernel, {"n": n}, "cuda", launch={"grid": (4, 1, 1), "block": (256, 1, 1)})
    assert not [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]


def test_a_macro_that_decides_a_condition_is_folded_everywhere(tmp_path):
    """`if (USE_SCALE)` with `#define USE_SCALE 1`: decided as the compiler decides it, and the macro is
    folded in the whole kernel (SR115), so the formula holds where it is shown.  W = N (one multiply per
    element); with -D USE_SCALE=0, W = 0.  Q = 8*N either way."""
    from helpers import analyze_source

    src = ("#define N 1024\n#define USE_SCALE 1\nvoid k(const float *x, float *y)\n{\n"
           "    for (int i = 0; i < N; i++) {\n        if (USE_SCALE)\n            y[i] = 2.0f * x[i];\n"
           "        else\n            y[i] = x[i];\n    }\n}\n")
    on = analyze_source(src, tmp_path, name="on.c")["k"]
    assert on.exact and same(on.total.flops.expr, S("N")) and "SR115" in codes(on)
    off = analyze_source(src, tmp_path, {"USE_SCALE": 0}, name="off.c")["k"]
    assert off.exact and off.total.flops.expr == 0 and same(off.total.compulsory.expr, S("8*N"))
