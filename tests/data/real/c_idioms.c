/* c_idioms.c -- loop idioms of real C numerical code, as libraries and benchmark drivers spell them:
 * a pointer walked down a column with `p += ld`, the BLAS reference `*x++ * *y++` walk, two indices
 * stepping towards each other (`for (i = 0, j = n - 1; i < j; i++, j--)`), a blocked loop that leaves
 * its last block early (`if (ib*BS + j >= n) break;`), `short`/`unsigned char` loop counters of
 * embedded image code, and OpenMP `parallel for` loops (a reduction, a row-parallel product).  A
 * main times each kernel with clock_gettime and prints a checksum.
 *
 * Sizes are the kernels' parameters (n, m, npix); main binds n = N = 1 << 16, m = M = 300,
 * npix = NPIX = 4096.  double is 8 B, float 4 B, unsigned char 1 B.
 *
 * column_sums(m, n, a, colsum): for each column j < n a pointer starts at a + j and steps p += n
 *   down the m rows, s += *p.  W = m*n (fp64).  The walk visits a[i*n + j] for i < m: every element
 *   of the m x n matrix once: Q = 8*m*n (a) + 8*n (colsum written).  Q_access: one load per step, one
 *   store per column: 8*m*n + 8*n.
 * ddot_walk(n, x, y): s += *x++ * *y++ for i < n: x[i] and y[i] read once each.  W = 2*n (fp64),
 *   Q = 16*n, Q_access = 16*n.
 * reverse_scale(n, a, x): i = 0, j = n-1 step towards each other while i < j: floor(n/2) trips,
 *   each t = x[i]; x[i] = a*x[j]; x[j] = a*t (2 multiplies).  W = 2*floor(n/2) (fp64).  x[i] and x[j]
 *   cover 2*floor(n/2) distinct elements (the middle one of an odd n is never touched), each read
 *   first, then written: Q = 32*floor(n/2).  Q_access: 2 loads and 2 stores per trip: 32*floor(n/2).
 * scale_blocked(n, a, x, y): nblocks = (n + BS - 1)/BS blocks of BS = 64; the inner loop breaks at the
 *   first ib*BS + j >= n, so exactly the n elements 0..n-1 are visited (the last block is cut at n):
 *   y[k] = a*x[k] + y[k].  W = 2*n (fp32), Q = 12*n (x read, y read and written), Q_access = 12*n.
 * rgb8_gain(npix, rgb, gain, out): short pixel index p < npix, unsigned char channel c < NCH = 3:
 *   out[p*3 + c] = gain[c] * rgb[p*3 + c] (the byte converts to float: 1 fp32 multiply).
 *   W = 3*npix.  Q: rgb read 3*npix bytes, out written 3*npix floats (12*npix), gain's 3 floats (12):
 *   Q = 15*npix + 12.  Q_access: gain[c] varies with c, the innermost loop: 3*npix loads of 4 B;
 *   rgb 3*npix loads of 1 B; out 3*npix stores of 4 B: 27*npix.
 * omp_dot(n, x, y): `#pragma omp parallel for reduction(+:s) schedule(static)`: s += x[i]*y[i].
 *   The pragma changes nothing in the counts: W = 2*n, Q = 16*n, Q_access = 16*n.
 * omp_mxv(m, n, a, x, y): row-parallel y = A x (a row-major, m x n): t = 0; j < n: t += a[i*n + j]*x[j];
 *   y[i] = t.  W = 2*m*n (fp64).  Q = 8*m*n (a) + 8*n (x) + 8*m (y).  Q_access: a and x loaded per
 *   (i, j): 16*m*n, y stored per row: 8*m.
 *
 * staticroof:expect column_sums
 *   W        = m*n
 *   Q        = 8*m*n + 8*n
 *   Q_access = 8*m*n + 8*n
 *   fp64     = m*n
 *
 * staticroof:expect ddot_walk
 *   W        = 2*n
 *   Q        = 16*n
 *   Q_access = 16*n
 *   fp64     = 2*n
 *
 * staticroof:expect reverse_scale
 *   W        = 2*floor(n/2)
 *   Q        = 32*floor(n/2)
 *   Q_access = 32*floor(n/2)
 *   fp64     = 2*floor(n/2)
 *
 * staticroof:expect scale_blocked
 *   W        = 2*n
 *   Q        = 12*n
 *   Q_access = 12*n
 *   fp32     = 2*n
 *
 * staticroof:expect rgb8_gain
 *   W        = 3*npix
 *   Q        = 15*npix + 12
 *   Q_access = 27*npix
 *   fp32     = 3*npix
 *
 * staticroof:expect omp_dot
 *   W        = 2*n
 *   Q        = 16*n
 *   Q_access = 16*n
 *   fp64     = 2*n
 *
 * staticroof:expect omp_mxv
 *   W        = 2*m*n
 *   Q        = 8*m*n + 8*n + 8*m
 *   Q_access = 16*m*n + 8*m
 *   fp64     = 2*m*n
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
# include <omp.h>
#endif

#define N (1 << 16)
#define M 300
#define NPIX 4096
#define BS 64   /* block length of scale_blocked */
#define NCH 3   /* interleaved RGB */

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Column sums of a row-major m x n matrix, walking each column with a pointer. */
void column_sums(int m, int n, const double *a, double *colsum)
{
    int i, j;

    for (j = 0; j < n; j++) {
        const double *p = a + j;
        double s = 0.0;
        for (i = 0; i < m; i++) {
            s += *p;
            p += n;
        }
        colsum[j] = s;
    }
}

/* Dot product in the style of the reference BLAS with unit strides. */
double ddot_walk(int n, const double *x, const double *y)
{
    double s = 0.0;
    int i;

    for (i = 0; i < n; i++)
        s += *x++ * *y++;
    return s;
}

/* Reverse x in place and scale it by a. */
void reverse_scale(int n, double a, double *x)
{
    int i, j;

    for (i = 0, j = n - 1; i < j; i++, j--) {
        double t = x[i];
        x[i] = a * x[j];
        x[j] = a * t;
    }
}

/* y := a*x + y in blocks of BS; the last block stops at n. */
void scale_blocked(int n, float a, const float *x, float *y)
{
    const int nblocks = (n + BS - 1) / BS;
    int ib, j;

    for (ib = 0; ib < nblocks; ib++) {
        for (j = 0; j < BS; j++) {
            if (ib * BS + j >= n)
                break;
            y[ib * BS + j] = a * x[ib * BS + j] + y[ib * BS + j];
        }
    }
}

/* Interleaved 8-bit RGB to float with a per-channel gain (white balance). */
void rgb8_gain(short npix, const unsigned char *rgb, const float *gain, float *out)
{
    short p;
    unsigned char c;

    for (p = 0; p < npix; p++)
        for (c = 0; c < NCH; c++)
            out[p * NCH + c] = gain[c] * rgb[p * NCH + c];
}

double omp_dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    int i;

#pragma omp parallel for reduction(+:s) schedule(static)
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

void omp_mxv(int m, int n, const double *a, const double *x, double *y)
{
    int i, j;

#pragma omp parallel for private(j) schedule(static)
    for (i = 0; i < m; i++) {
        double t = 0.0;
        for (j = 0; j < n; j++)
            t += a[i * n + j] * x[j];
        y[i] = t;
    }
}

int main(int argc, char **argv)
{
    int n = N, m = M;
    short npix = NPIX;
    double *a = malloc(sizeof(double) * M * N / 64);
    double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N), *cs = malloc(sizeof(double) * N);
    float *xf = malloc(sizeof(float) * N), *yf = malloc(sizeof(float) * N);
    unsigned char *rgb = malloc(NCH * NPIX);
    float gain[NCH] = {1.9f, 1.0f, 1.6f}, *img = malloc(sizeof(float) * NCH * NPIX);
    double t0, t1, check = 0.0;
    int i;

    if (!a || !x || !y || !cs || !xf || !yf || !rgb || !img) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    for (i = 0; i < n; i++) {
        x[i] = 1.0 / (i + 1);
        y[i] = 2.0;
        xf[i] = 0.5f;
        yf[i] = 1.0f;
    }
    for (i = 0; i < m * (n / 64); i++)
        a[i] = (double) (i % 7);
    memset(rgb, 128, NCH * NPIX);

    t0 = wall_seconds();
    column_sums(m, n / 64, a, cs);
    check += ddot_walk(n, x, y);
    reverse_scale(n, 0.5, x);
    scale_blocked(n, 2.0f, xf, yf);
    rgb8_gain(npix, rgb, gain, img);
    check += omp_dot(n, x, y);
    omp_mxv(m, n / 64, a, x, y);
    t1 = wall_seconds();

    printf("checksum %g (%g %g %g) in %.3f ms\n", check, cs[0], yf[n - 1], img[0], 1e3 * (t1 - t0));
    free(a);
    free(x);
    free(y);
    free(cs);
    free(xf);
    free(yf);
    free(rgb);
    free(img);
    return 0;
}
