/* 2mm.c -- two chained matrix multiplications in the style of a polyhedral benchmark suite:
 *   tmp := alpha*A*B,  D := beta*D + tmp*C
 * with the problem sizes chosen by dataset macros, arrays allocated in main, an init function,
 * a print function behind a dead-code guard, and the kernel taking its sizes as int parameters
 * beside arrays declared with the compile-time extents.
 *
 * Derivation (double, 8 B per element; ni, nj, nk, nl are the kernel's parameters, bound by
 * main to NI = 180, NJ = 190, NK = 210, NL = 220; rows never overlap while ni <= NI etc.):
 *   nest 1, i < ni, j < nj: tmp[i][j] = 0.0; k < nk: tmp[i][j] += alpha * A[i][k] * B[k][j]
 *     -> 2 multiplies + 1 add per (i, j, k): 3*ni*nj*nk.
 *   nest 2, i < ni, j < nl: D[i][j] *= beta (1); k < nj: D[i][j] += tmp[i][k] * C[k][j] (2)
 *     -> ni*nl + 2*ni*nl*nj.
 *   W = 3*ni*nj*nk + 2*ni*nj*nl + ni*nl, all fp64.
 *   Q: tmp: written first (ni*nj), its reads in nest 2 are of elements already written -> 8*ni*nj
 *      A read ni*nk, B read nk*nj, C read nj*nl, D read and written ni*nl each.
 *   Q = 8*(ni*nj + ni*nk + nj*nk + nj*nl + 2*ni*nl).
 *
 * staticroof:expect kernel_2mm
 *   W    = 3*ni*nj*nk + 2*ni*nj*nl + ni*nl
 *   Q    = 8*(ni*nj + ni*nk + nj*nk + nj*nl + 2*ni*nl)
 *   fp64 = 3*ni*nj*nk + 2*ni*nj*nl + ni*nl
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
# define MEDIUM_DATASET
#endif

#ifdef MINI_DATASET
# define NI 16
# define NJ 18
# define NK 22
# define NL 24
#endif
#ifdef SMALL_DATASET
# define NI 40
# define NJ 50
# define NK 70
# define NL 80
#endif
#ifdef MEDIUM_DATASET
# define NI 180
# define NJ 190
# define NK 210
# define NL 220
#endif
#ifdef LARGE_DATASET
# define NI 800
# define NJ 900
# define NK 1100
# define NL 1200
#endif

#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "
#define polybench_prevent_dce(func) if (argc > 42 && !strcmp(argv[0], "")) func

static void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ], DATA_TYPE C[NJ][NL],
                       DATA_TYPE D[NI][NL])
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nk; j++)
            A[i][j] = (DATA_TYPE) ((i * j + 1) % ni) / ni;
    for (i = 0; i < nk; i++)
        for (j = 0; j < nj; j++)
            B[i][j] = (DATA_TYPE) (i * (j + 1) % nj) / nj;
    for (i = 0; i < nj; i++)
        for (j = 0; j < nl; j++)
            C[i][j] = (DATA_TYPE) ((i * (j + 3) + 1) % nl) / nl;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++)
            D[i][j] = (DATA_TYPE) (i * (j + 2) % nk) / nk;
}

static void print_array(int ni, int nl, DATA_TYPE D[NI][NL])
{
    int i, j;

    fprintf(stderr, "begin dump: %s", "D");
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            if ((i * ni + j) % 20 == 0)
                fprintf(stderr, "\n");
            fprintf(stderr, DATA_PRINTF_MODIFIER, D[i][j]);
        }
    fprintf(stderr, "\nend   dump: %s\n", "D");
}

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE tmp[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ],
                       DATA_TYPE C[NJ][NL], DATA_TYPE D[NI][NL])
{
    int i, j, k;

#pragma scop
    /* D := alpha*A*B*C + beta*D */
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            tmp[i][j] = 0.0;
            for (k = 0; k < nk; ++k)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            D[i][j] *= beta;
            for (k = 0; k < nj; ++k)
                D[i][j] += tmp[i][k] * C[k][j];
        }
#pragma endscop
}

int main(int argc, char **argv)
{
    int ni = NI;
    int nj = NJ;
    int nk = NK;
    int nl = NL;

    DATA_TYPE alpha;
    DATA_TYPE beta;
    DATA_TYPE (*tmp)[NI][NJ] = malloc(sizeof(DATA_TYPE[NI][NJ]));
    DATA_TYPE (*A)[NI][NK] = malloc(sizeof(DATA_TYPE[NI][NK]));
    DATA_TYPE (*B)[NK][NJ] = malloc(sizeof(DATA_TYPE[NK][NJ]));
    DATA_TYPE (*C)[NJ][NL] = malloc(sizeof(DATA_TYPE[NJ][NL]));
    DATA_TYPE (*D)[NI][NL] = malloc(sizeof(DATA_TYPE[NI][NL]));

    init_array(ni, nj, nk, nl, &alpha, &beta, *A, *B, *C, *D);

    kernel_2mm(ni, nj, nk, nl, alpha, beta, *tmp, *A, *B, *C, *D);

    polybench_prevent_dce(print_array(ni, nl, *D));

    free(tmp);
    free(A);
    free(B);
    free(C);
    free(D);
    return 0;
}
