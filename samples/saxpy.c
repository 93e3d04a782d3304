/* saxpy.c -- single-precision "a times x plus y": y[i] = a*x[i] + y[i].
 *
 * Derivation (n = number of elements; the loop runs i = 0 .. n-1, n trips):
 *   W: each trip does one float multiply (a*x[i]) and one float add
 *      (+ y[i]); a, x[i], y[i] are all float, so both are fp32.
 *      W = 2 * n = 2*n, all fp32.
 *   Q (compulsory): x: n distinct elements, first access a read -> 4n bytes.
 *      y: n distinct elements, each read first (the right-hand side is
 *      evaluated before the store) -> 4n bytes, and each written -> 4n bytes.
 *      a is a scalar passed by value -> 0.
 *      Q = 4n + 4n + 4n = 12*n.
 *   Q_access: per trip one load of x[i], one load of y[i], one store of
 *      y[i]; none is invariant in the i loop.  Q_access = 3 * 4 * n = 12*n.
 *   I = W / Q = 2n / 12n = 1/6.
 *
 * staticroof:expect saxpy
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   I        = 1/6
 *   fp32     = 2*n
 */

void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
