"""DRAM traffic: compulsory (distinct elements, first access read or written) and access-level.

Compulsory traffic of an array is ``bytes * (|elements whose first access is a read| +
|elements written|)``.  The first access of each element is the lexicographic minimum of its
access times under the program-order schedule (isl's ``lexmin``), so overlapping stencil
references, loop-invariant references, triangular domains and write-then-read temporaries are all
exact without special cases.

Access-level traffic counts every dynamic load and store, except that a reference invariant in its
innermost enclosing sequential loop is counted once per execution of that loop (a compiler keeps it
in a register) unless another array of the loop may alias it (registers.py), and identical
references within one statement count once.
"""

from __future__ import annotations

import islpy as isl
import sympy

from ..ir import DRAM_SPACES, Kernel
from ..memo import Bounded
from ..registers import held_in_register
from . import polyhedra as P
from .budget import check
from .delinearize import delinearize
from .domain import Instance, location_of, render
from .pieces import is_grid
from .result import ArrayTraffic


def dram_refs(kernel: Kernel, insts: list[Instance], spaces=DRAM_SPACES):
    """array name -> [(ref, inst, slot)] for every reference to an array in `spaces`."""
    out: dict = {}
    for inst in insts:
        for slot, ref in enumerate(inst.stmt.refs):
            arr = kernel.arrays.get(ref.array)
            if arr is not None and arr.space in spaces:
                out.setdefault(ref.array, []).append((ref, inst, slot))
    return out


def access_counts(kernel: Kernel, refs, namer: P.Namer, traffic: ArrayTraffic, hoist: bool = True) -> None:
    """Dynamic loads and stores.  With `hoist`, a reference held in a register across its innermost
    loop (registers.held_in_register) counts once per execution of that loop; shared memory is
    written for other threads to read, so there every access counts."""
    seen = set()
    for ref, inst, _slot in refs:
        # one access per distinct reference of a source statement in one iteration
        stmt_key = inst.stmt.group or id(inst.stmt)
        # a non-affine reference is its own access: two of them (`x[a[i]]`, `x[b[i]]`) may differ, so
        # merging them would put an approximate count below the truth
        index = ref.index if ref.index is not None else ("non-affine", id(ref))
        key = (stmt_key, tuple(inst.loop_vars), tuple(inst.constraints), ref.kind, index)
        if key in seen:
            continue
        seen.add(key)
        keep = None
        # a register holds a reference across a sequential loop only: in a parallel (thread) loop
        # every thread makes its own access
        if hoist and inst.loops and held_in_register(kernel, ref, inst.loops[-1]):
            keep = len(inst.dims) - 1
        c = P.card(inst.domain(namer, keep), namer)
        if ref.kind == "read":
            traffic.access_read = traffic.access_read + c
        else:
            traffic.access_write = traffic.access_write + c


def _coords(kernel: Kernel, name: str, refs, namer: P.Namer, sizes: dict):
    """Element coordinates of each affine reference (delinearized if needed), or None."""
    affine = [(ref, inst) for ref, inst, _ in refs if ref.index is not None]
    if not affine:
        return []
    if all(len(ref.index) == 1 for ref, _ in affine):
        coords = delinearize([(ref.index[0], inst) for ref, inst in affine], namer)
        if coords is not None:
            return coords
        if sizes and all(s.name in sizes for s in _size_syms(affine)):
            subs = {s: sizes[s.name] for s in _size_syms(affine)}
            coords = [(sympy.expand(sympy.sympify(ref.index[0]).subs(subs)),) for ref, _ in affine]
            kernel.diag("SR117", f"`{name}`: linearized index is not provably injective; counted at the "
                        "given sizes: the numbers are exact, the formula holds only at these sizes",
                        location_of(affine[0][0], affine[0][1]))
            return Concrete(coords)
        kernel.diag("SR108", f"`{name}`: linearized index is not provably injective; counting every "
                    "access as a distinct element (an upper bound); give all sizes for an exact count",
                    location_of(affine[0][0], affine[0][1]))
        return None
    ranks = {len(ref.index) for ref, _ in affine}
    if len(ranks) != 1:
        kernel.diag("SR110", f"`{name}` is indexed with different numbers of subscripts", None)
        return None
    return [ref.index for ref, _ in affine]


class Concrete(list):
    """Coordinates valid only at the given sizes: count there, as numbers."""


def _size_syms(affine):
    syms = set()
    for ref, inst in affine:
        syms |= sympy.sympify(ref.index[0]).free_symbols - set(inst.loop_vars)
    return syms


def compulsory(kernel: Kernel, name: str, refs, namer: P.Namer, sizes: dict, t_rank: int,
               traffic: ArrayTraffic, concrete: bool = False) -> None:
    coords = _coords(kernel, name, refs, namer, sizes)
    if concrete and coords is not None and not isinstance(coords, Concrete):
        coords = Concrete(coords)
    affine = [(ref, inst, slot) for ref, inst, slot in refs if ref.index is not None]
    if coords is None:  # upper bound: every access is a new element
        affine, coords = [], []
        bound = [(r, i, s) for r, i, s in refs]
    else:
        bound = [(r, i, s) for r, i, s in refs if r.index is None]
    for ref, inst, _slot in bound:
        c = P.card(inst.domain(namer), namer)
        if ref.kind == "read":
            traffic.read = traffic.read + c
        else:
            traffic.write = traffic.write + c
    many = len(affine) > MANY_REFS
    if not many and not isinstance(coords, Concrete):
        texts = _map_texts(affine, coords, namer, t_rank)
        write_pw, read_pw = _first_counts(texts, tuple(_leading(affine, coords, namer)))
        if write_pw is not None:
            traffic.write = traffic.write + P.Count([(1, write_pw)], namer)
        if read_pw is not None:
            traffic.read = traffic.read + P.Count([(1, read_pw)], namer)
        return
    reads, writes = (_accesses if many else _time_maps)(affine, coords, namer, t_rank)
    point = None
    if isinstance(coords, Concrete):  # fix every size: the sets become small and concrete
        values = {n: sympy.sympify(e).subs(sizes) for n, e in namer.params.items()}
        # a grid dimension without a value stays free: its count is read on a covering grid
        if all(v.is_Integer or is_grid(e) for v, e in zip(values.values(), namer.params.values(), strict=True)):
            cons = " and ".join(f"{n} = {int(v)}" for n, v in values.items() if v.is_Integer) or "1 = 1"
            point = isl.Set(f"{namer.header()} -> {{ : {cons} }}")
            reads = reads.intersect_params(point) if reads is not None else None
            writes = writes.intersect_params(point) if writes is not None else None

    def count(s):
        c = P.card_of(s, namer)
        v = c.value(sizes) if point is not None else None
        return P.Count.const(v) if v is not None else c

    def elements(s):
        s = s if isinstance(s, isl.Set) else s.domain()
        return s.coalesce() if many else s

    if writes is not None:
        traffic.write = traffic.write + count(elements(writes))
    if reads is not None:
        if writes is None:
            first_read = elements(reads)
        else:
            # at fixed sizes the count is a number, whatever the sets' shapes: the first accesses
            # are found among the references that can be one (the others proven later, _leading)
            found = _concrete_first_reads(affine, coords, namer, t_rank, point, sizes) \
                if point is not None and not many else None
            if found is not None:
                traffic.read = traffic.read + found
                return
            both = reads.union(writes)
            check()
            first = (both.coalesce() if many else both).lexmin()
            first_read = elements(first.intersect(reads))
        traffic.read = traffic.read + count(first_read)


def _concrete_first_reads(affine, coords, namer: P.Namer, t_rank: int, point, sizes: dict):
    """The number of elements whose first access is a read, at the sizes fixed by `point`, from
    the references that can make a first access (_leading), as a constant count; None when no
    reference is left out (nothing to gain) or the count is not a number at these sizes.

    Leaving out an access that has a strictly earlier access to the same element leaves each
    element's earliest access where it was (the earliest of a finite set has none earlier), and
    the earliest accesses that are reads are those among the kept reads."""
    kept = _leading(affine, coords, namer)
    if len(kept) == len(affine):
        return None
    reads, writes = _time_maps([affine[k] for k in kept], [coords[k] for k in kept], namer, t_rank)
    if reads is None:  # every kept access is a write: no element is read first
        return P.Count.const(0)
    reads = reads.intersect_params(point)
    if writes is None:
        first_read = reads.domain()
    else:
        writes = writes.intersect_params(point)
        check()
        first_read = reads.union(writes).lexmin().intersect(reads).domain()
    v = P.card_of(first_read, namer).value(sizes)
    return None if v is None else P.Count.const(v)


def _leading(affine, coords, namer: P.Namer) -> list:
    """Indices of the references that can be the first access of an element: every other one, b,
    has an earlier reference a of the same element in every iteration where b runs.  That holds
    when
    - a's loops are the outermost of b's (the schedules agree up to a's position in its loop
      body: the same positions and loop dimensions, so the same loops), and a comes first: at an
      earlier position of that body, or in the same statement at an earlier slot;
    - a runs wherever b does: each constraint of a's domain is one of b's (the constraints of the
      common loops and guards, over the common dimensions), so dropping b's inner dimensions
      from an iteration of b gives an iteration of a;
    - a's subscripts, rendered in isl over those common dimensions, are b's (the same strings:
      the same affine function, so b's do not depend on b's inner loops).
    Then at each iteration x of b, a runs at x's outer part, earlier in program order, and touches
    the same element: b is never an element's first access."""
    rendered = [tuple(render(e, inst, namer) for e in coord) for (_ref, inst, _slot), coord
                in zip(affine, coords, strict=True)]
    return [k for k, (_ref, inst, slot) in enumerate(affine)
            if not any(j != k and rendered[j] == rendered[k] and
                       _precedes(affine[j][1], affine[j][2], inst, slot)
                       for j in range(len(affine)))]


def _precedes(a: Instance, slot_a: int, b: Instance, slot_b: int) -> bool:
    """Does statement instance a run at every iteration of b's common loops where b runs, before b
    (see _leading)?  Schedules are [position, dim, position, dim, ..., position]."""
    n = len(a.schedule)
    if a.nest != b.nest or len(b.schedule) < n or a.schedule[:n - 1] != b.schedule[:n - 1]:
        return False
    if a.schedule == b.schedule:  # one statement: its references in slot order
        if a.stmt is not b.stmt or slot_a >= slot_b:
            return False
    elif int(a.schedule[n - 1]) >= int(b.schedule[n - 1]):
        return False
    return set(a.constraints) <= set(b.constraints)


# Past this many references to one array (a loop body of dozens of statements, an unrolled stencil)
# its accesses are built per domain, deduplicated and coalesced (_accesses).  Up to it, one map per
# reference (_time_maps), as always: the same counts, and the same pieces in the same order.
MANY_REFS = 16


def _time_maps(affine, coords, namer: P.Namer, t_rank: int):
    """(reads, writes): element -> access time of each affine reference, one map per reference."""
    return _maps(_map_texts(affine, coords, namer, t_rank))


def _map_texts(affine, coords, namer: P.Namer, t_rank: int) -> tuple:
    """((kind, header, dims, constraints, index, time) in isl's text) of each affine reference, in
    order: its access map is `header -> { S[dims] -> A[index] : constraints }`, its schedule the same
    with `T[time]` (a reference's index may name a new parameter: the header is the namer's after it)."""
    out = []
    for (ref, inst, slot), coord in zip(affine, coords, strict=True):
        idx = ", ".join(render(e, inst, namer) for e in coord)
        sched = inst.schedule + [str(slot)]
        sched += ["0"] * (t_rank - len(sched))
        out.append((ref.kind, namer.header(), ", ".join(inst.dims), _body(inst.constraints), idx, ", ".join(sched)))
    return tuple(out)


def _maps(texts: tuple):
    """(reads, writes): element -> access time of the references of _map_texts, two isl maps."""
    reads = writes = None
    for kind, hdr, dims, body, idx, when in texts:
        check()
        dom = _domain(hdr, dims, body)
        access = _parsed(f"{hdr} -> {{ S[{dims}] -> A[{idx}] }}").intersect_domain(dom)
        schedule = _parsed(f"{hdr} -> {{ S[{dims}] -> T[{when}] }}").intersect_domain(dom)
        m = access.reverse().apply_range(schedule)
        if kind == "read":
            reads = m if reads is None else reads.union(m)
        else:
            writes = m if writes is None else writes.union(m)
    return reads, writes


def _body(constraints) -> str:
    """A loop body's constraints as isl's text (none: every point)."""
    return " and ".join(constraints) or "1 = 1"


def _domain(hdr: str, dims: str, body: str):
    """The iterations of a loop body, an isl set, parsed once per process (see _parsed)."""
    return _parsed(f"{hdr} -> {{ S[{dims}] : {body} }}", isl.Set)


_PARSED: dict = Bounded(4096)  # (isl.Set or isl.Map, its text) -> the set or map


def _parsed(text: str, kind=isl.Map):
    """The isl map (or set: `kind`) of `text`, parsed once per process.

    isl simplifies a map's constraints on every parse, and the references of one loop body share
    them: parsing each whole map (`S[..] -> A[..] : constraints`) was most of _maps' time.  So a
    body is parsed once, as a set (_domain), and each access and schedule without constraints,
    then restricted to it (the corpus's maps: 1.29 -> 0.39 s, equal maps, the same JSON).
    Sharing one parsed object is safe where it is only an operand that isl takes (intersect_domain,
    apply): isl then copies before it changes anything.  Functions that only look at an object
    (is_equal) may normalise its representation in place, so a shared object is never given to one."""
    key = (kind, text)
    m = _PARSED.get(key)
    if m is None:
        m = _PARSED[key] = kind(text)
    return m


_FIRST: dict = Bounded(4096)  # (_map_texts, leading references) -> (count of the elements written, of those first read)


def _first_counts(texts: tuple, kept: tuple | None = None) -> tuple:
    """(elements written, elements whose first access is a read) of one array's references, as isl
    piecewise quasi-polynomials (None: no such reference), from their maps' text.  The written
    elements are those of every write; the first accesses are looked for among the references
    `kept` (indices into `texts`, from _leading; None: all).  At every size each element's earliest
    access is made by a kept reference, since a left-out one always has an earlier access to the
    same element (_leading), so the lexmin over the kept references is each element's earliest
    access, and its reads are the elements read first (_concrete_first_reads, at every size).  A
    flat index that is not one-to-one (c[i*1000 + j], j < nj) makes the lexmin of every reference
    of `c *= beta; for k: c += ...` costly; that of the one leading read is its set of elements.

    The same accesses recur (x[i] and y[i] of one kernel; every kernel of a shape, whatever its
    names: the maps name no array), so each text is counted once per process; every caller gets
    its own copy of the result, as counting afresh would give (Count.pw adds equal objects once)."""
    check()
    kept = tuple(range(len(texts))) if kept is None else kept
    key = (texts, kept)
    found = _FIRST.get(key)
    if found is None:
        if len(kept) == len(texts):
            lead_reads, lead_writes = _maps(texts)
            writes = lead_writes
        else:  # the writes in their order: the same union as among every reference
            _, writes = _maps(tuple(t for t in texts if t[0] != "read"))
            lead_reads, lead_writes = _maps(tuple(texts[k] for k in kept))
        write_pw = read_pw = None
        if writes is not None:
            check()
            write_pw = writes.domain().card()
        if any(t[0] == "read" for t in texts):
            if lead_reads is None:  # every leading access is a write: no element is read first
                first_read = lead_writes.domain().subtract(lead_writes.domain())
            elif lead_writes is None:
                first_read = lead_reads.domain()
            else:
                both = lead_reads.union(lead_writes)
                check()
                first_read = both.lexmin().intersect(lead_reads).domain()
            check()
            read_pw = first_read.card()
        found = _FIRST[key] = (write_pw, read_pw)
    return tuple(None if pw is None else pw.copy() for pw in found)


def _accesses(affine, coords, namer: P.Namer, t_rank: int):
    """(reads, writes): element -> access time of every affine reference, as two isl maps (None
    when there is none); an array only read or only written needs no times: then its elements (a
    set) stand for the map, whose domain they are.

    A large loop body touches an array through many references, most of them in one domain, so
    each domain is built once and each reference is only its affine map, and a reference that
    repeats an earlier one of the same iteration (the same element at a later time of the same
    loop body) is left out: it is never an element's first access, and one write of an element
    marks it written.  The union is built from the distinct accesses, halves first."""
    kept: dict = {}  # (loop body, index) -> kinds kept
    found = []  # (kind, dims, constraints, index, time)
    for (ref, inst, slot), coord in zip(affine, coords, strict=True):
        idx = ", ".join(render(e, inst, namer) for e in coord)
        kinds = kept.setdefault((tuple(inst.schedule[:-1]), tuple(inst.constraints), idx), [])
        if kinds and (ref.kind == "read" or "write" in kinds):
            continue  # an earlier access of the same iteration comes first; the element is already written
        kinds.append(ref.kind)
        sched = inst.schedule + [str(slot)]
        sched += ["0"] * (t_rank - len(sched))
        found.append((ref.kind, ", ".join(inst.dims), tuple(inst.constraints), idx, ", ".join(sched)))
    hdr = namer.header()  # every parameter is named by now: one header for every map
    timed = len({kind for kind, *_ in found}) > 1
    parts: dict = {"read": [], "write": []}
    for kind, dims, constraints, idx, when in found:
        check()
        dom = _domain(hdr, dims, _body(constraints))
        target = f"[A[{idx}] -> T[{when}]]" if timed else f"A[{idx}]"
        try:
            f = isl.Map.from_multi_aff(isl.MultiAff(f"{hdr} -> {{ S[{dims}] -> {target} }}"))
        except isl.Error:  # an index isl has no affine function for (a modulo): as a relation
            f = isl.Map(f"{hdr} -> {{ S[{dims}] -> {target} }}")
        image = dom.apply(f)
        parts[kind].append(image.unwrap() if timed else image)
    return _union(parts["read"]), _union(parts["write"])


def _union(items: list):
    """The union of isl sets or maps, pairwise (halves first: no long chain of growing unions)."""
    while len(items) > 1:
        items = [a.union(b) for a, b in zip(items[::2], items[1::2], strict=False)] + \
            ([items[-1]] if len(items) % 2 else [])
    return items[0] if items else None
