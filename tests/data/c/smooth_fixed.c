/* smooth_fixed.c -- a 3-point smoothing whose size comes from an included header.
 * for 1 <= i < N-1: 2 adds and 1 multiply (W = 3*(N-2)); in[0..N-1] read (4N B),
 * out[1..N-2] written (4*(N-2) B): Q = 8N - 8. */
#include <stdlib.h>
#include "smooth_sizes.h"

void smooth(const float *restrict in, float *restrict out)
{
    for (int i = 1; i < N - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) * 0.333333f;
}

int main(void)
{
    float *in = malloc(N * sizeof(float));
    float *out = malloc(N * sizeof(float));
    smooth(in, out);
    free(in);
    free(out);
    return 0;
}
