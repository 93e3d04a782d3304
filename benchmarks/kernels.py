"""Generated benchmark kernels of mixed shapes (BLAS-1/2/3, stencils, reductions; C and CUDA),
written the way real code is: size macros, `restrict`, a struct of parameters, a timed `main`
driver in some files and CUDA launch sites.  Each kernel varies in element type, constants and
names, so no two files are the same text.  Used by bench_analyze.py (case "generated").

    python benchmarks/kernels.py DIR [COUNT]
"""

from __future__ import annotations

import sys
from pathlib import Path

_TYPES = ("float", "double")
_LIT = {"float": "f", "double": ""}


def _c_header(t: str, k: int) -> str:
    return (f"#include <stddef.h>\n#include <time.h>\n\n#define ALPHA{k} 1.5{_LIT[t]}\n"
            f"#define HALO{k} 1\n\ntypedef {t} real{k}_t;\n\n")


def _driver(call: str, k: int) -> str:
    return (f"\nint main(void)\n{{\n    struct timespec t0, t1;\n    clock_gettime(CLOCK_MONOTONIC, &t0);\n"
            f"    {call};\n    clock_gettime(CLOCK_MONOTONIC, &t1);\n"
            f"    return (int)(t1.tv_sec - t0.tv_sec) + {k} * 0;\n}}\n")


def axpy(k, t):
    return _c_header(t, k) + (
        f"void axpy_{k}(int n, real{k}_t a, const real{k}_t *restrict x, real{k}_t *restrict y)\n{{\n"
        f"    for (int i = 0; i < n; i++)\n        y[i] = a * x[i] + y[i];\n}}\n")


def dot(k, t):
    return _c_header(t, k) + (
        f"real{k}_t dot_{k}(int n, const real{k}_t *x, const real{k}_t *y)\n{{\n"
        f"    real{k}_t s = 0;\n    for (int i = 0; i < n; ++i)\n        s += x[i] * y[i];\n    return s;\n}}\n")


def scal_strided(k, t):
    return _c_header(t, k) + (
        f"void scal_{k}(int n, int incx, real{k}_t *x)\n{{\n"
        f"    for (int i = 0; i < n; i++)\n        x[i * {2 + k % 3}] *= ALPHA{k};\n}}\n")


def gemv(k, t):
    return _c_header(t, k) + (
        f"struct gemv{k}_args {{ int m, n; const real{k}_t *A, *x; real{k}_t *y; }};\n\n"
        f"void gemv_{k}(int m, int n, const real{k}_t A[m][n], const real{k}_t *x, real{k}_t *restrict y)\n{{\n"
        f"    for (int i = 0; i < m; i++) {{\n        real{k}_t acc = 0;\n"
        f"        for (int j = 0; j < n; j++)\n            acc += A[i][j] * x[j];\n"
        f"        y[i] = ALPHA{k} * acc + y[i];\n    }}\n}}\n")


def ger(k, t):
    return _c_header(t, k) + (
        f"void ger_{k}(int m, int n, const real{k}_t *x, const real{k}_t *y, real{k}_t A[m][n])\n{{\n"
        f"    for (int i = 0; i < m; i++)\n        for (int j = 0; j < n; j++)\n"
        f"            A[i][j] += x[i] * y[j];\n}}\n")


def trmv(k, t):
    return _c_header(t, k) + (
        f"void trmv_{k}(int n, const real{k}_t L[n][n], const real{k}_t *x, real{k}_t *restrict y)\n{{\n"
        f"    for (int i = 0; i < n; i++) {{\n        real{k}_t s = 0;\n"
        f"        for (int j = 0; j <= i; j++)\n            s += L[i][j] * x[j];\n        y[i] = s;\n    }}\n}}\n")


def gemm(k, t):
    return _c_header(t, k) + (
        f"void gemm_{k}(int n, const real{k}_t A[n][n], const real{k}_t B[n][n], real{k}_t C[n][n])\n{{\n"
        f"    for (int i = 0; i < n; i++)\n        for (int j = 0; j < n; j++) {{\n"
        f"            real{k}_t c = C[i][j];\n            for (int p = 0; p < n; p++)\n"
        f"                c += A[i][p] * B[p][j];\n            C[i][j] = c;\n        }}\n}}\n"
    ) + _driver(f"(void)0 /* gemm_{k} would run here */", k)


def syrk(k, t):
    return _c_header(t, k) + (
        f"void syrk_{k}(int n, int m, const real{k}_t A[n][m], real{k}_t C[n][n])\n{{\n"
        f"    for (int i = 0; i < n; i++)\n        for (int j = 0; j <= i; j++)\n"
        f"            for (int p = 0; p < m; p++)\n                C[i][j] += ALPHA{k} * A[i][p] * A[j][p];\n}}\n")


def stencil1d(k, t):
    r = 1 + k % 3
    terms = " + ".join(f"x[i - {d}] + x[i + {d}]" for d in range(1, r + 1))
    return _c_header(t, k) + (
        f"#define R{k} {r}\n\nvoid stencil1d_{k}(int n, const real{k}_t *restrict x, real{k}_t *restrict y)\n{{\n"
        f"    for (int i = R{k}; i < n - R{k}; i++)\n        y[i] = x[i] + {terms};\n}}\n")


def jacobi2d(k, t):
    return _c_header(t, k) + (
        f"void jacobi2d_{k}(int n, const real{k}_t A[n][n], real{k}_t B[n][n])\n{{\n"
        f"    for (int i = HALO{k}; i < n - HALO{k}; i++)\n        for (int j = HALO{k}; j < n - HALO{k}; j++)\n"
        f"            B[i][j] = 0.2{_LIT[t]} * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);\n}}\n"
    ) + _driver(f"(void)0 /* jacobi2d_{k} */", k)


def heat3d(k, t):
    return _c_header(t, k) + (
        f"void heat3d_{k}(int n, const real{k}_t u[n][n][n], real{k}_t v[n][n][n])\n{{\n"
        f"    for (int i = 1; i < n - 1; i++)\n        for (int j = 1; j < n - 1; j++)\n"
        f"            for (int l = 1; l < n - 1; l++)\n"
        f"                v[i][j][l] = u[i][j][l] + ALPHA{k} * (u[i - 1][j][l] + u[i + 1][j][l] + u[i][j - 1][l]\n"
        f"                             + u[i][j + 1][l] + u[i][j][l - 1] + u[i][j][l + 1] - 6 * u[i][j][l]);\n}}\n")


def maxreduce(k, t):
    return _c_header(t, k) + (
        f"real{k}_t maxabs_{k}(int n, const real{k}_t *x)\n{{\n    real{k}_t m = 0;\n"
        f"    for (int i = 0; i < n; i++) {{\n        real{k}_t v = x[i] < 0 ? -x[i] : x[i];\n"
        f"        if (v > m)\n            m = v;\n    }}\n    return m;\n}}\n")


def rowsum(k, t):
    return _c_header(t, k) + (
        f"void rowsum_{k}(int m, int n, const real{k}_t A[m][n], real{k}_t *restrict s)\n{{\n"
        f"    for (int i = 0; i < m; i++) {{\n        s[i] = 0;\n"
        f"        for (int j = 0; j < n; j++)\n            s[i] += A[i][j];\n    }}\n}}\n")


_CU = "#include <cuda_runtime.h>\n\n#define BLOCK{k} {b}\n\n"


def cu_axpy(k, t):
    b = (128, 256, 512)[k % 3]
    return _CU.format(k=k, b=b) + (
        f"__global__ void axpy_k{k}(int n, {t} a, const {t} *__restrict__ x, {t} *__restrict__ y)\n{{\n"
        f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        y[i] = a * x[i] + y[i];\n}}\n\n"
        f"int main()\n{{\n    int n = 1 << {16 + k % 5};\n    {t} *x, *y;\n"
        f"    cudaMalloc(&x, n * sizeof({t}));\n    cudaMalloc(&y, n * sizeof({t}));\n"
        f"    axpy_k{k}<<<(n + BLOCK{k} - 1) / BLOCK{k}, BLOCK{k}>>>(n, 2, x, y);\n"
        f"    cudaDeviceSynchronize();\n    cudaFree(x);\n    cudaFree(y);\n    return 0;\n}}\n")


def cu_stencil2d(k, t):
    return _CU.format(k=k, b=16) + (
        f"__global__ void stencil2d_k{k}(int nx, int ny, const {t} *__restrict__ in, {t} *__restrict__ out)\n{{\n"
        f"    int x = blockIdx.x * blockDim.x + threadIdx.x;\n    int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        f"    if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1)\n"
        f"        out[y * nx + x] = 0.25{_LIT[t]} * (in[y * nx + x - 1] + in[y * nx + x + 1]\n"
        f"                                  + in[(y - 1) * nx + x] + in[(y + 1) * nx + x]);\n}}\n")


def cu_gridstride(k, t):
    return _CU.format(k=k, b=256) + (
        f"__global__ void scale_k{k}(int n, {t} s, {t} *v)\n{{\n"
        f"    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
        f"        v[i] = s * v[i];\n}}\n")


def cu_matvec(k, t):
    return _CU.format(k=k, b=128) + (
        f"__global__ void matvec_k{k}(int m, int n, const {t} *A, const {t} *x, {t} *y)\n{{\n"
        f"    int row = blockIdx.x * blockDim.x + threadIdx.x;\n    if (row < m) {{\n        {t} acc = 0;\n"
        f"        for (int j = 0; j < n; j++)\n            acc += A[row * n + j] * x[j];\n"
        f"        y[row] = acc;\n    }}\n}}\n")


SHAPES = (axpy, dot, scal_strided, gemv, ger, trmv, gemm, syrk, stencil1d, jacobi2d, heat3d, maxreduce, rowsum,
          cu_axpy, cu_stencil2d, cu_gridstride, cu_matvec)


def generate(folder: Path, count: int) -> list[Path]:
    """`count` kernel files in `folder`, cycling through every shape (both element types)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k in range(count):
        shape = SHAPES[k % len(SHAPES)]
        t = _TYPES[(k // len(SHAPES)) % 2]
        ext = ".cu" if shape.__name__.startswith("cu_") else ".c"
        path = folder / f"k{k:03d}_{shape.__name__}{ext}"
        path.write_text(f"/* generated benchmark kernel {k}: {shape.__name__} ({t}) */\n" + shape(k, t))
        out.append(path)
    return out


if __name__ == "__main__":
    files = generate(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 200)
    print(f"{len(files)} files in {sys.argv[1]}")
