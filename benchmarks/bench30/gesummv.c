/* gesummv.c -- y = alpha*A*x + beta*B*x, the two products fused (PolyBench-like).
 *
 * Derivation (double; A, B n x n):
 *   W: tmp[i] = A*x + tmp[i] and y[i] = B*x + y[i] are 2 each per (i, j) -> 4n^2;
 *      y[i] = alpha*tmp[i] + beta*y[i] is 3 per row -> W = 4n^2 + 3n.
 *   Q: tmp and y are first written (the zero stores) -> 16n; A, B read -> 16n^2; x read -> 8n.
 *
 * staticroof:expect kernel_gesummv
 *   W    = 4*n**2 + 3*n
 *   Q    = 16*n**2 + 24*n
 */
void kernel_gesummv(int n, double alpha, double beta, double A[n][n], double B[n][n], double tmp[n], double x[n],
                    double y[n])
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < n; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
