/* daxpy.c -- BLAS-1 y = a*x + y with a timed driver.
 *
 * Derivation (double, 8 B; n trips):
 *   W: one multiply and one add per trip -> 2n.
 *   Q: x read n, y read n and written n -> 24n.
 *
 * staticroof:expect daxpy
 *   W    = 2*n
 *   Q    = 24*n
 *   fp64 = 2*n
 */
#include "bench30.h"

void daxpy(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; ++i)
        y[i] += a * x[i];
}

int main(void)
{
    double *x = xmalloc(N * sizeof(double)), *y = xmalloc(N * sizeof(double));
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 / (i + 1);
        y[i] = 2.0;
    }
    struct bench_timer t;
    timer_start(&t, "daxpy");
    daxpy(N, 3.0, x, y);
    timer_stop(&t);
    printf("%f\n", y[N / 2]);
    free(x);
    free(y);
    return 0;
}
