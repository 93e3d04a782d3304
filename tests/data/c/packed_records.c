/* packed_records.c -- byte buffers read through cast pointers, as deserializers do.
 *
 * decode_scale: payload holds a 16-byte header, then n floats.  `(const float *)(payload + 16)`
 *   is payload seen as floats from float 4 on: values[i] is payload's float 4 + i, 4 bytes.
 *   W = n (fp32); payload (fp32) read 4n B; out written 4n B: Q = 8n.
 * checksum_and_sum: the same bytes read as uint8 (4n of them) and as floats (n): two views of
 *   one buffer, SR110; each is counted as its own array: 4n B + 4n B, W = n + 1.
 * widen: `double *d = dst` converts a void * (C's implicit conversion): d[i] writes 8 B.
 *   W = n (fp64), Q = 4n (src) + 8n (dst) = 12n.
 */
#include <stdlib.h>

void decode_scale(const unsigned char *payload, float *out, int n, float gain)
{
    const float *values = (const float *)(payload + 16);
    for (int i = 0; i < n; i++)
        out[i] = gain * values[i];
}

float checksum_and_sum(const unsigned char *payload, int n)
{
    const float *values = (const float *)payload;
    float s = 0.0f;
    int c = 0;
    for (int i = 0; i < 4 * n; i++)
        c += payload[i];
    for (int i = 0; i < n; i++)
        s += values[i];
    return s + (float)c;
}

void widen(void *dst, const float *src, int n)
{
    double *d = dst;
    for (int i = 0; i < n; i++)
        d[i] = (double)src[i] * 2.0;
}
