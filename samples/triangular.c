/* triangular.c -- two kernels that walk only the lower triangle
 * (j <= i) of an n-by-n single-precision matrix.
 *
 * Both have the same iteration space: for i = 0 .. n-1 the inner loop
 * j = 0 .. i runs i+1 times, so the inner body runs
 *   T = 1 + 2 + ... + n = n(n+1)/2 times,
 * and the inner loop itself is executed n times (once per i).
 *
 * trmv_lower: y = L * x for lower-triangular L, dot product kept in a
 * local accumulator s, y[i] stored once per row.
 *   W: per inner trip one float multiply and one float add (+=) -> 2 fp32.
 *      W = 2T = n*(n+1).
 *   Q (compulsory), element size 4 bytes:
 *      L: the T elements L[i][j] with j <= i, only read  -> 4T = 2n(n+1)
 *      x: x[0..n-1] (x[j] for j <= n-1), only read       -> 4n
 *      y: y[0..n-1], only written                        -> 4n
 *      Q = 2n(n+1) + 8n = 2*n**2 + 10*n.
 *   Q_access: L[i][j] and x[j] vary with j -> 2 loads per inner trip ->
 *      2 * 4T = 4n(n+1).  y[i] = s is in the i loop and varies with i ->
 *      n stores -> 4n.  Q_access = 4n^2 + 4n + 4n = 4*n**2 + 8*n.
 *   I = W / Q = n(n+1) / (2n(n+5)) = (n+1)/(2*(n+5)).
 *
 * syr_lower: symmetric rank-1 update of the lower triangle,
 * A[i][j] += alpha*x[i]*x[j] for j <= i.
 *   W: per inner trip alpha*x[i] (1 multiply), (...)*x[j] (1 multiply) and
 *      the += (1 add), all float -> 3 fp32.  W = 3T = 3*n*(n+1)/2.
 *   Q (compulsory), element size 4 bytes:
 *      A: T distinct elements; each is first read (the += reads A[i][j]
 *         before storing it) -> 4T, and each is written -> 4T.
 *         Together 8T = 4n(n+1).
 *      x: x[i] and x[j] together touch x[0..n-1]: n distinct elements,
 *         only read -> 4n.
 *      alpha: scalar by value -> 0.
 *      Q = 4n(n+1) + 4n = 4*n**2 + 8*n.
 *   Q_access: A[i][j] varies with j: one load and one store per inner
 *      trip -> 2 * 4T.  x[j] varies with j: one load per trip -> 4T.
 *      x[i] is invariant in the j loop: one load per execution of the j
 *      loop -> n loads -> 4n.
 *      Q_access = 12T + 4n = 6n(n+1) + 4n = 6*n**2 + 10*n.
 *   I = W / Q = (3n(n+1)/2) / (4n(n+2)) = 3*(n+1)/(8*(n+2)).
 *
 * staticroof:expect trmv_lower
 *   W        = n*(n+1)
 *   Q        = 2*n**2 + 10*n
 *   Q_access = 4*n**2 + 8*n
 *   I        = (n+1)/(2*(n+5))
 *   fp32     = n*(n+1)
 *
 * staticroof:expect syr_lower
 *   W        = 3*n*(n+1)/2
 *   Q        = 4*n**2 + 8*n
 *   Q_access = 6*n**2 + 10*n
 *   I        = 3*(n+1)/(8*(n+2))
 *   fp32     = 3*n*(n+1)/2
 */

void trmv_lower(int n, const float L[n][n], const float *restrict x,
                float *restrict y)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = 0; j <= i; j++)
            s += L[i][j] * x[j];
        y[i] = s;
    }
}

void syr_lower(int n, float alpha, const float *restrict x, float A[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            A[i][j] += alpha * x[i] * x[j];
}
