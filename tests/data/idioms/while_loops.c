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
