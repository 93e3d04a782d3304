/* A BLAS-style interface: `flags` is reserved and never read. */
void dscal(int n, int flags, double alpha, double *x)
{
  for (int i = 0; i < n; i++)
    x[i] = alpha * x[i];
}
