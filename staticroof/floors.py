"""sympy.floor of the affine arguments isl writes, made without sympy's assumption queries.

Every floor isl puts in a count (`floor((p_n + 3)/4)`, nested `floor((p_m + floor(p_n/4))/8)`) is
built again each time a formula is read from isl's text, each time its parameters are renamed to
the user's sizes and each time drop_floors puts a residue class in it; the frontends build one for
each integer division.  sympy.floor(arg) of a new argument first asks ten or so assumption queries
(is_real, is_integer, is_finite, is_imaginary, (I*arg).is_real, then of its terms), each run
through sympy's fact deduction: on the test corpus, a third of a second of 12 s CPU.  The answers
are known without asking for the arguments below, so `floor` gives the very expression
sympy.floor does, built with the same operations in the same order, and `xreplace` is
Basic.xreplace with its floors made by `floor`.

The arguments (`affine`): a sum of rational constants and rational multiples of atoms, at least
one atom, where an atom is a Symbol (or Dummy) with no assumptions or a floor of such an argument.
For such an argument sympy knows nothing but commutativity: a symbol without assumptions may be
any complex number, and the handlers of Add, Mul (a rational times an atom) and floor (is_integer
and is_real are its argument's is_real, is_finite its argument's is_finite) give None from
arguments that are None.  So, in sympy 1.14's RoundFunction.eval (sympy/functions/elementary/
integers.py), for such an argument:

- floor._eval_number returns the argument when it is a floor or minus one (floor(floor(y)) is
  floor(y)), else None: it is no Number and no NumberSymbol, and minus a sum is a sum;
- floor._eval_const_number is None: all of it is under `if arg.is_real`;
- `arg.is_integer`, `arg.is_finite is False`, `arg.is_imaginary`, `(I*arg).is_real` are falsy;
- of the terms, an Integer goes to the integer part (int_valued), another rational to the
  numeric part (is_imaginary False, not int-valued, is_integer False, is_number), and a multiple
  of an atom to the symbolic part (is_imaginary and is_integer falsy, not a number);
- the numeric part is not taken out (that needs the symbolic part imaginary or real), so it
  joins the symbolic part, which is not zero (it holds an atom), not imaginary, not real;
- the result is the integer part plus the symbolic part when that is a floor, else plus the
  symbolic part's floor left unevaluated.

The same holds, with other answers, for `integer_affine` arguments: a rational plus integer
multiples of symbols made with integer=True alone (drop_floors puts v = P*w in every floor, w such
a symbol).  Such a sum is real and finite, takes positive and negative values (so is_positive and
is_negative are falsy: sympy's assumptions are sound), and is an integer exactly when its constant
is one.  So in RoundFunction.eval:

- _eval_number is None (no Number; minus a sum or a multiple of a symbol is no floor), and
  _eval_const_number too (is_zero, is_positive, is_negative are all falsy);
- an integer constant (or none): `arg.is_integer` is True and the argument is the result;
- else the multiples of symbols are integers (intof) and go to the integer part in their order,
  the constant to the numeric part, and with no symbolic part the numeric part's floor (by
  get_integer_part, as eval asks it) joins the integer part, which is the result.

Every other argument goes to sympy.floor itself.  tests/test_floors.py checks, on every floor
argument the analysis of several corpus files meets, that this is sympy's result (== and srepr)
and that sympy answers each of the queries above as said: a sympy whose answers change fails
the test instead of changing a formula.
"""

from __future__ import annotations

import sympy
from sympy.core.basic import Basic
from sympy.core.evalf import get_integer_part

_PLAIN = {"commutative": True}  # a Symbol's assumptions0 when it was made without assumptions
_INTEGER = sympy.Dummy(integer=True).assumptions0  # ... when it was made with integer=True alone
_SYMBOLS = (sympy.Symbol, sympy.Dummy)  # exactly these types: a subclass may answer queries itself


def affine(arg) -> bool:
    """Is `arg` a sum of rationals and rational multiples of atoms (a Symbol or Dummy without
    assumptions, or the floor of such a sum), with at least one atom?"""
    atoms = False
    for t in sympy.Add.make_args(arg):
        if t.is_Rational:
            continue
        c, a = t.as_coeff_Mul()
        if not c.is_Rational:
            return False
        if type(a) in _SYMBOLS:
            if a.assumptions0 != _PLAIN:
                return False
        elif type(a) is not sympy.floor or not affine(a.args[0]):
            return False
        atoms = True
    return atoms


def integer_affine(arg) -> bool:
    """Is `arg` a rational plus integer multiples of symbols (Symbol or Dummy) made with
    integer=True alone, at least one?"""
    atoms = False
    for t in sympy.Add.make_args(arg):
        if t.is_Rational:
            continue
        c, a = t.as_coeff_Mul()
        if not c.is_Integer or type(a) not in _SYMBOLS or a.assumptions0 != _INTEGER:
            return False
        atoms = True
    return atoms


def floor(arg: sympy.Expr) -> sympy.Expr:
    """sympy.floor(arg), the same expression: for an `affine` or `integer_affine` argument as
    RoundFunction.eval makes it (see the module's docstring), else by sympy.floor."""
    if not isinstance(arg, sympy.Expr):
        return sympy.floor(arg)
    if integer_affine(arg):
        return _integer_floor(arg)
    if not affine(arg):
        return sympy.floor(arg)
    if type(arg) is sympy.floor:  # floor._eval_number: floor(floor(y)) = floor(y)
        return arg
    if arg.is_Mul and len(arg.args) == 2 and arg.args[0] is sympy.S.NegativeOne and type(arg.args[1]) is sympy.floor:
        return arg  # floor._eval_number: -arg is a floor
    ipart = npart = spart = sympy.S.Zero
    for t in sympy.Add.make_args(arg):  # eval's loop, each term where eval puts it
        if t.is_Integer:
            ipart += int(t)
        elif t.is_Rational:
            npart += t
        else:
            spart += t
    spart += npart
    if isinstance(spart, (sympy.floor, sympy.ceiling)):
        return ipart + spart
    return ipart + sympy.floor(spart, evaluate=False)


def _integer_floor(arg: sympy.Expr) -> sympy.Expr:
    terms = sympy.Add.make_args(arg)
    npart = next((t for t in terms if t.is_Rational), sympy.S.Zero)  # a canonical sum has one number
    if npart.is_Integer:
        return arg  # eval: arg.is_integer
    ipart = sympy.S.Zero
    for t in terms:
        if not t.is_Rational:
            ipart += t
    r, i = get_integer_part(npart, -1, {}, return_ints=True)
    return ipart + (sympy.Integer(r) + sympy.Integer(i) * sympy.S.ImaginaryUnit)


def xreplace(expr: Basic, rule: dict) -> Basic:
    """expr.xreplace(rule), the same expression (Basic._xreplace: a node in the rule is replaced,
    a node whose arguments changed is made again from them), with each floor made again by
    `floor` above instead of sympy.floor."""
    return _xreplace(expr, rule)[0]


def _xreplace(e: Basic, rule: dict) -> tuple:
    if e in rule:
        return rule[e], True
    if rule:
        args = []
        changed = False
        for a in e.args:
            if isinstance(a, Basic):
                value, moved = _xreplace(a, rule)
                args.append(value)
                changed |= moved
            else:
                args.append(a)
        if changed:
            return (floor(args[0]) if type(e) is sympy.floor else e.func(*args)), True
    return e, False
