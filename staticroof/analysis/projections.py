"""What every iteration of a loop body must have in fast memory: the projections of its loop
indices that the Hölder–Brascamp–Lieb bound (staticroof.analysis.bounds) is built on.

An HBL bound is a property of the computation, not of how the source spells it, so a body's
operands are more than its array references:

- The statements of one loop body (same loops, same guards) form one iteration: their operands
  are pooled.  A body split into `t = A[i][k] * B[k][j]; s += t;` is one matmul iteration.
- A floating-point local that carries a value into the body is data too.  If it is reset
  unconditionally in the body of the e-th enclosing loop (`float s = 0` inside `j`), each
  iteration of the outer e loops has its own copy: scalar expansion makes it an array indexed
  by those e loops.  An accumulator (`s += A[i][k] * B[k][j]` with `C[i][j] = s` after the k loop)
  is then the matrix C in disguise, and a value hoisted out of the inner loop
  (`a = A[i][k]; for j: C[i][j] += a * B[k][j]`) is the matrix A.  A hoisted value counts only
  through one array reference of its definition (a constant, or `A[i][0] * B[0][k]`, is not N^2
  distinct data).
- A local written before it is read in the same iteration is internal to the iteration.
- A `__shared__` element filled by a one-element copy from DRAM is that DRAM element.
- Loop indices that only ever occur in one combination, one-to-one on the domain (CUDA's
  `16*blockIdx.y + threadIdx.y`), are one index of the bound.

Everything left out only weakens the bound (fewer operands can only raise s*), so what the
analysis cannot prove is dropped, never guessed: a reference counts only where its index is an
injective affine map of the loop indices it uses (`x[i + k]` is not a projection of (i, k)), and
a reset under a condition resets nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import sympy

from ..ir import DRAM_SPACES, Kernel
from .budget import check
from .delinearize import delinearize
from .domain import Instance


@dataclass
class Body:
    """One loop body's iteration: its instances (program order), its index classes (groups of
    loop-index positions that only ever occur in one fixed combination, such as CUDA's
    `blockIdx.y * 16 + threadIdx.y`), and the projections onto those classes that its operands are."""

    instances: list
    classes: list  # tuples of loop-index positions
    projections: dict  # tuple of class positions -> made (only values the computation makes use it)
    elem_bytes: int | None  # the smallest element size among its DRAM references

    @property
    def first(self) -> Instance:
        return self.instances[0]


def bodies(kernel: Kernel, insts: list[Instance], namer) -> list[Body]:
    """The loop bodies of `insts` with their operand projections."""
    groups: dict = {}
    for inst in insts:
        if inst.loop_vars:
            groups.setdefault((tuple(inst.schedule[:-1]), tuple(inst.constraints)), []).append(inst)
    coords = _Coordinates(kernel, insts, namer)
    out = []
    for members in groups.values():
        check()
        first = members[0]
        # each operand: (a list of coordinate rows, or a set of positions; made by the computation?)
        operands: list[tuple[list | set, bool]] = []
        elem = None
        written = {(r.array, r.index) for i in members for r in i.stmt.refs if r.kind == "write"}
        first_kind: dict = {}  # (array, index) -> the kind of its first access in the iteration
        for i in members:
            for r in i.stmt.refs:
                first_kind.setdefault((r.array, r.index), r.kind)
        for inst in members:
            for ref in inst.stmt.refs:
                arr = kernel.arrays.get(ref.array)
                if arr is None or arr.space not in DRAM_SPACES or ref.index is None:
                    continue
                elem = arr.elem_bytes if elem is None else min(elem, arr.elem_bytes)
                key = (ref.array, ref.index)
                if first_kind[key] == "write":
                    continue  # made and overwritten here, not read in first: each value may be dropped
                rows = _rows(coords.of(ref, inst), inst.loop_vars)
                if rows is not None:
                    operands.append((rows, key in written))
            for ref in inst.stmt.refs:
                staged = _staged(kernel, ref, inst, insts, namer)
                if staged is not None:
                    rows, size = staged
                    operands.append((rows, False))
                    elem = size if elem is None else min(elem, size)
        operands += _scalar_operands(kernel, members, insts, coords)
        operands = _distinct(operands)
        classes = _classes([o for o, _ in operands if isinstance(o, list)], first, namer)
        projections: dict = {}
        for operand, made in operands:
            p = _projection(operand, classes)
            if p is not None:  # one operand per projection suffices: an input's constant is smaller
                projections[p] = projections.get(p, True) and made
        out.append(Body(members, classes, projections, elem))
    return out


def _distinct(operands: list) -> list:
    """Each operand once, in order of first appearance: a body of a hundred statements repeats the
    same few (an unrolled stencil's taps are one projection), and a repeat changes neither the
    index classes nor the projections."""
    seen: dict = {}
    for rows, made in operands:
        key = (tuple(rows) if isinstance(rows, list) else frozenset(rows), made)
        seen.setdefault(key, (rows, made))
    return list(seen.values())


def _rows(coord, loop_vars) -> list | None:
    """An element's coordinates as rows of integer coefficients over the loop-index positions,
    or None when one is not affine in the loop indices with integer coefficients."""
    if coord is None:
        return None
    found = _rows_of(tuple(coord), tuple(loop_vars))
    return None if found is None else list(found)


@lru_cache(maxsize=8192)
def _rows_of(coord: tuple, loop_vars: tuple) -> tuple | None:
    rows = []
    variables = set(loop_vars)
    for e in coord:
        terms = sympy.expand(sympy.sympify(e)).as_coefficients_dict()
        # every term with a loop index must be that index times an integer (not `n*i`, `i*j`, `i/2`)
        if any(t not in variables and t.free_symbols & variables for t in terms):
            return None
        row = [terms.get(v, 0) for v in loop_vars]
        if any(not sympy.sympify(c).is_Integer for c in row):
            return None
        rows.append(tuple(int(c) for c in row))
    return tuple(rows)


def _classes(row_operands: list, inst: Instance, namer) -> list:
    """Partition the loop-index positions: indices whose coefficient columns are proportional
    in every coordinate row form one class (`16*by + ty` makes {by, ty} a row index), provided
    that combination is injective on the iteration domain; every other index is its own class."""
    n = len(inst.loop_vars)
    rows = [r for operand in row_operands for r in operand]
    columns = [tuple(r[k] for r in rows) for k in range(n)]
    classes, seen = [], set()
    for k in range(n):
        if k in seen:
            continue
        members = [k] + [m for m in range(k + 1, n) if m not in seen and _proportional(columns[k], columns[m])]
        if len(members) > 1 and not _injective(members, columns, inst, namer):
            members = [k]
        seen.update(members)
        classes.append(tuple(members))
    return classes


def _proportional(a: tuple, b: tuple) -> bool:
    """Two non-zero columns that are multiples of each other."""
    return any(a) and any(b) and all(a[i] * b[j] == a[j] * b[i] for i in range(len(a)) for j in range(i))


def _injective(members: list, columns: list, inst: Instance, namer) -> bool:
    """Is the class's combination (its coefficients in the first row that uses it) one-to-one on
    the iteration domain?  Asked of isl: no two iterations differ in the class with equal sums."""
    import islpy as isl

    row = next(r for r in zip(*columns, strict=True) if any(r[k] for k in members))
    dims = inst.dims
    ys = [f"y{k}" for k in range(len(dims))]
    domain = inst.domain(namer)
    head, body = domain.split("{", 1)
    _tup, cons = body.rsplit(":", 1)
    cons = cons.rstrip(" }")
    renamed = cons
    for k in sorted(range(len(dims)), key=lambda k: -len(dims[k])):
        renamed = re.sub(rf"\b{dims[k]}\b", ys[k], renamed)
    left = " + ".join(f"{row[k]}*{dims[k]}" for k in members)
    right = " + ".join(f"{row[k]}*{ys[k]}" for k in members)
    differ = " or ".join(f"{dims[k]} != {ys[k]}" for k in members)
    text = (f"{head}{{ S[{', '.join(dims)}] -> S[{', '.join(ys)}] : ({cons}) and ({renamed}) and "
            f"{left} = {right} and ({differ}) }}")
    try:
        return isl.Map(text).is_empty()
    except isl.Error:
        return False


def _projection(operand, classes: list) -> tuple | None:
    """The classes an operand is an injective map of (as class positions), or None."""
    of = {k: c for c, members in enumerate(classes) for k in members}
    if isinstance(operand, set):  # a scalar expanded over these loops: whole classes only
        used = sorted({of[k] for k in operand})
        if any(not set(classes[c]) <= operand for c in used):
            return None
        return tuple(used)
    used = sorted({of[k] for r in operand for k, x in enumerate(r) if x})
    matrix = []
    for r in operand:
        line = []
        for c in used:
            base = classes[c][0]
            line.append(sympy.Rational(r[base]))  # the class combination times this factor
        matrix.append(line)
    if used and sympy.Matrix(matrix).rank() != len(used):
        return None
    return tuple(used)


class _Coordinates:
    """Element coordinates of references, with linearized indices (`A[i*lda + k]`) delinearized
    the way the compulsory count does it; computed once per array, on demand."""

    def __init__(self, kernel: Kernel, insts, namer):
        self.kernel, self.insts, self.namer = kernel, insts, namer
        self.cache: dict = {}

    def of(self, ref, inst) -> tuple | None:
        if len(ref.index) != 1 or not self._symbolic_stride(ref.index[0], inst):
            return ref.index
        if ref.array not in self.cache:
            refs = [(r, i) for i in self.insts for r in i.stmt.refs
                    if r.array == ref.array and r.index is not None]
            if any(len(r.index) != 1 for r, _ in refs):
                self.cache[ref.array] = {}
            else:
                found = delinearize([(r.index[0], i) for r, i in refs], self.namer)
                self.cache[ref.array] = {} if found is None else {
                    (id(r), id(i)): c for (r, i), c in zip(refs, found, strict=True)}
        return self.cache[ref.array].get((id(ref), id(inst)))

    @staticmethod
    def _symbolic_stride(expr, inst) -> bool:
        return _symbolic_stride(sympy.sympify(expr), tuple(inst.loop_vars))


@lru_cache(maxsize=8192)
def _symbolic_stride(expr, loop_vars: tuple) -> bool:
    e = sympy.expand(expr)
    return any(not e.coeff(v).is_Integer for v in loop_vars if v in e.free_symbols)


def _scalar_operands(kernel: Kernel, members: list, insts: list, coords: _Coordinates) -> list:
    """Operands for the floating-point locals that carry a value into this body: the positions
    of the loops a scalar is expanded over, or the coordinate rows of the one reference its
    value stands for."""
    first_use: dict = {}
    written = set()
    for inst in members:
        for key, kind in inst.stmt.scalars:
            first_use.setdefault(key, kind)
            if kind == "write":
                written.add(key)
    body = members[0]
    out: list[tuple[list | set, bool]] = []
    for key, kind in first_use.items():
        if kind != "read":
            continue  # written before it is read: internal to the iteration
        reset = _reset(key, body, insts)
        if reset is None:
            continue
        depth = len(reset.loop_vars)
        if key in written:  # an accumulator: one value per iteration of the outer `depth` loops
            if _read_elsewhere(key, members, insts):  # its result is used: no value may be dropped
                out.append((set(range(depth)), True))
            continue
        # a value defined out there: as much distinct data as one reference of its definition
        best = None
        for ref in reset.stmt.refs:
            arr = kernel.arrays.get(ref.array)
            if ref.kind != "read" or arr is None or arr.space not in DRAM_SPACES or ref.index is None:
                continue
            rows = _rows(coords.of(ref, reset), reset.loop_vars)
            if rows is None:
                continue
            rows = [r + (0,) * (len(body.loop_vars) - depth) for r in rows]
            used = {k for r in rows for k, x in enumerate(r) if x}
            if used and sympy.Matrix(rows).rank() == len(used) and (best is None or len(used) > best[0]):
                best = (len(used), rows)
        if best:
            out.append((best[1], False))
    return out


def _read_elsewhere(key: str, members: list, insts: list) -> bool:
    """Is the local read by a statement outside this body (`C[i][j] = s` after the k loop)?"""
    inside = {id(i) for i in members}
    return any(id(i) not in inside and any(k == key and kind == "read" for k, kind in i.stmt.scalars)
               for i in insts)


def _staged(kernel: Kernel, ref, reader: Instance, insts: list, namer) -> tuple | None:
    """A read of an on-chip array (`__shared__`) that a copy filled from DRAM: (the coordinate
    rows of the DRAM element it holds, that array's element size), or None.

    The copy must be the array's only writer and read exactly one DRAM element
    (`As[ty][tx] = A[row*N + t*TILE + tx]`), in loops the reader shares except the thread loops:
    any thread of the block may have written the element, so the writer's thread indices (and
    any loop of its own) are solved for from `write index == read index`.  The kernel is taken to
    be race-free: the value read is the one copied in the same iteration of the shared loops."""
    arr = kernel.arrays.get(ref.array)
    if ref.kind != "read" or arr is None or arr.space != "shared" or ref.index is None:
        return None
    writers = [(i, r) for i in insts for r in i.stmt.refs if r.array == ref.array and r.kind == "write"]
    if len(writers) != 1:
        return None
    writer, wref = writers[0]
    sources = [r for r in writer.stmt.refs if r.kind == "read" and r.index is not None
               and kernel.arrays.get(r.array) is not None and kernel.arrays[r.array].space in DRAM_SPACES]
    if wref.index is None or len(sources) != 1 or len(wref.index) != len(ref.index):
        return None
    # the writer's loop variables: shared with the reader (same loop) or to be solved for
    fresh = {}
    for k, (v, kind) in enumerate(zip(writer.loop_vars, writer.loop_kinds, strict=True)):
        same_loop = k < len(reader.loop_vars) and writer.schedule[:2 * k + 2] == reader.schedule[:2 * k + 2]
        if kind.startswith("block.") or not same_loop:
            fresh[v] = sympy.Symbol(f"__w_{v.name}", integer=True)
    lhs = [sympy.sympify(e).subs(fresh) for e in wref.index]
    try:
        eqs = [a - sympy.sympify(b) for a, b in zip(lhs, ref.index, strict=True)]
        solution = sympy.solve(eqs, list(fresh.values()), dict=True)
    except (NotImplementedError, TypeError):
        return None
    if len(solution) != 1:
        return None
    exprs = [sympy.expand(sympy.sympify(e).subs(fresh).subs(solution[0])) for e in sources[0].index]
    if any(e.free_symbols & set(fresh.values()) for e in exprs):
        return None  # the source depends on a writer index the read does not determine
    coord = exprs
    if len(exprs) == 1 and any(not sympy.expand(exprs[0]).coeff(v).is_Integer for v in reader.loop_vars):
        found = delinearize([(exprs[0], reader)], namer)  # `(32*by + ty)*N + 32*t + k` -> rows, columns
        if found is None:
            return None
        coord = found[0]
    rows = _rows(coord, reader.loop_vars)
    return None if rows is None else (rows, kernel.arrays[sources[0].array].elem_bytes)


def _reset(key: str, body: Instance, insts: list) -> Instance | None:
    """The innermost unconditional reset of `key` around `body`: a statement that writes it
    without reading it, in the body of one of the loops enclosing `body`, under no condition
    that does not also hold for `body`.  None when there is none inside a loop."""
    best = None
    for inst in insts:
        e = len(inst.loop_vars)
        if not 0 < e < len(body.loop_vars) or (best is not None and e <= len(best.loop_vars)):
            continue
        uses = [kind for k, kind in inst.stmt.scalars if k == key]
        if "write" not in uses or "read" in uses:
            continue
        if inst.schedule[:2 * e] != body.schedule[:2 * e]:
            continue  # not in the body of the same e-th loop
        if inst.constraints != body.constraints[:len(inst.constraints)]:
            continue  # under a condition of its own
        best = inst
    return best
