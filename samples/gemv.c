/* gemv.c -- double-precision matrix-vector product y = A * x for an
 * m-by-n row-major matrix stored as a flat array (linearised indexing
 * A[i*n + j]).  The dot product of each row is kept in a local
 * accumulator and y[i] is stored once per row.
 *
 * Derivation (outer loop i = 0 .. m-1, inner loop j = 0 .. n-1:
 * m*n inner trips, m executions of the j loop):
 *   W: per inner trip one double multiply (A*x) and one double add (+=)
 *      -> 2 fp64.  W = 2*m*n.
 *   Q (compulsory), element size 8 bytes:
 *      A: i*n + j takes every value 0 .. m*n-1 exactly once, so m*n
 *         distinct elements, only read                       -> 8mn
 *      x: x[0..n-1], n distinct elements, only read          -> 8n
 *      y: y[0..m-1], m distinct elements, only written       -> 8m
 *      s is a local scalar -> 0.
 *      Q = 8*m*n + 8*m + 8*n.
 *   Q_access: A[i*n + j] and x[j] vary with j -> each loaded on all m*n
 *      inner trips -> 2 * 8mn = 16mn.  The store y[i] = s is in the i loop
 *      and varies with i -> m stores -> 8m.
 *      Q_access = 16*m*n + 8*m.
 *   I = W / Q = 2mn / (8mn + 8m + 8n) = m*n / (4*(m*n + m + n)).
 *
 * staticroof:expect gemv
 *   W        = 2*m*n
 *   Q        = 8*m*n + 8*m + 8*n
 *   Q_access = 16*m*n + 8*m
 *   I        = m*n/(4*(m*n + m + n))
 *   fp64     = 2*m*n
 */

void gemv(int m, int n, const double *restrict A, const double *restrict x,
          double *restrict y)
{
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * x[j];
        y[i] = s;
    }
}
