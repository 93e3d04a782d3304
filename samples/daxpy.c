/* daxpy.c -- double-precision "a times x plus y": y[i] = a*x[i] + y[i].
 *
 * Derivation (n trips of the i loop, i = 0 .. n-1):
 *   W: one double multiply and one double add per trip -> fp64.
 *      W = 2 * n = 2*n, all fp64.
 *   Q (compulsory), element size 8 bytes:
 *      x: n distinct elements, read first        -> 8n
 *      y: n distinct elements, read first        -> 8n
 *         and the same n elements written        -> 8n
 *      a: scalar by value                        -> 0
 *      Q = 8n + 8n + 8n = 24*n.
 *   Q_access: per trip load x[i], load y[i], store y[i] (all vary with i):
 *      Q_access = 3 * 8 * n = 24*n.
 *   I = W / Q = 2n / 24n = 1/12.
 *
 * staticroof:expect daxpy
 *   W        = 2*n
 *   Q        = 24*n
 *   Q_access = 24*n
 *   I        = 1/12
 *   fp64     = 2*n
 */

void daxpy(int n, double a, const double *restrict x, double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
