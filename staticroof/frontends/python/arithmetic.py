"""Arithmetic as Numba compiles it: the FLOPs of a power and of an operation on complex values,
read off the LLVM IR Numba 0.68 emits (tests/test_python_numba_ir.py compiles each rule and counts
its fmul/fdiv/fadd/fsub, so the two cannot drift).  The front end (expressions.py) and the Python
trace (trace/python/runtime.py) both count through these functions.

Powers.  An integer exponent known when Numba compiles (a literal, a module constant) is expanded
by binary exponentiation and LLVM folds the multiplies by 1.0: x**k is floor(log2 k) + popcount(k)
- 1 multiplies (x**2 1, x**3 2, x**4 2, x**5 3, x**7 4, x**8 3), x**-k one division of 1.0 by x**k
more, x**0 the constant 1.0; beyond |k| = 65536 it calls pow.  A float exponent is a pow call
except the ones LLVM rewrites: 2.0 (one multiply), 0.5 (sqrt), -1.0 (one division), 1.0 and 0.0
(nothing); a base 2 (`2.0 ** x`) is exp2.  An integer exponent known only at run time runs Numba's
loop, two multiplies per bit of |n| (and a division if n < 0): the count depends on the value, so
it is counted as one pow call and said to be approximate.  An integer to an integer power is
integer arithmetic (no FLOP), except a negative literal exponent: 1.0 / k**|e| in float64 (one
division), truncated back to an int64.

Complex values (complex128: two float64; complex64: two float32) count in their parts' precision:
a multiply is 4 multiplies and 2 adds (6; a square `z * z` of one local 5, as LLVM computes its two
cross products once; the same product of an array element read twice is counted 6), an add 2, a
division 9 (CPython's algorithm: a ratio, then 3 multiplies, 3 adds and 2 more divisions, on
either branch), abs a hypot, .real/.imag and conjugate free.  A real operand is promoted to a
complex with imaginary part 0.0, and LLVM folds what IEEE arithmetic allows: `z - r` is 1
subtraction (z.imag - 0.0 is z.imag), `z / r` 8 (the ratio's 0.0 * ratio is folded), a literal
part of exactly 1.0 or -1.0 saves its two multiplies (`1j * z` is 4).  `z ** 2` is a square (5);
other complex powers call numba_cpow, whose work is not counted (approximate).
"""

from __future__ import annotations

from dataclasses import dataclass

from .numba_types import is_complex, is_float, is_inexact, part, promote

POWI_LIMIT = 65536  # Numba expands an integer power up to this |exponent|, calls pow beyond it


@dataclass(frozen=True)
class Cost:
    """The work of one operation: `flops` in the precision of `prec`, the special function it
    calls (a cost-table base name: "pow", "sqrt", "exp2", "hypot"; "f" is added for fp32), and
    `why` when the count is not exact (said in a diagnostic)."""

    dtype: str  # the result's dtype
    flops: int = 0
    special: str | None = None
    why: str = ""
    at: str = ""  # the precision the FLOPs count in, where it is not the result's

    @property
    def prec(self) -> str:
        return self.at or part(self.dtype)


def powi_multiplies(k: int) -> int:
    """The multiplies of x**k (k >= 1) by binary exponentiation with the multiplies by 1.0
    folded: a squaring per bit after the first, a multiply per set bit after the first."""
    return k.bit_length() - 1 + bin(k).count("1") - 1


def power(base: str, exp: str, exponent=None, base_value=None) -> Cost:
    """x ** y for a base of dtype `base` and an exponent of dtype `exp`; `exponent` is the
    exponent's value when the source fixes it (a literal or a module constant), `base_value` the
    base's when it is a literal."""
    if not is_inexact(base) and not is_inexact(exp):
        if isinstance(exponent, int) and exponent < 0:  # int ** -k: int(1.0 / k**|e|), one fp64 division
            return Cost("int64", 1, at="fp64")
        return Cost(promote(base, exp))
    if is_complex(base) or is_complex(exp):
        t = promote(base, exp)
        if not is_inexact(exp) and exponent == 2:
            return Cost(t, 5)  # z * z: re*im is one product (complex_op's `same`)
        return Cost(t, 0, None, "a complex power calls numba_cpow, whose work is not counted")
    if not is_inexact(exp):  # an integer exponent: the result keeps the base's float type
        if exponent is None:
            return Cost(base, 0, "pow", "an integer exponent known only at run time: Numba multiplies twice per "
                        f"bit of |n| (a pow call beyond {POWI_LIMIT}); counted as one pow call")
        k = int(exponent)
        if abs(k) > POWI_LIMIT:
            return Cost(base, 0, "pow")
        return Cost(base, powi_multiplies(abs(k)) + (k < 0) if k else 0)
    t = promote(base, exp)  # a float exponent: int and float32 bases promote as for `*`
    if exponent is None:
        return Cost(t, 0, "exp2" if base_value == 2 else "pow")
    c = float(exponent)
    if c in (0.0, 1.0):
        return Cost(t)
    if c in (2.0, -1.0):
        return Cost(t, 1)
    if c == 0.5:
        return Cost(t, 0, "sqrt")
    return Cost(t, 0, "pow")


def complex_op(op: str, a: str, b: str, a_value=None, b_value=None, same: bool = False) -> Cost:
    """`a op b` (+ - * /) where a or b is complex; `a_value`/`b_value` are literal operands'
    values (a literal part of exactly +-1.0 saves its multiplies); `same`: both operands are one
    value (`z * z` of a local z), whose re*im and im*re LLVM computes once (5 FLOPs)."""
    t = promote(a, b)
    ca, cb = is_complex(a), is_complex(b)
    if op == "+":
        return Cost(t, 2)
    if op == "-":
        return Cost(t, 2 if cb else 1)  # z - r: z.imag - 0.0 is z.imag
    if op == "*":
        saved = sum(2 for v in (a_value, b_value) if v is not None
                    for p in (complex(v).real, complex(v).imag) if p in (1.0, -1.0))
        return Cost(t, max(6 - saved - (1 if same and not saved else 0), 2))
    if op == "/":
        return Cost(t, 9 if cb or not ca else 8)
    raise ValueError(f"`{op}` on complex values")


def binary(op: str, a: str, b: str, t: str, a_value=None, b_value=None, same: bool = False) -> Cost:
    """One arithmetic operator (+ - * / // %) on scalars of dtypes a and b whose result is `t`:
    one FLOP on floats, the complex rules on complex values, nothing on integers."""
    if is_complex(a) or is_complex(b):
        return complex_op(op, a, b, a_value, b_value, same)
    return Cost(t, 1 if is_float(t) else 0)
