/* spmv_csr.c -- sparse matrix-vector product y = A x in compressed sparse row form, the matrix in a
 * struct as a sparse library keeps it.
 *
 * Derivation: the row extents come from rowptr and the column of each nonzero from col (data), so
 * neither W nor Q is a formula in the sizes: the analysis bounds them (not exact, no expect block).
 *   Per nonzero: one multiply and one add (2 FLOPs); val and col read once each, x[col[k]] read.
 */
struct csr {
    int rows, cols, nnz;
    const int *rowptr;
    const int *col;
    const double *val;
};

void spmv_csr(const struct csr *A, const double *x, double *y)
{
    for (int i = 0; i < A->rows; i++) {
        double s = 0.0;
        for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            s += A->val[k] * x[A->col[k]];
        y[i] = s;
    }
}
