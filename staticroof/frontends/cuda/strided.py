"""Block-stride and grid-stride loops with a run-time stride: exact without knowing the stride.

`for (i = threadIdx.x + a; i < C; i += blockDim.x)`, run by the B threads of a block, visits every
`i` in `[a, C)` exactly once whatever B is: thread t takes the `i` with `(i - a) mod B == t`, and the
condition, which holds on a prefix of `i` (the loop header checks that), stops every thread at the
end of that prefix.  So the block's threads together run one unit-step loop over the range, once
per block, and the IR says so: that loop under the guard `threadIdx.x == 0` (thread 0 stands for
its block; W, Q and the access counts are the block's, per-thread quantities are not modeled).  A
stride of `gridDim.x` over `blockIdx.x` (`for (row = blockIdx.x; row < N; row += gridDim.x)`) is
the same over the blocks of the grid.

The reading holds only when every thread of the block reaches the loop (no condition on the thread
index around it) and the body reads the thread index only through `i`: the body is checked here,
what surrounds the loop once the kernel is lowered (`valid`); a kernel that fails either is lowered
again without this reading (frontend.py), so the reading is never a guess.  It needs the split
thread model (blockIdx and threadIdx as loops of their own over an unknown block size, see
common/lowering.py's thread_symbols), which the front end tries when the global-index model leaves
a thread or block index opaque.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import sympy
from pycparser import c_ast

from ...ir import DRAM_SPACES, Guard, Loop, Stmt, walk
from ..c.values import loop_step, node_location
from ..common.lowering import Acc

if TYPE_CHECKING:  # what the mixin extends, for the type checker (CudaLowering adds the base)
    from ..c.frontend import FunctionLowering as _Lowering
else:
    _Lowering = object


class StridedLoops(_Lowering):
    """The CUDA lowering's block- and grid-stride loops (a mixin of CudaLowering)."""

    threads: dict
    model: Any  # frontend.Model: strided loops are read in its split model when it allows them
    strided: list

    def strided_loop(self, node: c_ast.For) -> bool:
        """Lower `node` as a block- or grid-stride loop with a run-time stride; False if it is not one."""
        if not (self.model.split and self.model.strided):
            return False
        name, step = loop_step(node.next)
        if name is None or isinstance(step, int) or step is None:
            return False
        step_v = self.value(step, Acc()).expr
        owner = _owner(self.threads, step_v) if step_v is not None else None
        if owner is None:
            return False
        self.scopes.append({})
        try:
            header = self._loop_header(node, fixed_step=1)
            if header is None:  # not a counted loop (the header said why): an unknown trip count
                self._unknown_loop(node, [node.stmt, node.next], node.init)
                return True
            name, start, _step, cond = header
            offset = sympy.expand(start - owner)
            var, body = self.loop_body(node, name)
            placeholder = sympy.Symbol(f"__loopvar_{name}")
            loc = node_location(node, self.tu.path)
            hoisted = hoist(body, var, self.kernel)
            # the reading holds unless the threads start at `2*threadIdx.x` (no cover of the range),
            # the body tells them apart, or an invariant reference cannot be moved
            holds = owner not in offset.free_symbols and owner not in _symbols(body) and hoisted is not None
            if hoisted:  # loaded once by each thread that runs an iteration (its first i: `start`)
                self.out.append(Guard(cond.xreplace({placeholder: start}), hoisted, [], loc))
            loop = Loop(var, offset, cond.xreplace({placeholder: var}), 1, body, "seq", loc)
            guard = Guard(sympy.Eq(owner, 0), [loop], [], loc)
            self.strided.append((guard, owner, holds))
            self.out.append(guard)
        finally:
            self.scopes.pop()
            self.after_loop([node.stmt, node.next])
        v = self.lookup(name)
        if v is not None and v.ctype.is_int:
            self.bind(name, replace(v, value=None, why=f"`{name}` after its loop"))
        return True


def hoist(body: list, var, kernel) -> list | None:
    """The DRAM reads of the strided loop's body that are invariant in its variable and have it as
    their innermost loop, moved out of the body (in place) as statements of their own; None when
    such a reference cannot be moved exactly.

    The access level counts such a read once per execution of its innermost loop, which is once
    per *thread* (each thread runs its own share of the loop), not once per block as the block's one
    loop would count it: the moved statement runs in each thread that runs an iteration.  Moving
    it first keeps the compulsory count when the array is not written in the loop; an invariant
    write, or an invariant read under a condition in the body, is not moved (None).  A read that
    another array of the loop may alias (staticroof.registers: the compiler reloads it every trip)
    stays in the body, counted on each trip."""
    from ...registers import aliased_by

    arrays = kernel.arrays

    def dram(r):
        a = arrays.get(r.array)
        return a is not None and a.space in DRAM_SPACES

    def invariant(r):
        return r.index is not None and not any(var in e.free_symbols for e in r.index)

    every = [r for n in walk(body) if isinstance(n, Stmt) for r in n.refs]
    written = {r.array for r in every if r.kind == "write"}
    out: list = []
    for n in body:
        if isinstance(n, Guard) and any(dram(r) and invariant(r) for m in _shallow(n) for r in m.refs):
            return None
        if not isinstance(n, Stmt):
            continue
        moved = [r for r in n.refs if dram(r) and invariant(r)]
        if not moved:
            continue
        if any(r.kind == "write" or r.array in written for r in moved):
            return None
        moved = [r for r in moved if not aliased_by(kernel, r, every)]
        n.refs = [r for r in n.refs if not any(r is m for m in moved)]
        if not moved:
            continue
        out.append(Stmt(refs=moved, location=n.location))
    return out


def _shallow(guard: Guard):
    """The statements of a guard's branches outside any loop (their innermost loop is the guard's)."""
    for n in guard.then + guard.orelse:
        if isinstance(n, Stmt):
            yield n
        elif isinstance(n, Guard):
            yield from _shallow(n)


def _owner(threads: dict, step) -> sympy.Symbol | None:
    """The thread or block index whose (unknown) extent is `step`, in the split model."""
    for info in threads.values():
        if "g" in info:
            continue
        for var, extent in ((info["tx"], info["B"]), (info["bx"], info["G"])):
            if not extent.is_Integer and sympy.expand(step - extent) == 0:
                return var
    return None


def _node_symbols(n) -> set:
    if isinstance(n, Loop):
        return set(n.start.free_symbols) | set(n.cond.free_symbols)
    if isinstance(n, Guard):
        return set(n.cond.free_symbols) if n.cond is not None else set()
    if isinstance(n, Stmt):
        out: set = set()
        for r in n.refs:
            for e in r.index or ():
                out |= e.free_symbols
        return out
    return set()


def _symbols(body: list) -> set:
    out: set = set()
    for n in walk(body):
        out |= _node_symbols(n)
    return out


def valid(body: list, strided: list) -> bool:
    """Does each strided loop's reading hold?  Its body was checked where it was lowered; every
    thread must also reach it: no condition or loop bound around it may depend on its owner (the
    owner's own loop aside)."""
    if not all(holds for _, _, holds in strided):
        return False
    owners = {id(g): owner for g, owner, _ in strided}

    def visit(nodes, around: list) -> bool:
        for n in nodes:
            owner = owners.get(id(n))
            if owner is not None and any(owner in _node_symbols(a) and not (isinstance(a, Loop) and a.var == owner)
                                         for a in around):
                return False
            if isinstance(n, Loop) and not visit(n.body, around + [n]):
                return False
            if isinstance(n, Guard) and not (visit(n.then, around + [n]) and visit(n.orelse, around + [n])):
                return False
        return True

    return visit(body, [])
