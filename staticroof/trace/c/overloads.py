"""C++ overload resolution in the generated C: which renamed overload (cuda_rewrite.overloads) a
call runs, decided by the C compiler from each argument's real type.

For every type an argument can have where the candidates' parameters differ (the arithmetic
types, the parameters' own types, pointers with and without `const`), the choice C++ makes is
worked out here and selected with `__builtin_choose_expr(__builtin_types_compatible_p(...))`:
exact match, then promotion (float to double; bool, char and short to int), then conversion (any
other arithmetic conversion, a pointer to `void *`), then user-defined (to or from `__half`, a class
in CUDA: from one, its `operator float()` and a standard conversion after it); the best candidate
is no worse in every argument and better in one.  A call with no single best for the types it
really has (nvcc would reject it) stops the run with a message, never a silent pick.

Written apart from the analysis's resolution (frontends/overloads.py), which this oracle checks.
"""

from __future__ import annotations

_INT_RANK = {"_Bool": 0, "char": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2,
             "int": 3, "unsigned int": 3, "long": 4, "unsigned long": 4, "long long": 5, "unsigned long long": 5}
_FLOATS = ("float", "double", "long double")
_CLASS = "_Float16"  # __half in the trace's prelude
_ARITH = [*_INT_RANK, *_FLOATS, _CLASS]
_ALIASES = {"unsigned": "unsigned int", "signed": "int", "signed int": "int", "long int": "long",
            "long long int": "long long", "unsigned long int": "unsigned long", "short int": "short",
            "unsigned long long int": "unsigned long long", "unsigned short int": "unsigned short",
            "bool": "_Bool", "__half": _CLASS, "half": _CLASS, "size_t": "unsigned long",
            "int8_t": "signed char", "int16_t": "short", "int32_t": "int", "int64_t": "long",
            "uint8_t": "unsigned char", "uint16_t": "unsigned short", "uint32_t": "unsigned int",
            "uint64_t": "unsigned long"}
_EXACT, _PROMOTION, _CONVERSION, _USER = 0, 1, 2, 3
_MAX_LEAVES = 1024  # argument-type combinations spelled out per call


def _canon(t: str) -> str:
    t = " ".join(t.split())
    if t.endswith("*"):
        base = t[:-1].strip()
        words = [w for w in base.split() if w not in ("const", "volatile", "restrict")]
        return _canon(" ".join(words)) + " *"
    return _ALIASES.get(t, t)


def _rank(arg: str, param: str):
    """C++'s rank of converting `arg` to `param` (C spellings), or None if not viable."""
    a, p = _canon(arg), _canon(param)
    if a == p:
        return _EXACT
    arith_a, arith_p = a in _ARITH, p in _ARITH
    if arith_a and arith_p:
        if p == _CLASS:
            return _USER
        if a == _CLASS:  # operator float(), then float to the parameter
            return _USER + _rank("float", p) / 10
        if a == "float" and p == "double":
            return _PROMOTION
        if _INT_RANK.get(a, 9) < 3 and p == "int":
            return _PROMOTION
        return _CONVERSION
    if p == "void *" and a.endswith("*"):
        return _CONVERSION
    return None


def _best(cands: list, positions: list, types: tuple):
    """The candidate C++ chooses when the arguments at `positions` have `types`, or None."""
    ranked = []
    for c in cands:
        ranks = [_rank(t, c[1][k]) for k, t in zip(positions, types, strict=True)]
        if None not in ranks:
            ranked.append((c, ranks))

    def better(r1, r2):
        return all(x <= y for x, y in zip(r1, r2, strict=True)) and any(x < y for x, y in zip(r1, r2, strict=True))

    best = [c for c, r in ranked if not any(better(r2, r) for d, r2 in ranked if d is not c)]
    return best[0] if len(best) == 1 else None


def _universe(cands: list, k: int, small: bool) -> list:
    out = []
    for c in cands:
        t = c[1][k]
        out.append(t)
        if t.rstrip().endswith("*"):
            base = _canon(t)[:-1].strip()
            out += [f"{base} *", f"const {base} *"]
    if not small or any(_canon(c[1][k]) in _ARITH for c in cands):
        out += _ARITH if not small else []
    return list(dict.fromkeys(out))


def select(name: str, cands: list, args: list) -> str:
    """C for the function a call of overloaded `name` with argument texts `args` runs; `cands` are
    [(C name, [parameter type])] with as many parameters as arguments."""
    if len(cands) == 1:
        return cands[0][0]
    common = min([len(args)] + [len(c[1]) for c in cands])
    positions = [k for k in range(common) if len({_canon(c[1][k]) for c in cands}) > 1]
    if not positions:
        return _fail(name, "its overloads take the same parameter types", cands)
    universes = [_universe(cands, k, False) for k in positions]
    if _leaves(universes) > _MAX_LEAVES:
        universes = [_universe(cands, k, True) for k in positions]

    def choose(depth: int, types: tuple) -> str:
        if depth == len(positions):
            c = _best(cands, positions, types)
            return c[0] if c is not None else _fail(name, "no single best overload for these argument types", cands)
        arg = args[positions[depth]]
        text = _fail(name, "an argument's type matches no overload", cands)
        for t in reversed(universes[depth]):
            text = (f"__builtin_choose_expr(__builtin_types_compatible_p(__typeof__({arg}), {t}), "
                    f"{choose(depth + 1, types + (t,))}, {text})")
        return text

    return f"({choose(0, ())})"


def _leaves(universes) -> int:
    n = 1
    for u in universes:
        n *= len(u)
    return n


def _fail(name: str, why: str, cands: list) -> str:
    return f'(__sr_fail("the call of the overloaded `{name}` cannot be resolved: {why}"), {cands[0][0]})'

