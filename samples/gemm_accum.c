/* gemm_accum.c -- square single-precision matrix product accumulated
 * straight into memory: C += A * B, written as C[i][j] += A[i][k]*B[k][j]
 * in the innermost loop.  The size is the compile-time constant N
 * (symbol N, default 1024).
 *
 * Derivation (loops i, j, k each run 0 .. N-1; N^3 k trips in total and
 * N^2 executions of the k loop):
 *   W: per k trip one float multiply (A*B) and one float add (+=)
 *      -> 2 fp32.  W = 2*N**3.
 *   Q (compulsory), element size 4 bytes:
 *      A: N^2 distinct elements, only read                  -> 4N^2
 *      B: N^2 distinct elements, only read                  -> 4N^2
 *      C: N^2 distinct elements; the first access to each is the read
 *         of C[i][j] += (at k = 0), so each is read once    -> 4N^2
 *         and each is written                               -> 4N^2
 *      Q = 16*N**2.
 *   Q_access: A[i][k], B[k][j] vary with k: N^3 loads each -> 8N^3.
 *      C[i][j] is invariant in k, but C may alias A and B (floats, no
 *      `restrict`) and the loop writes C: loaded and stored every k trip
 *      -> 8N^3 (lint's RF202; `restrict` would give 8N^2).
 *      Q_access = 16*N**3.
 *   I = W / Q = 2N^3 / 16N^2 = N/8.
 *
 * staticroof:expect gemm_accum
 *   W        = 2*N**3
 *   Q        = 16*N**2
 *   Q_access = 16*N**3
 *   I        = N/8
 *   fp32     = 2*N**3
 */

#ifndef N
#define N 1024
#endif

void gemm_accum(const float A[N][N], const float B[N][N], float C[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                C[i][j] += A[i][k] * B[k][j];
}
