/* stream_triad.c -- the STREAM triad a = b + q*c over arrays a benchmark keeps in a struct.
 *
 * Derivation (double; n = s->n elements):
 *   W: one multiply and one add per element -> 2n.
 *   Q: b and c read, a written -> 24n.
 */
struct stream_arrays {
    double *a, *b, *c;
    long n;
};

void stream_triad(struct stream_arrays *s, double q)
{
    for (long i = 0; i < s->n; i++)
        s->a[i] = s->b[i] + q * s->c[i];
}
