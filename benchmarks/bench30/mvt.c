/* mvt.c -- x1 += A*y1 and x2 += A^T*y2 (PolyBench-like).
 *
 * Derivation (double; A n x n):
 *   W: 2 per (i, j) in each nest -> 4n^2.
 *   Q: A read whole (both nests read the same n^2 elements) -> 8n^2; x1, x2 read and written -> 32n;
 *      y1, y2 read -> 16n.  Q = 8n^2 + 48n.
 *
 * staticroof:expect kernel_mvt
 *   W    = 4*n**2
 *   Q    = 8*n**2 + 48*n
 */
void kernel_mvt(int n, double x1[n], double x2[n], double y_1[n], double y_2[n], double A[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];
}
