/* vmul.c -- element-wise product of two float vectors: z[i] = x[i]*y[i].
 *
 * Derivation (n trips of the i loop, i = 0 .. n-1):
 *   W: one float multiply per trip -> W = n, fp32.
 *   Q (compulsory), element size 4 bytes:
 *      x: n distinct elements, read              -> 4n
 *      y: n distinct elements, read              -> 4n
 *      z: n distinct elements, written only      -> 4n
 *      Q = 12*n.
 *   Q_access: per trip load x[i], load y[i], store z[i]:
 *      Q_access = 3 * 4 * n = 12*n.
 *   I = W / Q = n / 12n = 1/12.
 *
 * staticroof:expect vmul
 *   W        = n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   I        = 1/12
 *   fp32     = n
 */

void vmul(int n, const float *restrict x, const float *restrict y,
          float *restrict z)
{
    for (int i = 0; i < n; i++)
        z[i] = x[i] * y[i];
}
