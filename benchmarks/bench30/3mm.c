/* 3mm.c -- G = (A*B) * (C*D), three matrix products through temporaries E and F (PolyBench-like).
 *
 * Derivation (double; A ni x nk, B nk x nj, C nj x nm, D nm x nl):
 *   W: E = A*B 2 per (i, j, k) -> 2 ni nj nk; F = C*D -> 2 nj nl nm; G = E*F -> 2 ni nl nj.
 *   Q: E, F and G are first written (the zero stores) -> 8 ni nj + 8 nj nl + 8 ni nl;
 *      A, B, C, D read whole -> 8 ni nk + 8 nk nj + 8 nj nm + 8 nm nl.
 *
 * staticroof:expect kernel_3mm
 *   W    = 2*ni*nj*nk + 2*nj*nl*nm + 2*ni*nj*nl
 *   Q    = 8*ni*nj + 8*nj*nl + 8*ni*nl + 8*ni*nk + 8*nj*nk + 8*nj*nm + 8*nl*nm
 */
void kernel_3mm(int ni, int nj, int nk, int nl, int nm, double E[ni][nj], double A[ni][nk], double B[nk][nj],
                double F[nj][nl], double C[nj][nm], double D[nm][nl], double G[ni][nl])
{
    int i, j, k;

    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            E[i][j] = 0.0;
            for (k = 0; k < nk; ++k)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (i = 0; i < nj; i++)
        for (j = 0; j < nl; j++) {
            F[i][j] = 0.0;
            for (k = 0; k < nm; ++k)
                F[i][j] += C[i][k] * D[k][j];
        }
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            G[i][j] = 0.0;
            for (k = 0; k < nj; ++k)
                G[i][j] += E[i][k] * F[k][j];
        }
}
