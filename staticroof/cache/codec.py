"""Analysis results as plain JSON data and back, for the cache.

Not pickle: a cache folder can arrive inside a pull request, and reading it must never run
anyone's code.  Decoding builds only the classes listed here, and sympy expressions only from a
fixed set of sympy classes whose arguments are themselves decoded expressions (a string reaches
sympy only as a symbol's name), so the worst a forged entry can do is be wrong, and a malformed
one is a miss.

A dump is ``{"x": expressions, "v": value}``.  The expressions are a table, each distinct
subexpression once, whose nodes name earlier nodes by index (``["Add", [0, 3]]``, ``["Symbol",
"N", {"integer": true}]``); a `Dummy` (a loop variable of the IR) is one node, rebuilt as a fresh
Dummy, so within one entry every use is the same variable and no variable of this process is.  In
the value, every JSON object is one tagged node: ``{"c": class, "f": fields}``, ``{"e": table
index}``, ``{"t": tuple}``, ``{"d": [[key, value], ...]}``,
``{"q": [numerator, denominator]}``, ``{"s": set}``; lists, strings, numbers, booleans and null
stand for themselves.  A piecewise count keeps its pieces as formulas and conditions (`FrozenPieces`):
what the reports read, without the isl sets they were computed from.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache, lru_cache


class EncodeError(Exception):
    """Something in a result has no encoding: that result is simply not cached."""


@dataclasses.dataclass
class FrozenPiece:
    expr: object
    condition: object


@dataclasses.dataclass
class FrozenPieces:
    """What reports read of `analysis.pieces.Pieces`: `single`, `pieces` (each with `expr`) and
    `condition(piece)`."""

    single: bool
    pieces: list

    def condition(self, piece: FrozenPiece):
        return piece.condition


@lru_cache(maxsize=1)
def _classes() -> dict:
    from ..analysis.result import Quantity
    from ..analysis.summary import ArraySummary, KernelSummary, Level, PartSummary
    from ..diagnostics import Diagnostic, Location
    from ..ir import Array, Guard, Kernel, Loop, Ref, Size, Stmt

    return {c.__name__: c for c in (KernelSummary, PartSummary, ArraySummary, Level, Quantity, Location, Diagnostic,
                                    FrozenPieces, FrozenPiece,
                                    # the loop IR a summary keeps (`ir`) for lint's rules
                                    Kernel, Array, Size, Loop, Guard, Stmt, Ref)}


# -- sympy expressions -------------------------------------------------------------------------

# Compound expressions, rebuilt as cls(*args) (sympy guarantees expr.func(*expr.args) == expr).
_FUNCTIONS = ("Add", "Mul", "Pow", "floor", "ceiling", "Min", "Max", "Mod", "Abs", "sign", "Piecewise",
              "ExprCondPair", "Equality", "Unequality", "StrictLessThan", "LessThan", "StrictGreaterThan",
              "GreaterThan", "And", "Or", "Not", "Xor", "Implies", "ITE", "log", "exp", "frac", "Heaviside",
              "KroneckerDelta", "binomial", "factorial", "Contains", "Interval", "FiniteSet", "Union",
              "Intersection", "Complement")
_SINGLETONS = ("Infinity", "NegativeInfinity", "NaN", "ComplexInfinity", "BooleanTrue", "BooleanFalse", "Pi",
               "Exp1", "ImaginaryUnit", "EulerGamma", "EmptySet", "Integers", "Naturals", "Naturals0", "Reals")


_NO_EVALUATE_FLAG = ("ExprCondPair", "Interval")


@cache
def _function(name: str):
    import sympy
    from sympy.functions.elementary.piecewise import ExprCondPair

    return ExprCondPair if name == "ExprCondPair" else getattr(sympy, name)


class _Encoder:
    """Values to JSON data; expressions go into one table, each distinct subexpression once (a
    symbol used by a hundred formulas is stored, and later rebuilt, once)."""

    def __init__(self):
        self.table: list = []
        self.index: dict = {}

    def expr(self, e) -> int:
        import sympy

        found = self.index.get((type(e), e))  # by type too: Float(1.0) == 1 in some sympy versions
        if found is not None:
            return found
        name = type(e).__name__
        if isinstance(e, sympy.Integer):
            node = ["Integer", int(e)]
        elif isinstance(e, sympy.Rational):
            node = ["Rational", int(e.p), int(e.q)]
        elif isinstance(e, sympy.Float):
            f = float(e)
            if e._prec != 53 or sympy.Float(f) != e:
                raise EncodeError(f"float {e} of precision {e._prec}")
            node = ["Float", f]
        elif type(e) is sympy.Symbol:
            node = ["Symbol", e.name, dict(sorted(e._assumptions_orig.items()))]
        elif type(e) is sympy.Dummy:  # a loop variable: one node per variable, rebuilt as a fresh Dummy
            node = ["Dummy", e.name, dict(sorted(e._assumptions_orig.items()))]
        elif name in _SINGLETONS and e.is_Atom:
            node = ["S", name]
        elif name in _FUNCTIONS:
            node = [name, [self.expr(a) for a in e.args]]
        else:
            raise EncodeError(f"no encoding for {name}")
        self.table.append(node)
        self.index[(type(e), e)] = len(self.table) - 1
        return len(self.table) - 1

    def value(self, value):
        import sympy

        from ..analysis.pieces import Pieces
        from ..diagnostics import Location, shown

        if value is None or isinstance(value, (bool, int, str, float)):
            return value
        if isinstance(value, Fraction):
            return {"q": [value.numerator, value.denominator]}
        if isinstance(value, sympy.Basic):
            return {"e": self.expr(value)}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return {"t": [self.value(v) for v in value]}
        if isinstance(value, (set, frozenset)):
            return {"s": [self.value(v) for v in sorted(value, key=repr)]}
        if isinstance(value, dict):
            return {"d": [[self.value(k), self.value(v)] for k, v in value.items()]}
        if isinstance(value, Pieces):
            if value.single:
                return self.value(FrozenPieces(True, []))
            return self.value(FrozenPieces(False, [FrozenPiece(p.expr, value.condition(p)) for p in value.pieces]))
        if isinstance(value, Location):  # the real name, not a `#line` alias of this process
            value = Location(shown(value.file), value.line, value.col)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            name = type(value).__name__
            if _classes().get(name) is not type(value):
                raise EncodeError(f"no encoding for {name}")
            return {"c": name, "f": {f.name: self.value(getattr(value, f.name)) for f in dataclasses.fields(value)}}
        raise EncodeError(f"no encoding for {type(value).__name__}")


# Deeper than any count's formula; a forged entry nested deeper would make printing recurse.
MAX_DEPTH = 400
# Larger than any count's constant or exponent: a forged entry's `10**(10**12)` would make evaluating
# or comparing it run for ever (issue #30 §11).
MAX_INTEGER_BITS = 1024
MAX_EXPONENT = 64


class _Decoder:
    def __init__(self, table):
        if not isinstance(table, list):
            raise ValueError("no expression table")
        self.exprs: list = []
        self.depths: list = []
        for node in table:  # a node refers only to nodes before it: no cycles, no recursion
            self.exprs.append(self._node(node))
        self.classes = _classes()

    def _arg(self, i):
        if not _is_int(i) or not 0 <= i < len(self.exprs):
            raise ValueError("not an expression index")
        return self.exprs[i]

    def _node(self, node):
        import sympy
        from sympy.core.assumptions import _assume_defined

        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise ValueError("not an expression")
        tag = node[0]
        depth = 1
        if tag in _FUNCTIONS and len(node) == 2 and isinstance(node[1], list) and node[1]:
            depth += max(self.depths[i] if _is_int(i) and 0 <= i < len(self.depths) else 0 for i in node[1])
            if depth > MAX_DEPTH:
                raise ValueError("an expression nested too deeply")
        self.depths.append(depth)
        if tag in ("Integer", "Rational") and any(_is_int(v) and v.bit_length() > MAX_INTEGER_BITS for v in node[1:]):
            raise ValueError("an integer too large for a count")
        if tag == "Integer" and len(node) == 2 and _is_int(node[1]):
            return sympy.Integer(node[1])
        if tag == "Rational" and len(node) == 3 and _is_int(node[1]) and _is_int(node[2]) and node[2] > 0:
            return sympy.Rational(node[1], node[2])
        if tag == "Float" and len(node) == 2 and isinstance(node[1], float):
            return sympy.Float(node[1])
        if tag in ("Symbol", "Dummy") and len(node) == 3 and isinstance(node[1], str) and isinstance(node[2], dict):
            if not all(k in _assume_defined and isinstance(v, bool) for k, v in node[2].items()):
                raise ValueError("unknown assumption")
            return (sympy.Symbol if tag == "Symbol" else sympy.Dummy)(node[1], **node[2])
        if tag == "S" and len(node) == 2 and node[1] in _SINGLETONS:
            return {"BooleanTrue": sympy.true, "BooleanFalse": sympy.false}.get(node[1]) or getattr(sympy.S, node[1])
        if tag in _FUNCTIONS and len(node) == 2 and isinstance(node[1], list):
            args = [self._arg(i) for i in node[1]]
            if tag == "Pow" and len(args) == 2 and args[1].is_Number and abs(args[1]) > MAX_EXPONENT:
                raise ValueError("an exponent too large for a count")
            if tag in _NO_EVALUATE_FLAG:
                return _function(tag)(*args)
            # the arguments are an evaluated expression's: evaluating again (Min/Max's search for
            # redundant arguments) would only cost time
            return _function(tag)(*args, evaluate=False)
        raise ValueError(f"not an expression: {tag}")

    def value(self, data):
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return [self.value(v) for v in data]
        if not isinstance(data, dict):
            raise ValueError("not an encoded value")
        if "c" in data:
            if set(data) != {"c", "f"}:
                raise ValueError("not an encoded object")
            cls = self.classes[data["c"]]
            fields = data["f"]
            if not isinstance(fields, dict) or set(fields) != {f.name for f in dataclasses.fields(cls)}:
                raise ValueError(f"fields of {data['c']}")
            return cls(**{k: self.value(v) for k, v in fields.items()})
        if len(data) != 1:
            raise ValueError("not an encoded value")
        (tag, body), = data.items()
        if tag == "e":
            return self._arg(body)
        if tag == "q" and isinstance(body, list) and len(body) == 2 and all(_is_int(x) for x in body) and body[1] > 0:
            return Fraction(body[0], body[1])
        if tag in ("t", "s", "d") and isinstance(body, list):
            if tag == "t":
                return tuple(self.value(v) for v in body)
            if tag == "s":
                return {self.value(v) for v in body}
            if not all(isinstance(kv, list) and len(kv) == 2 for kv in body):
                raise ValueError("not a dict")
            return {self.value(k): self.value(v) for k, v in body}
        raise ValueError(f"unknown tag {tag}")


def dump(value) -> dict:
    """`value` (a result, or a list or dict of them) as JSON data; EncodeError when something in
    it has no encoding."""
    enc = _Encoder()
    data = enc.value(value)
    return {"x": enc.table, "v": data}


def load(data):
    """The value `dump` made; ValueError, TypeError or KeyError for anything else."""
    if not isinstance(data, dict) or set(data) != {"x", "v"}:
        raise ValueError("not a dump")
    return _Decoder(data["x"]).value(data["v"])


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
