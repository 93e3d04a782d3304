/* Benchmark-suite style GEMM (C := alpha*A*B + beta*C), written for staticroof's tests.
 * Dataset sizes are chosen with -D MINI_DATASET / LARGE_DATASET; main() sets the sizes and calls
 * the kernel, beside static init/print helpers. */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include "bench_lite.h"

#if !defined(MINI_DATASET) && !defined(LARGE_DATASET)
# define LARGE_DATASET
#endif
#ifdef MINI_DATASET
# define NI 20
# define NJ 25
# define NK 30
#endif
#ifdef LARGE_DATASET
# define NI 1000
# define NJ 1100
# define NK 1200
#endif
#define DATA_TYPE double
#define _PB_NI ni
#define _PB_NJ nj
#define _PB_NK nk

static void init_array(int ni, int nj, int nk, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(C, NI, NJ, ni, nj), DATA_TYPE BENCH_2D(A, NI, NK, ni, nk))
{
  int i, j;
  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (DATA_TYPE) ((i*j+1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE) (i*(j+1) % nk) / nk;
}

static void kernel_gemm(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE BENCH_2D(C, NI, NJ, ni, nj), DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                        DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j, k;
#pragma scop
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++) {
      for (j = 0; j < _PB_NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY_DECL(C, DATA_TYPE, NI, NJ, ni, nj);
  BENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
  BENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);
  init_array(ni, nj, nk, &alpha, &beta, BENCH_ARRAY(C), BENCH_ARRAY(A));
  kernel_gemm(ni, nj, nk, alpha, beta, BENCH_ARRAY(C), BENCH_ARRAY(A), BENCH_ARRAY(B));
  BENCH_FREE(C);
  BENCH_FREE(A);
  BENCH_FREE(B);
  return 0;
}
