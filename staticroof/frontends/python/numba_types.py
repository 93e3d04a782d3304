"""Numba's types as the Python front end needs them: element types from signature strings, type
objects, annotations and pragmas, and the promotion rules Numba applies to scalar arithmetic.

Numba follows NumPy's scalar rules with Python literals typed as int64 and float64 (no "weak"
literals): `2.0 * x[i]` on a float32 array is a float64 multiply, `x[i] / 2` a float64 division,
and a float32 with an int32 or int64 promotes to float64.  tests/test_python_precision.py checks
each rule against Numba's own type inference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Numba's type names (and NumPy's, as `np.float32` or `"float32"`) -> IR dtype
DTYPES = {
    "float64": "fp64", "f8": "fp64", "double": "fp64", "float_": "fp64", "float": "fp64",
    "float32": "fp32", "f4": "fp32", "single": "fp32",
    "float16": "fp16", "f2": "fp16", "half": "fp16",
    "int64": "int64", "i8": "int64", "intp": "int64", "int_": "int64", "int": "int64", "intc": "int32",
    "int32": "int32", "i4": "int32", "int16": "int16", "i2": "int16", "int8": "int8", "i1": "int8",
    "uint64": "uint64", "u8": "uint64", "uintp": "uint64", "uint32": "uint32", "u4": "uint32",
    "uint16": "uint16", "u2": "uint16", "uint8": "uint8", "u1": "uint8", "byte": "uint8",
    "boolean": "bool", "b1": "bool", "bool_": "bool", "bool": "bool",
    "complex128": "complex128", "c16": "complex128", "complex_": "complex128", "complex": "complex128",
    "cdouble": "complex128", "complex64": "complex64", "c8": "complex64", "csingle": "complex64",
}
# a complex dtype -> the precision of its two parts (the precision its arithmetic counts in)
COMPLEX_PARTS = {"complex128": "fp64", "complex64": "fp32"}

FLOATS = ("fp16", "fp32", "fp64")
_INT_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32,
             "uint64": 64, "bool": 1}


@dataclass(frozen=True)
class PyType:
    """A parameter's or local's type: a scalar dtype, or an array of `rank` elements of `dtype`."""

    dtype: str  # an IR dtype (fp32, int64, bool, ...)
    rank: int = 0  # 0: a scalar

    @property
    def is_array(self) -> bool:
        return self.rank > 0


def is_float(dtype: str) -> bool:
    return dtype in FLOATS


def is_complex(dtype: str) -> bool:
    return dtype in COMPLEX_PARTS


def is_inexact(dtype: str) -> bool:
    """A float or a complex: a value whose arithmetic is FLOPs (a PVal of kind "float")."""
    return dtype in FLOATS or dtype in COMPLEX_PARTS


def part(dtype: str) -> str:
    """The precision a value's arithmetic counts in: a complex's part, else the dtype itself."""
    return COMPLEX_PARTS.get(dtype, dtype)


def is_int(dtype: str) -> bool:
    return dtype in _INT_BITS


def dtype_name(text: str):
    """The IR dtype a type's spelling names (`np.float32`, `nb.types.f4`, "float32"), else None."""
    base = text.strip().strip("'\"").split(".")[-1]
    return DTYPES.get(base)


def numba_name(dtype: str) -> str:
    """Numba's name for an IR dtype (`fp32` -> `float32`, `bool` -> `boolean`)."""
    return {"fp64": "float64", "fp32": "float32", "fp16": "float16", "bool": "boolean"}.get(dtype, dtype)


def promote(a: str, b: str) -> str:
    """The dtype of a binary arithmetic operation on scalars of dtypes `a` and `b` (NumPy's table,
    which Numba uses for scalars)."""
    if a == b:
        return "int64" if a == "bool" else a
    if is_complex(a) or is_complex(b):  # complex64 with a float64 or an int32/int64 is complex128
        return "complex128" if promote(part(a), part(b)) == "fp64" else "complex64"
    fa, fb = is_float(a), is_float(b)
    if fa and fb:
        return max(a, b, key=FLOATS.index)
    if fa or fb:
        f, i = (a, b) if fa else (b, a)
        bits = _INT_BITS.get(i, 64)
        if i == "bool":
            return f
        need = "fp16" if bits <= 8 else "fp32" if bits <= 16 else "fp64"
        return max(f, need, key=FLOATS.index)
    # integers: the wider (index arithmetic, all the front end needs from them; a mix of signed and
    # unsigned is int64 as Numba types it)
    if a == "bool" or b == "bool":
        return b if a == "bool" else a
    if a.startswith("uint") != b.startswith("uint"):
        return "int64"
    return max(a, b, key=lambda t: _INT_BITS[t])


def true_divide(a: str, b: str) -> str:
    """`/`: integers divide as float64; floats and complex values as their promotion."""
    t = promote(a, b)
    return "fp64" if not is_inexact(t) else t


def unify(a: str | None, b: str | None) -> str | None:
    """The type of a variable assigned values of both types (Numba unifies at a join)."""
    if a is None or b is None:
        return a or b
    if a == b:
        return a
    return promote(a, b)


# ---------------------------------------------------------------------------------------------
# Signatures: "void(float32[:], float32[:], float32)", "float64(float64, int64)", "(f4[:], f4[:])",
# "float64[:, ::1]", a list of them (the first is used), or type objects written the same way.

_ARG = re.compile(r"\s*([A-Za-z_][\w.]*)\s*(\[[^\]]*\])?\s*")


def parse_type(text: str):
    """One argument type (`float32[:, ::1]`, `nb.f4[:]`, `int64`) as a PyType, or None if unknown."""
    m = _ARG.fullmatch(text)
    if not m:
        return None
    dtype = dtype_name(m.group(1))
    if dtype is None:
        return None
    rank = m.group(2).count(",") + 1 if m.group(2) else 0
    return PyType(dtype, rank)


def parse_signature(text: str):
    """(argument types, return type) of a signature string, or None if it is not one.  An argument
    whose type is unknown (a record) is None in the list."""
    text = text.strip().strip("'\"").strip()
    m = re.fullmatch(r"([\w.\[\]:, ]*?)\s*\((.*)\)\s*", text, re.S)
    if not m:
        return None
    ret = parse_type(m.group(1)) if m.group(1).strip() not in ("", "void", "none") else None
    return [parse_type(a) if a.strip() else None for a in split_args(m.group(2))], ret


def split_args(text: str) -> list:
    """Split at top-level commas (not inside brackets or parentheses)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


_PRAGMA = re.compile(r"#\s*staticroof\s*:\s*(.*)$")


def pragma_items(comment: str) -> list:
    """NAME=VALUE pairs of a `# staticroof: x=float32, N=4096` comment ([] for other comments;
    `ignore[...]` items are suppressions, read by the lint)."""
    m = _PRAGMA.search(comment or "")
    if not m:
        return []
    return re.findall(r"([A-Za-z_][\w.]*)\s*=\s*([-\w.]+)", m.group(1))
