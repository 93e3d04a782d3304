/* loops_suite.c -- a vectorization loop benchmark in the classic style: global arrays of a
 * fixed length, every loop function takes a struct args_t, times itself with gettimeofday
 * through that struct, repeats its loop `iterations` times (a dummy() call between repetitions
 * keeps the compiler from hoisting the loop), and main times each function through a pointer.
 *
 * Sizes: LEN_1D = 32000, LEN_2D = 256, iterations = 1000 (all #defines).  Below, L = LEN_1D,
 * M = LEN_2D, T = iterations.  real_t is float: every element is 4 bytes, every operation fp32
 * (an int literal such as `+ 1` converts to float: still fp32).  dummy() is defined in this file
 * and does nothing, so it adds no work; gettimeofday(&func_args->t1, NULL) touches a timer member
 * outside every loop: no traffic, no FLOPs.
 *
 * Derivations (W fp32; Q compulsory: each element's first access, 4 B):
 *
 * s000: nl < 2T; i < L: a[i] = b[i] + 1.  One add per (nl, i): W = 2*T*L.
 *   b: L elements read; a: L elements written (never read).  Q = 8*L.
 * s111: nl < 2T; i = 1, 3, ..., < L: a[i] = a[i-1] + b[i].  Trips of i: floor(L/2).
 *   W = 2*T*floor(L/2).  a[i-1] reads the even elements 0..L-2 (floor(L/2), never written),
 *   a[i] writes the odd ones (floor(L/2)), b[i] reads floor(L/2): Q = 12*floor(L/2).
 * s1112: nl < 3T; i = L-1 down to 0: a[i] = b[i] + (real_t)1.  The cast of a constant is
 *   folded: W = 3*T*L.  Q = 8*L (b read, a written).
 * s112: nl < 3T; i = L-2 down to 0: a[i+1] = a[i] + b[i].  L-1 trips: W = 3*T*(L-1).
 *   Going down, a[k] (k <= L-2) is read at i = k before it is written at i = k-1: L-1 reads
 *   (a[0..L-2]); writes a[1..L-1]: L-1; b: L-1 reads.  Q = 12*(L-1) = 12*L - 12.
 * s121: nl < 3T; i < L-1: j = i + 1; a[i] = a[j] + b[i].  W = 3*T*(L-1).  a[i+1] is read
 *   before the write at i+1: reads a[1..L-1] (L-1), writes a[0..L-2] (L-1), b reads L-1.
 *   Q = 12*L - 12.
 * s1221: nl < T; i = 4 .. L-1: b[i] = b[i-4] + a[i].  W = T*(L-4).  b[i-4] reads b[0..L-5]; of
 *   those only b[0..3] are read before being written (b[k], k >= 4, is written at i = k, four
 *   trips before its read at i = k+4): 4 reads; writes b[4..L-1]: L-4; a reads L-4.
 *   Q = 4*(4 + 2*(L-4)) = 8*L - 16.
 * s127: nl < 2T; i < L/2 (constant division: floor(L/2) trips): j++ twice, two statements with
 *   an add and a multiply each: W = 2*T*floor(L/2)*4 = 8*T*floor(L/2).  j is an induction variable
 *   stepped twice per trip: a[j] is a[2i] and a[2i + 1], 2*floor(L/2) distinct elements written;
 *   b, c, d, e read floor(L/2) each: Q = 8*floor(L/2) + 16*floor(L/2) = 24*floor(L/2).
 * s1115: nl < T; i, j < M: aa[i][j] = aa[i][j]*cc[j][i] + bb[i][j].  W = 2*T*M**2.
 *   aa read and written (M^2 each), cc and bb read (M^2 each): Q = 16*M**2.
 * s2275: nl < T; i < M: { j < M: aa[j][i] = aa[j][i] + bb[j][i]*cc[j][i]; a[i] = b[i] + c[i]*d[i]; }
 *   W = T*(2*M**2 + 2*M).  aa r+w 8M^2, bb, cc 8M^2; a written M, b, c, d read 3M (only the first
 *   M of their L elements): Q = 16*M**2 + 16*M.
 * s311: nl < 10T; sum = 0; i < L: sum += a[i]; dummy(..., sum).  W = 10*T*L.  a read: Q = 4*L.
 * s319: nl < 2T; sum = 0; i < L: a[i] = c[i] + d[i]; sum += a[i]; b[i] = c[i] + e[i]; sum += b[i].
 *   4 adds per i: W = 8*T*L.  a, b written before they are read (2L writes), c, d, e read (3L):
 *   Q = 20*L.
 * s4112: nl < T; i < L: a[i] += b[ip[i]] * s (ip and s come through func_args->arg_info).
 *   2 FLOPs per i: W = 2*T*L.  b[ip[i]] is data-dependent: APPROXIMATE (SR101).
 * vpvtv: nl < 4T; i < L: a[i] += b[i] * c[i].  W = 8*T*L.  a r+w 8L, b, c 8L: Q = 16*L.
 * s351: nl < 8T; alpha = c[0]; i = 0, 5, ..., < L (ceiling(L/5) trips): five statements
 *   a[i+k] += alpha*b[i+k], k = 0..4: 10 FLOPs per trip.  W = 80*T*ceiling(L/5).
 *   c[0]: one element read (4 B); a[i+k] covers 0 .. 5*ceiling(L/5)-1: 5*ceiling(L/5) elements
 *   read and written, b the same read: Q = 4 + 60*ceiling(L/5).
 * s1251: nl < 4T; i < L: s = b[i]+c[i]; b[i] = a[i]+d[i]; a[i] = s*e[i].  3 FLOPs: W = 12*T*L.
 *   b read then written (8L), a read then written (8L), c, d, e read (12L): Q = 28*L.
 *
 * staticroof:expect s000
 *   W    = 2*iterations*LEN_1D
 *   Q    = 8*LEN_1D
 *   fp32 = 2*iterations*LEN_1D
 *
 * staticroof:expect s111
 *   W    = 2*iterations*floor(LEN_1D/2)
 *   Q    = 12*floor(LEN_1D/2)
 *   fp32 = 2*iterations*floor(LEN_1D/2)
 *
 * staticroof:expect s1112
 *   W    = 3*iterations*LEN_1D
 *   Q    = 8*LEN_1D
 *   fp32 = 3*iterations*LEN_1D
 *
 * staticroof:expect s112
 *   W    = 3*iterations*(LEN_1D - 1)
 *   Q    = 12*LEN_1D - 12
 *   fp32 = 3*iterations*(LEN_1D - 1)
 *
 * staticroof:expect s121
 *   W    = 3*iterations*(LEN_1D - 1)
 *   Q    = 12*LEN_1D - 12
 *   fp32 = 3*iterations*(LEN_1D - 1)
 *
 * staticroof:expect s1221
 *   W    = iterations*(LEN_1D - 4)
 *   Q    = 8*LEN_1D - 16
 *   fp32 = iterations*(LEN_1D - 4)
 *
 * staticroof:expect s127
 *   W     = 8*iterations*floor(LEN_1D/2)
 *   Q     = 24*floor(LEN_1D/2)
 *   fp32  = 8*iterations*floor(LEN_1D/2)
 *
 * staticroof:expect s1115
 *   W    = 2*iterations*LEN_2D**2
 *   Q    = 16*LEN_2D**2
 *   fp32 = 2*iterations*LEN_2D**2
 *
 * staticroof:expect s2275
 *   W    = iterations*(2*LEN_2D**2 + 2*LEN_2D)
 *   Q    = 16*LEN_2D**2 + 16*LEN_2D
 *   fp32 = iterations*(2*LEN_2D**2 + 2*LEN_2D)
 *
 * staticroof:expect s311
 *   W    = 10*iterations*LEN_1D
 *   Q    = 4*LEN_1D
 *   fp32 = 10*iterations*LEN_1D
 *
 * staticroof:expect s319
 *   W    = 8*iterations*LEN_1D
 *   Q    = 20*LEN_1D
 *   fp32 = 8*iterations*LEN_1D
 *
 * staticroof:expect s4112
 *   W     = 2*iterations*LEN_1D
 *   fp32  = 2*iterations*LEN_1D
 *   exact = false
 *
 * staticroof:expect vpvtv
 *   W    = 8*iterations*LEN_1D
 *   Q    = 16*LEN_1D
 *   fp32 = 8*iterations*LEN_1D
 *
 * staticroof:expect s351
 *   W    = 80*iterations*ceiling(LEN_1D/5)
 *   Q    = 4 + 60*ceiling(LEN_1D/5)
 *   fp32 = 80*iterations*ceiling(LEN_1D/5)
 *
 * staticroof:expect s1251
 *   W    = 12*iterations*LEN_1D
 *   Q    = 28*LEN_1D
 *   fp32 = 12*iterations*LEN_1D
 */

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>

#define LEN_1D 32000
#define LEN_2D 256
#define iterations 1000

typedef float real_t;

struct args_t {
    struct timeval t1;
    struct timeval t2;
    void *arg_info;
};

__attribute__((aligned(64))) real_t a[LEN_1D], b[LEN_1D], c[LEN_1D], d[LEN_1D], e[LEN_1D];
__attribute__((aligned(64))) real_t aa[LEN_2D][LEN_2D], bb[LEN_2D][LEN_2D], cc[LEN_2D][LEN_2D];
int indx[LEN_1D];

int dummy(real_t a[LEN_1D], real_t b[LEN_1D], real_t c[LEN_1D], real_t d[LEN_1D], real_t e[LEN_1D],
          real_t aa[LEN_2D][LEN_2D], real_t bb[LEN_2D][LEN_2D], real_t cc[LEN_2D][LEN_2D], real_t s)
{
    /* lives in its own translation unit in the real suite, so the compiler cannot see it */
    return 0;
}

real_t s000(struct args_t *func_args)
{
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < 2 * iterations; nl++) {
        for (int i = 0; i < LEN_1D; i++) {
            a[i] = b[i] + 1;
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s111(struct args_t *func_args)
{
    /* linear dependence testing: no dependence, vectorizable */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < 2 * iterations; nl++) {
        for (int i = 1; i < LEN_1D; i += 2) {
            a[i] = a[i - 1] + b[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s1112(struct args_t *func_args)
{
    /* loop reversal */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < iterations * 3; nl++) {
        for (int i = LEN_1D - 1; i >= 0; i--) {
            a[i] = b[i] + (real_t) 1.;
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s112(struct args_t *func_args)
{
    /* loop reversal with a carried dependence */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < 3 * iterations; nl++) {
        for (int i = LEN_1D - 2; i >= 0; i--) {
            a[i + 1] = a[i] + b[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s121(struct args_t *func_args)
{
    /* induction variable recognition: j is a linear function of i */
    gettimeofday(&func_args->t1, NULL);

    int j;
    for (int nl = 0; nl < 3 * iterations; nl++) {
        for (int i = 0; i < LEN_1D - 1; i++) {
            j = i + 1;
            a[i] = a[j] + b[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s1221(struct args_t *func_args)
{
    /* run-time symbolic resolution: a distance-4 recurrence */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < iterations; nl++) {
        for (int i = 4; i < LEN_1D; i++) {
            b[i] = b[i - 4] + a[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s127(struct args_t *func_args)
{
    /* induction variable with multiple increments */
    gettimeofday(&func_args->t1, NULL);

    int j;
    for (int nl = 0; nl < 2 * iterations; nl++) {
        j = -1;
        for (int i = 0; i < LEN_1D / 2; i++) {
            j++;
            a[j] = b[i] + c[i] * d[i];
            j++;
            a[j] = b[i] + d[i] * e[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s1115(struct args_t *func_args)
{
    /* loop interchange: the transposed cc walks down columns */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < iterations; nl++) {
        for (int i = 0; i < LEN_2D; i++) {
            for (int j = 0; j < LEN_2D; j++) {
                aa[i][j] = aa[i][j] * cc[j][i] + bb[i][j];
            }
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s2275(struct args_t *func_args)
{
    /* loop distribution is needed before interchange */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < iterations; nl++) {
        for (int i = 0; i < LEN_2D; i++) {
            for (int j = 0; j < LEN_2D; j++) {
                aa[j][i] = aa[j][i] + bb[j][i] * cc[j][i];
            }
            a[i] = b[i] + c[i] * d[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s311(struct args_t *func_args)
{
    /* sum reduction */
    gettimeofday(&func_args->t1, NULL);

    real_t sum;
    for (int nl = 0; nl < iterations * 10; nl++) {
        sum = (real_t) 0.;
        for (int i = 0; i < LEN_1D; i++) {
            sum += a[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, sum);
    }

    gettimeofday(&func_args->t2, NULL);
    return sum;
}

real_t s319(struct args_t *func_args)
{
    /* coupled reductions */
    gettimeofday(&func_args->t1, NULL);

    real_t sum;
    for (int nl = 0; nl < 2 * iterations; nl++) {
        sum = 0.;
        for (int i = 0; i < LEN_1D; i++) {
            a[i] = c[i] + d[i];
            sum += a[i];
            b[i] = c[i] + e[i];
            sum += b[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, sum);
    }

    gettimeofday(&func_args->t2, NULL);
    return sum;
}

real_t s4112(struct args_t *func_args)
{
    /* indirect addressing: a gather through an index array passed in arg_info */
    struct {
        int * __restrict__ a;
        real_t b;
    } *x = func_args->arg_info;
    int * __restrict__ ip = x->a;
    real_t s = x->b;

    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < iterations; nl++) {
        for (int i = 0; i < LEN_1D; i++) {
            a[i] += b[ip[i]] * s;
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t vpvtv(struct args_t *func_args)
{
    /* vector plus vector times vector */
    gettimeofday(&func_args->t1, NULL);

    for (int nl = 0; nl < iterations * 4; nl++) {
        for (int i = 0; i < LEN_1D; i++) {
            a[i] += b[i] * c[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s351(struct args_t *func_args)
{
    /* loop rerolling: a saxpy unrolled by hand */
    gettimeofday(&func_args->t1, NULL);

    real_t alpha;
    for (int nl = 0; nl < 8 * iterations; nl++) {
        alpha = c[0];
        for (int i = 0; i < LEN_1D; i += 5) {
            a[i] += alpha * b[i];
            a[i + 1] += alpha * b[i + 1];
            a[i + 2] += alpha * b[i + 2];
            a[i + 3] += alpha * b[i + 3];
            a[i + 4] += alpha * b[i + 4];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

real_t s1251(struct args_t *func_args)
{
    /* scalar expansion */
    gettimeofday(&func_args->t1, NULL);

    real_t s;
    for (int nl = 0; nl < 4 * iterations; nl++) {
        for (int i = 0; i < LEN_1D; i++) {
            s = b[i] + c[i];
            b[i] = a[i] + d[i];
            a[i] = s * e[i];
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }

    gettimeofday(&func_args->t2, NULL);
    return 0;
}

typedef real_t (*test_function_t)(struct args_t *);

void time_function(test_function_t vector_func, void *arg_info)
{
    struct args_t func_args = {.arg_info = arg_info};

    double result = vector_func(&func_args);

    double tic = func_args.t1.tv_sec + (func_args.t1.tv_usec / 1000000.0);
    double toc = func_args.t2.tv_sec + (func_args.t2.tv_usec / 1000000.0);
    double taken = toc - tic;

    printf("%10.3f\t%f\n", taken, result);
}

int main(int argc, char **argv)
{
    real_t s1 = 1.0f;
    for (int i = 0; i < LEN_1D; i++)
        indx[i] = (i * 7) % LEN_1D;
    struct {
        int *a;
        real_t b;
    } gather_args = {indx, s1};

    printf("Loop \tTime(sec) \tChecksum\n");
    time_function(&s000, NULL);
    time_function(&s111, NULL);
    time_function(&s1112, NULL);
    time_function(&s112, NULL);
    time_function(&s121, NULL);
    time_function(&s1221, NULL);
    time_function(&s127, NULL);
    time_function(&s1115, NULL);
    time_function(&s2275, NULL);
    time_function(&s311, NULL);
    time_function(&s319, NULL);
    time_function(&s4112, &gather_args);
    time_function(&vpvtv, NULL);
    time_function(&s351, NULL);
    time_function(&s1251, NULL);
    return EXIT_SUCCESS;
}
