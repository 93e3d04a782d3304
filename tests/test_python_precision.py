"""The Python front end's precision of each arithmetic operation against Numba's own typing: each
rule is one kernel, compiled with numba.njit here (the only place numba is imported) and analyzed
by staticroof from the same source; the float operations Numba types, by precision, are the FLOPs
staticroof counts at one element (x.shape[0] = 1)."""

from __future__ import annotations

import textwrap
from collections import Counter

import pytest

from helpers import analyze_file

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")

_PREC = {"float32": "fp32", "float64": "fp64"}

# (rule, body inside `for i in range(x.shape[0]):` (or the whole body when it has no loop marker), the
# argument types).  x and y are float32 arrays unless a rule says otherwise.
RULES = [
    ("f32 * f32", "y[i] = x[i] * x[i]", {}),
    ("float literal promotes f32 to f64", "y[i] = 2.0 * x[i]", {}),
    ("int literal promotes f32 to f64", "y[i] = 2 * x[i]", {}),
    ("f32 / int literal is f64", "y[i] = x[i] / 2", {}),
    ("x ** 2 is one operation, at the float's type", "y[i] = x[i] ** 2", {}),
    ("np.float32 literal keeps f32", "y[i] = np.float32(2.0) * x[i] + x[i]", {}),
    ("loop index (int64) promotes f32", "y[i] = i * x[i]", {}),
    ("int32 element promotes f32 to f64", "y[i] = k[i] * x[i]", {"k": "int32"}),
    ("int16 element keeps f32", "y[i] = k[i] * x[i]", {"k": "int16"}),
    ("int8 element keeps f32", "y[i] = k[i] + x[i]", {"k": "int8"}),
    ("uint8 element keeps f32", "y[i] = k[i] - x[i]", {"k": "uint8"}),
    ("f32 + f64 is f64", "y[i] = x[i] + d[i]", {"d": "float64"}),
    ("f64 array stored into f32", "y[i] = d[i] * d[i]", {"d": "float64"}),
    ("f32 scalar argument keeps f32", "y[i] = a * x[i]", {"a": "float32"}),
    ("f64 scalar argument promotes", "y[i] = a * x[i]", {"a": "float64"}),
    ("int / int is a f64 division", "y[i] = i / 3", {}),
    ("float floor division", "y[i] = x[i] // a", {"a": "float32"}),
    ("f64 arrays", "y[i] = x[i] * x[i] - x[i]", {"x": "float64", "y": "float64"}),
    ("constant expression is folded", "y[i] = x[i] * (2.0 * 3.0)", {}),
    ("accumulator 0.0 is f64", "s = 0.0\nfor i in range(x.shape[0]):\n    s += x[i] * x[i]\ny[0] = s", {}),
    ("accumulator float32(0) stays f32",
     "s = np.float32(0)\nfor i in range(x.shape[0]):\n    s += x[i] * x[i]\ny[0] = s", {}),
    ("float32 accumulator promoted by an f64 update",
     "s = np.float32(0)\nfor i in range(x.shape[0]):\n    s += 2.0 * x[i]\ny[0] = s", {}),
    ("local copies keep their type", "t = x[i] * x[i]\nu = t + 1.0\ny[i] = u * t", {}),
]


def _source(body: str, types: dict) -> tuple[str, list]:
    params = {"x": "float32", "y": "float32", **types}
    names = list(params)
    if "for i in range" not in body:
        body = "for i in range(x.shape[0]):\n" + textwrap.indent(body, "    ")
    sig = ", ".join(f"{params[n]}[:]" if n not in ("a",) else params[n] for n in names)
    src = (f"import numpy as np\nfrom numba import njit\n\n\n@njit(\"void({sig})\")\n"
           f"def kernel({', '.join(names)}):\n" + textwrap.indent(body, "    ") + "\n")
    return src, [(n, params[n]) for n in names]


def _numba_counts(src: str, params) -> Counter:
    scope: dict = {}
    exec(compile(src, "<rule>", "exec"), scope)  # the test's own rule, not a user file
    fn = scope["kernel"]
    cres = fn.overloads[fn.signatures[0]]
    out: Counter = Counter()
    for expr, sig in cres.type_annotation.calltypes.items():
        if getattr(expr, "op", None) in ("binop", "inplace_binop") and sig is not None:
            prec = _PREC.get(str(sig.return_type))
            if prec is not None:
                out[prec] += 1
    return out


@pytest.mark.parametrize("rule,body,types", RULES, ids=[r[0] for r in RULES])
def test_precision_matches_numba(rule, body, types, tmp_path):
    src, params = _source(body, types)
    expected = _numba_counts(src, params)
    p = tmp_path / "rule.py"
    p.write_text(src)
    kernels, _ = analyze_file(p, {"x_shape0": "1"})
    k = kernels["kernel"]
    assert not k.failed, [str(d) for d in k.diagnostics]
    got = Counter({prec: int(q.value) for prec, q in k.total.by_precision.items() if q.value})
    assert got == expected, (rule, dict(got), dict(expected))


def _numba_promotions(src: str) -> int:
    """Numba's binary operations that take a float32 operand and give a float64: the ones SR107
    must name."""
    scope: dict = {}
    exec(compile(src, "<rule>", "exec"), scope)
    fn = scope["kernel"]
    cres = fn.overloads[fn.signatures[0]]
    typemap = cres.type_annotation.typemap  # the operands' own types (the call's are converted)
    return sum(1 for expr, sig in cres.type_annotation.calltypes.items()
               if getattr(expr, "op", None) in ("binop", "inplace_binop") and sig is not None
               and str(sig.return_type) == "float64"
               and any(str(typemap[v.name]) == "float32" for v in (expr.lhs, expr.rhs)))


@pytest.mark.parametrize("rule,body,types", RULES, ids=[r[0] for r in RULES])
def test_sr107_on_each_operation_numba_promotes(rule, body, types, tmp_path):
    # one SR107 per operation where Numba widens a float32 operand to float64 (a Python float,
    # an int64 loop index or int32, a float64 array or scalar, a float64 accumulator), none
    # elsewhere, and no two of one statement at the same column
    src, _params = _source(body, types)
    expected = _numba_promotions(src)
    p = tmp_path / "rule.py"
    p.write_text(src)
    k = analyze_file(p, {"x_shape0": "1"})[0]["kernel"]
    notes = [d for d in k.diagnostics if d.code == "SR107"]
    assert len(notes) == expected, (rule, [str(d) for d in notes], expected)
    places = [(d.location.line, d.location.col) for d in notes]
    assert len(set(places)) == len(places)
