/* dnrm2.c -- Euclidean norm, sqrt(sum x[i]^2) with the SQR macro of bench30.h.
 *
 * Derivation (double; n trips):
 *   W: SQR(x[i]) is one multiply, += one add -> 2n; then one sqrt (special, weight 1) -> 2n + 1.
 *   Q: x read n (both operands of the square are the same reference) -> 8n.
 *
 * staticroof:expect dnrm2
 *   W    = 2*n + 1
 *   Q    = 8*n
 */
#include <math.h>
#include "bench30.h"

double dnrm2(int n, const real_t *x)
{
    real_t s = 0;
    for (int i = 0; i < n; i++)
        s += SQR(x[i]);
    return sqrt(s);
}
