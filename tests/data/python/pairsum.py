"""pairsum.py -- for i: for j: s += x[i] + y[j], the reference "N/4" kernel (samples/pairsum.c) in
Numba: the signature makes x and y float32, and s = np.float32(0) keeps the accumulator float32.

pairsum: n = x.shape[0]; n*n trips of one add x[i] + y[j] and one add into s.
  W = 2*n**2 fp32.  Q: x and y each read once (the first access of every element is a read)
  -> 4n + 4n = 8n.  Q_access: y[j] varies with j (loaded every trip, 4n**2); x[i] does not vary
  with j: one load per i (4n).  Q_access = 4*n**2 + 4*n.  I = 2n**2 / 8n = n/4.

staticroof:expect pairsum
  W        = 2*n**2
  Q        = 8*n
  Q_access = 4*n**2 + 4*n
  I        = n/4
  fp32     = 2*n**2
"""

import numpy as np
from numba import njit


@njit("float32(float32[:], float32[:])")
def pairsum(x, y):
    n = x.shape[0]
    s = np.float32(0)
    for i in range(n):
        for j in range(n):
            s += x[i] + y[j]
    return s
