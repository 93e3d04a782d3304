/* Scratch space a kernel makes for itself: a variable-length array and a buffer malloc'ed (and
 * freed) in every pass; both are DRAM arrays. */
#include <stdlib.h>

void smooth_passes(int n, int passes, const double *restrict a, double *restrict b)
{
  double tmp[n];
  for (int i = 0; i < n; i++)
    tmp[i] = 2.0 * a[i];
  for (int p = 0; p < passes; p++) {
    double *acc = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
      acc[i] = tmp[i] + 1.0;
    for (int i = 0; i < n; i++)
      b[i] += acc[i];
    free(acc);
  }
}
