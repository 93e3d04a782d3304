/* prefix_sum.c -- inclusive scan out[i] = in[0] + ... + in[i] (float).
 *
 * Derivation (float, 4 B; n >= 1):
 *   W: one add per i in 1..n-1 -> n - 1, fp32.
 *   Q: in read n; out written n (its reads out[i-1] are of elements already written) -> 8n.
 *
 * staticroof:expect prefix_sum
 *   W    = n - 1
 *   Q    = 8*n
 *   fp32 = n - 1
 */
void prefix_sum(int n, const float *in, float *out)
{
    out[0] = in[0];
    for (int i = 1; i < n; i++)
        out[i] = out[i - 1] + in[i];
}
