"""The cache-bounded traffic Q(M): a lower bound no schedule or tiling can beat with M bytes of cache.

Hölder–Brascamp–Lieb (Christ, Demmel, Knight, Scanlon, Yelick 2013), for a loop body whose
operands are projections of its loop indices (staticroof.analysis.projections):

    s* = min  sum_j s_j   subject to, for every loop index v:  sum_{j : operand j uses v} s_j >= 1

bounds the iterations of any set E by prod_j |phi_j(E)|^{s_j}.  The segment argument (Irony,
Toledo, Tiskin 2004) gives the constants: split the execution into segments of M words of traffic
(loads plus stores).  In one segment,

- an input element used was resident at the start or loaded: at most 2M of them (c = 2);
- a value the computation makes and updates (a partial sum: an accumulator, a `+=` target) either
  existed before the segment (resident at the start or loaded) or was made in it, and then it is
  resident at the end or was stored: at most M + M + M = 3M (c = 3).

So a segment performs at most prod_j (c_j M)^{s_j} iterations, and with K = prod_j c_j^{s_j}

    Q >= M * floor(|I| / (K M^{s*})) >= |I| * M / (K M^{s*}) - M     (words).

A value written without being read back (`C[i][j] = ...` across k) is no operand at all: a
schedule may drop each overwritten value at once.

For matrix multiply s* = 3/2, and the general constants would give a bound several times below
the tight one of Smith, Lowery, Langou and van de Geijn (2019), 2|I|/sqrt(M) - 2M words, which they
prove for exactly this shape (the three pairwise projections {i,j}, {i,k}, {k,j} of a three-index
nest, as in C += A*B, one accumulated and two inputs): for that shape their bound is used; three
inputs (`s += A[i][j]*B[j][k]*C[k][i]` with s reset outside) keep the general constants.
Streaming kernels and stencils have
s* = 1, where the bound is at most |I|/2, below their compulsory traffic: Q_bound = max(Q_compulsory,
...) collapses to Q compulsory.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy


@dataclass
class StatementBound:
    """The HBL data of one statement: its iterations and exponent, in a given element size."""

    iterations: object  # polyhedra.Count
    s_star: Fraction
    elem_bytes: int  # the smallest element size among its arrays (a conservative word size)
    location: object = None
    matmul: bool = False  # the three pairwise projections of three indices (C += A*B's shape)
    made: Fraction = Fraction(0)  # the part of s* carried by values made by the computation (c = 3)


def hbl_exponent(projections: tuple, loop_vars: tuple) -> Fraction | None:
    """s* for references with these projections (tuples of loop-variable names); None when some
    loop index is used by no reference (then the data does not bound the iterations)."""
    found = hbl_solution(projections, loop_vars)
    return None if found is None else found[0]


@lru_cache(maxsize=1024)
def hbl_solution(projections: tuple, loop_vars: tuple, made: tuple = ()) -> tuple | None:
    """(s*, the part of s* on the projections in `made`), at the optimal vertex with the least
    such part (their constant is 3, the others' 2, so that vertex has the smallest constant);
    None when some loop index is used by no reference."""
    if not projections or any(not any(v in p for p in projections) for v in loop_vars):
        return None
    # A tiny LP (a handful of references and indices), solved exactly: its minimum is attained at
    # a vertex, where n of the constraints (a row "sum >= 1" or a bound "s_j >= 0") are tight.
    n = len(projections)
    rows = [[Fraction(int(v in p)) for p in projections] for v in loop_vars]
    constraints = [(r, Fraction(1)) for r in rows] + [([Fraction(int(j == k)) for k in range(n)], Fraction(0))
                                                      for j in range(n)]
    best = None
    for tight in itertools.combinations(range(len(constraints)), n):
        s = _solve([constraints[t][0] for t in tight], [constraints[t][1] for t in tight])
        if s is None or any(x < 0 for x in s) or any(sum(a * x for a, x in zip(r, s, strict=True)) < 1 for r in rows):
            continue
        key = (sum(s), sum(x for p, x in zip(projections, s, strict=True) if p in made))
        best = key if best is None or key < best else best
    return best


def _solve(a, b):
    """The unique solution of the square system a x = b in fractions, or None."""
    n = len(b)
    m = [row[:] + [rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def is_matmul_shape(projections: tuple, n_loops: int) -> bool:
    """Projections {i,j}, {i,k}, {k,j} of exactly three loop indices (Loomis-Whitney's case)."""
    return n_loops == 3 and set(projections) == {(0, 1), (0, 2), (1, 2)}


def _rational(x: Fraction):
    return sympy.Rational(x.numerator, x.denominator)


def words_bound(iterations, s_star: Fraction, m_words, matmul: bool = False, made: Fraction = Fraction(0)):
    """The bound in words.  For the matrix-multiply shape, the tight bound of Smith, Lowery, Langou
    and van de Geijn (2019), 2|I|/sqrt(M) - 2M; otherwise the HBL segment bound
    |I| * M / (2^(s* - made) * 3^made * M^s*) - M."""
    if matmul:
        return 2 * iterations / sympy.sqrt(m_words) - 2 * m_words
    constant = 2 ** _rational(s_star - made) * 3 ** _rational(made)
    return iterations * m_words / (constant * m_words ** _rational(s_star)) - m_words


def q_bound_bytes(compulsory_value, statements: list, cache_bytes: int):
    """max(Q_compulsory, every statement's bound) in bytes at concrete sizes (float), or None."""
    best = compulsory_value
    if best is None:
        return None
    for st in statements:
        if st.iterations is None:
            return None
        m_words = sympy.Rational(cache_bytes, st.elem_bytes)
        b = words_bound(sympy.Integer(st.iterations), st.s_star, m_words, st.matmul, st.made)
        best = max(float(best), float(b) * st.elem_bytes)
    return best


def q_bound_expr(compulsory_expr, statements: list, m_symbol) -> sympy.Expr:
    """The symbolic bound in the sizes and the cache size M (bytes)."""
    terms = [compulsory_expr]
    for st, it_expr in statements:
        m_words = m_symbol / st.elem_bytes
        terms.append(st.elem_bytes * words_bound(it_expr, st.s_star, m_words, st.matmul, st.made))
    return sympy.Max(*terms) if len(terms) > 1 else terms[0]
