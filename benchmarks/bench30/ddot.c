/* ddot.c -- BLAS-1 dot product with a strided interface, called at unit stride.
 *
 * Derivation (double; n trips):
 *   W: s += x[i]*y[i] is a multiply and an add -> 2n.
 *   Q: x and y each read n elements -> 16n.
 *
 * staticroof:expect ddot
 *   W    = 2*n
 *   Q    = 16*n
 *   fp64 = 2*n
 */
#include "bench30.h"

double ddot(int n, const double *restrict x, const double *restrict y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
