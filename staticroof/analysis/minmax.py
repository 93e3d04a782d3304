"""Max and Min of a count's pieces, built without sympy's pairwise comparisons where none can decide.

`sympy.Max(a, b, ...)` compares its arguments pair by pair (`_find_localzeros`, `_is_connected`:
`a >= b`, `a <= b`, then the same of `factor_terms(a - b)` and 0) to drop the ones another
dominates, milliseconds each on two linear pieces of a stencil's count.  Where no comparison can
be decided, the evaluated expression is the unevaluated one, and that is built directly.

When no comparison can be decided: every argument is a rational number or a polynomial with
rational coefficients in symbols without assumptions (no floors or other functions), and the
difference of every two arguments is a non-constant polynomial.  Then
- `_new_args_filter` keeps every argument (none is infinite, a Max/Min to flatten, or non-real),
  and `_collapse_arguments` changes none (it only rewrites arguments that are a Max or a Min);
- each comparison `_is_connected` makes is of the sign of d or -d, d the difference of two
  arguments (or `factor_terms(d)`, the same function): a non-constant polynomial over the complex
  numbers takes every complex value (fixing all its variables but one that it has, generically,
  leaves a non-constant polynomial in one variable), so it is 1 somewhere and -1 somewhere, and
  sympy's assumptions, which are sound (a symbol without assumptions may take any complex value),
  can conclude neither `d >= 0` nor `d < 0` nor that d is not real: every relation stays
  unevaluated, no pair is connected, and `_find_localzeros` keeps every argument;
- the expression is then `Max` of the same argument set in sympy's canonical order (`ordered`),
  as `evaluate=False` makes it.
Anything else is left to sympy's evaluation.
"""

from __future__ import annotations

from itertools import combinations

import sympy


def lattice(kind, exprs: list):
    """`kind(*exprs)` (sympy.Max or sympy.Min), the expression sympy's evaluation gives."""
    if len(exprs) >= 2 and all(_plain(e) for e in exprs) and \
            all(sympy.expand(a - b).free_symbols for a, b in combinations(exprs, 2)):
        return kind(*exprs, evaluate=False)
    return kind(*exprs)


def _plain(e) -> bool:
    """A rational number, or a polynomial with rational coefficients in symbols without
    assumptions (sympy's plain `Symbol(name)`)."""
    if e.is_Rational:
        return True
    symbols = e.free_symbols
    return bool(symbols) and all(type(s) is sympy.Symbol and s.assumptions0 == {"commutative": True}
                                 for s in symbols) and \
        all(n.is_Rational for n in e.atoms(sympy.Number)) and e.is_polynomial(*symbols)
