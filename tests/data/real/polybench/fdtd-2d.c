/* fdtd-2d.c -- 2-D finite-difference time-domain kernel (the E and H fields of a TE wave, a source
 * term from the `_fict_` array on row 0 of ey), in the style of a polyhedral benchmark suite (C99
 * array prototypes; three field arrays of nx rows and ny columns).
 *
 * Derivation (double, 8 B; tmax = TMAX = 100, nx = NX = 200, ny = NY = 240 bound by main;
 * nx, ny >= 2, tmax >= 1), per time step t < tmax:
 *   j < ny:              ey[0][j] = _fict_[t]                                     (no FLOPs)
 *   i = 1..nx-1, j < ny: ey[i][j] = ey[i][j] - 0.5*(hz[i][j] - hz[i-1][j])        -> 3
 *   i < nx, j = 1..ny-1: ex[i][j] = ex[i][j] - 0.5*(hz[i][j] - hz[i][j-1])        -> 3
 *   i < nx-1, j < ny-1:  hz[i][j] = hz[i][j] - 0.7*(ex[i][j+1] - ex[i][j]
 *                                                   + ey[i+1][j] - ey[i][j])      -> 5
 *   W = tmax*(3*(nx-1)*ny + 3*nx*(ny-1) + 5*(nx-1)*(ny-1)) (fp64).
 *   Q (first accesses):
 *     _fict_: tmax elements read;
 *     ey: row 0 written first (ny), rows 1..nx-1 read then written ((nx-1)*ny each): the hz update
 *         reads nothing new;
 *     ex: columns 1..ny-1 read and written (nx*(ny-1) each); column 0 is only read, by the hz update,
 *         in rows 0..nx-2 (nx - 1);
 *     hz: all nx*ny read by the ey update of t = 0 (hz[i][j], hz[i-1][j] over i = 1..nx-1); the hz
 *         update writes (nx-1)*(ny-1).
 *     Q = 8*tmax + 8*(6*nx*ny - 2*nx - 2*ny) = 8*tmax + 48*nx*ny - 16*nx - 16*ny.
 *   Q access per step: row 0: ny stores and _fict_[t] loaded every j (invariant in j, but the loop
 *     writes ey, a double parameter that may alias _fict_): 2ny; ey update 4 per point: 4(nx-1)ny;
 *     ex update 4nx(ny-1); hz update 5 loads + 1 store: 6(nx-1)(ny-1).  Sum: 14*nx*ny - 10*nx - 8*ny + 6.
 *     Q_access = 8*tmax*(14*nx*ny - 10*nx - 8*ny + 6).
 *
 * staticroof:expect kernel_fdtd_2d
 *   W        = tmax*(3*(nx - 1)*ny + 3*nx*(ny - 1) + 5*(nx - 1)*(ny - 1))
 *   Q        = 8*tmax + 48*nx*ny - 16*nx - 16*ny
 *   Q_access = 8*tmax*(14*nx*ny - 10*nx - 8*ny + 6)
 *   fp64     = tmax*(3*(nx - 1)*ny + 3*nx*(ny - 1) + 5*(nx - 1)*(ny - 1))
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef TMAX
# define TMAX 100
#endif
#ifndef NX
# define NX 200
#endif
#ifndef NY
# define NY 240
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int tmax, int nx, int ny, DATA_TYPE POLYBENCH_2D(ex, NX, NY, nx, ny),
                       DATA_TYPE POLYBENCH_2D(ey, NX, NY, nx, ny), DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny),
                       DATA_TYPE POLYBENCH_1D(_fict_, TMAX, tmax))
{
    int i, j;

    for (i = 0; i < tmax; i++)
        _fict_[i] = (DATA_TYPE) i;
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++) {
            ex[i][j] = ((DATA_TYPE) i * (j + 1)) / nx;
            ey[i][j] = ((DATA_TYPE) i * (j + 2)) / ny;
            hz[i][j] = ((DATA_TYPE) i * (j + 3)) / nx;
        }
}

static void print_array(int nx, int ny, DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny))
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "hz");
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++) {
            if ((i * nx + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, hz[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "hz");
}

static void kernel_fdtd_2d(int tmax, int nx, int ny, DATA_TYPE POLYBENCH_2D(ex, NX, NY, nx, ny),
                           DATA_TYPE POLYBENCH_2D(ey, NX, NY, nx, ny), DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny),
                           DATA_TYPE POLYBENCH_1D(_fict_, TMAX, tmax))
{
    int t, i, j;

#pragma scop
    for (t = 0; t < tmax; t++) {
        for (j = 0; j < ny; j++)
            ey[0][j] = _fict_[t];
        for (i = 1; i < nx; i++)
            for (j = 0; j < ny; j++)
                ey[i][j] = ey[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i - 1][j]);
        for (i = 0; i < nx; i++)
            for (j = 1; j < ny; j++)
                ex[i][j] = ex[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i][j - 1]);
        for (i = 0; i < nx - 1; i++)
            for (j = 0; j < ny - 1; j++)
                hz[i][j] = hz[i][j] - SCALAR_VAL(0.7) * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int tmax = TMAX;
    int nx = NX;
    int ny = NY;

    POLYBENCH_2D_ARRAY_DECL(ex, DATA_TYPE, NX, NY, nx, ny);
    POLYBENCH_2D_ARRAY_DECL(ey, DATA_TYPE, NX, NY, nx, ny);
    POLYBENCH_2D_ARRAY_DECL(hz, DATA_TYPE, NX, NY, nx, ny);
    POLYBENCH_1D_ARRAY_DECL(_fict_, DATA_TYPE, TMAX, tmax);

    init_array(tmax, nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz), POLYBENCH_ARRAY(_fict_));

    kernel_fdtd_2d(tmax, nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz),
                   POLYBENCH_ARRAY(_fict_));

    polybench_prevent_dce(print_array(nx, ny, POLYBENCH_ARRAY(hz)));

    POLYBENCH_FREE_ARRAY(ex);
    POLYBENCH_FREE_ARRAY(ey);
    POLYBENCH_FREE_ARRAY(hz);
    POLYBENCH_FREE_ARRAY(_fict_);
    return 0;
}
