/* stencil1d.c -- three-point box blur of a float signal:
 * b[i] = (a[i-1] + a[i] + a[i+1]) / 3 for the interior points
 * i = 1 .. n-2.  Assumes n >= 3.
 *
 * Derivation (i = 1 .. n-2: n-2 trips):
 *   W: per trip two float adds and one divide by the float literal 3.0f
 *      -> 3 fp32.  W = 3*(n-2).
 *   Q (compulsory), element size 4 bytes:
 *      a: a[i-1] covers a[0..n-3], a[i] covers a[1..n-2], a[i+1] covers
 *         a[2..n-1]; their union is a[0..n-1]: n distinct elements (not
 *         3(n-2) -- neighbouring trips share elements), only read -> 4n.
 *      b: b[1..n-2], n-2 distinct elements, only written -> 4(n-2).
 *      Q = 4n + 4(n-2) = 8n - 8 = 8*(n-1).
 *   Q_access: per trip three loads of a (three different references, all
 *      varying with i) and one store of b -> 4 * 4 = 16 bytes per trip.
 *      Q_access = 16*(n-2).
 *   I = W / Q = 3(n-2) / (8(n-1)) = 3*(n-2)/(8*(n-1)).
 *
 * staticroof:expect blur
 *   W        = 3*(n-2)
 *   Q        = 8*(n-1)
 *   Q_access = 16*(n-2)
 *   I        = 3*(n-2)/(8*(n-1))
 *   fp32     = 3*(n-2)
 */

void blur(int n, const float *restrict a, float *restrict b)
{
    for (int i = 1; i < n - 1; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0f;
}
