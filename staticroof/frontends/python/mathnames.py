"""Math in Python kernels: `math.*` and NumPy ufuncs by the cost table's names (light: the front-end
registry reads the aliases without importing libcst)."""

from __future__ import annotations

# Python and NumPy spellings of the cost table's functions (C names: fp64 `sqrt`, fp32 `sqrtf`)
MATH = ("sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin", "cos", "tan",
        "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc",
        "gamma", "lgamma", "hypot", "fmod", "fma")
RENAMES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh",
            "arccosh": "acosh", "arctanh": "atanh", "power": "pow", "gamma": "tgamma", "remainder": "fmod"}
FREE = {"abs", "fabs", "absolute", "real", "imag", "conj", "conjugate", "min", "max", "minimum", "maximum", "fmin",
        "fmax", "floor", "ceil", "trunc", "round", "rint", "copysign", "sign", "isnan", "isinf", "isfinite"}
# NumPy's arithmetic ufuncs: `np.add(a, b, out=c)` is `c[...] = a + b`
OPERATORS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "true_divide": "/"}
_TWO_INPUTS = {"atan2", "arctan2", "hypot", "pow", "power", "fmod", "remainder", "copysign", "maximum", "minimum",
               "fmax", "fmin"}


def ufunc_inputs(name: str) -> int:
    """How many inputs the NumPy ufunc `name` takes: one more positional argument is its output
    array (`np.sqrt(x, y)`, `np.add(a, b, c)`: Numba accepts `out` only so, not as a keyword)."""
    return 2 if name in OPERATORS or name in _TWO_INPUTS else 1


CASTS = {"int": "int64", "float": "fp64", "bool": "bool"}


def cost_name(function: str, prec: str) -> str:
    """The cost table's name for a Python math function at a precision (`math.sqrt` on float32 is
    `sqrtf`, as Numba calls libm's float function)."""
    base = RENAMES.get(function, function)
    return base + "f" if prec == "fp32" else base


def cost_aliases() -> dict:
    """{"math.sqrt": {"fp64": "sqrt", "fp32": "sqrtf"}, ...} for the front-end registry."""
    out = {}
    for mod in ("math", "numpy"):
        for fn in (*MATH, *RENAMES):
            out[f"{mod}.{fn}"] = {"fp64": cost_name(fn, "fp64"), "fp32": cost_name(fn, "fp32")}
    return out
