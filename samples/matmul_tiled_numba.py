"""matmul_tiled_numba.py -- the shared-memory matrix product of Numba's CUDA documentation
("fast_matmul"): 16 x 16 tiles of A and B staged in cuda.shared.array, launched from main() on
1024 x 1024 float32 matrices with a (64, 64) grid of (16, 16) blocks.  The arrays come from host
code without a signature; the pragma below says they hold float32.

Notation: gx = gridDim_x, gy = gridDim_y (64 and 64 at the launch), T = 256*gx*gy threads;
TPB = 16 is a module constant, which Numba freezes into the kernel (folded to 16).  Thread
(x, y) = cuda.grid(2) runs the i loop bpg = gx times and the j loop 16 times per i.
  W: per j trip one float32 multiply and one float32 add (tmp is float32(0.)):
     T * gx * 16 * 2 = 8192*gx**2*gy, all fp32.
  Q: A[y, tx + 16*i]: 16*gy rows times 16*gx columns -> 256*gx*gy elements, read -> 1024*gx*gy.
     B[ty + 16*i, x]: 16*gx rows times 16*gx columns -> 1024*gx**2.
     C[y, x]: 256*gx*gy elements written -> 1024*gx*gy.  sA, sB are on chip; tmp a register.
     Q = 1024*gx**2 + 2048*gx*gy.
  Q_access: A and B vary with i: loaded every i trip -> 2 * 4 * gx * T = 2048*gx**2*gy; C stored
     once per thread -> 4*T = 1024*gx*gy.
  Q_shared: every shared access counts (a tile is written for other threads to read): per i trip
     2 stores, per j trip 2 loads -> 4 * T * gx * (2 + 2*16) = 34816*gx**2*gy.
  I = 8192 gx**2 gy / (1024 gx**2 + 2048 gx gy) = 8*gx*gy/(gx + 2*gy).
  At the launch gx = gy = 64: W = 8192 * 64**3 = 2147483648, Q = 1024*4096 + 2048*4096 = 12582912,
  Q_access = 2048 * 64**3 + 1024 * 4096 = 541065216, I = 1024/6 = 170.67 (as samples/matmul_tiled.cu:
  tiling divides Q_access by the tile, not Q).

staticroof:expect fast_matmul
  W              = 8192*gridDim_x**2*gridDim_y
  Q              = 1024*gridDim_x**2 + 2048*gridDim_x*gridDim_y
  Q_access       = 2048*gridDim_x**2*gridDim_y + 1024*gridDim_x*gridDim_y
  Q_shared       = 34816*gridDim_x**2*gridDim_y
  I              = 8*gridDim_x*gridDim_y/(gridDim_x + 2*gridDim_y)
  fp32           = 8192*gridDim_x**2*gridDim_y
  W_value        = 2147483648
  Q_value        = 12582912
  Q_access_value = 541065216
"""
import numpy as np
from numba import cuda, float32

TPB = 16


@cuda.jit
def fast_matmul(A, B, C):  # staticroof: A=float32, B=float32, C=float32
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = A[y, tx + i * TPB]
        sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    C[y, x] = tmp


def main():
    n = 1024
    A = np.ones((n, n), dtype=np.float32)
    B = np.ones((n, n), dtype=np.float32)
    C = np.zeros((n, n), dtype=np.float32)
    threadsperblock = (TPB, TPB)
    blockspergrid = (n // TPB, n // TPB)
    fast_matmul[blockspergrid, threadsperblock](cuda.to_device(A), cuda.to_device(B), C)
