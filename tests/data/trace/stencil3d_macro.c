/* A 7-point stencil on a grid stored with fixed strides NX, NY (allocated once for the largest
 * problem), run over an nz x ny x nx box given at run time. */
#define NX 64
#define NY 32
#define IDX(k, j, i) (((k) * NY + (j)) * NX + (i))

void stencil3d(int nz, int ny, int nx, const double *restrict a, double *restrict b)
{
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        b[IDX(k, j, i)] = 0.5 * a[IDX(k, j, i)]
            + 0.1 * (a[IDX(k, j, i - 1)] + a[IDX(k, j, i + 1)]
                   + a[IDX(k, j - 1, i)] + a[IDX(k, j + 1, i)]
                   + a[IDX(k - 1, j, i)] + a[IDX(k + 1, j, i)]);
}
