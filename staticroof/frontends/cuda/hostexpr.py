"""Host integer expressions, as a C++ compiler evaluates them, for launch configurations.

A launch's grid is computed by host code the analysis never parses: `(n + 255) / 256`,
`(size_t)ceil(((float)NI) / ((float)block.x))`, `std::min(max_blocks, (n + 255) / 256)`, a user
`ceil_div(n, threads)` defined in the file.  :class:`Folder` parses such tokens (a small C
expression parser: casts, calls, ternaries) and evaluates them to sympy, to a number where every
variable has a value and to a formula in the kernel's parameters where the host passes the variable.

Floating point is evaluated as the hardware does.  Numbers are computed in IEEE single or double
precision (single as C's `(float)` cast rounds), so a folded grid is exact at any size.  A formula cannot round: a float
quotient `(float)a / (float)b` of integers is taken as the exact a/b, and `ceil`/`floor`/an integer
cast of it as ceiling/floor division.  That is exact while |a| < 2**24 (float; 2**53 for double):
a non-integral a/b lies at least 1/b from every integer, and the rounding error is below
a/b * 2**-24 < 1/b.  Each formula that relies on it records the bound in `Folder.bounds`.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from ... import floors
from ..common.relations import relation
from ..common.tokens import Token, match_angle, match_close, split_commas

SIZEOF = {"float": 4, "double": 8, "int": 4, "half": 2, "__half": 2, "char": 1, "short": 2, "long": 8,
          "float4": 16, "float2": 8, "__nv_bfloat16": 2, "size_t": 8, "unsigned": 4, "int64_t": 8,
          "uint64_t": 8, "int32_t": 4, "uint32_t": 4, "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2}
_INT_TYPES = {"int", "unsigned", "signed", "long", "short", "char", "size_t", "ssize_t", "ptrdiff_t", "int64_t",
              "uint64_t", "int32_t", "uint32_t", "int16_t", "uint16_t", "int8_t", "uint8_t", "uint", "dim3_t"}
_FLOAT_TYPES = {"float": 24, "double": 53}
_TYPE_WORDS = _INT_TYPES | set(_FLOAT_TYPES) | {"const", "std", "::", "volatile"}


def _round(x: float, bits: int) -> float:
    """`x` rounded to IEEE single (bits 24: the C cast `(float)x`, through struct) or double (53:
    already a Python float).  OverflowError past the largest float."""
    return struct.unpack("f", struct.pack("f", x))[0] if bits == 24 else x


_CEIL = {"ceil", "ceilf", "floor", "floorf", "trunc", "truncf", "round", "roundf"}
_MINMAX = {"min": sympy.Min, "max": sympy.Max, "fmin": sympy.Min, "fmax": sympy.Max, "fminf": sympy.Min,
           "fmaxf": sympy.Max, "umin": sympy.Min, "umax": sympy.Max, "imin": sympy.Min, "imax": sympy.Max}
_BINARY = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4, "<<": 5, ">>": 5,
           "+": 6, "-": 6, "*": 7, "/": 7, "%": 7}


class _Fail(Exception):
    """The expression cannot be folded (an unknown name, call or construct)."""


@dataclass(frozen=True)
class Val:
    """A host value: its exact value, its floating precision (0: an integer type; 24 or 53 mantissa
    bits), and for a symbolic float quotient the numerator whose magnitude bounds the rounding."""

    expr: sympy.Expr
    bits: int = 0
    rounded: sympy.Expr | None = None


@dataclass
class HostFunc:
    """A user function whose body is one `return expr;` (`int ceil_div(int a, int b)`)."""

    params: list  # (name, precision: 0 for an integer type, 24 float, 53 double)
    result: list  # tokens of the returned expression
    bits: int = 0  # the return type's precision
    lets: list = field(default_factory=list)  # (name, tokens, precision) of locals declared before it
    dim3: bool = False  # returns a dim3 (`dim3 make_grid(...)`): inlined by dim3.py, never folded as an int
    dim3_params: frozenset = frozenset()  # its parameters of type dim3 (their `.x` is read by dim3.py)


class Folder:
    """Evaluates host integer expressions given as tokens, in a scope of earlier declarations."""

    def __init__(self, values: dict, exprs: dict | None = None, funcs: dict | None = None):
        self.values = dict(values)  # name -> int (file-scope constants, -D bindings, wrapper arguments)
        self.exprs = dict(exprs or {})  # name -> tokens (host declarations, latest wins)
        self.funcs = dict(funcs or {})  # name -> HostFunc
        self.bounds: list = []  # sympy conditions the last formulas rely on (float rounding)
        self.returns: dict = {}  # function name -> returns a dim3 (launch.function_returns), for dim3.py

    def evaluate(self, tokens, params: dict | None = None):
        """sympy value of `tokens` as an integer (a dim3 extent): host variables in `params` (host
        name -> kernel parameter name) become that parameter's symbol; other variables are replaced
        by what they stand for.  None where it cannot be folded."""
        try:
            v = _Parser(self, list(tokens), params or {}, {}, 0).whole()
            return _to_int(v, self).expr
        except (_Fail, RecursionError, ZeroDivisionError, OverflowError, TypeError, ValueError):
            return None

    def number(self, tokens) -> int | None:
        v = self.evaluate(tokens)
        return int(v) if v is not None and v.is_Integer else None

    def value(self, name: str, params: dict, depth: int) -> Val:
        """What a host name stands for: a kernel parameter, a declaration before, a known value."""
        if name in params:
            return Val(sympy.Symbol(params[name]))
        if name in self.exprs:
            if not self.exprs[name]:  # a host loop's variable: no single value
                raise _Fail(name)
            saved = self.exprs.pop(name)  # no self-reference
            try:
                return _Parser(self, list(saved), params, {}, depth + 1).whole()
            except _Fail:
                pass
            finally:
                self.exprs[name] = saved
        if self.values.get(name) is not None:
            return Val(sympy.Integer(self.values[name]))
        raise _Fail(name)


def fold(tokens: list[Token], env: dict) -> int | None:
    """The integer value of `tokens` with `env` (name -> int), or None."""
    return Folder(env).number(tokens)


def _params(header: list[Token]) -> tuple | None:
    """(index of the parameter list's `(`, [(name or None, precision)]) of a function header."""
    k = next((i for i, t in enumerate(header) if t.text == "("), None)
    if k is None or k == 0 or header[k - 1].kind != "id":
        return None
    params = []
    for part in split_commas(header[k + 1:match_close(header, k)]):
        part = part[:next((j for j, t in enumerate(part) if t.text == "="), len(part))]  # a default argument
        ids = [t for t in part if t.kind == "id" and t.text not in _TYPE_WORDS]
        if [t.text for t in part] in ([], ["void"]):
            continue
        params.append((ids[-1].text if ids and len(part) > 1 else None, _Parser._type_bits(part)))
    return k, params


def param_names(header: list[Token]) -> list:
    """A function header's parameter names (None for an unnamed one)."""
    p = _params(header)
    return [name for name, _ in p[1]] if p is not None else []


def param_bits(header: list[Token]) -> list:
    """A function header's parameters' precisions (0 for an integer type, 24 float, 53 double)."""
    p = _params(header)
    return [bits for _, bits in p[1]] if p is not None else []


def dim3_params(header: list[Token]) -> set:
    """The names of a function header's parameters of type dim3 (`const dim3& block`)."""
    k = next((i for i, t in enumerate(header) if t.text == "("), None)
    if k is None:
        return set()
    out = set()
    for part in split_commas(header[k + 1:match_close(header, k)]):
        part = part[:next((j for j, t in enumerate(part) if t.text == "="), len(part))]
        ids = [t for t in part if t.kind == "id"]
        if len(ids) >= 2 and "dim3" in [t.text for t in part[:-1]]:
            out.add(ids[-1].text)
    return out


def host_function(header: list[Token], body: list[Token]) -> tuple | None:
    """(name, HostFunc) for a function whose body is declarations initialized once (`int b =
    (n + 255) / 256;`) and then `return expr;`: nothing else (no branch, no loop, no assignment).
    The returned expression may hold braces (`return dim3{gx, gy};`, `return {gx, gy, 1};`)."""
    stmts, start = [], 0
    for j, t in enumerate(body):
        if t.text in ("{", "}") and body[start].text == "return":
            continue
        if t.text in ("{", "}", "if", "for", "while", "do", "switch", "goto"):
            return None
        if t.text == ";":
            stmts.append(body[start:j])
            start = j + 1
    if start != len(body) or not stmts or not stmts[-1] or stmts[-1][0].text != "return":
        return None
    lets = []
    for st in stmts[:-1]:
        texts = [t.text for t in st]
        if "=" not in texts or texts.count("=") != 1:
            return None
        k = texts.index("=")
        if k < 2 or st[k - 1].kind != "id" or not all(x in _TYPE_WORDS for x in texts[:k - 1]):
            return None
        lets.append((texts[k - 1], st[k + 1:], _Parser._type_bits(st[:k - 1])))
    p = _params(header)
    if p is None or any(name is None for name, _ in p[1]):
        return None
    k, params = p
    kinds = {t.text for t in header[:k - 1]}
    bits = max((b for name, b in _FLOAT_TYPES.items() if name in kinds), default=0)
    return header[k - 1].text, HostFunc(params, stmts[-1][1:], bits, lets, "dim3" in kinds,
                                        frozenset(dim3_params(header)))


# ---------------------------------------------------------------------------------------------

def _to_int(v: Val, folder: Folder) -> Val:
    """Conversion to an integer type: truncation (toward zero; sizes are non-negative, so floor)."""
    if not v.bits:
        return v
    return Val(_floor_of(v, folder, sympy.floor))


def _truth(c) -> Val:
    """A condition as C's int: 1 or 0, or Piecewise((1, c), (0, True)) while it depends on sizes
    (in arithmetic, a remainder test `n % 256 != 0` is floors: _arith)."""
    c = sympy.sympify(c)
    if c in (sympy.true, sympy.false):
        return Val(sympy.Integer(1 if c == sympy.true else 0))
    return Val(sympy.Piecewise((1, c), (0, True)))


def _cond(e):
    """An int used as a condition: nonzero is true."""
    e = sympy.sympify(e)
    if isinstance(e, sympy.Piecewise) and len(e.args) == 2 and e.args[0][0] == 1 and e.args[1] == (0, True):
        return e.args[0][1]
    if e.is_Boolean or isinstance(e, sympy.logic.boolalg.Boolean):
        return e
    c = sympy.Ne(e, 0)
    if c not in (sympy.true, sympy.false) and not isinstance(c, sympy.logic.boolalg.Boolean):
        raise _Fail("condition")
    return c


def _min_max(c, a, b):
    """`c ? a : b` as Min(a, b) or Max(a, b) where `c` compares a with b (a macro `imin(x, y)`,
    `((x) < (y) ? (x) : (y))`): the analysis reads a Min grid as two bounds (lowering.below); a
    Piecewise it cannot.  None for any other ternary.  On a tie both are the same value, so `<` and
    `<=` give the same lattice."""
    if not isinstance(c, (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge)) or {c.lhs, c.rhs} != {a, b} or a == b:
        return None
    small = c.lhs if isinstance(c, (sympy.Lt, sympy.Le)) else c.rhs  # the side that is less when c holds
    return sympy.Min(a, b) if small == a else sympy.Max(a, b)


def _arith(e):
    """A condition's int in arithmetic (`n / 256 + (n % 256 != 0)`): a remainder test as floors."""
    if isinstance(e, sympy.Piecewise) and len(e.args) == 2 and e.args[0][0] == 1 and e.args[1] == (0, True):
        step = _remainder_step(e.args[0][1], sympy.Integer(1), sympy.Integer(0))
        if step is not None:
            return step
    return e


def _remainder_step(c, a, b):
    """`x % m ? a : b` (a remainder test, `!= 0` or `== 0`, choosing between two numbers) as an
    affine formula: for an integer x >= 0 and m > 0, x % m != 0 exactly when ceil(x/m) - floor(x/m)
    is 1 (else it is 0).  So `n / 256 + (n % 256 ? 1 : 0)` is floor((n + 255)/256), a grid the
    analysis reads, where a Piecewise it cannot.  None for any other ternary."""
    if not (isinstance(c, (sympy.Ne, sympy.Eq)) and c.rhs == 0 and isinstance(c.lhs, sympy.Mod)
            and a.is_Integer and b.is_Integer):
        return None
    x, m = c.lhs.args
    if not (m.is_Integer and m > 0):
        return None
    rest = floors.floor((x + m - 1) / m) - floors.floor(x / m)  # 1 where x % m != 0
    if isinstance(c, sympy.Eq):
        rest = 1 - rest
    return sympy.expand(b + (a - b) * rest)


def _floor_of(v: Val, folder: Folder, fn) -> sympy.Expr:
    if v.expr.is_Number:
        return sympy.Integer(int(fn(v.expr)))
    if v.rounded is not None:  # ceil/floor of a float quotient: ceiling/floor division below the bound
        folder.bounds.append(sympy.Lt(sympy.Abs(v.rounded), 2 ** v.bits))
    num, den = sympy.fraction(sympy.together(v.expr))
    if fn is sympy.ceiling and den != 1:  # of integers a/b, b > 0: floor((a + b - 1)/b), as C writes it
        return floors.floor((num + den - 1) / den)
    return fn(v.expr)


def _hw(a: sympy.Expr, b: sympy.Expr, op: str, bits: int) -> sympy.Expr:
    """`a op b` in IEEE single (bits 24) or double (53) precision, as an exact rational.  A single
    precision result is the double one rounded: for + - * / of floats that is the correctly rounded
    single result (double has more than 2 * 24 + 2 bits), so no numpy is needed."""
    try:
        x, y = _round(float(_fraction(a)), bits), _round(float(_fraction(b)), bits)
    except OverflowError:
        raise _Fail("overflow") from None
    if op == "/" and y == 0:
        raise _Fail("division by zero")
    r = x + y if op == "+" else x - y if op == "-" else x * y if op == "*" else x / y
    try:
        r = _round(r, bits)
    except OverflowError:
        raise _Fail("overflow") from None
    if not math.isfinite(r):
        raise _Fail("overflow")
    return sympy.Rational(Fraction(float(r)))


def _fraction(x) -> Fraction:
    """The exact value of a sympy number or an int as a Fraction: a Rational (an Integer too) is
    its numerator and denominator, as `Fraction(str(x))` reads them from "p/q" but without printing."""
    if isinstance(x, sympy.Rational):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, int):
        return Fraction(x)
    return Fraction(str(x))


class _Parser:
    """Recursive descent over one expression's tokens (C precedence)."""

    def __init__(self, folder: Folder, tokens: list, params: dict, local: dict, depth: int):
        if depth > 40:
            raise _Fail("depth")
        self.f, self.toks, self.params, self.local, self.depth, self.i = folder, tokens, params, local, depth, 0

    def whole(self) -> Val:
        v = self.expr()
        if self.i != len(self.toks):
            raise _Fail("trailing tokens")
        return v

    def peek(self, k: int = 0) -> str:
        return self.toks[self.i + k].text if self.i + k < len(self.toks) else ""

    def take(self, text: str | None = None) -> Token:
        if self.i >= len(self.toks) or (text is not None and self.toks[self.i].text != text):
            raise _Fail(f"expected {text}")
        self.i += 1
        return self.toks[self.i - 1]

    def expr(self) -> Val:
        v = self.binary(1)
        if self.peek() == "?":
            self.take("?")
            a = self.expr()
            self.take(":")
            b = self.expr()
            c = _cond(v.expr)
            if c in (sympy.true, sympy.false):
                return a if c == sympy.true else b
            if a.bits or b.bits:
                raise _Fail("float ternary")
            lattice = _min_max(c, a.expr, b.expr)
            if lattice is not None:
                return Val(lattice)
            step = _remainder_step(c, a.expr, b.expr)
            if step is not None:
                return Val(step)
            return Val(sympy.Piecewise((a.expr, c), (b.expr, True)))
        return v

    def binary(self, level: int) -> Val:
        left = self.unary()
        while _BINARY.get(self.peek(), 0) >= level:
            op = self.take().text
            right = self.binary(_BINARY[op] + 1)
            left = self.apply(op, left, right)
        return left

    def apply(self, op: str, a: Val, b: Val) -> Val:
        x, y = a.expr, b.expr
        if op in ("<", ">", "<=", ">=", "==", "!=", "&&", "||"):  # C: an int, 1 or 0
            if op in ("&&", "||"):
                return _truth((sympy.And if op == "&&" else sympy.Or)(_cond(x), _cond(y)))
            rel = {"<": sympy.Lt, ">": sympy.Gt, "<=": sympy.Le, ">=": sympy.Ge, "==": sympy.Eq, "!=": sympy.Ne}[op]
            return _truth(relation(rel, x, y))
        bits = max(a.bits, b.bits)
        if not bits:
            x, y = _arith(x), _arith(y)
            if op == "+":
                return Val(x + y)
            if op == "-":
                return Val(x - y)
            if op == "*":
                return Val(sympy.expand(x * y))
            if y == 0:
                raise _Fail("division by zero")
            if op == "/":  # C truncates; sizes are non-negative
                return Val(floors.floor(x / y))
            if op == "%":
                return Val(sympy.Mod(x, y))
            if op in ("<<", ">>") and y.is_Integer and 0 <= y < 64:  # wider shifts are undefined in C
                return Val(x * 2 ** int(y) if op == "<<" else floors.floor(x / 2 ** int(y)))
            raise _Fail(op)
        if a.rounded is not None or b.rounded is not None or op not in "+-*/":
            raise _Fail("arithmetic on a rounded float")
        if x.is_Number and y.is_Number:
            return Val(_hw(x, y, op, bits), bits)
        exact = {"+": x + y, "-": x - y, "*": x * y, "/": x / y}[op]
        if op == "/":
            return Val(exact, bits, rounded=x)
        self.f.bounds.append(sympy.Lt(sympy.Abs(exact), 2 ** bits))  # integers below 2**p are exact
        return Val(exact, bits)

    def unary(self) -> Val:
        t = self.peek()
        if t in ("-", "+"):
            self.take()
            v = self.unary()
            return Val(-v.expr, v.bits, v.rounded) if t == "-" else v
        if t == "!":
            self.take()
            return _truth(sympy.Not(_cond(self.unary().expr)))
        if t == "(" and self._cast_at(self.i + 1):
            end = match_close(self.toks, self.i)
            bits = self._type_bits(self.toks[self.i + 1:end])
            self.i = end + 1
            return self._cast(self.unary(), bits)
        return self.postfix()

    def _cast_at(self, j: int) -> bool:
        k = j
        while k < len(self.toks) and self.toks[k].text in _TYPE_WORDS:
            k += 1
        return k > j and k < len(self.toks) and self.toks[k].text == ")"

    @staticmethod
    def _type_bits(toks) -> int:
        texts = [t.text for t in toks]
        return max((b for name, b in _FLOAT_TYPES.items() if name in texts), default=0)

    def _cast(self, v: Val, bits: int) -> Val:
        if not bits:
            return _to_int(v, self.f)
        if v.bits:
            if v.expr.is_Number and v.bits != bits:
                return Val(_hw(v.expr, 0, "+", bits), bits)
            return Val(v.expr, bits, v.rounded)
        if v.expr.is_Number:  # an integer converted to float rounds past 2**bits
            return Val(_hw(v.expr, 0, "+", bits), bits)
        self.f.bounds.append(sympy.Lt(sympy.Abs(v.expr), 2 ** bits))
        return Val(v.expr, bits)

    def postfix(self) -> Val:
        tok = self.take()
        t = tok.text
        if t == "(":
            v = self.expr()
            self.take(")")
            return v
        if tok.kind == "num":
            return self._number(tok)
        if t == "sizeof":
            self.take("(")
            end = match_close(self.toks, self.i - 1)
            inner = [x.text for x in self.toks[self.i:end] if x.text not in ("const", "unsigned")]
            self.i = end + 1
            if not inner or inner[-1] not in SIZEOF:
                raise _Fail("sizeof")
            return Val(sympy.Integer(SIZEOF[inner[-1]]))
        if t in ("static_cast", "reinterpret_cast") and self.peek() == "<":
            end = match_angle(self.toks, self.i)
            bits = self._type_bits(self.toks[self.i + 1:end])
            self.i = end + 1
            self.take("(")
            v = self.expr()
            self.take(")")
            return self._cast(v, bits)
        if tok.kind != "id":
            raise _Fail(t)
        while self.peek() == "::" and self.i + 1 < len(self.toks) and self.toks[self.i + 1].kind == "id":
            self.i += 1  # std::min, ::ceil: the last name
            t = self.take().text
        if t in _TYPE_WORDS and self.peek() == "(":  # a functional cast: size_t(x), float(n)
            self.take("(")
            v = self.expr()
            self.take(")")
            return self._cast(v, _FLOAT_TYPES.get(t, 0))
        if self.peek() == "<" and t in _MINMAX:  # std::min<int>(a, b)
            end = match_angle(self.toks, self.i)
            if end < 0:
                raise _Fail("template arguments")
            self.i = end + 1
        if self.peek() == "(":
            return self.call(t)
        if t in self.local:
            return self.local[t]
        return self.f.value(t, self.params, self.depth)

    @staticmethod
    def _number(tok: Token) -> Val:
        text = tok.text.replace("'", "")
        low = text.lower()
        if not low.startswith("0x") and (any(c in low for c in ".e") or low.endswith("f")):
            bits = 24 if low.endswith("f") else 53
            return Val(sympy.Rational(Fraction(_round(float(text.rstrip("fFlL")), bits))), bits)
        text = text.rstrip("uUlL")
        try:
            v = int(text, 8) if len(text) > 1 and text[0] == "0" and text[1].isdigit() else int(text, 0)
        except ValueError:
            raise _Fail(text) from None
        return Val(sympy.Integer(v))

    def call(self, name: str) -> Val:
        start = self.i
        end = match_close(self.toks, start)
        parts = split_commas(self.toks[start + 1:end])
        self.i = end + 1
        if name == "__SR_SIZE" and len(parts) == 2:  # a size macro: its name where bound, else its value
            macro = parts[0][0].text if len(parts[0]) == 1 else None
            if macro is not None and (macro in self.params or self.f.values.get(macro) is not None):
                return self.f.value(macro, self.params, self.depth)
            return _Parser(self.f, parts[1], self.params, self.local, self.depth + 1).whole()
        args = [_Parser(self.f, p, self.params, self.local, self.depth + 1).whole() for p in parts]
        if name in _MINMAX and len(args) >= 2:
            bits = max(a.bits for a in args)
            if any(a.rounded is not None for a in args):
                raise _Fail("min of a rounded float")
            return Val(_MINMAX[name](*[a.expr for a in args]), bits)
        if name in _CEIL and len(args) == 1:
            (v,) = args
            fn = {"ceil": sympy.ceiling, "floor": sympy.floor, "trunc": sympy.floor,
                  "round": lambda e: sympy.floor(e + sympy.Rational(1, 2))}[name.rstrip("f")]
            if not v.bits:
                return v
            return Val(_floor_of(v, self.f, fn), v.bits)
        fn = self.f.funcs.get(name)
        if fn is None or len(fn.params) != len(args) or fn.dim3:
            raise _Fail(f"call of {name}")
        local = {p: self._cast(a, bits) for (p, bits), a in zip(fn.params, args, strict=True)}
        for let, toks, bits in fn.lets:
            local[let] = self._cast(_Parser(self.f, toks, {}, dict(local), self.depth + 1).whole(), bits)
        v = _Parser(self.f, fn.result, {}, local, self.depth + 1).whole()
        return _to_int(v, self.f) if not fn.bits else v
