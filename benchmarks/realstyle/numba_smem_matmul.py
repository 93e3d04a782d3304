"""A shared-memory matrix multiply in Numba CUDA, as Numba's documentation and its users write it:
a fixed tile (TPB threads per block side), the tiles staged in cuda.shared.array, cuda.syncthreads
between the loads and the products, and a host driver that sizes the grid from the arrays.
Written for staticroof's speed benchmark (issue #33)."""

import math

import numpy as np
from numba import cuda, float32

TPB = 16


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x

    tmp = float32(0.0)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def add_bias_relu(C, bias):
    x, y = cuda.grid(2)
    if y < C.shape[0] and x < C.shape[1]:
        v = C[y, x] + bias[x]
        C[y, x] = v if v > 0 else 0


def main(n=1024):
    A = np.random.rand(n, n).astype(np.float32)
    B = np.random.rand(n, n).astype(np.float32)
    bias = np.zeros(n, dtype=np.float32)
    dA, dB = cuda.to_device(A), cuda.to_device(B)
    dC = cuda.device_array((n, n), dtype=np.float32)
    dbias = cuda.to_device(bias)
    threads = (TPB, TPB)
    blocks = (math.ceil(n / TPB), math.ceil(n / TPB))
    fast_matmul[blocks, threads](dA, dB, dC)
    add_bias_relu[blocks, threads](dC, dbias)
    return dC.copy_to_host()


if __name__ == "__main__":
    main()
