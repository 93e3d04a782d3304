/* strided_down.c -- loops that do not simply count up by one.
 *
 * scale_even: doubles every element of x, walking from the end down
 * (i = n-1, n-2, ..., 0: n trips).
 *   W: x[i] *= 2.0 is one multiply; 2.0 is a double literal and x is
 *      double -> fp64.  W = n.
 *   Q (compulsory), element size 8 bytes: x has n distinct elements, each
 *      read first (the compound assignment reads x[i] before storing it)
 *      -> 8n, and each written -> 8n.  Q = 16*n.
 *   Q_access: one load and one store of x[i] per trip -> 16*n.
 *   I = W / Q = n / 16n = 1/16.
 *
 * every_third: y[i] = x[i] + 1 for i = 0, 3, 6, ... while i < n.
 *   Trip count: the values 0, 3, ..., 3(T-1) < n, so T = ceil(n/3)
 *   (= floor((n+2)/3)); e.g. n = 7 -> i = 0, 3, 6 -> 3 trips.
 *   W: one add of float x[i] and the float literal 1.0f per trip -> fp32.
 *      W = ceiling(n/3).
 *   Q (compulsory), element size 4 bytes: x: T distinct elements read
 *      -> 4T; y: T distinct elements written -> 4T.  Q = 8*ceiling(n/3).
 *   Q_access: one load of x[i] and one store of y[i] per trip -> 8T.
 *   I = W / Q = T / 8T = 1/8.
 *
 * staticroof:expect scale_even
 *   W        = n
 *   Q        = 16*n
 *   Q_access = 16*n
 *   I        = 1/16
 *   fp64     = n
 *
 * staticroof:expect every_third
 *   W        = ceiling(n/3)
 *   Q        = 8*ceiling(n/3)
 *   Q_access = 8*ceiling(n/3)
 *   I        = 1/8
 *   fp32     = ceiling(n/3)
 */

void scale_even(int n, double *x)
{
    for (int i = n - 1; i >= 0; i--)
        x[i] *= 2.0;
}

void every_third(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i += 3)
        y[i] = x[i] + 1.0f;
}
