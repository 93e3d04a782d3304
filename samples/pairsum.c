/* pairsum.c -- sum of x[i] + y[j] over all n*n pairs (i, j), accumulated
 * in a local float.  Shows the gap between compulsory traffic (each
 * element once) and access traffic (y re-read for every i).
 *
 * Derivation (outer loop i = 0 .. n-1, inner loop j = 0 .. n-1:
 * n * n = n^2 inner trips):
 *   W: per inner trip, x[i] + y[j] is one float add and s += ... is a
 *      second float add -> 2 fp32 per trip.  W = 2 * n^2 = 2*n**2.
 *      (s = 0 is an initialisation, no arithmetic.)
 *   Q (compulsory), element size 4 bytes:
 *      x: n distinct elements (x[0..n-1]), only read -> 4n
 *      y: n distinct elements (y[0..n-1]), only read -> 4n
 *      s is a local scalar -> 0.
 *      Q = 8*n.
 *   Q_access: x[i] is invariant in the j loop (its innermost enclosing
 *      loop), so it is loaded once per execution of the j loop: n
 *      executions -> n loads -> 4n bytes.  y[j] varies with j: one load
 *      per inner trip -> n^2 loads -> 4n^2 bytes.
 *      Q_access = 4*n**2 + 4*n.
 *   I = W / Q = 2n^2 / 8n = n/4.
 *
 * staticroof:expect pairsum
 *   W        = 2*n**2
 *   Q        = 8*n
 *   Q_access = 4*n**2 + 4*n
 *   I        = n/4
 *   fp32     = 2*n**2
 */

float pairsum(int n, const float *x, const float *y)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += x[i] + y[j];
    return s;
}
