/* A benchmark-suite style header (written for staticroof's tests, in the manner of PolyBench):
 * macros that expand to array declarations and parameters. */
#ifndef BENCH_LITE_H
#define BENCH_LITE_H
#include <stdlib.h>
#define BENCH_2D(var, d1, d2, ddim1, ddim2) var[d1][d2]
#define BENCH_1D(var, d1, ddim1) var[d1]
#define BENCH_2D_ARRAY_DECL(var, type, d1, d2, ddim1, ddim2) \
    type (*var)[d2] = (type (*)[d2]) malloc((size_t)(d1) * (d2) * sizeof(type))
#define BENCH_ARRAY(x) x
#define BENCH_FREE(x) free((void *)(x))
#endif
