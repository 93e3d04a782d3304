/* fdtd2d.c -- 2-D finite-difference time domain: ey, ex, hz updated in turn, tmax steps (PolyBench-like).
 *
 * Derivation (double; tmax >= 1, nx, ny >= 2):
 *   W per step: ey rows 1..nx-1: ey - 0.5*(hz - hz) is 3 -> 3(nx-1)ny; ex columns 1..ny-1: 3nx(ny-1);
 *      hz (nx-1)(ny-1) points: hz - 0.7*(ex - ex + ey - ey) is 5.
 *      W = tmax * (3(nx-1)ny + 3nx(ny-1) + 5(nx-1)(ny-1)).
 *   Q: fict read tmax; ey: row 0 first written by the boundary store, rows 1..nx-1 first read ->
 *      read (nx-1)ny, written nx*ny; ex: columns 1..ny-1 read and written (nx(ny-1) each), column 0
 *      only read by the hz update, rows 0..nx-2 -> nx - 1; hz: read whole by the ey update at t = 0,
 *      written (nx-1)(ny-1).  Q = 8 tmax + 48 nx ny - 16 nx - 16 ny.
 *
 * staticroof:expect kernel_fdtd_2d
 *   W    = tmax*(3*(nx - 1)*ny + 3*nx*(ny - 1) + 5*(nx - 1)*(ny - 1))
 *   Q    = 8*tmax + 48*nx*ny - 16*nx - 16*ny
 */
void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[nx][ny], double ey[nx][ny], double hz[nx][ny],
                    double fict[tmax])
{
    for (int t = 0; t < tmax; t++) {
        for (int j = 0; j < ny; j++)
            ey[0][j] = fict[t];
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
        for (int i = 0; i < nx - 1; i++)
            for (int j = 0; j < ny - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
}
