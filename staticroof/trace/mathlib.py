"""The C math library as the trace counts it: which calls are special functions, fused
multiply-adds or free, and which also store through pointer arguments.

The trace is the oracle the analysis is checked against, so it keeps its own table rather than
reading the analysis's (grammars/math.toml, staticroof.costs): written from C11's <math.h> (each
function with its `f` and `l` forms) and the extensions the analysis accepts (rsqrt, exp10, sinpi,
cospi, sincos, lgamma_r).  tests/test_trace.py checks that the two tables name the same functions
the same way: a function added to one alone fails there.
"""

from __future__ import annotations

from functools import lru_cache


def _forms(*names: str, long: bool = True) -> list[str]:
    return [f"{n}{s}" for n in names for s in ("", "f", "l") if long or s != "l"]


# A libm call that computes a transcendental or a root: one special call (weight 1 unless the user
# gives another with --cost).
SPECIAL = (_forms("sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow",
                  "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
                  "asinh", "acosh", "atanh", "erf", "erfc", "tgamma", "lgamma", "hypot", "fmod", "remainder")
           + _forms("rsqrt", "exp10", "sinpi", "cospi", long=False))
# x*y + z with one rounding: 2 floating-point operations.
FMA = _forms("fma")
# Moves, comparisons, sign and rounding: no floating-point operation (ncu's FP counters agree).
FREE = (_forms("fabs", "fmin", "fmax", "floor", "ceil", "round", "trunc", "rint", "nearbyint", "lround",
               "llround", "lrint", "copysign", "nextafter", "ldexp", "scalbn", "ilogb", "logb", "fdim", "nan")
        + ["abs", "labs", "llabs", "__sr_isnan", "__sr_isinf", "__sr_isfinite", "__sr_signbit"])
# name -> (positions of the pointer arguments stored through, the special calls one call counts as)
OUTPUTS = {
    **{f"sincos{s}": ([1, 2], [f"sin{s}", f"cos{s}"]) for s in ("", "f", "l")},
    **{f"sincospi{s}": ([1, 2], [f"sinpi{s}", f"cospi{s}"]) for s in ("", "f")},
    **{f"remquo{s}": ([2], [f"remainder{s}"]) for s in ("", "f", "l")},
    **{f"lgamma{s}_r": ([1], [f"lgamma{s}"]) for s in ("", "f")},
    **{f"{n}{s}": ([1], []) for n in ("modf", "frexp") for s in ("", "f", "l")},  # exact: free
}


@lru_cache(maxsize=1)
def table() -> dict:
    """name -> {"kind": "special"|"fma"|"free"|"outputs", "weight", "flops"[, "outputs", "counts_as"]}."""
    out = {n: {"kind": "special", "weight": 1, "flops": 0} for n in SPECIAL}
    out |= {n: {"kind": "fma", "weight": 1, "flops": 2} for n in FMA}
    out |= {n: {"kind": "free", "weight": 1, "flops": 0} for n in FREE}
    out |= {n: {"kind": "outputs", "weight": 1, "flops": 0, "outputs": list(o), "counts_as": list(c)}
            for n, (o, c) in OUTPUTS.items()}
    return out


def classify(name: str):
    return table().get(name)
