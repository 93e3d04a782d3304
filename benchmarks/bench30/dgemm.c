/* dgemm.c -- C = alpha*A*B + beta*C, PolyBench-style (i, k, j order), with a timed driver.
 *
 * Derivation (double; C ni x nj, A ni x nk, B nk x nj):
 *   W: C[i][j] *= beta is 1 per (i, j); C[i][j] += alpha*A[i][k]*B[k][j] is 3 per (i, k, j).
 *      W = ni*nj + 3*ni*nj*nk.
 *   Q: C read and written -> 16 ni nj; A read -> 8 ni nk; B read -> 8 nk nj.
 *
 * staticroof:expect kernel_gemm
 *   W    = 3*ni*nj*nk + ni*nj
 *   Q    = 16*ni*nj + 8*ni*nk + 8*nj*nk
 */
#include "bench30.h"

#define NI 200
#define NJ 220
#define NK 240

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], double A[ni][nk],
                        double B[nk][nj])
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            C[i][j] *= beta;
        for (int k = 0; k < nk; k++)
            for (int j = 0; j < nj; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

int main(void)
{
    double (*A)[NK] = xmalloc(sizeof(double[NI][NK]));
    double (*B)[NJ] = xmalloc(sizeof(double[NK][NJ]));
    double (*C)[NJ] = xmalloc(sizeof(double[NI][NJ]));
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (double) ((i * k + 1) % NI) / NI;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (double) (k * (j + 1) % NJ) / NJ;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = (double) ((i * j + 2) % NJ) / NI;
    struct bench_timer t;
    timer_start(&t, "gemm");
    kernel_gemm(NI, NJ, NK, 1.5, 1.2, C, A, B);
    timer_stop(&t);
    printf("%f\n", C[NI / 2][NJ / 2]);
    free(A);
    free(B);
    free(C);
    return 0;
}
