"""A z-marching stencil's plane offsets (issue #28): `in[stride + j*nx + i]` with `stride = nx*ny`,
loaded before the k loop that reads `in[(k + 1)*stride + j*nx + i]`.  The offset `nx*ny` carries no
loop variable, so it used to be added to the column coordinate (i + nx*ny, not in [0, nx): SR108 or
SR117, Q only right at given sizes); it belongs to the plane coordinate that the loop's reference
walks in k*nx*ny, and with it every reference is (plane, row, column) with row < ny and column <
nx: injective, Q symbolic in nx, ny, nz.  Expected values by hand below; traced at two sizes."""

from __future__ import annotations

import pytest
import sympy

from helpers import S, analyze_source, codes, formula_at, same, trace_agrees

# the register z-march of finite-difference codes (behind/current/infront), a 3-point sum in z
ZMARCH = r"""
void zmarch_sum3(const float *in, float *out, int nx, int ny, int nz)
{
    const int stride = nx * ny;
    for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++) {
            float behind;
            float current = in[j * nx + i];
            float infront = in[stride + j * nx + i];
            for (int k = 1; k < nz - 1; k++) {
                behind = current;
                current = infront;
                infront = in[(k + 1) * stride + j * nx + i];
                out[k * stride + j * nx + i] = behind + current + infront;
            }
        }
}
"""

# Per interior column (i, j) ((nx - 2)*(ny - 2) of them): planes 0 and 1 loaded before the loop,
# plane k + 1 for k = 1 .. nz - 2: in read at planes 0 .. nz - 1 (nz >= 2), each element once;
# out written at planes 1 .. nz - 2; 2 adds per written point.
#   W = 2*(nx - 2)*(ny - 2)*(nz - 2), Q = 4*(nx - 2)*(ny - 2)*nz + 4*(nx - 2)*(ny - 2)*(nz - 2)
#     = 8*(nx - 2)*(ny - 2)*(nz - 1); Q_access the same (every load and store a new element).
W = "2*(nx - 2)*(ny - 2)*(nz - 2)"
Q = "8*(nx - 2)*(ny - 2)*(nz - 1)"


def test_the_plane_offset_is_a_plane_coordinate(tmp_path):
    k = analyze_source(ZMARCH, tmp_path, name="zmarch.c")["zmarch_sum3"]
    assert k.exact and not {"SR108", "SR117"} & codes(k), [str(d) for d in k.diagnostics]
    at = {"nx": 9, "ny": 7, "nz": 6}
    assert same(formula_at(k.total.flops, at), S(W))
    assert same(formula_at(k.total.compulsory, at), S(Q))
    assert same(formula_at(k.total.access, at), S(Q))


# both sides of the 2 boundary points in x and y (one interior column at nx = 3) and of the loop's
# bound in z (nz = 2: the loop never runs, the two planes before it are still read: Q = 8*(nx-2)*(ny-2))
@pytest.mark.parametrize("nx,ny,nz", [(3, 4, 2), (7, 5, 6), (12, 3, 9)])
def test_counts_at_sizes(tmp_path, nx, ny, nz):
    sizes = {"nx": nx, "ny": ny, "nz": nz}
    k = analyze_source(ZMARCH, tmp_path, {n: str(v) for n, v in sizes.items()}, name="zmarch.c")["zmarch_sum3"]
    assert k.exact, [str(d) for d in k.diagnostics]
    values = {sympy.Symbol(n): v for n, v in sizes.items()}
    assert k.total.flops.value == S(W).subs(values)
    assert k.total.compulsory.value == S(Q).subs(values) == k.total.access.value
    if nz != 2:
        trace_agrees(tmp_path / "zmarch.c", "zmarch_sum3", sizes, k)
