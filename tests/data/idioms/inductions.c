/* Induction variables as C code writes them (tests/test_inductions.py derives each count). */
#include <stddef.h>

/* column sums through a pointer that walks down the column */
void colsum(int rows, int cols, const float *a, float *out)
{
    for (int j = 0; j < cols; j++) {
        const float *p = a + j;
        float s = 0.0f;
        for (int r = 0; r < rows; ++r) {
            s += *p;
            p += cols;
        }
        out[j] = s;
    }
}

/* a copy-and-scale with both pointers post-incremented in the statement */
void scale_walk(int n, const double *x, double *y, double alpha)
{
    const double *p = x;
    double *q = y;
    for (int i = 0; i < n; i++)
        *q++ = alpha * *p++;
}

/* reverse in place with two indices meeting in the middle */
void reverse(int n, float *v)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        float t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* a strided gather: the destination index steps by 1, the source by `stride` (a second counter) */
void gather_strided(int n, int stride, const float *src, float *dst)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        dst[i] = src[k] + 1.0f;
        k += stride;
    }
}

/* a row pointer advanced once per row (leading dimension ld >= cols) */
void add_rows(int rows, int cols, int ld, const float *A, float *B)
{
    const float *a = A;
    float *b = B;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            b[c] = a[c] + b[c];
        a += ld;
        b += ld;
    }
}

/* not induction variables: a conditional increment, and an increment that grows each trip */
size_t compact(int n, const float *x, float *out)
{
    size_t m = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] > 0.0f)
            out[m++] = x[i];
    }
    return m;
}

void triangle_walk(int n, const float *x, float *y)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        y[k] = 2.0f * x[i];
        k += i;
    }
}

/* a variable a loop changes is unknown after it, and one assigned under a condition after the `if` */
void after_loop(int n, float *a, const float *b)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += 2;
    a[k] = b[0];
    a[0] = b[1];
}

void after_if(int n, float *a, const float *b)
{
    int k = 0;
    if (n > 10)
        k = 5;
    a[k] = b[0];
    a[0] = b[1];
}

/* an index stepped twice per trip (TSVC s127's shape): a[2i] and a[2i + 1] */
void two_steps(int n, const float *b, const float *c, float *a)
{
    int j = -1;
    for (int i = 0; i < n; i++) {
        j++;
        a[j] = b[i] + c[i];
        j++;
        a[j] = b[i] * c[i];
    }
}
