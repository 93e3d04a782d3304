/* smooth_steps.c -- STEPS sweeps of the smoothing, ping-ponging two arrays, with N and STEPS from
 * smooth_default.h (N behind #ifndef, STEPS chosen by #ifdef LARGE_DATASET). */
#include "smooth_default.h"

void smooth_steps(float A[N], float B[N])
{
    for (int t = 0; t < STEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = (A[i - 1] + A[i] + A[i + 1]) * 0.333333f;
        for (int i = 1; i < N - 1; i++)
            A[i] = (B[i - 1] + B[i] + B[i + 1]) * 0.333333f;
    }
}
