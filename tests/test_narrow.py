"""Narrow integer indices and counters (issue #28 §3): an `unsigned char` or `short` wraps past its
range; the count follows a constant's wrap, names the sizes a narrow counter is counted for, and is
approximate where a value may wrap (tests/data/idioms/narrow.c).  Never a wrong exact result."""

from __future__ import annotations

import pytest

from helpers import ROOT, S, analyze_file, codes, same, skip_without_cc

DATA = ROOT / "tests" / "data" / "idioms" / "narrow.c"


def test_a_narrow_counter_bounded_by_a_size_is_counted_where_it_fits():
    """`for (unsigned char i = 0; i < n; i++)`: ends before i wraps for n <= 255 (i = 255 < n would step
    to 256 = 0); `short`: n <= 32767.  W = n, Q = 8*n there, exact with the SR129 note naming it."""
    ks, _ = analyze_file(DATA)
    for name, limit in (("wrap8", "n <= 255"), ("wrap16", "n <= 32767")):
        k = ks[name]
        assert k.exact and same(k.total.flops.expr, S("n")) and same(k.total.compulsory.expr, S("8*n"))
        assert any(d.code == "SR129" and limit in d.message for d in k.diagnostics), name


def test_sizes_past_the_counters_range_make_it_approximate():
    """n = 300 > 255: the `unsigned char` counter's loop never ends (SR128); `short` still fits."""
    ks, _ = analyze_file(DATA, {"n": "300"})
    assert not ks["wrap8"].exact and "SR128" in codes(ks["wrap8"])
    assert ks["wrap16"].exact


def test_a_counter_that_must_pass_its_range_never_ends():
    """`i <= 255` holds at 255, the largest unsigned char: the loop never ends (SR128, approximate)."""
    k = analyze_file(DATA)[0]["forever8"]
    assert not k.exact and "SR128" in codes(k)


def test_constant_bounds_that_fit_are_exact_without_a_note():
    """i < 200 in an unsigned char, i = 100 down to 0 in an int8_t: both fit.  fine8: W = 200, Q =
    8*200 = 1600.  down8: 101 adds (fp64), Q = 16*101 = 1616."""
    ks, _ = analyze_file(DATA)
    assert ks["fine8"].exact and ks["fine8"].total.flops.value == 200 and ks["fine8"].total.compulsory.value == 1600
    assert ks["down8"].exact and ks["down8"].total.flops.value == 101 and ks["down8"].total.compulsory.value == 1616
    assert not {"SR128", "SR129"} & (codes(ks["fine8"]) | codes(ks["down8"]))


def test_a_narrow_index_from_a_wider_value_is_approximate():
    """`unsigned char k = i` with i < n: k = i mod 256, so x is read at min(n, 256) distinct elements,
    not n: the formula 8*n would be wrong for n > 256.  SR128, approximate."""
    k = analyze_file(DATA)[0]["idx8"]
    assert not k.exact and "SR128" in codes(k)


def test_a_constant_stored_in_a_narrow_variable_wraps_exactly():
    """uint8_t k = 300 is 300 - 256 = 44: x[44] read once, y[0] written, one multiply.  W = 1,
    Q = 8; exact (x's element is 44, the trace agrees)."""
    k = analyze_file(DATA)[0]["const_wrap"]
    assert k.exact and k.total.flops.value == 1 and k.total.compulsory.value == 8


@pytest.mark.parametrize("kernel,sizes", [("wrap8", {"n": 37}), ("wrap8", {"n": 200}), ("wrap16", {"n": 1000}),
                                          ("fine8", {}), ("down8", {}), ("const_wrap", {})])
def test_narrow_counters_agree_with_the_trace(kernel, sizes):
    from staticroof.trace import compare, run as run_trace

    skip_without_cc()
    k = analyze_file(DATA, {n: str(v) for n, v in sizes.items()})[0][kernel]
    assert k.exact
    traced = run_trace(str(DATA), kernel, sizes, "c")
    assert not [(r.quantity, r.static, r.traced) for r in compare(k, traced) if not r.ok]
