"""RF2xx: how a kernel's accesses map onto memory transactions.

RF201 sets the struct members a kernel touches against the structs the cache lines bring in;
RF202 finds a reduction accumulated through memory; RF203 finds global accesses whose
consecutive threads are not consecutive in memory.  All three read the loop IR (references and
their affine indices) and the counts of the analysis."""

from __future__ import annotations

import math

from ...ir import DRAM_SPACES, Loop, Stmt
from ..context import FileContext, amount, number, quantity, value_of
from ..registry import Finding, rule

CPU_LINE, GPU_SECTOR = 64, 32  # bytes a CPU cache line / a GPU L2 sector moves


def _first_ref(kernel, arrays: set):
    """The location of the first reference to any of `arrays` in program order."""
    from ...ir import walk

    for node in walk(kernel.body):
        if isinstance(node, Stmt):
            for r in node.refs:
                if r.array in arrays:
                    return r.location or node.location
    return None


def _member_bytes(arr, struct_rank: int):
    """Bytes of one struct that member array `arr` covers (an array member: all its elements)."""
    import sympy

    extra = arr.dims[struct_rank:]
    n = 1
    for d in extra:
        if d is None or not sympy.sympify(d).is_Integer:
            return None
        n *= int(d)
    return arr.elem_bytes * n


@rule("RF201", "array-of-structures", "loops touch only some members of an array of structures",
      what="""
An array of structs (`struct body *b` indexed `b[i].x`) of which the kernel reads or writes only
some members: the struct is larger than the bytes used. The message gives the struct size, the
members used and their bytes, and the kernel's compulsory traffic for those members as a
structure of arrays against what whole structs cost.""",
      why="""
Memory moves whole cache lines (64 B on CPUs) or sectors (32 B on GPUs). Walking `b[i].x` over
28-byte structs brings all 28 bytes of every struct through DRAM to use 4 of them, so the kernel's
real DRAM traffic is the struct size over the bytes used times its compulsory Q, and its intensity
that much lower. staticroof's Q counts the member bytes (what a structure-of-arrays layout would
move), so the gap is invisible in the report but not on the machine.""",
      example="""
```c
typedef struct { float x, y, z, vx, vy, vz, m; } body_t;   /* 28 bytes */

void drift(int n, body_t *b, float dt)
{
    for (int i = 0; i < n; i++) {
        b[i].x += dt;          /* RF201: x and y are 8 of the 28 bytes */
        b[i].y += dt;
    }
}
```""",
      fix="""
```c
typedef struct { float *x, *y, *z, *vx, *vy, *vz, *m; } bodies_t;   /* one array per member */

void drift(int n, float *restrict x, float *restrict y, float dt)
{
    for (int i = 0; i < n; i++) {
        x[i] += dt;
        y[i] += dt;
    }
}
```
A structure of arrays moves only the members a loop uses; so does a struct that holds only what
the hot loop needs (split hot and cold members).""")
def array_of_structures(ctx: FileContext):
    import sympy

    for k in ctx.analyzed():
        kernel = k.ir
        by_parent: dict = {}
        for name, a in k.total.arrays.items():
            arr = kernel.arrays.get(name)
            if a.record is None or arr is None or arr.record_bytes is None or arr.space not in DRAM_SPACES:
                continue
            by_parent.setdefault(a.record["parent"], []).append((arr, a))
        for parent, members in sorted(by_parent.items()):
            members.sort(key=lambda m: (m[0].member_offset if m[0].member_offset is not None else -1, m[0].name))
            rank = min(len(arr.dims) for arr, _ in members)
            sizes = [_member_bytes(arr, rank) for arr, _ in members]
            if None in sizes:
                continue
            record = members[0][0].record_bytes
            used = sum(sizes)
            unit = GPU_SECTOR if k.language == "cuda" else CPU_LINE
            blocks = {b for (arr, _), size in zip(members, sizes, strict=True) if arr.member_offset is not None
                      for b in range(arr.member_offset // unit, (arr.member_offset + size - 1) // unit + 1)}
            moved = min(record, unit * len(blocks)) if blocks else record
            if used >= moved:
                continue
            q_expr = sum((a.read.expr + a.write.expr for _, a in members), sympy.Integer(0))
            values = [v for _, a in members for v in (a.read.value, a.write.value)]
            q_value = sum(values) if None not in values else None
            factor = sympy.Rational(moved, used)
            names = ", ".join(f"`{arr.member}` ({size} B at byte {arr.member_offset})"
                              for (arr, _), size in zip(members, sizes, strict=True))
            aos_value = None if q_value is None else q_value * factor
            ratio = number(factor)
            carriers = "sectors" if unit == GPU_SECTOR else "cache lines"
            message = (f"`{k.name}`: `{parent}` is an array of {record}-byte structs of which the loops use only "
                       f"{names}: {used} of every {moved} bytes the {carriers} bring in, so these members cost "
                       f"about {ratio}x their compulsory traffic: "
                       f"{amount(q_expr, q_value)} as a structure of arrays, "
                       f"{amount(sympy.expand(q_expr * factor), aos_value)} as laid out")
            where = _first_ref(kernel, {arr.name for arr, _ in members}) or k.location
            yield Finding("RF201", message, where, k.name, (k.location,))


def _loops_and_stmts(nodes, loops=()):
    """(statement, enclosing loops outermost first) in program order."""
    from ...ir import Guard

    for n in nodes:
        if isinstance(n, Stmt):
            yield n, loops
        elif isinstance(n, Loop):
            yield from _loops_and_stmts(n.body, loops + (n,))
        elif isinstance(n, Guard):
            yield from _loops_and_stmts(n.then, loops)
            yield from _loops_and_stmts(n.orelse, loops)


def _loop_name(var) -> str:
    return str(var).lstrip("_").split("#")[0]


def _executions(kernel, stmt, depth: int):
    """Counts of `stmt`'s executions and of the executions of its loop at `depth` (0-based among
    the enclosing loops), as analysis Counts, or None when the domain cannot be counted."""
    from ...analysis import polyhedra as P
    from ...analysis.domain import instances

    namer = P.Namer()
    try:
        for inst in instances(kernel, namer):
            if inst.stmt is stmt:
                return P.card(inst.domain(namer), namer), P.card(inst.domain(namer, keep=depth), namer)
    except (P.NotAffine, Exception):
        return None
    return None


@rule("RF202", "memory-accumulator", "reduction accumulated in global memory inside its loop",
      what="""
A statement that accumulates into an array element (`C[i][j] += A[i][k] * B[k][j]`) inside a loop
whose variable its index does not use (the `k` loop), where the compiler may not keep the element
in a register: another array of the loop may alias it (no `restrict`, element types that may
overlap), so every trip loads and stores it. The message gives the access-level traffic of that
element as written (Q access counts it so) and with a local accumulator.""",
      why="""
staticroof's access level (Q access, the L1 intensity) applies the register rule where the compiler
may: a value invariant in the inner loop is loaded and stored once per loop when no other array of
the loop may alias it. With possible aliasing the compiler must instead load and store `C[i][j]`
on each of the N trips, doubling or tripling the loads and stores of a matrix product (the access
level counts them): the L1 and L2 levels of the roofline see far more bytes, and a kernel meant to
be compute-bound from registers becomes bound by its caches.""",
      example="""
```c
void gemm(int n, const float *A, const float *B, float *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[i * n + k] * B[k * n + j];   /* RF202 */
}
```""",
      fix="""
```c
void gemm(int n, const float *A, const float *B, float *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = C[i * n + j];
            for (int k = 0; k < n; k++)
                acc += A[i * n + k] * B[k * n + j];
            C[i * n + j] = acc;
        }
}
```
A local accumulator is a register; declaring the pointers `restrict` (`__restrict__` in CUDA) lets
the compiler do the same.""")
def memory_accumulator(ctx: FileContext):
    import sympy

    from ...analysis.result import quantity as q_of
    from ...registers import aliased_by, body_refs, held_in_register, invariant

    for k in ctx.analyzed():
        kernel = k.ir
        for stmt, loops in _loops_and_stmts(kernel.body):
            if not loops:
                continue
            inner = loops[-1]  # the loop the analysis' register rule looks at
            reads = {(r.array, r.index) for r in stmt.refs if r.kind == "read" and r.index is not None}
            for w in stmt.refs:
                arr = kernel.arrays.get(w.array)
                if (w.kind != "write" or arr is None or arr.space not in DRAM_SPACES
                        or (w.array, w.index) not in reads or not invariant(w, inner)):
                    continue
                if held_in_register(kernel, w, inner):
                    continue  # the analysis counts it once per loop: nothing to say
                varying = [r for r in stmt.refs if r.index is not None and r.array != w.array
                           and any(sympy.sympify(e).has(inner.var) for e in r.index)]
                if not varying:
                    continue  # not a reduction over the loop (a broadcast store)
                counts = _executions(kernel, stmt, len(loops) - 1)
                if counts is None:
                    continue
                trips, runs = counts
                in_memory = q_of(trips, k.sizes, 2 * arr.elem_bytes)
                in_register = q_of(runs, k.sizes, 2 * arr.elem_bytes)
                others = aliased_by(kernel, w, body_refs(inner))
                message = (f"`{k.name}`: `{w.array}` is accumulated in memory inside the `{_loop_name(inner.var)}` "
                           f"loop; as it may alias {', '.join(f'`{o}`' for o in others)}, each trip loads and stores "
                           f"it: the access level counts {quantity(in_memory)} for it, against "
                           f"{quantity(in_register)} with a local accumulator (load before the loop, store after)"
                           + ("" if k.language == "python" else " or `restrict` pointers"))
                yield Finding("RF202", message, w.location or stmt.location or k.location, k.name, (k.location,))


def _linear(index: tuple, dims: tuple):
    """The row-major element offset of `index` in an array of extents `dims` (None if unknown)."""
    import sympy

    if len(index) == 1:
        return sympy.sympify(index[0])
    if len(dims) != len(index) or any(d is None for d in dims[1:]):
        return None
    offset, stride = sympy.Integer(0), sympy.Integer(1)
    for e, d in zip(reversed(index), reversed((None,) + tuple(dims[1:])), strict=True):
        offset += sympy.sympify(e) * stride
        if d is not None:
            stride *= sympy.sympify(d)
    return offset


def _sectors(stride: int, elem: int, lanes: int) -> int:
    """32-byte sectors one warp's access touches, elements `stride` apart (aligned start)."""
    if stride == 0:
        return max(1, math.ceil(elem / GPU_SECTOR))
    span = (lanes - 1) * stride * elem + elem
    if stride * elem >= GPU_SECTOR:
        return lanes * max(1, math.ceil(elem / GPU_SECTOR))
    return math.ceil(span / GPU_SECTOR)


@rule("RF203", "uncoalesced-access", "consecutive threads do not access consecutive elements",
      what="""
A global-memory access in a CUDA kernel whose index moves by more than one element from one
thread (`threadIdx.x`) to the next: a strided access (`x[2 * i]`) or a transposed one
(`out[col * rows + row]` with `col` from `threadIdx.x`). The message gives the stride and the
expected inflation of that access's traffic in 32-byte sectors.""",
      why="""
A warp's 32 accesses are served in 32-byte sectors. When consecutive threads read consecutive
4-byte elements the warp needs 4 sectors (128 B) for 128 B of data; at a stride of s elements it
needs up to 32 sectors, s times the bytes (8x for 4-byte elements at a stride of 8 or more). The
DRAM and L2 traffic grow by that factor, which staticroof's element counts (Q compulsory, Q access)
do not show, and a memory-bound kernel slows down by about as much.""",
      example="""
```cuda
__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[col * rows + row] = in[row * cols + col];   /* RF203 on out */
}
```""",
      fix="""
```cuda
#define TILE 32
__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    int ox = blockIdx.y * TILE + threadIdx.x, oy = blockIdx.x * TILE + threadIdx.y;
    if (ox < rows && oy < cols)
        out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}
```
Stage the transposition through shared memory (or swap the roles of the indices) so that
`threadIdx.x` moves along the contiguous dimension of every global access.""")
def uncoalesced(ctx: FileContext):
    import sympy

    for k in ctx.analyzed():
        kernel = k.ir
        if kernel.language != "cuda":
            continue
        block = (k.launch or {}).get("block") or (None,)
        lanes = min(32, block[0]) if block[0] else 32
        seen = set()
        for stmt, loops in _loops_and_stmts(kernel.body):
            # threadIdx.x, or the global x index where the grid is taken to cover the guards
            tx = next((loop.var for loop in loops if loop.kind in ("block.x", "thread.x")), None)
            if tx is None:
                continue
            for r in stmt.refs:
                arr = kernel.arrays.get(r.array)
                if r.index is None or arr is None or arr.space not in DRAM_SPACES or (r.array, r.index) in seen:
                    continue
                offset = _linear(r.index, arr.dims)
                if offset is None or not offset.has(tx):
                    continue
                stride = sympy.expand(sympy.diff(offset, tx))
                if stride.has(tx) or stride in (1, -1):
                    continue
                seen.add((r.array, r.index))
                s = value_of(stride, k.sizes)
                used = math.ceil(lanes * arr.elem_bytes / GPU_SECTOR)
                far = math.ceil(GPU_SECTOR / arr.elem_bytes)  # a stride from which every lane has its sector
                if s is None:  # a stride in unknown sizes (`rows`): the inflation from where it is `far`
                    free = sorted(stride.free_symbols, key=str)
                    if not stride.is_polynomial() or not free:
                        continue
                    sectors = _sectors(far, arr.elem_bytes, lanes)
                    where = f"`{stride}`"
                    condition = f"for {stride} >= {far}, "
                elif s == int(s):
                    s = abs(int(s))
                    sectors = _sectors(s, arr.elem_bytes, lanes)
                    where = f"{stride} = {s}" if not stride.is_Number else f"{s}"
                    condition = ""
                else:
                    continue
                if sectors <= used:
                    continue
                factor = sympy.Rational(sectors, used)
                a = k.total.arrays.get(r.array)
                traffic = ""
                if a is not None:
                    q = a.access_read if r.kind == "read" else a.access_write
                    moved = None if q.value is None else q.value * factor
                    traffic = (f"; the {r.kind}s of `{r.array}` ({quantity(q)} at the access level) move about "
                               f"{amount(sympy.expand(q.expr * factor), moved)} in sectors")
                message = (f"`{k.name}`: consecutive threads (threadIdx.x) access `{r.array}` {where} elements "
                           f"apart ({arr.elem_bytes}-byte elements): {condition}a warp of {lanes} touches {sectors} "
                           f"sectors of "
                           f"{GPU_SECTOR} B for {lanes * arr.elem_bytes} B of data, {number(factor)}x the traffic of a "
                           f"coalesced access{traffic}")
                yield Finding("RF203", message, r.location or stmt.location or k.location, k.name, (k.location,))
