"""The cost of loading a file (issue #15): the call graph's cycles without networkx, and the header
runs the parser remembers per process.  Each must give what the work done afresh gives."""

from __future__ import annotations

import random
from fractions import Fraction

from staticroof.frontends.c.frontend import on_cycles


def test_on_cycles_finds_the_functions_of_every_cycle_and_self_call():
    # a -> b -> c -> a is a cycle (all three), d calls itself, e only calls into the cycle, f and g
    # form a chain without a cycle, h calls nothing: {a, b, c, d}
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "f"], "d": ["d", "e"], "e": ["a"], "f": ["g"], "g": [], "h": []}
    assert on_cycles(graph) == {"a", "b", "c", "d"}
    assert on_cycles({"x": []}) == set() and on_cycles({}) == set()
    # two cycles joined by one edge stay two components, both on cycles; the chain's end is not
    assert on_cycles({"p": ["q"], "q": ["p", "r"], "r": ["s"], "s": ["r"], "t": ["p"]}) == {"p", "q", "r", "s"}


def test_on_cycles_agrees_with_reachability_on_random_graphs():
    # a node is on a cycle exactly when it reaches itself through one or more edges: the definition,
    # checked by brute force on random graphs, including a chain deeper than the recursion limit
    rng = random.Random(15)
    for _ in range(200):
        n = rng.randint(1, 9)
        graph = {k: sorted({rng.randrange(n) for _ in range(rng.randint(0, 3))}) for k in range(n)}
        expected = set()
        for k in graph:
            seen, todo = set(), list(graph[k])
            while todo:
                x = todo.pop()
                if x == k:
                    expected.add(k)
                    break
                if x not in seen:
                    seen.add(x)
                    todo.extend(graph[x])
        assert on_cycles(graph) == expected, graph
    chain = {k: [k + 1] for k in range(5000)}
    chain[5000] = [0]
    assert on_cycles(chain) == set(chain)
    chain[5000] = []
    assert on_cycles(chain) == set()


def test_relations_of_two_rationals_are_decided_as_sympy_decides_them():
    # p1/q1 against p2/q2 with q > 0: 1/2 < 2/3 (1*3 < 2*2), -3/4 < -2/3 (-9 < -8), 2 == 4/2, 0 == 0,
    # -1 < 0; every relation at every pair of a grid with equal, negative and zero values agrees
    # with sympy's own decision and is sympy.true or sympy.false itself
    import sympy

    from staticroof.frontends.common.relations import relation

    half, two_thirds = sympy.Rational(1, 2), sympy.Rational(2, 3)
    assert relation(sympy.Lt, half, two_thirds) is sympy.true
    assert relation(sympy.Ge, half, two_thirds) is sympy.false
    assert relation(sympy.Lt, sympy.Rational(-3, 4), sympy.Rational(-2, 3)) is sympy.true
    assert relation(sympy.Eq, sympy.Integer(2), sympy.Rational(4, 2)) is sympy.true
    assert relation(sympy.Ne, sympy.Integer(0), sympy.Integer(0)) is sympy.false
    assert relation(sympy.Lt, sympy.Integer(-1), sympy.Integer(0)) is sympy.true
    grid = [sympy.Rational(p, q) for p in (-2, -1, 0, 1, 3) for q in (1, 2, 3)]
    for cls in (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge, sympy.Eq, sympy.Ne):
        for a in grid:
            for b in grid:
                assert relation(cls, a, b) is cls(a, b), (cls, a, b)
    # anything that is not two Rationals is sympy's: a symbol, a float
    n = sympy.Symbol("n")
    assert relation(sympy.Lt, n, sympy.Integer(3)) == sympy.Lt(n, 3)
    assert relation(sympy.Lt, sympy.Float(0.5), sympy.Integer(1)) is sympy.true


def test_host_arithmetic_reads_rationals_exactly():
    # the float quotient (float)1000 / (float)32 = 31.25 in single precision; 1/3 in double is the
    # double nearest 1/3 (what Fraction(str(Rational(1, 3))) gave): the same as before, without printing
    import sympy

    from staticroof.frontends.cuda.hostexpr import _fraction, _hw

    assert _hw(sympy.Integer(1000), sympy.Integer(32), "/", 24) == sympy.Rational(125, 4)
    assert _fraction(sympy.Rational(1, 3)) == Fraction(1, 3) == Fraction(str(sympy.Rational(1, 3)))
    assert _fraction(0) == 0 and _fraction(sympy.Integer(-5)) == -5
    assert _hw(sympy.Integer(1), sympy.Integer(3), "/", 53) == sympy.Rational(Fraction(1 / 3))


def test_inequalities_of_polynomials_in_plain_symbols_are_sympys_unevaluated_ones():
    # 32*bx + tx < n, n + 1 < n (sympy does not decide it: n may be any complex number) and
    # 2 >= x**2*y - 3 stay unevaluated; where a symbol has assumptions sympy may decide, and the
    # shortcut must not apply: r**2 < -1 is false for a real r, k + 1 > 0 true for a positive k
    import sympy

    from staticroof.frontends.common.relations import relation, substitute

    bx, tx = sympy.Dummy("blockIdx.x"), sympy.Dummy("threadIdx.x")
    n = sympy.Symbol("n")
    got = relation(sympy.Lt, 32 * bx + tx, n)
    assert type(got) is sympy.StrictLessThan and got.args == (32 * bx + tx, n)
    assert relation(sympy.Lt, n + 1, n) == sympy.Lt(n + 1, n, evaluate=False)
    assert relation(sympy.Ge, sympy.Integer(2), bx**2 * tx - 3).args == (2, bx**2 * tx - 3)
    r, k = sympy.Symbol("r", real=True), sympy.Symbol("k", positive=True)
    assert relation(sympy.Lt, r**2, sympy.Integer(-1)) is sympy.false
    assert relation(sympy.Gt, k + 1, sympy.Integer(0)) is sympy.true
    # a substituted loop bound is what xreplace gives, and itself where nothing changed
    i, v = sympy.Symbol("__loopvar_i"), sympy.Dummy("i")
    cond = sympy.Lt(i, n - 1)
    assert substitute(cond, {i: v}) == cond.xreplace({i: v}) and substitute(cond, {tx: v}) is cond


def test_relation_agrees_with_sympy_on_random_polynomials():
    # canonical polynomials (sums of monomials as sympy's arithmetic builds them) and forms outside
    # the shortcut (a product of sums, floor, Mod, Max, a number), on fresh symbols each round so
    # that no sympy cache answers: every relation gives what the relational class gives
    import sympy

    from staticroof.frontends.common.relations import relation

    rng = random.Random(1515)
    for _ in range(15):
        syms = [sympy.Dummy("i"), sympy.Dummy("j"), sympy.Symbol("n"), sympy.Symbol("m")]

        def poly(syms=syms):
            e = sympy.Integer(rng.randint(-3, 3))
            for _ in range(rng.randint(0, 3)):
                mono = sympy.Integer(rng.choice([-2, -1, 1, 3, sympy.Rational(1, 2)]))
                for s in rng.sample(syms, rng.randint(1, 2)):
                    mono *= s ** rng.randint(1, 2)
                e += mono
            return e

        def side(syms=syms):
            kind = rng.randrange(6)
            if kind == 0:
                return poly() * poly()
            if kind == 1:
                return sympy.floor(poly() / 4)
            if kind == 2:
                return sympy.Mod(poly(), 3)
            if kind == 3:
                return sympy.Max(poly(), syms[2])
            return poly()

        a, b = side(), side()
        for cls in (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge, sympy.Eq, sympy.Ne):
            try:
                want = cls(a, b)
            except TypeError:  # sympy refuses the comparison: so must the shortcut
                continue
            got = relation(cls, a, b)
            assert type(got) is type(want) and got == want, (cls, a, b)


def test_a_condition_substituted_is_what_xreplace_gives():
    # (i < n) & (i + 2 >= m): n -> 1000 keeps the And of two inequalities; i -> 5 decides the first
    # (5 < 1000) and leaves 7 >= m; n -> 4 and m -> 0 with i -> 5 make it false; an empty or
    # identity substitution keeps it; random sizes folded into random guards agree with xreplace
    import sympy

    from staticroof.frontends.common.relations import substitute

    i, n, m = sympy.Dummy("i"), sympy.Symbol("n"), sympy.Symbol("m")
    cond = sympy.And(sympy.Lt(i, n), sympy.Ge(i + 2, m))
    assert substitute(cond, {n: 1000}) == sympy.And(sympy.Lt(i, 1000), sympy.Ge(i + 2, m))
    assert substitute(cond, {i: 5, n: 1000}) == sympy.Ge(7, m)
    assert substitute(cond, {i: 5, n: 4, m: 0}) is sympy.false
    assert substitute(cond, {}) is cond and substitute(cond, {n: n}) == cond
    rng = random.Random(7)
    for _ in range(30):
        a, b = sympy.Dummy("a"), sympy.Dummy("b")
        atoms = [a, b, n, m, 2 * a + n, a - m + 1]
        rels = [rng.choice([sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge])(rng.choice(atoms), rng.choice(atoms + [3]))
                for _ in range(3)]
        rels = [r for r in rels if r not in (sympy.true, sympy.false)] or [sympy.Lt(a, n)]
        guard = rng.choice([sympy.And, sympy.Or])(*rels)
        subs = {s: rng.randint(-2, 4) for s in rng.sample([a, b, n, m], rng.randint(0, 4))}
        want = guard.xreplace(subs)
        got = substitute(guard, subs)
        assert got == want and type(got) is type(want), (guard, subs)
