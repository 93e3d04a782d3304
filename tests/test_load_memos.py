"""The cost of loading a file (issue #15): the call graph's cycles without networkx, and the header
runs the parser remembers per process.  Each must give what the work done afresh gives."""

from __future__ import annotations

import random

from staticroof.frontends.c import on_cycles


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
