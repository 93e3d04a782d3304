/* l2norm.c -- normalise a float vector by its Euclidean norm,
 * y = x / ||x||_2, written two ways.
 *
 * l2norm_separate goes through a temporary array sq in three passes:
 *   pass 1: sq[i] = x[i]*x[i]        (n trips)
 *   pass 2: s += sq[i]               (n trips)
 *   r = sqrtf(s)                     (once)
 *   pass 3: y[i] = x[i] / r          (n trips)
 *   W: pass 1 one float multiply per trip (n), pass 2 one float add per
 *      trip (n), pass 3 one float divide per trip (n), plus 1 special for
 *      sqrtf (fp32).  W = n + n + n + 1 = 3*n + 1; fp32 = 3*n + 1 (the
 *      sqrtf special is counted in fp32 as well); special = 1.
 *   Q (compulsory), element size 4 bytes:
 *      x: n distinct elements; read in pass 1 and again in pass 3, but
 *         only the first read of each element counts -> 4n.
 *      sq: n distinct elements, first written in pass 1 and only later
 *         read in pass 2, so it is a temporary: only its write counts
 *         -> 4n.
 *      y: n distinct elements, written -> 4n.
 *      s, r: local scalars -> 0.
 *      Q = 12*n.
 *   Q_access: pass 1 loads x[i] once per trip (x[i]*x[i] is the same
 *      reference twice in one statement -> one load) and stores sq[i]
 *      -> 2n; pass 2 loads sq[i] -> n; pass 3 loads x[i] and stores y[i]
 *      -> 2n.  5n accesses * 4 bytes: Q_access = 20*n.
 *   I = W / Q = (3*n + 1)/(12*n).
 *
 * l2norm_fused accumulates the squares directly:
 *   pass 1: s += x[i]*x[i]           (n trips)
 *   r = sqrtf(s)                     (once)
 *   pass 2: y[i] = x[i] / r          (n trips)
 *   W: pass 1 one multiply + one add per trip (2n), pass 2 one divide per
 *      trip (n), plus 1 special for sqrtf.  W = 3*n + 1 (fp32 = 3*n + 1,
 *      special = 1) -- the same work as the separate version.
 *   Q (compulsory): x: n distinct elements, first read counts once -> 4n;
 *      y: n written -> 4n.  Q = 8*n.
 *   Q_access: pass 1 one load of x[i] per trip (x[i]*x[i] -> one load)
 *      -> n; pass 2 one load of x[i] + one store of y[i] -> 2n.
 *      3n accesses * 4 bytes: Q_access = 12*n.
 *   I = W / Q = (3*n + 1)/(8*n).
 *
 * Fusion keeps W and removes the 4n bytes of sq traffic, so
 *   I_fused / I_separate = (12n) / (8n) = 3/2 > 1, i.e. I_fused > I_separate
 *   for every n >= 1.
 *
 * staticroof:expect l2norm_separate
 *   W        = 3*n + 1
 *   Q        = 12*n
 *   Q_access = 20*n
 *   I        = (3*n + 1)/(12*n)
 *   fp32     = 3*n + 1
 *   special  = 1
 *
 * staticroof:expect l2norm_fused
 *   W        = 3*n + 1
 *   Q        = 8*n
 *   Q_access = 12*n
 *   I        = (3*n + 1)/(8*n)
 *   fp32     = 3*n + 1
 *   special  = 1
 */

#include <math.h>

void l2norm_separate(int n, const float *restrict x, float *restrict sq,
                     float *restrict y)
{
    for (int i = 0; i < n; i++)
        sq[i] = x[i] * x[i];

    float s = 0;
    for (int i = 0; i < n; i++)
        s += sq[i];

    float r = sqrtf(s);

    for (int i = 0; i < n; i++)
        y[i] = x[i] / r;
}

void l2norm_fused(int n, const float *restrict x, float *restrict y)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];

    float r = sqrtf(s);

    for (int i = 0; i < n; i++)
        y[i] = x[i] / r;
}
