"""RF401: kernels (or loop nests) that hand an array to the next one through DRAM.

The producer-consumer graph (networkx, imported only when this rule runs) has one node per step
in program order: the top-level loop nests of a C function, or the CUDA kernels of a file in the
order `main` launches them (buffers matched by the host variable passed at each launch, never by
parameter name).  An edge says a step reads an array the previous writer of it wrote.  Each
connected chain is reported once, with the bytes fusing it would keep out of DRAM (the
producer's write and the consumer's read of each intermediate) and the intensity before and after.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..context import FileContext, amount, number
from ..registry import Finding, rule


@dataclass
class Step:
    label: str
    location: object
    part: object  # analysis.summary.PartSummary
    buffers: dict  # buffer name (array, or host variable) -> array name in `part`
    sizes: dict


def _nest_steps(k) -> list:
    return [Step(f"the nest at line {n.location.line}" if n.location else n.label, n.location, n,
                 {a: a for a in n.arrays}, k.sizes) for n in k.nests]


def _kernel_steps(kernels) -> list:
    launched = [k for k in kernels if k.ir is not None and k.ir.launch_site is not None and k.ir.launch_args]
    launched.sort(key=lambda k: (k.ir.launch_site.file, k.ir.launch_site.line, k.ir.launch_site.col))
    out = []
    for k in launched:
        buffers = {host: param for param, host in k.ir.launch_args.items() if param in k.total.arrays}
        out.append(Step(f"`{k.name}`", k.ir.launch_site, k.total, buffers, k.sizes))
    return out


def _graph(steps):
    import networkx as nx

    g: nx.DiGraph = nx.DiGraph()
    g.add_nodes_from(range(len(steps)))
    writer: dict = {}
    for j, s in enumerate(steps):
        for buf, name in s.buffers.items():
            a = s.part.arrays[name]
            if buf in writer and a.read.expr != 0:
                i = writer[buf]
                g.add_edge(i, j)
                g.edges[i, j].setdefault("buffers", []).append(buf)
        for buf, name in s.buffers.items():
            if s.part.arrays[name].write.expr != 0:
                writer[buf] = j
    return g


def _listed(names: list) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _sum(values):
    return None if None in values else sum(values)


def _chains(ctx_steps, where_kernel):
    import networkx as nx
    import sympy

    g = _graph(ctx_steps)
    for component in sorted(nx.weakly_connected_components(g), key=min):
        if len(component) < 2:
            continue
        nodes = sorted(component)
        steps = [ctx_steps[n] for n in nodes]
        # each intermediate once per producer: its write, and every later step's read of it
        readers: dict = {}
        for i, j in sorted(g.subgraph(nodes).edges):
            for buf in g.edges[i, j]["buffers"]:
                readers.setdefault((i, buf), []).append(j)
        saved_expr, saved_vals, parts = sympy.Integer(0), [], []
        for (i, buf), js in readers.items():
            w = ctx_steps[i].part.arrays[ctx_steps[i].buffers[buf]].write
            reads = [(j, ctx_steps[j].part.arrays[ctx_steps[j].buffers[buf]].read) for j in js]
            saved_expr += w.expr + sum((r.expr for _, r in reads), sympy.Integer(0))
            saved_vals += [w.value] + [r.value for _, r in reads]
            back = _listed([f"{amount(r.expr, r.value)} read back by {ctx_steps[j].label}" for j, r in reads])
            parts.append(f"`{buf}` ({amount(w.expr, w.value)} written by {ctx_steps[i].label}, {back})")
        w_expr = sum((s.part.flops.expr for s in steps), sympy.Integer(0))
        q_expr = sum((s.part.compulsory.expr for s in steps), sympy.Integer(0))
        w_val = _sum([s.part.flops.value for s in steps])
        q_val = _sum([s.part.compulsory.value for s in steps])
        saved_val = _sum(saved_vals)
        after_expr = sympy.expand(q_expr - saved_expr)
        after_val = None if None in (q_val, saved_val) else q_val - saved_val
        before_i = sympy.factor(sympy.cancel(w_expr / q_expr)) if q_expr != 0 else None
        after_i = sympy.factor(sympy.cancel(w_expr / after_expr)) if after_expr != 0 else None
        if before_i is None or after_i is None:
            continue

        def shown(expr, w, q):
            if w is not None and q:
                v = sympy.Rational(w, q) if isinstance(w, int) and isinstance(q, int) else w / q
                return f"{expr} = {number(v)}" if not sympy.sympify(expr).is_Number else number(v)
            return f"{expr}"

        head = where_kernel(steps) if callable(where_kernel) else f"{where_kernel}{_listed([s.label for s in steps])}"
        message = (f"{head} could be fused: "
                   f"{'; '.join(parts)} would not cross DRAM if only needed between them, saving "
                   f"{amount(sympy.expand(saved_expr), saved_val)}; W {amount(w_expr, w_val, 'FLOP')} over Q "
                   f"{amount(sympy.expand(q_expr), q_val)}: I {shown(before_i, w_val, q_val)} -> "
                   f"{shown(after_i, w_val, after_val)} FLOP/B")
        yield steps[0], message


@rule("RF401", "fusion-opportunity", "producer and consumer could be fused to keep an array out of DRAM",
      what="""
Two or more steps of a computation, one writing an array that the next reads back: the top-level
loop nests of one C function, or CUDA kernels launched one after the other on the same buffer.
Each chain of such steps is one finding: the intermediate arrays, the bytes their round trip
through DRAM costs, and the chain's intensity before and after fusing (W over the sum of the
steps' compulsory Q, without and with the round trips).""",
      why="""
An intermediate array written by one loop and read by the next crosses DRAM twice whenever it does
not fit in cache, for no arithmetic: the steps are memory-bound at an intensity lower than any of
them needs to be. Fused, the value stays in a register between its producer and its consumer.
The saving assumes the intermediate is not needed after the chain (a temporary).""",
      example="""
```c
void l2norm(int n, const float *restrict x, float *restrict sq, float *restrict y)
{
    for (int i = 0; i < n; i++)          /* RF401: sq round-trips through DRAM */
        sq[i] = x[i] * x[i];
    float s = 0;
    for (int i = 0; i < n; i++)
        s += sq[i];
    float r = sqrtf(s);
    for (int i = 0; i < n; i++)
        y[i] = x[i] / r;
}
```""",
      fix="""
```c
void l2norm(int n, const float *restrict x, float *restrict y)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    float r = sqrtf(s);
    for (int i = 0; i < n; i++)
        y[i] = x[i] / r;
}
```
In CUDA, fuse the kernels (a block-level reduction in shared memory in place of a temporary array
and an atomic).""")
def fusion(ctx: FileContext):
    for k in ctx.analyzed():
        if len(k.nests) > 1:
            def head(steps, name=k.name):
                lines = [str(s.location.line) if s.location else "?" for s in steps]
                return f"`{name}`: the loop nests at lines {_listed(lines)}"

            for first, message in _chains(_nest_steps(k), head):
                yield Finding("RF401", message, first.location or k.location, k.name, (k.location,))
    steps = _kernel_steps([k for k in ctx.analyzed() if k.language == "cuda"])
    if len(steps) > 1:
        for first, message in _chains(steps, "kernels "):
            kernel = next(k for k in ctx.analyzed() if f"`{k.name}`" == first.label)
            yield Finding("RF401", message, kernel.location, kernel.name, (first.location,))
