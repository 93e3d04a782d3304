/* polybench_c99.h -- the array-declaration macros of a polyhedral benchmark harness, in their
 * C99 form: a kernel's array parameters take the run-time extents (`A[m][n]`), allocation uses
 * the compile-time ones. */
#ifndef POLYBENCH_C99_H
#define POLYBENCH_C99_H

#include <stdlib.h>
#include <string.h>

#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
#define POLYBENCH_1D_ARRAY_DECL(var, type, dim1, ddim1) \
    type (*var)[dim1] = (type (*)[dim1]) polybench_alloc_data((dim1), sizeof(type))
#define POLYBENCH_2D_ARRAY_DECL(var, type, dim1, dim2, ddim1, ddim2) \
    type (*var)[dim1][dim2] = (type (*)[dim1][dim2]) polybench_alloc_data((dim1) * (dim2), sizeof(type))
#define POLYBENCH_ARRAY(x) *x
#define POLYBENCH_FREE_ARRAY(x) free((void *) x)
#define polybench_prevent_dce(func) if (argc > 42 && !strcmp(argv[0], "")) func
#define SCALAR_VAL(x) x

static void *polybench_alloc_data(unsigned long long n, int elt_size)
{
    void *p = malloc(n * elt_size);
    if (!p)
        exit(1);
    return p;
}

#endif
