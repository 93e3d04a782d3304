/* softmax.c -- numerically stable softmax of each row: the row maximum, the exponentials kept in e,
 * their sum, then the normalized row.
 *
 * Derivation (double; rows x cols):
 *   W per element: fmax 0 (README: fmin/fmax count 0), x - m 1, exp 1 (special, weight 1), s += 1,
 *      the divide 1 -> 4 rows cols.
 *   Q: x read, e first written, y written -> 24 rows cols.
 *
 * staticroof:expect softmax_rows
 *   W    = 4*rows*cols
 *   Q    = 24*rows*cols
 */
#include <math.h>

void softmax_rows(int rows, int cols, const double x[rows][cols], double e[rows][cols], double y[rows][cols])
{
    for (int r = 0; r < rows; r++) {
        double m = x[r][0];
        for (int c = 1; c < cols; c++)
            m = fmax(m, x[r][c]);
        double s = 0.0;
        for (int c = 0; c < cols; c++) {
            e[r][c] = exp(x[r][c] - m);
            s += e[r][c];
        }
        for (int c = 0; c < cols; c++)
            y[r][c] = e[r][c] / s;
    }
}
