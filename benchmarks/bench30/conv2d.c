/* conv2d.c -- 3x3 binomial blur of a single-channel float image (row-major, IDX2 of bench30.h); the
 * filter is a constant local table.
 *
 * Derivation (float, 4 B; interior (h-2)(w-2) pixels; h, w >= 3):
 *   W: 9 multiplies and 9 adds into s, and one divide per pixel -> 19 (h-2)(w-2), fp32.
 *   Q: the 3x3 window over the interior reaches every pixel of in (the corners too) -> 4hw;
 *      out's interior written -> 4(h-2)(w-2).  K is a constant local array (registers): 0.
 *
 * staticroof:expect conv2d_3x3
 *   W    = 19*(h - 2)*(w - 2)
 *   Q    = 4*h*w + 4*(h - 2)*(w - 2)
 *   fp32 = 19*(h - 2)*(w - 2)
 */
#include "bench30.h"

void conv2d_3x3(int h, int w, const float *in, float *out)
{
    const float K[3][3] = {{1.0f, 2.0f, 1.0f}, {2.0f, 4.0f, 2.0f}, {1.0f, 2.0f, 1.0f}};

    for (int i = 1; i < h - 1; i++)
        for (int j = 1; j < w - 1; j++) {
            float s = 0.0f;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++)
                    s += K[di + 1][dj + 1] * in[IDX2(i + di, j + dj, w)];
            out[IDX2(i, j, w)] = s / 16.0f;
        }
}
