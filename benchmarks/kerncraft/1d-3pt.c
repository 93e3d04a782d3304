/* 1d-3pt.c -- three-point second difference, b = c * (a[i-1] - 2a[i] + a[i+1]).
 * W = 4(n-2) (fp64); Q = 8n (a read whole) + 8(n-2) (b written). */
void stencil_1d_3pt(int n, double c, const double *restrict a, double *restrict b)
{
    for (int i = 1; i < n - 1; ++i)
        b[i] = c * (a[i - 1] - 2.0 * a[i] + a[i + 1]);
}
