/* doitgen.c -- multiresolution analysis kernel: each A[r][q][:] times C4, through a sum buffer.
 *
 * Derivation (double; A nr x nq x np, C4 np x np, sum np):
 *   W: sum[p] += A[r][q][s] * C4[s][p] is 2 per (r, q, p, s) -> 2 nr nq np^2.
 *   Q: A read and written whole -> 16 nr nq np; C4 read -> 8 np^2; sum first written -> 8 np.
 *
 * staticroof:expect kernel_doitgen
 *   W    = 2*nr*nq*np**2
 *   Q    = 16*nr*nq*np + 8*np**2 + 8*np
 */
void kernel_doitgen(int nr, int nq, int np, double A[nr][nq][np], double C4[np][np], double sum[np])
{
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int p = 0; p < np; p++)
                A[r][q][p] = sum[p];
        }
}
