"""The compiled loop nest (staticroof.analysis.loopcode) against the IR walker it replaces
(interpret.walk_counts): the same counts, value and type, the same TooLarge at the same budgets and
the same errors, on real kernels (guards, shared memory, special functions, tiles, floors and
mods, registers), and the walker taking over where Python cannot compile a nest.  The walker shares
its reference rule (interpret.counted_refs) and expression compiler with loopcode, so the counts are
also checked against _Reference below, which imports nothing from staticroof.analysis."""

from __future__ import annotations

from dataclasses import asdict

import pytest
import sympy

from staticroof.analysis import loopcode
from staticroof.analysis.counts import TooLarge
from staticroof.analysis.interpret import enumerate_counts, walk_counts
from staticroof.frontends import load
from staticroof.ir import Array, Guard, Kernel, Loop, Ref, Stmt

from helpers import ROOT, exact_function

FILES = ["samples/matmul_tiled.cu", "samples/softmax.cu", "samples/gemm.c", "samples/l2norm.cu",
         "tests/data/cuda/transpose_tiled.cu", "tests/data/cuda/tile_div_mod.cu", "tests/data/cuda/rowsum_block.cu",
         "tests/data/real/cuda/histograms.cu", "tests/data/real/cuda/llm_layers.cu", "tests/data/real/loops_suite.c"]
# costs as a user may give them (--cost expf=4.5): float FLOPs added in the walker's order
WEIGHTS = [{}, {"expf": 4.5, "__expf": 0.1, "sqrtf": 0.3, "rsqrtf": 0.7, "sqrt": 3, "exp": 0.1, "logf": 0.2}]


def _outcome(count, kernel, sizes, weights, budget, memo=None):
    """Everything a caller can see: each count with its type, or the exception's type."""
    try:
        c = count(kernel, sizes, weights, budget, memo) if memo is not None else count(kernel, sizes, weights, budget)
    except Exception as exc:  # the walker's errors are part of what must be the same
        return type(exc).__name__
    return {key: {k: (type(v).__name__, v) for k, v in part.items()} for key, part in asdict(c).items()}


def _kernels(path):
    res, _ = load(str(ROOT / path), {})
    return res.kernels


@pytest.mark.parametrize("path", FILES)
def test_compiled_counts_are_the_walkers(path):
    seen = too_large = 0
    for kernel in _kernels(path):
        memo: dict = {}  # shared across points, as the self-check shares it
        for v in (1, 2, 3, 7):
            sizes = dict.fromkeys(kernel.sizes, v)
            for budget in (3000, 40, 1):
                for weights in WEIGHTS:
                    new = _outcome(enumerate_counts, kernel, sizes, weights, budget, memo)
                    assert new == _outcome(walk_counts, kernel, sizes, weights, budget), (kernel.name, sizes, budget)
                    seen += 1
                    too_large += new == "TooLarge"
        assert memo.get("program") is not None, kernel.name  # the compiled path ran, not the walker
    assert seen and too_large < seen  # counts compared, not only budgets running out


class _Reference:
    """The counts by the IR's rules, walked here with the test's own exact evaluator
    (helpers.exact_function): no code of staticroof.analysis (interpret's walker and loopcode share
    their reference rule, counted_refs, and their expression compiler).  The rules, as the IR
    states them: a statement instance adds its FLOPs (a special call adds `weight` FLOPs, default
    1, in its precision); a reference to a known array with a subscript in DRAM ("global",
    "constant") or shared memory is an access, one per distinct (statement group, loops, subscript,
    kind, branch path) and iteration of the enclosing loops, but a DRAM reference invariant in its
    innermost loop of kind "seq" or "unknown" one per iteration of the loops outside that (a
    register holds it); a DRAM element's first access decides whether it counts as first read;
    written elements are counted once.  Returns the counts with the number of statement instances
    and loop iterations run (TooLarge at a budget b: more than b instances or 10 b iterations)."""

    def __init__(self, kernel, sizes, weights):
        self.kernel, self.weights = kernel, weights
        self.env = {sympy.Symbol(k): v for k, v in sizes.items()}
        self.fns: dict = {}
        self.flops: dict = {}
        self.special: dict = {}
        self.first: dict = {}
        self.written: dict = {}
        self.accesses: dict = {}
        self.statements = self.iterations = 0

    def value(self, expr):
        if isinstance(expr, (bool, int)):
            return expr
        f = self.fns.get(id(expr))
        if f is None:
            syms = sorted(sympy.sympify(expr).free_symbols, key=str)
            f = self.fns[id(expr)] = (exact_function(expr, syms), syms)
        return f[0]([self.env[s] for s in f[1]])

    def run(self):
        self.nodes(self.kernel.body, (), ())
        arrays: dict = {}
        for name, elems in self.first.items():
            arrays.setdefault(name, {})["first_read"] = sum(1 for k in elems.values() if k == "read")
        for name, elems in self.written.items():
            arrays.setdefault(name, {})["written"] = len(elems)
        shared: dict = {}
        for (dram, name, kind, *_), iters in self.accesses.items():
            target = (arrays if dram else shared).setdefault(name, {})
            what = "loads" if kind == "read" else "stores"
            target[what] = target.get(what, 0) + len(iters)
        return {"flops": self.flops, "special": self.special, "arrays": arrays, "shared": shared}

    def nodes(self, nodes, loops, path):
        for node in nodes:
            if isinstance(node, Stmt):
                self.stmt(node, loops, path)
            elif isinstance(node, Guard):
                if node.cond is None:  # both branches run
                    self.nodes(node.then, loops, path + ((id(node), True),))
                    self.nodes(node.orelse, loops, path + ((id(node), False),))
                elif self.value(node.cond):
                    self.nodes(node.then, loops, path + ((id(node), True),))
                else:
                    self.nodes(node.orelse, loops, path + ((id(node), False),))
            else:
                old, v = self.env.get(node.var), self.value(node.start)
                while True:
                    self.env[node.var] = v
                    if not self.value(node.cond):
                        break
                    self.iterations += 1
                    if self.iterations > 10 * self.LIMIT:
                        raise TooLarge()
                    self.nodes(node.body, loops + ((node, v),), path)
                    v += node.step
                self.env[node.var] = old

    LIMIT = 3000  # statement instances (and 10x as many loop iterations): past every budget tried

    def stmt(self, stmt, loops, path):
        self.statements += 1
        if self.statements > self.LIMIT:
            raise TooLarge()
        for prec, n in stmt.flops.items():
            if n:
                self.flops[prec] = self.flops.get(prec, 0) + n
        for (fname, prec), calls in stmt.special.items():
            self.special[fname] = self.special.get(fname, 0) + calls
            self.flops[prec] = self.flops.get(prec, 0) + calls * self.weights.get(fname, 1)
        inner = loops[-1][0] if loops else None
        values = tuple(v for _, v in loops)
        for ref in stmt.refs:
            arr = self.kernel.arrays.get(ref.array)
            if arr is None or arr.space not in ("global", "constant", "shared"):
                continue
            dram = arr.space != "shared"
            if ref.index is None and dram:  # an unknown element of DRAM: not counted (approximate)
                continue
            index = () if ref.index is None else ref.index  # shared at an unknown element: one access
            elem = tuple(self.value(e) for e in index)
            hoisted = dram and inner is not None and inner.kind in ("seq", "unknown") and \
                not any(inner.var in sympy.sympify(e).free_symbols for e in index)
            if dram:
                self.first.setdefault(ref.array, {}).setdefault(elem, ref.kind)
                if ref.kind == "write":
                    self.written.setdefault(ref.array, set()).add(elem)
            key = (dram, ref.array, ref.kind, stmt.group or id(stmt), tuple(id(n) for n, _ in loops),
                   tuple(map(str, index)), path)
            self.accesses.setdefault(key, set()).add(values[:-1] if hoisted else values)


def _nonzero(counts: dict) -> dict:
    """The arrays' zero fields, and arrays with nothing else, left out; FLOPs and calls with their types."""
    out = {part: {k: (type(v).__name__, v) for k, v in counts[part].items()} for part in ("flops", "special")}
    for part in ("arrays", "shared"):
        fields = {name: {k: v for k, v in f.items() if v} for name, f in counts[part].items()}
        out[part] = {name: f for name, f in fields.items() if f}
    return out


def _plain(c) -> dict:
    """A Counts as _Reference gives it (values and their types compared exactly)."""
    return _nonzero({"flops": c.flops, "special": c.special, "arrays": {n: asdict(a) for n, a in c.arrays.items()},
                     "shared": {n: asdict(a) for n, a in c.shared.items()}})


@pytest.mark.parametrize("path", FILES)
def test_compiled_counts_are_the_independent_references(path):
    """The compiled nest against _Reference (no code shared), at the sizes and budgets above."""
    compared = 0
    for kernel in _kernels(path):
        memo: dict = {}
        for v in (1, 2, 3, 7):
            sizes = dict.fromkeys(kernel.sizes, v)
            for weights in WEIGHTS:
                ref = _Reference(kernel, sizes, weights)
                try:
                    want = ref.run()
                except TooLarge:  # past every budget: the compiled nest must say so at each
                    want = None
                except ValueError:  # an expression exact_function does not evaluate
                    continue
                for budget in (3000, 40, 1):
                    try:
                        got = _plain(enumerate_counts(kernel, sizes, weights, budget, memo))
                    except TooLarge:
                        assert ref.statements > budget or ref.iterations > 10 * budget, (kernel.name, sizes)
                        continue
                    assert want is not None and ref.statements <= budget and ref.iterations <= 10 * budget
                    assert got == _nonzero(want), (kernel.name, sizes, budget)
                    compared += 1
    assert compared


def _kernel(body, arrays=("a",)):
    return Kernel("k", "c", None, arrays={a: Array(a, "float") for a in arrays}, sizes={"n": None}, body=body)


def test_budget_stops_at_the_same_instance():
    # n statements in one loop: a budget of n passes, n - 1 does not; an empty loop of n
    # iterations stops at 10 * budget iterations like the walker's
    i, n = sympy.symbols("i n")
    stmt = Stmt(flops={"fp32": 1}, refs=[Ref("a", (i,), "write")])
    k = _kernel([Loop(i, 0, i < n, 1, [stmt])])
    assert enumerate_counts(k, {"n": 5}, budget=5).flops == {"fp32": 5}
    with pytest.raises(TooLarge):
        enumerate_counts(k, {"n": 5}, budget=4)
    empty = _kernel([Loop(i, 0, i < n, 1, [])])
    assert enumerate_counts(empty, {"n": 30}, budget=3) == walk_counts(empty, {"n": 30}, budget=3)
    with pytest.raises(TooLarge):
        enumerate_counts(empty, {"n": 31}, budget=3)


def test_an_expression_that_does_not_compile_raises_only_where_it_is_reached():
    # sqrt(n) has no exact evaluator: the walker raises ValueError when the guard is evaluated;
    # behind a guard that is false it is never reached, and the counts are the walker's
    i, n = sympy.symbols("i n")
    bad = Guard(sympy.sqrt(n) > 2, [Stmt(flops={"fp32": 1})])
    k = _kernel([Guard(n > 3, [bad]), Loop(i, 0, i < n, 1, [Stmt(flops={"fp64": 2}, refs=[Ref("a", (i,), "read")])])])
    assert enumerate_counts(k, {"n": 3}) == walk_counts(k, {"n": 3})
    assert enumerate_counts(k, {"n": 3}).flops == {"fp64": 6}
    with pytest.raises(ValueError):
        walk_counts(k, {"n": 4})
    with pytest.raises(ValueError):
        enumerate_counts(k, {"n": 4})


def test_a_missing_size_raises_the_walkers_error():
    i, n = sympy.symbols("i n")
    k = _kernel([Loop(i, 0, i < n, 1, [Stmt(flops={"fp32": 1})])])
    for count in (enumerate_counts, walk_counts):
        with pytest.raises(TypeError):  # None < int
            count(k, {})


def test_nests_deeper_than_python_compiles_are_walked():
    # Python compiles at most 20 nested loops in one function: 21 loops deep, the nest is walked
    vs = sympy.symbols("i0:21")
    n = sympy.Symbol("n")
    body: list = [Stmt(flops={"fp32": 1}, refs=[Ref("a", (sum(vs),), "read")])]
    for v in reversed(vs):
        body = [Loop(v, 0, v < n, 1, body)]
    k = _kernel(body)
    assert loopcode.program(k) is None
    c = enumerate_counts(k, {"n": 1})
    assert c == walk_counts(k, {"n": 1}) and c.flops == {"fp32": 1} and c.arrays["a"].first_read == 1


def test_sizes_that_are_not_ints_are_walked():
    # the compiled floors are integer floor divisions, exact for ints and Fractions only
    i, n = sympy.symbols("i n")
    k = _kernel([Loop(i, 0, i < sympy.floor(n / 2), 1, [Stmt(flops={"fp32": 1}, refs=[Ref("a", (i,), "read")])])])
    for n_value in (7, 7.0):
        c = enumerate_counts(k, {"n": n_value})
        assert c == walk_counts(k, {"n": n_value}) and c.flops == {"fp32": 3}


def test_the_walkers_rules_by_hand():
    # n = 4, one loop of kind `unknown` over i:
    #   s1, s2: one source statement (group 1) reading a[i]: one access per i -> 4 loads;
    #   s3 (its own statement) reads a[i] too: 4 more loads, 8 in all; first reads 4;
    #   s4 reads b[0], invariant in i (a register): 1 load, 4 FLOPs (fp64; its fp16 count 0 adds no key);
    #   s5 stores c[i] under a guard of no condition, once per branch: two accesses per i -> 8
    #   stores, 4 elements written; its expf call (weight 2.5) adds 2.5 fp32 FLOPs and 1 call each time;
    #   s6 loads the shared array t[i] twice (identical references of one statement): 4 loads.
    i, n = sympy.symbols("i n")
    s1 = Stmt(refs=[Ref("a", (i,), "read")], group=1)
    s2 = Stmt(refs=[Ref("a", (i,), "read")], group=1)
    s3 = Stmt(refs=[Ref("a", (i,), "read")])
    s4 = Stmt(flops={"fp16": 0, "fp64": 1}, refs=[Ref("b", (0,), "read")])
    s5 = Stmt(special={("expf", "fp32"): 1}, refs=[Ref("c", (i,), "write")])
    s6 = Stmt(refs=[Ref("t", (i,), "read"), Ref("t", (i,), "read")])
    k = _kernel([Loop(i, 0, i < n, 1, [s1, s2, s3, s4, Guard(None, [s5], [s5]), s6], kind="unknown")],
                arrays=("a", "b", "c"))
    k.arrays["t"] = Array("t", "float", space="shared")
    c = enumerate_counts(k, {"n": 4}, {"expf": 2.5})
    assert c == walk_counts(k, {"n": 4}, {"expf": 2.5})
    assert c.flops == {"fp64": 4, "fp32": 20.0} and c.special == {"expf": 8}
    assert (c.arrays["a"].first_read, c.arrays["a"].loads) == (4, 8)
    assert (c.arrays["b"].first_read, c.arrays["b"].loads) == (1, 1)
    assert (c.arrays["c"].written, c.arrays["c"].stores, c.arrays["c"].first_read) == (4, 8, 0)
    assert c.shared["t"].loads == 4 and "t" not in c.arrays
