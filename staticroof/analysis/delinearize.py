"""Recover the rows and columns of linearized indices such as ``A[i*lda + j]``.

``i*lda`` is not affine (a loop variable times a size), so isl cannot count it directly.  When
every reference to an array decomposes as ``s_1*h_1 + s_2*h_2 + ... + h_k`` with strides
``s_1 = r_1*s_2``, ..., and each lower part provably lies in ``[0, r_t)`` over its iteration
domain, the map from ``(h_1, ..., h_k)`` to the flat index is injective, so counting the tuples
counts the elements exactly and symbolically.  Otherwise the caller falls back to concrete sizes.
"""

from __future__ import annotations

import itertools

import islpy as isl
import sympy

from . import polyhedra as P


def _split(index: sympy.Expr, loop_vars: set):
    """Group the terms of ``index`` by the size monomial multiplying loop variables.

    Returns ({stride monomial: affine part}, [(coefficient, size monomial) of the terms without a
    loop variable]) or None if a term multiplies two loop variables."""
    index = sympy.expand(index)
    parts: dict = {}
    loose = []  # terms without loop variables
    for term in sympy.Add.make_args(index):
        coeff, factors = term.as_coeff_mul()
        vars_ = [f for f in factors if f.free_symbols & loop_vars]
        sizes = [f for f in factors if not (f.free_symbols & loop_vars)]
        if len(vars_) > 1 or (vars_ and not (vars_[0].is_Symbol or isinstance(vars_[0], (sympy.floor, sympy.Mod)))):
            return None
        stride = sympy.Mul(*sizes)
        if vars_:
            parts[stride] = parts.get(stride, 0) + coeff * vars_[0]
        else:
            loose.append((coeff, stride))
    return parts, loose


def _place(parts: dict, loose: list, chain) -> dict:
    """`parts` with each term free of loop variables added to a coordinate: the largest stride of
    the chain (every reference's strides, largest first) that divides it (a plane offset `nx*ny`
    of a 3-D array one reference walks in k*nx*ny belongs to the plane coordinate; `-nx` to the row),
    else the stride 1.  Any placement keeps the index equal to the sum of stride times coordinate;
    the caller's range checks decide whether it proves injectivity."""
    out = dict(parts)
    for coeff, mono in loose:
        for s in chain:
            q = sympy.cancel(mono / s)
            if s != 1 and sympy.denom(q) == 1 and (q.is_Integer or q.free_symbols):
                out[s] = out.get(s, 0) + coeff * q
                break
        else:
            out[sympy.Integer(1)] = out.get(sympy.Integer(1), 0) + coeff * mono
    return out


def _chain(strides):
    """Order strides from largest to 1 and return the ratios, or None if they do not form a chain."""
    strides = sorted(set(strides) | {sympy.Integer(1)}, key=lambda s: (sympy.Poly(s).total_degree()
                                                                      if s.free_symbols else 0, str(s)),
                     reverse=True)
    ratios = []
    for hi, lo in itertools.pairwise(strides):
        r = sympy.simplify(hi / lo)
        if not (r.is_Symbol or (r.is_Integer and r > 0)):
            return None, None
        ratios.append(r)
    return strides, ratios


def delinearize(refs, namer: P.Namer) -> list | None:
    """refs: list of (index_expr, instance). Returns the multi-dimensional index tuples, or None.

    Affine indices need no work and are returned as 1-tuples."""
    from .domain import render  # local import: domain imports polyhedra only
    try:
        for expr, inst in refs:
            render(expr, inst, namer)
        return [(expr,) for expr, _ in refs]  # already (quasi-)affine: isl counts it as it is
    except P.NotAffine:
        pass
    splits, strides = [], set()
    linear = True
    for expr, inst in refs:
        loop_vars = set(inst.loop_vars)
        s = _split(expr, loop_vars)
        if s is None:
            return None
        splits.append(s)
        strides |= set(s[0])
        if any(k != 1 for k in s[0]):
            linear = False
    if linear:
        return [(expr,) for expr, _ in refs]
    chain, ratios = _chain(strides)
    if chain is None:
        return None
    out = []
    for (_expr, inst), (found, loose) in zip(refs, splits, strict=True):
        parts = _place(found, loose, chain)
        coords = tuple(sympy.sympify(parts.get(s, 0)) for s in chain)
        # every coordinate but the first must lie in [0, ratio)
        for coord, r in zip(coords[1:], ratios, strict=True):
            try:
                c = render(coord, inst, namer)
                bound = P.aff(r, namer)
            except P.NotAffine:
                return None
            dom = inst.domain(namer)
            head, body = dom.split("{", 1)
            tup, cons = body.rsplit(":", 1)
            bad = f"{head}{{{tup}: ({cons.rstrip(' }')}) and ({c} < 0 or {c} >= {bound}) }}"
            if not isl.Set(bad).is_empty():
                return None
        out.append(coords)
    return out
