/* gemm.c -- square single-precision matrix product C = A * B with the dot
 * product kept in a register accumulator (C is only stored, never read).
 * The size is the compile-time constant N (symbol N, default 1024).
 *
 * Derivation (loops i, j, k each run 0 .. N-1; the k loop runs N^3 trips
 * in total, the j loop body (s = 0 ... C[i][j] = s) runs N^2 times):
 *   W: per k trip, A[i][k]*B[k][j] is one float multiply and s += is one
 *      float add -> 2 fp32.  W = 2 * N^3 = 2*N**3.
 *   Q (compulsory), element size 4 bytes:
 *      A: every A[i][k] is read, N^2 distinct elements -> 4N^2
 *      B: every B[k][j] is read, N^2 distinct elements -> 4N^2
 *      C: every C[i][j] is written once, never read  -> 4N^2
 *      s is a local scalar -> 0.
 *      Q = 12*N**2.
 *   Q_access: A[i][k] and B[k][j] both vary with k (their innermost loop),
 *      so each is loaded on every one of the N^3 k trips -> 2 * 4N^3.
 *      The store C[i][j] = s sits in the j loop and varies with j: one
 *      store per j trip -> N^2 stores -> 4N^2.
 *      Q_access = 8N^3 + 4N^2 = 4*(2*N**3 + N**2).
 *   I = W / Q = 2N^3 / 12N^2 = N/6.
 *
 * staticroof:expect gemm
 *   W        = 2*N**3
 *   Q        = 12*N**2
 *   Q_access = 4*(2*N**3 + N**2)
 *   I        = N/6
 *   fp32     = 2*N**3
 */

#ifndef N
#define N 1024
#endif

void gemm(const float A[N][N], const float B[N][N], float C[N][N])
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
    }
}
