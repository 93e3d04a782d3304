"""The reference values every build must reproduce exactly (DEVELOPERS.md), each derived by hand."""

from __future__ import annotations

from fractions import Fraction

from helpers import S, analyze_source, same


def test_saxpy_fp32(tmp_path):
    # y[i] = a*x[i] + y[i], i < N: one * and one + per i      -> W = 2N
    # x read N*4 B; y read N*4 B (first access is the RHS read) and written N*4 B -> Q = 12N
    k = analyze_source("""
        void saxpy(int N, float a, const float *x, float *y) {
            for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
        }""", tmp_path)["saxpy"]
    assert same(k.total.flops.expr, S("2*N"))
    assert same(k.total.by_precision["fp32"].expr, S("2*N"))
    assert same(k.total.compulsory.expr, S("12*N"))
    assert k.total.intensity.expr == S("1/6")
    assert k.exact


def test_daxpy_fp64(tmp_path):
    # as SAXPY with 8-byte elements: W = 2N, Q = 24N, I = 1/12
    k = analyze_source("""
        void daxpy(int N, double a, const double *x, double *y) {
            for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
        }""", tmp_path)["daxpy"]
    assert same(k.total.by_precision["fp64"].expr, S("2*N"))
    assert same(k.total.compulsory.expr, S("24*N"))
    assert k.total.intensity.expr == S("1/12")


def test_elementwise_multiply(tmp_path):
    # z[i] = x[i]*y[i]: W = N; x, y read 4N each, z written 4N -> Q = 12N, I = 1/12
    k = analyze_source("""
        void vmul(int N, const float *x, const float *y, float *z) {
            for (int i = 0; i < N; i++) z[i] = x[i] * y[i];
        }""", tmp_path)["vmul"]
    assert same(k.total.flops.expr, S("N"))
    assert same(k.total.compulsory.expr, S("12*N"))
    assert k.total.intensity.expr == S("1/12")


def test_pair_sum(tmp_path):
    # for i for j: s += x[i] + y[j]: 2 FLOPs per (i, j) -> W = 2N^2
    # x and y each read once in full (N elements each, 4 B) -> Q = 8N; I = 2N^2 / 8N = N/4
    k = analyze_source("""
        float pairsum(int N, const float *x, const float *y) {
            float s = 0.0f;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    s += x[i] + y[j];
            return s;
        }""", tmp_path)["pairsum"]
    assert same(k.total.flops.expr, S("2*N**2"))
    assert same(k.total.compulsory.expr, S("8*N"))
    assert same(k.total.intensity.expr, S("N/4"))


GEMM_REGISTER = """
    void gemm(int N, const float *A, const float *B, float *C) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0.0f;
                for (int k = 0; k < N; k++) acc += A[i*N + k] * B[k*N + j];
                C[i*N + j] = acc;
            }
    }"""


def test_gemm_register_accumulator(tmp_path):
    # W = 2 FLOPs x N^3; A, B read N^2 elements each, C written N^2 (never read) -> Q = 4*3N^2 = 12N^2
    # I = 2N^3 / 12N^2 = N/6 -> 1024/6 = 170.67 at N = 1024
    k = analyze_source(GEMM_REGISTER, tmp_path, defines={"N": "1024"})["gemm"]
    assert same(k.total.flops.expr, S("2*N**3"))
    assert same(k.total.compulsory.expr, S("12*N**2"))
    assert same(k.total.intensity.expr, S("N/6"))
    assert k.total.intensity.value == Fraction(1024, 6)
    assert round(float(k.total.intensity.value), 2) == 170.67
    assert k.total.flops.value == 2 * 1024 ** 3
    assert k.exact


def test_gemm_accumulate_in_c(tmp_path):
    # C[i][j] += ...: C is read N^2 and written N^2 -> Q = 4(N^2 + N^2 + 2N^2) = 16N^2; I = N/8
    k = analyze_source("""
        void gemm(int N, const float A[N][N], const float B[N][N], float C[N][N]) {
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    for (int k = 0; k < N; k++)
                        C[i][j] += A[i][k] * B[k][j];
        }""", tmp_path)["gemm"]
    assert same(k.total.compulsory.expr, S("16*N**2"))
    assert same(k.total.intensity.expr, S("N/8"))
    # access level: C[i][j] is invariant in k, but C may alias A and B (float parameters, none
    # restrict) and the k loop writes C: loaded and stored on every trip, as A and B are loaded:
    # 4(N^3 + N^3 + N^3 + N^3) = 16N^3 (with restrict: 8N^3 + 8N^2, test_register_aliasing.py)
    assert same(k.total.access.expr, S("16*N**3"))
