/*
 * cblas.h -- staticroof stub (C interface to the BLAS, common subset).
 *
 * Real single (s) and double (d) precision routines of levels 1-3, plus
 * the complex gemm/axpy routines whose scalars are passed by pointer.
 * Enumerator values follow the standard CBLAS numbering.
 */
#ifndef _STATICROOF_CBLAS_H
#define _STATICROOF_CBLAS_H

#include "_staticroof_types.h"

#define CBLAS_INDEX size_t

enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112,
                       CblasConjTrans = 113 };
enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 };
enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 };
enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 };

typedef enum CBLAS_LAYOUT CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO CBLAS_UPLO;
typedef enum CBLAS_DIAG CBLAS_DIAG;
typedef enum CBLAS_SIDE CBLAS_SIDE;

/* Older code spells the layout type CBLAS_ORDER (as a tag or a typedef). */
#define CBLAS_ORDER CBLAS_LAYOUT

/* ---- Level 1 ---------------------------------------------------------- */
float cblas_sdot(const int N, const float *X, const int incX, const float *Y,
    const int incY);
float cblas_snrm2(const int N, const float *X, const int incX);
float cblas_sasum(const int N, const float *X, const int incX);
CBLAS_INDEX cblas_isamax(const int N, const float *X, const int incX);
void cblas_sswap(const int N, float *X, const int incX, float *Y,
    const int incY);
void cblas_scopy(const int N, const float *X, const int incX, float *Y,
    const int incY);
void cblas_saxpy(const int N, const float alpha, const float *X,
    const int incX, float *Y, const int incY);
void cblas_srot(const int N, float *X, const int incX, float *Y,
    const int incY, const float c, const float s);
void cblas_sscal(const int N, const float alpha, float *X, const int incX);
double cblas_ddot(const int N, const double *X, const int incX,
    const double *Y, const int incY);
double cblas_dnrm2(const int N, const double *X, const int incX);
double cblas_dasum(const int N, const double *X, const int incX);
CBLAS_INDEX cblas_idamax(const int N, const double *X, const int incX);
void cblas_dswap(const int N, double *X, const int incX, double *Y,
    const int incY);
void cblas_dcopy(const int N, const double *X, const int incX, double *Y,
    const int incY);
void cblas_daxpy(const int N, const double alpha, const double *X,
    const int incX, double *Y, const int incY);
void cblas_drot(const int N, double *X, const int incX, double *Y,
    const int incY, const double c, const double s);
void cblas_dscal(const int N, const double alpha, double *X, const int incX);
float cblas_sdsdot(const int N, const float alpha, const float *X,
    const int incX, const float *Y, const int incY);
double cblas_dsdot(const int N, const float *X, const int incX,
    const float *Y, const int incY);

/* ---- Level 2 ---------------------------------------------------------- */
void cblas_sgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const int M, const int N, const float alpha, const float *A, const int lda,
    const float *X, const int incX, const float beta, float *Y,
    const int incY);
void cblas_sger(const CBLAS_LAYOUT layout, const int M, const int N,
    const float alpha, const float *X, const int incX, const float *Y,
    const int incY, float *A, const int lda);
void cblas_ssymv(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo, const int N,
    const float alpha, const float *A, const int lda, const float *X,
    const int incX, const float beta, float *Y, const int incY);
void cblas_strmv(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const int N,
    const float *A, const int lda, float *X, const int incX);
void cblas_strsv(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const int N,
    const float *A, const int lda, float *X, const int incX);
void cblas_ssyr(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo, const int N,
    const float alpha, const float *X, const int incX, float *A,
    const int lda);
void cblas_dgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const int M, const int N, const double alpha, const double *A,
    const int lda, const double *X, const int incX, const double beta,
    double *Y, const int incY);
void cblas_dger(const CBLAS_LAYOUT layout, const int M, const int N,
    const double alpha, const double *X, const int incX, const double *Y,
    const int incY, double *A, const int lda);
void cblas_dsymv(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo, const int N,
    const double alpha, const double *A, const int lda, const double *X,
    const int incX, const double beta, double *Y, const int incY);
void cblas_dtrmv(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const int N,
    const double *A, const int lda, double *X, const int incX);
void cblas_dtrsv(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const int N,
    const double *A, const int lda, double *X, const int incX);
void cblas_dsyr(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo, const int N,
    const double alpha, const double *X, const int incX, double *A,
    const int lda);

/* ---- Level 3 ---------------------------------------------------------- */
void cblas_sgemm(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
    const float alpha, const float *A, const int lda, const float *B,
    const int ldb, const float beta, float *C, const int ldc);
void cblas_ssymm(const CBLAS_LAYOUT layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const int M, const int N, const float alpha,
    const float *A, const int lda, const float *B, const int ldb,
    const float beta, float *C, const int ldc);
void cblas_ssyrk(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE Trans, const int N, const int K, const float alpha,
    const float *A, const int lda, const float beta, float *C, const int ldc);
void cblas_ssyr2k(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE Trans, const int N, const int K, const float alpha,
    const float *A, const int lda, const float *B, const int ldb,
    const float beta, float *C, const int ldc);
void cblas_strmm(const CBLAS_LAYOUT layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag,
    const int M, const int N, const float alpha, const float *A, const int lda,
    float *B, const int ldb);
void cblas_strsm(const CBLAS_LAYOUT layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag,
    const int M, const int N, const float alpha, const float *A, const int lda,
    float *B, const int ldb);
void cblas_dgemm(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
    const double alpha, const double *A, const int lda, const double *B,
    const int ldb, const double beta, double *C, const int ldc);
void cblas_dsymm(const CBLAS_LAYOUT layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const int M, const int N, const double alpha,
    const double *A, const int lda, const double *B, const int ldb,
    const double beta, double *C, const int ldc);
void cblas_dsyrk(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE Trans, const int N, const int K, const double alpha,
    const double *A, const int lda, const double beta, double *C,
    const int ldc);
void cblas_dsyr2k(const CBLAS_LAYOUT layout, const CBLAS_UPLO Uplo,
    const CBLAS_TRANSPOSE Trans, const int N, const int K, const double alpha,
    const double *A, const int lda, const double *B, const int ldb,
    const double beta, double *C, const int ldc);
void cblas_dtrmm(const CBLAS_LAYOUT layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag,
    const int M, const int N, const double alpha, const double *A,
    const int lda, double *B, const int ldb);
void cblas_dtrsm(const CBLAS_LAYOUT layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag,
    const int M, const int N, const double alpha, const double *A,
    const int lda, double *B, const int ldb);

/* ---- complex routines (scalars and arrays passed as void pointers) ---- */
void cblas_caxpy(const int N, const void *alpha, const void *X, const int incX,
    void *Y, const int incY);
void cblas_cgemm(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
    const void *alpha, const void *A, const int lda, const void *B,
    const int ldb, const void *beta, void *C, const int ldc);
void cblas_cgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const int M, const int N, const void *alpha, const void *A, const int lda,
    const void *X, const int incX, const void *beta, void *Y, const int incY);
void cblas_zaxpy(const int N, const void *alpha, const void *X, const int incX,
    void *Y, const int incY);
void cblas_zgemm(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
    const void *alpha, const void *A, const int lda, const void *B,
    const int ldb, const void *beta, void *C, const int ldc);
void cblas_zgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA,
    const int M, const int N, const void *alpha, const void *A, const int lda,
    const void *X, const int incX, const void *beta, void *Y, const int incY);

#endif /* _STATICROOF_CBLAS_H */
