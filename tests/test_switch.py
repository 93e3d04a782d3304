"""`switch` statements: each label runs its statements and falls through to the next `break`, as
guards on the switch value when it is affine, and every case counted once (SR104) when it depends
on data.  Expected values are derived by hand in the comments; sizes on both sides of the period of
the switch value; the trace (which compiles the real `switch`) must agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import S, analyze_source, codes, needs_cc, same, trace_agrees

PHASES = """
#include <stdio.h>

enum phase { PH_SCALE, PH_SHIFT, PH_SQUARE, PH_ZERO };

/* a 4-phase update, the phase taken from the index as a scheduler would */
void phases(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        switch (i % 4) {
        case PH_SCALE:
            y[i] = x[i] * 2.0f;       /* falls through into PH_SHIFT */
        case PH_SHIFT:
            y[i] += 1.0f;
            break;
        case PH_SQUARE: {
            float v = x[i];
            y[i] = v * v + 3.0f;
            break;
        }
        default:
            y[i] = 0.0f;
        }
    }
}
"""


@pytest.mark.parametrize("n", [1, 3, 4, 5, 9, 37])
def test_fall_through_and_default(tmp_path, n):
    k = analyze_source(PHASES, tmp_path, {"n": n}, name="phases.c")["phases"]
    # c_r = #{i < n : i % 4 == r} = ceil((n - r) / 4).  Per residue: 0 -> x*2, +1 (2 FLOPs);
    # 1 -> +1 (1); 2 -> v*v + 3 (2); 3 -> none.  W = 2*c0 + c1 + 2*c2.
    c = [max(0, -(-(n - r) // 4)) for r in range(4)]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.total.flops.value == 2 * c[0] + c[1] + 2 * c[2]
    assert same(k.total.flops.expr, S("2*ceiling(n/4) + floor((n + 2)/4) + 2*floor((n + 1)/4)"))
    # x read where i%4 is 0 or 2; y written everywhere, and its first access is a read only for
    # residue 1 (`+= 1.0f` alone; residue 0 writes y[i] before its `+=` reads it)
    arrays = k.total.arrays
    assert arrays["x"].read.value == 4 * (c[0] + c[2])
    assert arrays["y"].read.value == 4 * c[1] and arrays["y"].write.value == 4 * n


@needs_cc
@pytest.mark.parametrize("n", [5, 37])
def test_fall_through_agrees_with_the_trace(tmp_path, n):
    k = analyze_source(PHASES, tmp_path, {"n": n}, name="phases.c")["phases"]
    trace_agrees(Path(tmp_path) / "phases.c", "phases", {"n": n}, k)


MODES = """
#define N 64
void apply(int mode, double *a, const double *b)
{
    switch (mode) {
    case 1:
    case 2:
        for (int i = 0; i < N; i++)
            a[i] = a[i] + b[i];
        break;
    case 3:
        for (int i = 0; i < N; i++)
            a[i] = a[i] * b[i] * b[i];
        break;
    default:
        break;
    }
}
"""


@pytest.mark.parametrize("mode,flops", [(1, 64), (2, 64), (3, 128), (4, 0), (9, 0)])
def test_switch_on_a_size_selects_its_case(tmp_path, mode, flops):
    k = analyze_source(MODES, tmp_path, {"mode": mode}, name="modes.c")["apply"]
    # mode 1 and 2 share a case: N = 64 adds; mode 3: 2N multiplies; others: nothing.  (Sizes are
    # taken to be >= 1, as everywhere in the analysis.)
    assert k.exact and k.total.flops.value == flops


@needs_cc
@pytest.mark.parametrize("mode", [2, 3, 7])
def test_switch_on_a_size_agrees_with_the_trace(tmp_path, mode):
    k = analyze_source(MODES, tmp_path, {"mode": mode}, name="modes.c")["apply"]
    trace_agrees(Path(tmp_path) / "modes.c", "apply", {"mode": mode}, k)


OPCODES = """
void interpret(int n, const int *op, float *acc, const float *arg)
{
    for (int i = 0; i < n; i++) {
        switch (op[i]) {
        case 0: acc[i] = acc[i] + arg[i]; break;
        case 1:
            if (arg[i] == 0.0f)
                break;                          /* a conditional break: the rest is the else */
            acc[i] = acc[i] / arg[i];
            break;
        case 2: acc[i] = acc[i] * arg[i] - 1.0f;
        }
    }
}
"""


def test_switch_on_data_counts_every_case_once(tmp_path):
    k = analyze_source(OPCODES, tmp_path, {"n": 10}, name="ops.c")["interpret"]
    # op[i] is data: SR104, every case's statements once per element: 1 + 1 + 2 = 4 FLOPs (an upper
    # bound of any one path); op read, arg read, acc read and written: 16n B compulsory
    assert not k.exact and "SR104" in codes(k) and "SR123" not in codes(k)
    assert same(k.total.flops.expr, S("4*n")) and same(k.total.compulsory.expr, S("16*n"))


def test_conditional_break_on_an_affine_value(tmp_path):
    k = analyze_source("""
void tail(int n, float *y)
{
    for (int i = 0; i < n; i++) {
        switch (i % 2) {
        case 0:
            if (i >= 10)
                break;
            y[i] = y[i] * 2.0f;     /* only for even i < 10 */
        case 1:
            y[i] = y[i] + 1.0f;     /* odd i, and even i < 10 falling through */
        }
    }
}""", tmp_path, {"n": 14}, name="tail.c")["tail"]
    # n = 14: even i in {0..8}: 5 elements x 2 FLOPs; even i in {10, 12}: nothing; odd i (7): 1 FLOP
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.total.flops.value == 5 * 2 + 7


LANES = """
#include <cuda_runtime.h>
__global__ void lanes(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    switch (i & 3) {
    case 0: y[i] = x[i] * 0.5f; break;
    case 3: y[i] = x[i] * x[i] + x[i]; break;
    default: y[i] = x[i];
    }
}
int main() { float *x, *y; lanes<<<(1000 + 127) / 128, 128>>>(x, y, 1000); }"""


def test_cuda_switch_on_the_thread_index(tmp_path):
    k = analyze_source(LANES, tmp_path, name="k.cu")["lanes"]
    # i & 3 is i mod 4: residue 0 -> 1 FLOP, residue 3 -> 2 FLOPs, others 0.  n = 1000: 250 each
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.total.flops.value == 250 * 1 + 250 * 2


@needs_cc
@pytest.mark.parametrize("n", [13, 1000])
def test_cuda_switch_agrees_with_the_trace(tmp_path, n):
    # n = 13: residues 0 (i = 0, 4, 8, 12: 4 x 1 FLOP) and 3 (i = 3, 7, 11: 3 x 2): W = 10
    k = analyze_source(LANES, tmp_path, {"n": n}, name="k.cu")["lanes"]
    assert k.total.flops.value == (10 if n == 13 else 750)
    trace_agrees(Path(tmp_path) / "k.cu", "lanes", {"n": n}, k, "cuda")
