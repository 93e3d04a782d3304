/* haxpy.c -- half-precision "a times x plus y" on _Float16 data:
 * y[i] = a*x[i] + y[i].
 *
 * Derivation (n trips of the i loop, i = 0 .. n-1):
 *   W: a*x[i] is _Float16 * _Float16 and the sum is _Float16 + _Float16,
 *      so both operations are fp16: W = 2 * n = 2*n, all fp16.
 *   Q (compulsory), element size 2 bytes:
 *      x: n distinct elements, read first        -> 2n
 *      y: n distinct elements, read first        -> 2n
 *         and the same n elements written        -> 2n
 *      a: scalar by value                        -> 0
 *      Q = 2n + 2n + 2n = 6*n.
 *   Q_access: per trip load x[i], load y[i], store y[i]:
 *      Q_access = 3 * 2 * n = 6*n.
 *   I = W / Q = 2n / 6n = 1/3.
 *
 * staticroof:expect haxpy
 *   W        = 2*n
 *   Q        = 6*n
 *   Q_access = 6*n
 *   I        = 1/3
 *   fp16     = 2*n
 */

void haxpy(int n, _Float16 a, const _Float16 *restrict x, _Float16 *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
