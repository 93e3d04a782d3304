"""Tensor cores through `nvcuda::wmma` (the names are in `grammars/cuda.toml`, kind "wmma").

A wmma call is warp-level: the 32 threads of a warp execute it together, once.  The lowering runs
the kernel body per thread, so each call becomes its work *for the whole warp*, guarded by "this
thread is lane 0 of its warp" (`threadIdx.x % 32 == 0`, with the block's x extent a multiple of
32, as wmma requires of the warps it is called from):

- `fragment<matrix_a, M, N, K, half, row_major> a;` is a register value (a typedef the token
  rewrite makes: `__sr_frag__matrix_a__16__16__16__half__row_major`);
- `load_matrix_sync(a, p, ld)` reads the tile the fragment covers, M x K elements (matrix_b:
  K x N, accumulator: M x N) at `p + r*ld + c` (row-major; `p + c*ld + r` column-major, the
  layout of the fragment's type or, for an accumulator, the call's `mem_row_major` /
  `mem_col_major`): a loop nest of reads, so the compulsory bytes are exact;
  `store_matrix_sync(p, c, ld, layout)` writes the tile;
- `mma_sync(d, a, b, c)` is 2*M*N*K FLOPs per call, counted in the precision of the a/b
  fragments (fp16 for `half`, bf16, fp32 for `precision::tf32`, fp64 for `double`): the input
  precision is what sets the tensor unit's rate (`--unit tensor` places it on that roof); the
  accumulator's precision is not a separate count.  Integer fragments are SR105 (not counted);
- `fill_fragment(c, 0.0f)` is register work, 0 FLOPs; `frag.num_elements` is the fragment's
  elements per thread and `frag.x[i]` a register array, so a per-element epilogue counts per thread.

`__hmma_*` builtins are inline PTX in disguise: SR140, the call not counted.
"""

from __future__ import annotations

import sympy
from pycparser import c_ast

from ...ir import Guard, Loop, Stmt
from ..c.types import FLOAT, INT, VOID, CType
from ..c.values import Val, node_location
from ..common.lowering import Acc, Unsupported
from ..common.tokens import Token, match_angle, split_commas

_ELEM = {"half": "fp16", "__half": "fp16", "float": "fp32", "double": "fp64", "__nv_bfloat16": "bf16",
         "nv_bfloat16": "bf16", "tf32": "fp32", "signed char": "int8", "unsigned char": "uint8", "int": "int32",
         "char": "int8"}
_ROLES = ("matrix_a", "matrix_b", "accumulator")
_FRAGS: set = set()  # the fragment type names of the file being rewritten (for the prelude)


def rewrite(tokens: list, i: int):
    """`fragment<matrix_a, 16, 16, 16, half, row_major>` as one type name, or None."""
    t = tokens[i]
    if t.text != "fragment" or i + 1 >= len(tokens) or tokens[i + 1].text != "<":
        return None
    close = match_angle(tokens, i + 1)
    if close < 0:
        return None
    parts = []
    for arg in split_commas(tokens[i + 2:close], angles=True):
        words = [a.text for a in arg if a.kind in ("id", "num") and a.text not in ("wmma", "nvcuda", "precision",
                                                                                     "experimental")]
        parts.append("_".join(words[-2:]) if words[-2:] in (["signed", "char"], ["unsigned", "char"]) else
                     (words[-1] if words else "x"))
    name = "__sr_frag__" + "__".join(parts)
    _FRAGS.add(name)
    return [Token("id", name, t.file, t.line, t.col)], close + 1


def reset() -> None:
    _FRAGS.clear()


def prelude() -> str:
    return "".join(f"typedef int {n};\n" for n in sorted(_FRAGS))


def types() -> dict:
    """Fragment type names -> CType("fragment", element precision, dims=(role, M, N, K, layout))."""
    out = {}
    for name in _FRAGS:
        parts = name[len("__sr_frag__"):].split("__")
        role = parts[0] if parts else "accumulator"
        dims = tuple(int(p) if p.isdigit() else 16 for p in (parts[1:4] + ["16"] * 3)[:3])
        elem = parts[4].replace("_", " ") if len(parts) > 4 else "float"
        layout = parts[5] if len(parts) > 5 else ""
        out[name] = CType("fragment", _ELEM.get(elem, elem), dims=(role, *dims, layout))
    return out


def _shape(t: CType):
    role, m, n, k, layout = t.dims
    rows, cols = {"matrix_a": (m, k), "matrix_b": (k, n)}.get(role, (m, n))
    return role, m, n, k, layout, rows, cols


def member(low, base, node, acc):
    """`frag.num_elements` (per thread) and `frag.x` (a register array)."""
    *_, rows, cols = _shape(base.ctype)
    per_thread = rows * cols // 32
    field = node.field.name
    if field == "num_elements":
        return Val(INT, sympy.Integer(per_thread))
    if field == "x":
        var = low.lookup(node.name.name) if isinstance(node.name, c_ast.ID) else None
        name = getattr(var, "frag_array", None)
        if name is None:
            elem = FLOAT.get(base.ctype.prec, CType("int", base.ctype.prec))
            t = CType("array", base=elem, dims=(c_ast.Constant("int", str(per_thread)),))
            name = low.new_array(f"{getattr(node.name, 'name', 'fragment')}.x", t, "local", node)
            if var is not None:
                var.frag_array = name
        t = CType("array", base=FLOAT.get(base.ctype.prec, INT), dims=(c_ast.Constant("int", str(per_thread)),))
        return Val(t, array=name, prefix=(), offset=0)
    raise Unsupported(f"member `{field}` of a wmma fragment", node)


def _lane0(low, node):
    """'This thread is lane 0 of its warp', or None (with SR113) when the kernel has no x threads."""
    info = low.threads.get("x")
    if info is None:
        low.diag("SR113", "a warp-level wmma call in a kernel that does not index threadIdx.x: which thread "
                 "stands for its warp is not known; counted once per thread", node)
        return None
    lane = info["g"] if "g" in info else info["tx"]
    return sympy.Eq(sympy.Mod(lane, 32), 0)


def lower(low, name, entry, node, args, acc):
    op = entry.get("op")
    if op == "ptx":
        low.diag("SR140", f"`{name}` is a tensor-core PTX builtin: its work and traffic are not counted", node)
        return Val(VOID)
    if op == "fill":
        for a in args[1:]:
            low.value(a, acc)
        return Val(VOID)
    loc = node_location(node, low.tu.path)
    tmp = Acc()
    frag_arg = args[1] if op == "store" else args[0]
    frag = low.expr(frag_arg, tmp).ctype
    if frag.kind != "fragment":
        raise Unsupported(f"`{name}` on something that is not a wmma fragment", node)
    role, m, n, k, layout, rows, cols = _shape(frag)
    if op == "mma":
        a = low.expr(args[1], tmp).ctype
        prec = a.prec if a.kind == "fragment" else frag.prec
        if prec not in FLOAT:
            low.diag("SR105", f"`{name}` on {prec} fragments: integer tensor-core work is not counted", node)
            return Val(VOID)
        body: list = [Stmt({prec: 2 * m * n * k}, {}, [], loc, low.group)]
    else:
        ptr = low.value(args[0] if op == "store" else args[1], tmp)
        ld = low.value(args[2], tmp)
        if role == "accumulator":
            mode = args[3].name if len(args) > 3 and isinstance(args[3], c_ast.ID) else "mem_row_major"
            layout = "col_major" if "col" in mode else "row_major"
        r, c = sympy.Dummy("wmma_r"), sympy.Dummy("wmma_c")
        low.loop_syms |= {r, c}
        if ld.expr is None or not ld.ctype.is_int:
            idx = Val(INT, why=ld.why or "the leading dimension is not an integer expression")
        else:
            idx = Val(INT, sympy.expand(c * ld.expr + r) if layout == "col_major" else sympy.expand(r * ld.expr + c))
        el = low._subscript(ptr, [idx], node)
        refs = Acc()
        if op == "load":
            low.load(el, refs, node)
        else:
            low._store(node, el, Val(el.ctype), refs, node)
        stmt = Stmt({}, {}, refs.refs, loc, low.group)
        body = [Loop(r, sympy.Integer(0), sympy.Lt(r, rows), 1,
                     [Loop(c, sympy.Integer(0), sympy.Lt(c, cols), 1, [stmt], "seq", loc)], "seq", loc)]
    saved = low.acc
    low.acc = acc
    low.emit(node)  # what the statement did before the call comes first
    cond = _lane0(low, node)
    low.out.append(Guard(cond, body, [], loc) if cond is not None else body[0])
    acc.reset()
    low.acc = acc if saved is acc else saved
    return Val(VOID)


HANDLERS = {"wmma": lower}
