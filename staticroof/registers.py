"""The register rule of the access level, aware of aliasing: when a compiler may keep a DRAM element
in a register across a loop.

A DRAM reference R to array A whose index is invariant in its innermost sequential loop L is held
in a register across L (hoisted: one load and/or one store per execution of L) unless the compiler
must assume that a store in L can change what R reads, or that R's store changes what a load in
L reads (C semantics):

- R is a write, or A is written anywhere in L's body, and some other array B that may alias A is
  read or written in L's body; or
- R is a read and some other array B that may alias A is written in L's body.

Then every trip of L loads (and stores) the element: the access level counts each one.

may_alias(A, B): both are pointer parameters of the kernel in DRAM (``global`` space: arrays
declared inside the kernel, file-scope arrays, shared memory, ``__constant__`` memory and
registers never alias a parameter, nor two members of one array of structs each other), neither is
``restrict``/``__restrict__``, and their element types may alias under C's strict-aliasing rule:
the same type up to signedness (float/float, int/unsigned), or either a byte type (``char``,
``unsigned char``: it aliases anything); float and double do not.  Numba kernels: the NumPy
arrays passed to one kernel may alias too (Numba does not assume their independence), under the
same rule on their dtypes.

Aliasing changes only the access level (what the compiler must do), never the compulsory traffic.
The analysis (counts.py, traffic.py) and lint rule RF202 decide by `held_in_register`; the trace
oracles implement the same condition on their own, from the source.
"""

from __future__ import annotations

import sympy

from .ir import Guard, Kernel, Loop, Ref, Stmt

_BYTE_TYPES = ("int8", "uint8")  # `char`, `signed char`, `unsigned char` (and an unknown element type)


def _root(kernel: Kernel, name: str) -> str:
    """The array a member array (`b[i].x`) lives in: its outermost parent."""
    seen = set()
    arr = kernel.arrays.get(name)
    while arr is not None and arr.parent is not None and arr.parent not in seen:
        seen.add(name)
        name = arr.parent
        arr = kernel.arrays.get(name)
    return name


def types_may_alias(a: str, b: str) -> bool:
    """Whether elements of dtypes `a` and `b` may overlap under C's strict-aliasing rule."""
    if a in _BYTE_TYPES or b in _BYTE_TYPES:
        return True
    return a.lstrip("u") == b.lstrip("u")


def may_alias(kernel: Kernel, a: str, b: str) -> bool:
    """Whether arrays `a` and `b` (distinct names) of `kernel` may share memory (module docstring)."""
    if a == b:
        return False
    ra, rb = _root(kernel, a), _root(kernel, b)
    if ra == rb:  # two members of one array of structs: distinct fields
        return False
    for name, root in ((a, ra), (b, rb)):
        arr, base = kernel.arrays.get(name), kernel.arrays.get(root)
        if arr is None or base is None or arr.space != "global" or base.space != "global":
            return False
        if root not in kernel.params or base.restrict:
            return False
    return types_may_alias(kernel.arrays[a].dtype, kernel.arrays[b].dtype)


_BODIES: dict = {}  # id(loop) -> (loop, its body's references)


def body_refs(loop: Loop) -> list:
    """Every reference in `loop`'s body, nested loops and guards included (computed once per loop:
    the counts ask per statement instance)."""
    hit = _BODIES.get(id(loop))
    if hit is not None and hit[0] is loop:
        return hit[1]
    out: list = []

    def walk(nodes):
        for node in nodes:
            if isinstance(node, Stmt):
                out.extend(node.refs)
            elif isinstance(node, Guard):
                walk(node.then)
                walk(node.orelse)
            elif isinstance(node, Loop):
                walk(node.body)

    walk(loop.body)
    if len(_BODIES) > 4096:
        _BODIES.clear()
    _BODIES[id(loop)] = (loop, out)
    return out


def invariant(ref: Ref, loop: Loop | None) -> bool:
    """`ref` has an affine index that does not change in `loop`, a sequential loop."""
    return loop is not None and loop.kind in ("seq", "unknown") and ref.index is not None and \
        not any(loop.var in sympy.sympify(e).free_symbols for e in ref.index)


def aliased_by(kernel: Kernel, ref: Ref, refs) -> list:
    """The arrays among `refs` (a loop body's references) that keep `ref` out of a register."""
    written = {r.array for r in refs if r.kind == "write"}
    a_written = ref.kind == "write" or ref.array in written
    others = {r.array for r in refs} if a_written else written
    return sorted(b for b in others if may_alias(kernel, ref.array, b))


def held_in_register(kernel: Kernel, ref: Ref, loop: Loop | None, refs=None) -> bool:
    """Whether DRAM reference `ref`, whose innermost enclosing loop is `loop`, is held in a register
    across `loop` (one access per execution of it): its index is invariant in that sequential loop
    and no other array of the loop's body (`refs`, by default every reference in it) may alias it
    as the module docstring states."""
    if loop is None or not invariant(ref, loop):
        return False
    return not aliased_by(kernel, ref, body_refs(loop) if refs is None else refs)
