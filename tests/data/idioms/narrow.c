/* Narrow integer counters and indices: a value past the type's range wraps.  Expected values and
 * diagnostics: tests/test_narrow.py. */
#include <stdint.h>

void wrap8(int n, const float *x, float *y)
{
    for (unsigned char i = 0; i < n; i++)
        y[i] = 2.0f * x[i];
}
void wrap16(int n, const float *x, float *y)
{
    for (short i = 0; i < n; i++)
        y[i] = 2.0f * x[i];
}
void fine8(const float *x, float *y)
{
    for (unsigned char i = 0; i < 200; i++)
        y[i] = 2.0f * x[i];
}
void idx8(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        unsigned char k = i;
        y[i] = 2.0f * x[k];
    }
}

/* a constant past the range is its converted value: k = 300 is 44 in an unsigned char */
void const_wrap(const float *x, float *y)
{
    uint8_t k = 300;
    y[0] = x[k] * 3.0f;
}

/* a counter that must pass 255: the loop never ends */
void forever8(const float *x, float *y)
{
    for (unsigned char i = 0; i <= 255; i++)
        y[i] = x[i];
}

/* counting down a signed char from a size */
void down8(const double *x, double *y)
{
    for (int8_t i = 100; i >= 0; i--)
        y[i] = x[i] + 1.0;
}
