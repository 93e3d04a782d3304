"""A flat thread index decomposed by division and modulo by sizes: exact as mixed-radix digits.

`idx = blockIdx.x*blockDim.x + threadIdx.x; if (idx < B*T*C) { b = idx / (T*C); t = (idx / C) % T;
c = idx % C; ... }` is the common way a kernel spreads one thread per element of a B x T x C box.
Below the guard, `idx = b*T*C + t*C + c` with `t` in `[0, T)` and `c` in `[0, C)`: the index *is*
the digits of a mixed-radix number, and every division and remainder by a size that is one of its
place values is a digit sum.  So the kernel is lowered with the digits as loop variables (a plan:
the guard's bound factored, outer digit first), a division `x / y` becomes the part of `x`
divisible by `y` when the rest provably lies in `[0, y)` (sizes are at least 1), and the thread
loop over `idx` becomes the digits' loops; `idx < B*T*C` is `b < B`.  Whatever the plan cannot
prove stays "division by a non-constant" (approximate), so a plan is never a guess: the front end
tries each ordering of the bound's factors and keeps the one approximate for the fewest reasons.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import sympy

from ...ir import Guard, Loop, Stmt, walk
from ..common.lowering import affine


@dataclass(frozen=True)
class Plan:
    """The digits of dimension `dim`'s global index (`var` "g"), or of its block index alone ("bx": one
    block per row, `row = blockIdx.x; t = row % T`): radices outer first (their product is the guard's
    bound), their loop variables, and the place values."""

    dim: str
    radices: tuple
    digits: tuple = field(default=(), compare=False)
    var: str = "g"

    @property
    def places(self) -> tuple:
        out, p = [], sympy.Integer(1)
        for r in reversed(self.radices):
            out.append(p)
            p = p * r
        return tuple(reversed(out))

    @property
    def bound(self):
        return sympy.Mul(*self.radices)

    def flat(self):
        return sympy.expand(sum(d * p for d, p in zip(self.digits, self.places, strict=True)))


def with_digits(plan: Plan) -> Plan:
    digits = tuple(sympy.Dummy(f"digit{k}.{plan.dim}") for k in range(len(plan.radices)))
    return Plan(plan.dim, plan.radices, digits, plan.var)


def bound_factors(bound) -> list | None:
    """The size symbols whose product is `bound` (with repeats), or None if it is not such a product of
    at least two."""
    bound = sympy.sympify(bound)
    if not isinstance(bound, sympy.Mul):
        return None
    out = []
    for f in bound.args:
        base, exp = f.as_base_exp()
        if not base.is_Symbol or not exp.is_Integer or exp < 1:
            return None
        out.extend([base] * int(exp))
    return out if len(out) >= 2 else None


def plans(bounds: list, limit: int = 24) -> list:
    """Candidate plans from the (dim, bound, var) a kernel compares its global ("g") or block ("bx")
    index with."""
    out: list = []
    for dim, bound, var in bounds:
        factors = bound_factors(bound)
        if factors is None:
            continue
        for order in dict.fromkeys(itertools.permutations(factors)):
            p = Plan(dim, tuple(order), var=var)
            if p not in out:
                out.append(p)
            if len(out) >= limit:
                return out
    return out


def compared(info: dict, a, b) -> list:
    """("g" or "bx", bound) for a comparison of a, b that compares a dimension's global index (formed
    or, with its block and thread indices loop variables, written out) or its block index alone with
    something: a candidate bound for a radix plan (radix.py)."""
    out = []
    glob = info.get("g")
    if glob is None and isinstance(info["tx"], sympy.Dummy):
        glob = info["bx"] * info["B"] + info["tx"]
    for x, y in ((a, b), (b, a)):
        if glob is not None and sympy.expand(x - glob) == 0:
            out.append(("g", y))
        elif "g" not in info and x == info["bx"]:
            out.append(("bx", y))
    return out


def grid_bound(e, block, params) -> bool:
    """Whether the grid formula `e` (sympy, or None) of one launch dimension whose block size is
    `block` (None: unknown) is a loop bound in the kernel's `params`: a formula in them only, in a
    countable form, with the block a number (gridDim*blockDim with both unknown is a product of
    sizes).  Otherwise the grid is a size of its own."""
    return (e is not None and bool(e.free_symbols) and bool(block)
            and e.free_symbols <= {sympy.Symbol(p) for p in params} and countable(e))


def countable(e) -> bool:
    """Whether a grid formula is one the counting can take as a loop bound: sizes and floors or
    ceilings of them with no size in a denominator (`floor((n + 255)/256)`, not `floor(4096/tile)`)."""
    e = sympy.sympify(e)
    if e.has(sympy.Piecewise) or e.atoms(sympy.Rel):  # C's `n > 255` is 1 or 0: not a bound
        return False
    for f in e.atoms(sympy.floor, sympy.ceiling):
        if sympy.denom(sympy.together(f.args[0])).free_symbols:
            return False
    plain = e.replace(lambda x: isinstance(x, (sympy.floor, sympy.ceiling)), lambda x: sympy.Integer(1))
    return not sympy.denom(sympy.together(plain)).free_symbols


def divide(op: str, x, y, plan: Plan, g):
    """`x / y` (op "/") or `x % y` (op "%") on non-negative integers in the plan's digits, or None if
    the remainder is not provably in `[0, y)`."""
    x = sympy.expand(sympy.sympify(x).xreplace({g: plan.flat()}))
    y = sympy.sympify(y)
    if not (isinstance(y, (sympy.Symbol, sympy.Mul, sympy.Pow))
            and all(f.is_Symbol or f.is_Pow for f in sympy.Mul.make_args(y))):
        return None
    quotient: list = []
    rest: list = []
    for term in sympy.Add.make_args(x):
        num, den = sympy.fraction(sympy.cancel(term / y))
        (quotient if den == 1 else rest).append(num if den == 1 else term)
    r = sympy.Add(*rest)
    if not _in_range(r, y, plan):
        return None
    return sympy.Add(*quotient) if op == "/" else r


def _in_range(r, y, plan: Plan) -> bool:
    """0 <= r < y for every value of the plan's inner digits and every size >= 1."""
    inner = dict(zip(plan.digits[1:], plan.radices[1:], strict=True))
    if r.free_symbols & {plan.digits[0]}:
        return False
    for term in sympy.Add.make_args(r):
        coeff, _ = term.as_coeff_Mul()
        if coeff < 0:
            return False
    loops = {s for s in r.free_symbols if isinstance(s, sympy.Dummy)} - set(inner)
    if loops:
        return False  # another loop's variable: its range is not known here
    top = r.xreplace({d: rad - 1 for d, rad in inner.items()})
    return _nonnegative(y - 1 - top)


def _nonnegative(e) -> bool:
    """Is the polynomial `e` in sizes (each at least 1) provably >= 0?  With each size written
    1 + s (s >= 0), every coefficient non-negative suffices."""
    e = sympy.expand(e)
    syms = sorted(e.free_symbols, key=str)
    if not syms:
        return e >= 0
    shifted = sympy.expand(e.xreplace({s: s + 1 for s in syms}))
    try:
        poly = sympy.Poly(shifted, *syms)
    except sympy.PolynomialError:
        return False
    return all(c >= 0 for c in poly.coeffs())


def apply(body: list, plan: Plan, g, loop_syms: set) -> bool:
    """Rewrite a lowered kernel body in place: the global index `g` becomes the plan's digits, its
    loop their loops, `g < bound` the outer digit's range.  False (body unusable) when a condition
    stays non-affine."""
    flat = plan.flat()
    top, rad0 = plan.digits[0], plan.radices[0]
    syms = set(loop_syms) | set(plan.digits)

    def condition(c):
        if c is None:
            return None
        c = c.replace(lambda e: isinstance(e, sympy.core.relational.Relational) and g in e.free_symbols,
                      lambda e: _digit_relation(e, g, plan.bound, top, rad0, flat))
        return c

    ok = True
    for n in walk(body):
        if isinstance(n, Loop):
            n.start = sympy.expand(n.start.xreplace({g: flat}))
            if n.var != g:
                n.cond = condition(n.cond)
                ok = ok and _affine_cond(n.cond, syms)
        elif isinstance(n, Guard):
            n.cond = condition(n.cond)
            ok = ok and (n.cond is None or _affine_cond(n.cond, syms))
        elif isinstance(n, Stmt):
            for r in n.refs:
                if r.index is not None:
                    r.index = tuple(sympy.expand(sympy.sympify(e).xreplace({g: flat})) for e in r.index)
    if not ok:
        return False
    _replace_loop(body, g, plan)
    return True


def _digit_relation(rel, g, bound, top, rad0, flat):
    """`g < bound` as `top < rad0` (and `g >= bound` as `top >= rad0`); any other relation in terms
    of the digits."""
    f = sympy.expand(rel.lhs - rel.rhs)
    h = {sympy.StrictLessThan: f, sympy.LessThan: f - 1, sympy.StrictGreaterThan: -f,
         sympy.GreaterThan: -f - 1}.get(type(rel))
    if h is not None:
        if sympy.expand(h - (g - bound)) == 0:
            return sympy.Lt(top, rad0)
        if sympy.expand(h - (bound - 1 - g)) == 0:
            return sympy.Ge(top, rad0)
    return rel.xreplace({g: flat})


def _affine_cond(c, syms) -> bool:
    for rel in c.atoms(sympy.core.relational.Relational):
        if not affine(sympy.expand(rel.lhs - rel.rhs), syms, allow_size_products=True):
            return False
    return True


def _replace_loop(body: list, g, plan: Plan) -> None:
    for k, n in enumerate(body):
        if isinstance(n, Loop) and n.var == g:
            inner = n.body
            for d, rad in reversed(list(zip(plan.digits[1:], plan.radices[1:], strict=True))):
                inner = [Loop(d, sympy.Integer(0), sympy.Lt(d, rad), 1, inner, n.kind, n.location)]
            body[k] = Loop(plan.digits[0], sympy.Integer(0), n.cond.xreplace({g: plan.digits[0]}), 1, inner, n.kind,
                           n.location)
        elif isinstance(n, Loop):
            _replace_loop(n.body, g, plan)
        elif isinstance(n, Guard):
            _replace_loop(n.then, g, plan)
            _replace_loop(n.orelse, g, plan)
