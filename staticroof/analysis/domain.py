"""Statement instances: each statement's iteration domain, program-order schedule and references,
rendered as isl sets over the kernel's size parameters.

The schedule is the classic 2d+1 vector (position in block, loop value, position, ..., and finally
the reference's slot in the statement), so that lexicographic order on it is program order;
counted-down loops contribute ``-value`` to reverse their order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Location
from ..ir import Guard, Kernel, Loop, Ref, Stmt
from . import polyhedra as P


@dataclass
class Instance:
    stmt: Stmt
    nest: int  # index of the top-level node this statement belongs to
    dims: list  # isl dim names of the enclosing loops, outermost first
    loop_vars: list  # the matching IR loop-variable symbols
    loop_kinds: list  # and their kinds ("seq", or a parallel kind such as "block.x")
    constraints: list  # isl constraint strings
    schedule: list  # isl expressions: the program-order time vector without the ref slot
    bindings: dict  # loop symbol -> isl dim name at this statement
    loops: list = field(default_factory=list)  # the enclosing IR loops, outermost first

    def domain(self, namer: P.Namer, keep: int | None = None) -> str:
        dims = self.dims if keep is None else self.dims[:keep]
        body = " and ".join(self.constraints) or "1 = 1"
        if keep is not None and keep < len(self.dims):
            hidden = ", ".join(self.dims[keep:])
            body = f"exists ({hidden} : {body})"
        return f"{namer.header()} -> {{ S[{', '.join(dims)}] : {body} }}"


def instances(kernel: Kernel, namer: P.Namer) -> list[Instance]:
    """Flatten the kernel's tree into statement instances (raises P.NotAffine on a bad bound)."""
    out: list[Instance] = []
    for nest, node in enumerate(kernel.body):
        _walk([node], nest, [], [], [], [], namer, out, [nest])
    return out


def _walk(nodes, nest, dims, loop_vars, constraints, schedule, namer, out, counter):
    """`counter` is a one-element list holding the next position in the current block, shared
    with guards (whose branches are not a new schedule level)."""
    for node in nodes:
        if isinstance(node, Stmt):
            pos = counter[0]
            counter[0] += 1
            out.append(Instance(node, nest, list(dims), [lp.var for lp, _ in loop_vars], [k for _, k in loop_vars],
                                list(constraints), schedule + [str(pos)], dict(namer.dims),
                                [lp for lp, _ in loop_vars]))
        elif isinstance(node, Guard):
            if node.cond is None:
                c_then = c_else = []
            else:
                c_then = [P.cond(node.cond, namer)]
                c_else = [P.cond(P.negate(node.cond), namer)]
            _walk(node.then, nest, dims, loop_vars, constraints + c_then, schedule, namer, out, counter)
            _walk(node.orelse, nest, dims, loop_vars, constraints + c_else, schedule, namer, out, counter)
        elif isinstance(node, Loop):
            pos = counter[0]
            counter[0] += 1
            dim = f"c{len(dims)}"
            start = P.aff(node.start, namer)
            saved = namer.dims.get(node.var)
            namer.dims[node.var] = dim
            try:
                cs = [f"{dim} >= {start}" if node.step > 0 else f"{dim} <= {start}",
                      P.cond(node.cond, namer)]
                if abs(node.step) != 1:
                    cs.append(f"({dim} - {start}) mod {abs(node.step)} = 0")
                order = dim if node.step > 0 else f"-{dim}"
                _walk(node.body, nest, dims + [dim], loop_vars + [(node, node.kind)], constraints + cs,
                      schedule + [str(pos), order], namer, out, [0])
            finally:
                if saved is None:
                    del namer.dims[node.var]
                else:
                    namer.dims[node.var] = saved
        else:  # pragma: no cover - the IR has no other node types
            raise TypeError(node)


def render(expr, inst: Instance, namer: P.Namer) -> str:
    saved = namer.dims
    namer.dims = inst.bindings
    try:
        return P.aff(expr, namer)
    finally:
        namer.dims = saved


def location_of(ref: Ref, inst: Instance) -> Location | None:
    return ref.location or inst.stmt.location
