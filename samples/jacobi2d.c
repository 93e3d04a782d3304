/* jacobi2d.c -- one sweep of a 5-point Jacobi stencil on an n-by-n
 * double grid: every interior point of B becomes 0.2 times the sum of the
 * matching point of A and its four neighbours.  Assumes n >= 3 (there is
 * at least one interior point).
 *
 * Derivation (i = 1 .. n-2 and j = 1 .. n-2: (n-2) * (n-2) = (n-2)^2
 * trips of the j body):
 *   W: per trip four double adds (five terms summed) and one multiply by
 *      the double literal 0.2 -> 5 fp64.  W = 5*(n-2)**2.
 *   Q (compulsory), element size 8 bytes:
 *      A is only read.  The centre term A[i][j] covers the interior
 *      rows/cols 1..n-2; A[i-1][j] and A[i+1][j] add rows 0 and n-1 at
 *      columns 1..n-2; A[i][j-1] and A[i][j+1] add columns 0 and n-1 at
 *      rows 1..n-2.  Every element is touched except the four corners
 *      (0,0), (0,n-1), (n-1,0), (n-1,n-1), which no term reaches:
 *      n^2 - 4 distinct elements -> 8(n^2 - 4).
 *      (Checked by brute force for n = 3, 5, 6, 7: 5, 21, 32, 45.)
 *      B: the (n-2)^2 interior elements, only written -> 8(n-2)^2.
 *      Q = 8(n^2 - 4) + 8(n-2)^2 = 16n^2 - 32n = 16*n*(n-2).
 *   Q_access: per trip five loads of A (five different references, all
 *      varying with j) and one store of B[i][j] -> 6 * 8 = 48 bytes per
 *      trip.  Q_access = 48*(n-2)**2.
 *   I = W / Q = 5(n-2)^2 / (16n(n-2)) = 5*(n-2)/(16*n).
 *
 * staticroof:expect jacobi2d
 *   W        = 5*(n-2)**2
 *   Q        = 16*n*(n-2)
 *   Q_access = 48*(n-2)**2
 *   I        = 5*(n-2)/(16*n)
 *   fp64     = 5*(n-2)**2
 */

void jacobi2d(int n, const double A[n][n], double B[n][n])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j]
                             + A[i][j - 1] + A[i][j + 1]);
}
