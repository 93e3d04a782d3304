/* doitgen.c -- multiresolution analysis kernel (MADNESS): each (r, q) slice of a 3-D array A is
 * multiplied by the np x np matrix C4 through a 1-D sum buffer and copied back, in the style of a
 * polyhedral benchmark suite (C99 array prototypes; the 3-D macros added here as in heat-3d.c).
 *
 * Derivation (double, 8 B; nr = NR = 50, nq = NQ = 40, np = NP = 60 bound by main; all >= 1):
 *   r < nr, q < nq: p < np: sum[p] = 0; s < np: sum[p] += A[r][q][s] * C4[s][p]   -> 2 per (r, q, p, s)
 *                   p < np: A[r][q][p] = sum[p]                                   (no FLOPs)
 *   W = 2*nr*nq*np**2 (fp64).
 *   Q: A: each slice is read (np elements per (r, q)) before the copy writes it: nr*nq*np read and as
 *      many written; C4 read np^2; sum (a parameter array in DRAM) is written first: np.
 *      Q = 16*nr*nq*np + 8*np**2 + 8*np.
 *   Q access, per (r, q): the zero stores of sum (np); sum[p] is invariant in the s-loop but may alias
 *      A and C4 (double parameters): loaded and stored per (p, s) (2np^2); A and C4 loaded per (p, s)
 *      (2np^2); the copy loads sum and stores A (2np).
 *      Q_access = 8*nr*nq*(4np^2 + 3np) = 32*nr*nq*np**2 + 24*nr*nq*np.
 *
 * staticroof:expect kernel_doitgen
 *   W        = 2*nr*nq*np**2
 *   Q        = 16*nr*nq*np + 8*np**2 + 8*np
 *   Q_access = 32*nr*nq*np**2 + 24*nr*nq*np
 *   fp64     = 2*nr*nq*np**2
 */

#include <stdio.h>
#include <math.h>
#include "polybench_c99.h"

#ifndef POLYBENCH_3D
# define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[ddim1][ddim2][ddim3]
# define POLYBENCH_3D_ARRAY_DECL(var, type, dim1, dim2, dim3, ddim1, ddim2, ddim3) \
    type (*var)[dim1][dim2][dim3] = \
        (type (*)[dim1][dim2][dim3]) polybench_alloc_data((dim1) * (dim2) * (dim3), sizeof(type))
#endif

#ifndef NR
# define NR 50
#endif
#ifndef NQ
# define NQ 40
#endif
#ifndef NP
# define NP 60
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

static void init_array(int nr, int nq, int np, DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                       DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np))
{
    int i, j, k;

    for (i = 0; i < nr; i++)
        for (j = 0; j < nq; j++)
            for (k = 0; k < np; k++)
                A[i][j][k] = (DATA_TYPE) ((i * j + k) % np) / np;
    for (i = 0; i < np; i++)
        for (j = 0; j < np; j++)
            C4[i][j] = (DATA_TYPE) (i * j % np) / np;
}

static void print_array(int nr, int nq, int np, DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np))
{
    int i, j, k;

    fprintf(stderr, "begin dump: %s", "A");
    for (i = 0; i < nr; i++)
        for (j = 0; j < nq; j++)
            for (k = 0; k < np; k++) {
                if ((i * nq * np + j * np + k) % 20 == 0)
                    fprintf(stderr, "\n");
                fprintf(stderr, DATA_PRINTF_MODIFIER, A[i][j][k]);
            }
    fprintf(stderr, "\nend   dump: %s\n", "A");
}

static void kernel_doitgen(int nr, int nq, int np, DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                           DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np), DATA_TYPE POLYBENCH_1D(sum, NP, np))
{
    int r, q, p, s;

#pragma scop
    for (r = 0; r < nr; r++)
        for (q = 0; q < nq; q++) {
            for (p = 0; p < np; p++) {
                sum[p] = SCALAR_VAL(0.0);
                for (s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (p = 0; p < np; p++)
                A[r][q][p] = sum[p];
        }
#pragma endscop
}

int main(int argc, char **argv)
{
    int nr = NR;
    int nq = NQ;
    int np = NP;

    POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, NR, NQ, NP, nr, nq, np);
    POLYBENCH_1D_ARRAY_DECL(sum, DATA_TYPE, NP, np);
    POLYBENCH_2D_ARRAY_DECL(C4, DATA_TYPE, NP, NP, np, np);

    init_array(nr, nq, np, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(C4));

    kernel_doitgen(nr, nq, np, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(C4), POLYBENCH_ARRAY(sum));

    polybench_prevent_dce(print_array(nr, nq, np, POLYBENCH_ARRAY(A)));

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(sum);
    POLYBENCH_FREE_ARRAY(C4);
    return 0;
}
