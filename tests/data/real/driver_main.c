/* driver_main.c -- a small BLAS-1 benchmark program: two kernels and a main that parses its
 * options with a switch, dispatches through a table of function pointers, reports through a
 * struct of timers and cleans up with goto.  main does no floating-point work on arrays and
 * cannot be modelled; that must neither hide the kernels nor change the exit status.
 *
 * ddot(n, x, y): s += x[i]*y[i] for i < n: W = 2*n (fp64); Q = 16*n (x and y read).
 * daxpy_scaled(n, alpha, x, y): y[i] = alpha*x[i] + y[i]: W = 2*n; Q = 24*n.
 *
 * staticroof:expect ddot
 *   W    = 2*n
 *   Q    = 16*n
 *   fp64 = 2*n
 *
 * staticroof:expect daxpy_scaled
 *   W    = 2*n
 *   Q    = 24*n
 *   fp64 = 2*n
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench_timer {
    struct timespec start, stop;
    double seconds;
    const char *label;
};

typedef double (*bench_fn)(int, double *, double *);

double ddot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

void daxpy_scaled(int n, double alpha, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = alpha * x[i] + y[i];
}

static double run_dot(int n, double *x, double *y) { return ddot(n, x, y); }
static double run_axpy(int n, double *x, double *y) { daxpy_scaled(n, 0.5, x, y); return y[0]; }

int main(int argc, char **argv)
{
    int n = 1 << 20, which = 0, reps = 10;
    struct bench_timer t = {.label = "blas1"};
    bench_fn table[2] = {run_dot, run_axpy};
    double *x = NULL, *y = NULL, r = 0.0;

    for (int a = 1; a < argc; a++) {
        if (argv[a][0] != '-')
            continue;
        switch (argv[a][1]) {
        case 'n': n = atoi(argv[++a]); break;
        case 'k': which = atoi(argv[++a]) & 1; break;
        case 'r': reps = atoi(argv[++a]); break;
        default: fprintf(stderr, "usage: %s [-n N] [-k 0|1] [-r R]\n", argv[0]); return 2;
        }
    }

    x = malloc(n * sizeof *x);
    y = malloc(n * sizeof *y);
    if (!x || !y)
        goto fail;
    for (int i = 0; i < n; i++) {
        x[i] = 1.0;
        y[i] = 2.0;
    }

    clock_gettime(CLOCK_MONOTONIC, &t.start);
    for (int k = 0; k < reps; k++)
        r += table[which](n, x, y);
    clock_gettime(CLOCK_MONOTONIC, &t.stop);
    t.seconds = (t.stop.tv_sec - t.start.tv_sec) + 1e-9 * (t.stop.tv_nsec - t.start.tv_nsec);
    printf("%s: %d x %d in %.3f s (%g)\n", t.label, reps, n, t.seconds, r);

    free(x);
    free(y);
    return 0;
fail:
    free(x);
    free(y);
    return 1;
}
