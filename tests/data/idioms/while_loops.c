/* `while` loops that are counted loops: the last statement steps the variable the condition reads.
 * Expected values: tests/test_while_loops.py. */

void stride3(int n, const float *x, float *y)
{
    int i = 1;
    while (i < n) {
        y[i] = x[i] * 2.0f;
        i += 3;
    }
}

void halves(const float *x, float *out)
{
    float acc = 0.0f;
    int s = 64;
    while (s != 0) {
        acc += x[s];
        s /= 2;
    }
    out[0] = acc;
}

void countdown(int n, const double *x, double *y)
{
    int k = n - 1;
    while (k >= 0) {
        y[k] = x[k] + 1.0;
        k--;
    }
}

/* a `continue` would skip the increment of a `for`: not the same loop, so not counted */
void skips(int n, const float *x, float *y)
{
    int i = 0;
    while (i < n) {
        if (i > 2 * n)
            continue;
        y[i] = x[i];
        i++;
    }
}

/* the body changes the variable too: not a counted loop */
void jumps(int n, const float *x, float *y)
{
    int i = 0;
    while (i < n) {
        if (x[i] > 0.0f)
            i++;
        y[i] = x[i];
        i++;
    }
}

/* affine early exits: the first statement of the body leaves the loop at the first j where an
 * affine condition holds (one that stays true once it holds) */
#define BS 64

void blocked_tail(int n, const float *x, float *y)
{
    int nb = (n + BS - 1) / BS;
    for (int ib = 0; ib < nb; ib++)
        for (int j = 0; j < BS; j++) {
            if (ib * BS + j >= n)
                break;
            y[ib * BS + j] = 2.0f * x[ib * BS + j];
        }
}

void first_rows(int m, int n, const double *a, double *s)
{
    for (int i = 0; i < m; i++) {
        if (2 * i > n)
            break;
        s[i] = a[i] * a[i];
    }
}

/* `j == 5` is met only by a loop that passes 5: no prefix of the trips, so not an exit condition */
void equal_exit(int n, const float *x, float *y)
{
    for (int j = n; j < n + 64; j++) {
        if (j == 5)
            break;
        y[j - n] = x[j];
    }
}

/* the exit reads data: it stays a break (SR102) */
void data_exit(int n, const float *x, float *y)
{
    for (int j = 0; j < n; j++) {
        if (x[j] < 0.0f)
            break;
        y[j] = x[j];
    }
}
