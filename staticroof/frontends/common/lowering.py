"""Lowering helpers every front end shares: the statement being assembled, loop-condition and
affinity checks on sympy expressions, symbolic integer arithmetic, and the result of lowering a file.

Nothing here knows a source language's syntax: the C, CUDA and Python front ends all build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from ... import floors
from ...ir import PARAMETER, Guard, Kernel, Loop, Size, Stmt
from .relations import rel as relation_of, relation, substitute as substitute_condition


class Unsupported(Exception):
    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.node = node


@dataclass
class Acc:
    """The statement being assembled: operations and references in evaluation order."""

    flops: dict = field(default_factory=dict)
    special: dict = field(default_factory=dict)
    refs: list = field(default_factory=list)
    scalars: list = field(default_factory=list)  # (key, "read" | "write") of floating-point locals

    def empty(self) -> bool:
        """No work and no memory traffic (scalar uses alone do not count)."""
        return not (self.flops or self.special or self.refs)

    def reset(self) -> None:
        self.flops, self.special, self.refs, self.scalars = {}, {}, [], []

    def use_scalar(self, var, kind: str) -> None:
        if var is not None and var.key is not None:
            self.scalars.append((var.key, kind))

    def flop(self, prec: str, n: int = 1) -> None:
        self.flops[prec] = self.flops.get(prec, 0) + n

    def add_branch(self, branch: Acc, refs: list) -> None:
        """Add the work of one branch of a choice that costs the same whichever runs, with `refs`
        (see branch_refs) for its references."""
        for p, n in branch.flops.items():
            self.flop(p, n)
        for k, n in branch.special.items():
            self.special[k] = self.special.get(k, 0) + n
        self.refs.extend(refs)

    def add_both_branches(self, a: Acc, b: Acc) -> None:
        """Add a choice whose branches differ and whose condition is not modeled: the larger count of
        each operation and the references of both (the diagnostic is the caller's)."""
        for p in set(a.flops) | set(b.flops):
            self.flop(p, max(a.flops.get(p, 0), b.flops.get(p, 0)))
        for k in set(a.special) | set(b.special):
            self.special[k] = self.special.get(k, 0) + max(a.special.get(k, 0), b.special.get(k, 0))
        self.refs.extend(a.refs + b.refs)


class BodyBuilder:
    """What the C and Python lowerings of one function share: the sizes it names, the symbols that may
    not appear in an index, and the closing of the statement being assembled into the body being built.

    A subclass sets `kernel`, `acc`, `out`, `group` and `opaque`, and says where a node is (`stmt_loc`)."""

    kernel: Kernel
    acc: Acc
    out: list
    group: int
    loop_syms: set
    opaque: dict  # symbol -> why it may not appear in an index, bound or condition

    def stmt_loc(self, node):
        raise NotImplementedError

    def size_symbol(self, name: str, default=None, origin="parameter", role=PARAMETER) -> sympy.Symbol:
        sizes = self.kernel.sizes
        if name not in sizes:
            sizes[name] = Size(name, default, origin, role)
        elif default is not None and sizes[name].default is None:
            sizes[name].default = default
        return sympy.Symbol(name)

    def unique_array_name(self, name: str) -> str:
        """`name`, or `name#2`, `name#3`, ... where the kernel already has an array of that name."""
        base, k = name, 1
        while name in self.kernel.arrays:
            k += 1
            name = f"{base}#{k}"
        return name

    def opaque_reason(self, exprs) -> str:
        """Why these integer expressions cannot be used as affine expressions ("" if they can)."""
        for e in exprs:
            if e is None:
                continue
            for sym in sympy.sympify(e).free_symbols:
                if sym in self.opaque:
                    return self.opaque[sym]
        return ""

    def close_statement(self, node=None) -> None:
        """Append the statement being assembled to the current body, if it does anything."""
        if not self.acc.empty() or any(kind == "write" for _, kind in self.acc.scalars):
            self.out.append(Stmt(self.acc.flops, self.acc.special, self.acc.refs, self.stmt_loc(node), self.group,
                                 tuple(self.acc.scalars)))


def branch_refs(acc: Acc, a: Acc, b: Acc) -> list | None:
    """The references to add when two branches of a data-dependent choice (`c ? x : y`) cost the same
    whichever runs, else None.  They do when their work is the same and so are their references once
    those the statement has already made are taken out (identical references within a statement are
    one access): `p[i][j] < p[i][k] + p[k][j] ? p[i][j] : p[i][k] + p[k][j]` on int data moves the
    same three elements whichever value it picks.  A reference whose index is not affine is never
    taken as identical to another."""
    if a.flops != b.flops or a.special != b.special:
        return None
    seen = {(r.array, r.index, r.kind) for r in acc.refs if r.index is not None}

    def new(branch: Acc):
        out: dict = {}
        for r in branch.refs:
            if r.index is None:
                return None
            key = (r.array, r.index, r.kind)
            if key not in seen:
                out.setdefault(key, r)
        return out

    na, nb = new(a), new(b)
    if na is None or nb is None or na.keys() != nb.keys():
        return None
    return list(na.values())


def substitute(nodes, subs: dict) -> None:
    """Replace symbols throughout an IR body, in place."""
    for n in nodes:
        if isinstance(n, Loop):
            n.start, n.cond = n.start.xreplace(subs), substitute_condition(n.cond, subs)
            substitute(n.body, subs)
        elif isinstance(n, Guard):
            if n.cond is not None:
                n.cond = substitute_condition(n.cond, subs)
            substitute(n.then, subs)
            substitute(n.orelse, subs)
        elif isinstance(n, Stmt):
            for r in n.refs:
                if r.index is not None:
                    r.index = tuple(sympy.sympify(e).xreplace(subs) for e in r.index)


def monotone(cond, var, step):
    """Check (and normalise `!=`) so the condition holds for a prefix of the iterations."""
    conjuncts = list(cond.args) if isinstance(cond, sympy.And) else [cond]
    out = []
    for c in conjuncts:
        if not isinstance(c, sympy.Rel) or var not in c.free_symbols:
            if isinstance(c, (sympy.Or, sympy.Not)) and var in c.free_symbols:
                return None
            out.append(c)
            continue
        diff = sympy.expand(c.lhs - c.rhs)
        a = diff.coeff(var)
        if not a.is_Integer or a == 0 or var in (diff - a * var).free_symbols:
            return None
        rel = c.rel_op
        if rel == "!=":
            if abs(step) != 1 or abs(a) != 1:
                return None
            rel = "<" if (a > 0) == (step > 0) else ">"
        if rel == "==":
            return None
        upper = (rel in ("<", "<=")) == (a > 0)  # bounds the variable from above
        if upper != (step > 0):
            return None
        out.append(relation_of(diff, 0, rel))
    if not any(var in c.free_symbols for c in out):
        return None  # `for (i = n - 1; m >= 0; i--)`: nothing bounds i, the loop never ends while m >= 0
    return sympy.And(*out) if len(out) > 1 else out[0]


def affine(expr, loop_syms, allow_size_products=False, allow_linearized=False) -> bool:
    expr = sympy.expand(sympy.sympify(expr))
    for term in sympy.Add.make_args(expr):
        factors = sympy.Mul.make_args(term)
        loops = [f for f in factors if f.free_symbols & loop_syms]
        others = [f for f in factors if not f.is_Number and not (f.free_symbols & loop_syms)]
        if len(loops) > 1:
            return False
        if loops:
            f = loops[0]
            if isinstance(f, (sympy.floor, sympy.Mod)):
                if not affine(f.args[0], loop_syms) or (isinstance(f, sympy.Mod) and not f.args[1].is_Integer):
                    return False
            elif not f.is_Symbol:
                return False
            if others and not allow_linearized:
                return False
        elif others and len(others) > 1 and not allow_size_products:
            return False
    return True


def int_op(op, a, b):
    x, y = a.expr, b.expr
    if x is None or y is None:
        return None, a.why or b.why
    if op == "+":
        return x + y, ""
    if op == "-":
        return x - y, ""
    if op == "*":
        return sympy.expand(x * y), ""
    if op == "/":
        if y.is_Integer and y > 0:
            return floors.floor(x / y), ""
        if x.is_Integer and y.is_Integer and y != 0:
            return sympy.Integer(int(x / y)), ""
        return None, "division by a non-constant"
    if op == "%":
        if y.is_Integer and y > 0:
            return sympy.Mod(x, y), ""
        return None, "remainder by a non-constant"
    if op in ("<<", ">>") and y.is_Integer and not 0 <= y < 64:  # undefined in C: never evaluated
        return None, f"shift by {y} bits (undefined for a 64-bit integer)"
    if op == "<<" and y.is_Integer and y >= 0:
        return x * 2 ** int(y), ""
    if op == ">>" and y.is_Integer and y >= 0:
        return floors.floor(x / 2 ** int(y)), ""
    if op == "&" and y.is_Integer and y > 0 and (int(y) + 1) & int(y) == 0:
        return sympy.Mod(x, int(y) + 1), ""
    return None, f"`{op}` on integers"


@dataclass
class FrontendResult:
    kernels: list = field(default_factory=list)  # Kernel
    failed: list = field(default_factory=list)  # (name, Location, Diagnostic) for unsupported kernels
    diagnostics: list = field(default_factory=list)  # file-level
    drivers: set = field(default_factory=set)  # names of `main` and other drivers (see drivers.py)
    names: set = field(default_factory=set)  # the -D names the source spells (preprocess.Preprocessed.spelled)



def thread_symbols(d: str, B, G, low: BodyBuilder, why: str, split: bool = False, flat: bool = False) -> dict:
    """The symbols of launch dimension `d` for thread_loops, shared by the CUDA C and Numba CUDA
    front ends.  With a known block size B, threadIdx and blockIdx are loop variables of their own;
    otherwise one global thread index g = blockIdx*blockDim + threadIdx runs over G*B threads, and
    blockIdx and threadIdx alone stay opaque (`why`) until the idiom combines them.  `split`: loops of
    their own even for an unknown B, for a kernel that uses blockIdx and threadIdx apart (one block
    per row, its threads striding over the row) and never forms the global index.  `flat`: the
    global index even for a known B (a kernel that decomposes it by division, cuda/radix.py)."""
    info = {"B": B, "G": G}
    if (B.is_Integer or split) and not flat:
        info["bx"], info["tx"] = sympy.Dummy(f"blockIdx.{d}"), sympy.Dummy(f"threadIdx.{d}")
        low.loop_syms |= {info["bx"], info["tx"]}
    else:
        info["g"] = sympy.Dummy(f"thread.{d}")
        info["bx"], info["tx"] = sympy.Symbol(f"blockIdx_{d}"), sympy.Symbol(f"threadIdx_{d}")
        low.opaque[info["bx"]] = why
        low.opaque[info["tx"]] = why
        low.loop_syms.add(info["g"])
    return info


def below(var, extent):
    """`var < extent` for a thread loop.  A grid the host caps (`std::min((n + 255) / 256, 64)`)
    is a Min: var < Min(a, b) is var < a and var < b, each affine where a and b are, so the
    kernel is counted exactly (piecewise in the sizes) instead of failing as not affine.  A factor
    of the extent that is a positive block size distributes over the Min."""
    extent = sympy.sympify(extent)
    factors = sympy.Mul.make_args(extent)
    mins = [f for f in factors if isinstance(f, sympy.Min)]
    rest = [f for f in factors if not isinstance(f, sympy.Min)]
    if len(mins) == 1 and all((f.is_Integer and f > 0) or f.is_Symbol for f in rest):
        scale = sympy.Mul(*rest)
        return sympy.And(*[below(var, sympy.expand(scale * a)) for a in mins[0].args])
    return relation(sympy.Lt, var, extent)


def thread_loops(body: list, threads: dict, location) -> list:
    """A GPU kernel body inside its thread loops, shared by the CUDA C and Numba CUDA front ends.

    `threads` maps a dimension ("x", "y", "z") to its symbols: `tx` (thread in block), `bx` (block),
    `B`/`G` (block and grid extents) and, for a global index the kernel forms, `g`.  Consecutive
    statements share one set of loops; a grid-stride loop (kind "gridstride.D") consumes dimension D.
    """
    dims = ("x", "y", "z")
    out: list = []
    groups: list = []
    for node in body:
        skip = node.kind.split(".")[1] if isinstance(node, Loop) and node.kind.startswith("gridstride.") else None
        if groups and groups[-1][0] is None and skip is None:
            groups[-1][1].append(node)
        else:
            groups.append((skip, [node]))
    zero = sympy.Integer(0)
    for skip, nodes in groups:
        wrapped = list(nodes)
        for d in reversed(dims):
            info = threads.get(d)
            if info is None or d == skip:
                continue
            if "g" in info:
                wrapped = [Loop(info["g"], zero, below(info["g"], info["G"] * info["B"]), 1, wrapped,
                                f"thread.{d}", location)]
            else:
                wrapped = [Loop(info["tx"], zero, relation(sympy.Lt, info["tx"], info["B"]), 1, wrapped, f"block.{d}",
                                location)]
        for d in reversed(dims):
            info = threads.get(d)
            if info is None or d == skip or "g" in info:
                continue
            bound = below(info["bx"], info["G"])
            wrapped = [Loop(info["bx"], zero, bound, 1, wrapped, f"grid.{d}", location)]
        out.extend(wrapped)
    return out
