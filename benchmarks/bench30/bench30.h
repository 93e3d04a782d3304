/* bench30.h -- what the kernels of this folder share, the way a benchmark suite's harness header
 * does: a wall-clock timer, allocation that exits on failure, a row-major index macro, the default
 * problem sizes (override with -D at compile time, or bind them with `staticroof analyze -D`). */
#ifndef BENCH30_H
#define BENCH30_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
# define N 1000
#endif
#ifndef M
# define M 800
#endif
#ifndef TSTEPS
# define TSTEPS 20
#endif

#define IDX2(i, j, ld) ((i) * (ld) + (j))
#define SQR(x) ((x) * (x))

typedef double real_t;

struct bench_timer {
    struct timespec start, stop;
    const char *name;
};

static inline void timer_start(struct bench_timer *t, const char *name)
{
    t->name = name;
    clock_gettime(CLOCK_MONOTONIC, &t->start);
}

static inline double timer_stop(struct bench_timer *t)
{
    clock_gettime(CLOCK_MONOTONIC, &t->stop);
    double s = (double) (t->stop.tv_sec - t->start.tv_sec) + 1e-9 * (double) (t->stop.tv_nsec - t->start.tv_nsec);
    fprintf(stderr, "%s: %.6f s\n", t->name, s);
    return s;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

#endif
