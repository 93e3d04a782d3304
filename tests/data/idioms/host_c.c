/* Host C idioms of benchmark programs: a dump that breaks lines every 20 values, an allocation wrapper
 * that exits on failure.  Expected values: tests/test_host_c.py. */
#include <stdio.h>
#include <stdlib.h>

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

void print_matrix(int n, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if ((i * n + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, "%0.2lf ", A[i * n + j]);
        }
}

void two_pass(int n, const double *x, double *y)
{
    double *t = (double *) xmalloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
        t[i] = 2.0 * x[i];
    for (int i = 0; i < n; i++)
        y[i] = t[i] + 1.0;
    free(t);
}

/* a data-dependent branch that does work: still SR104 */
void clip(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v > 1.0f)
            v = 1.0f + 0.5f * (v - 1.0f);
        y[i] = v;
    }
}
